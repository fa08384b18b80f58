"""Re-rolls (spec 2.6, PR-5, PR-6): which die, which result is kept, and in what order.

One re-roll re-rolls one die. Favourable re-rolls (hero, Marksman, Master Warrior,
paired weapons, sniper, Grizzled) pick the die worth least and keep the better result;
the shield re-roll (melee) works the same way but comes after every favourable one and
forfeits the roller's effects; the forced re-roll of a Stealth target picks the
attacker's die worth most and keeps the worse, last of all. The same `pick` and `keep`
serve the dice (resolution) and the class counts (odds), so they cannot disagree.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

import attrs

from campaign.rulesets.figwars3.pool import CLASS_P, Counts, CountsDist, value

Kind = Literal["favourable", "shield", "stealth"]
ORDER: dict[str, int] = {"favourable": 0, "shield": 1, "stealth": 2}


@attrs.frozen
class ReRoll:
    source: str  # "hero", "Marksman", "paired weapons", "Stealth"...
    kind: Kind = "favourable"

    @property
    def better(self) -> bool:
        return self.kind != "stealth"


def ordered(rerolls: tuple[ReRoll, ...] | list[ReRoll]) -> tuple[ReRoll, ...]:
    """Favourable first, then shield, then the stealth-forced re-roll (stable within a kind)."""
    return tuple(sorted(rerolls, key=lambda r: ORDER[r.kind]))


def pick_class(counts: Counts, reroll: ReRoll) -> int | None:
    """The value class of the die this re-roll takes, or None when it cannot matter."""
    if reroll.better:
        # the die worth least that could improve; a pool of all 6s gains nothing
        for cls in (0, 1):
            if counts.get(cls):
                return cls
        return None
    for cls in (2, 1):  # the die worth most that could get worse
        if counts.get(cls):
            return cls
    return None


def keep(old: int, new: int, reroll: ReRoll) -> int:
    return max(old, new) if reroll.better else min(old, new)


def pick_index(faces: list[int], reroll: ReRoll) -> int | None:
    """The index of the die to re-roll among actual faces (first such die)."""
    cls = pick_class(_counts(faces), reroll)
    if cls is None:
        return None
    return next(i for i, f in enumerate(faces) if value(f) == cls)


def apply_face(faces: list[int], index: int, new_face: int, reroll: ReRoll) -> list[int]:
    """The pool after re-rolling `faces[index]` to `new_face` and keeping per the re-roll."""
    out = list(faces)
    old = out[index]
    keep_new = value(new_face) > value(old) if reroll.better else value(new_face) < value(old)
    if keep_new:
        out[index] = new_face
    return out


def apply_dist(dist: CountsDist, reroll: ReRoll) -> CountsDist:
    """The class-count distribution after one re-roll."""
    out: CountsDist = {}
    for counts, p in dist.items():
        cls = pick_class(counts, reroll)
        if cls is None:
            out[counts] = out.get(counts, Fraction(0)) + p
            continue
        for new_cls, pn in enumerate(CLASS_P):
            after = counts.move(cls, keep(cls, new_cls, reroll))
            out[after] = out.get(after, Fraction(0)) + p * pn
    return out


def _counts(faces: list[int]) -> Counts:
    n = [0, 0, 0]
    for f in faces:
        n[value(f)] += 1
    return Counts(*n)
