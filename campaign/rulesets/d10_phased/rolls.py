"""The d10 test and the limits on modifiers and multipliers (DP-1, DP-15.1, DP-15.2).

Every pass/fail roll of this ruleset (attack, save, super initiative) goes through
`success`; every attack's dice go through `net_modifier` and `effective_dice`. Odds read
the same functions, so what the odds say and what the dice do cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from math import prod

from campaign.engine.odds import p_faces

DIE = 10  # DP-1.1: a roll with no die named is a d10
TARGET = 5  # DP-1.2: a modified 5 or more succeeds
MODIFIER_CAP = 2  # DP-15.1: positive modifiers sum to at most +2 (AMB-15)
MULTIPLIER_FLOOR = Fraction(1, 4)  # DP-15.2
MULTIPLIER_CEILING = Fraction(2)


def success(natural: int, modifier: int = 0) -> bool:
    """DP-1.2: natural 1 fails, natural 10 succeeds, otherwise the modified score needs 5."""
    if natural == 1:
        return False
    if natural == DIE:
        return True
    return natural + modifier >= TARGET


def p_success(modifier: int = 0) -> Fraction:
    """The chance one d10 passes `success` with this modifier (exact)."""
    return p_faces(DIE, lambda face: success(face, modifier))


def net_modifier(modifiers: Iterable[int]) -> int:
    """DP-15.1: the positive modifiers count up to +2 in all; the negative ones without limit."""
    mods = list(modifiers)
    return min(MODIFIER_CAP, sum(m for m in mods if m > 0)) + sum(m for m in mods if m < 0)


def effective_dice(base: int, multipliers: Iterable[Fraction | int | str]) -> Fraction:
    """DP-15.2 with AMB-16: the base dice times every multiplier, kept within [1/4, 2] x base.

    The result may be fractional; fractions are pooled per declaration and floored later
    (`pool`), never here."""
    factor = prod((Fraction(m) for m in multipliers), start=Fraction(1))
    if base <= 0:
        return Fraction(0)
    return min(max(base * factor, base * MULTIPLIER_FLOOR), base * MULTIPLIER_CEILING)


def floor_fraction(value: Fraction) -> int:
    """DP-1.3: multiplied quantities round down."""
    return value.numerator // value.denominator
