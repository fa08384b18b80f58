"""Reading d6 pools (spec 2.1-2.2) and their exact distributions.

A pool's faces matter only through their value class (1-2: 0 successes, 3-5: 1, 6: 2),
so a rolled pool is summarised by how many dice sit in each class: `Counts(n0, n1, n2)`.
Re-rolls act on one die of a class, which keeps odds exact without enumerating faces.
"""

from __future__ import annotations

from fractions import Fraction
from math import factorial

import attrs

FACE_VALUE: dict[int, int] = {1: 0, 2: 0, 3: 1, 4: 1, 5: 1, 6: 2}
CLASS_P: tuple[Fraction, Fraction, Fraction] = (Fraction(2, 6), Fraction(3, 6), Fraction(1, 6))


def value(face: int) -> int:
    """Successes of one d6 face."""
    return FACE_VALUE[face]


def successes(faces: tuple[int, ...] | list[int]) -> int:
    return sum(FACE_VALUE[f] for f in faces)


def dice_count(pool: int) -> int:
    """PR-1: a pool of zero or less rolls no dice."""
    return max(pool, 0)


@attrs.frozen(order=True)
class Counts:
    n0: int = 0
    n1: int = 0
    n2: int = 0

    @property
    def total(self) -> int:
        return self.n1 + 2 * self.n2

    def get(self, cls: int) -> int:
        return (self.n0, self.n1, self.n2)[cls]

    def move(self, old: int, new: int) -> Counts:
        """One die changes from class `old` to class `new`."""
        if old == new:
            return self
        n = [self.n0, self.n1, self.n2]
        n[old] -= 1
        n[new] += 1
        return Counts(*n)


CountsDist = dict[Counts, Fraction]


def counts_of(faces: tuple[int, ...] | list[int]) -> Counts:
    n = [0, 0, 0]
    for f in faces:
        n[FACE_VALUE[f]] += 1
    return Counts(*n)


def pool_counts(dice: int) -> CountsDist:
    """The multinomial distribution of a fresh pool of `dice` d6."""
    out: CountsDist = {}
    dice = dice_count(dice)
    for n2 in range(dice + 1):
        for n1 in range(dice - n2 + 1):
            n0 = dice - n1 - n2
            ways = factorial(dice) // (factorial(n0) * factorial(n1) * factorial(n2))
            out[Counts(n0, n1, n2)] = ways * CLASS_P[0] ** n0 * CLASS_P[1] ** n1 * CLASS_P[2] ** n2
    return out


def totals(dist: CountsDist) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for counts, p in dist.items():
        out[counts.total] = out.get(counts.total, Fraction(0)) + p
    return out


def p_total_at_least(dist: CountsDist, target: int) -> Fraction:
    """P(the pool scores at least `target` successes), whatever re-rolls shaped `dist`:
    skill checks, morale checks and rallies all pass this way."""
    return sum((p for c, p in dist.items() if c.total >= target), Fraction(0))


def p_at_least(dice: int, target: int) -> Fraction:
    """P(a fresh pool of `dice` scores at least `target` successes)."""
    return p_total_at_least(pool_counts(dice), target)
