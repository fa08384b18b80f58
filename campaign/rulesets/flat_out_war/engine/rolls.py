"""The success rule (spec section 2) and the die ladder.

Every test is one die plus modifiers; a total of 4 or more succeeds. No natural face
is special except the natural 1s that A-01 names (spell misfire, Flying crash).
"""

from __future__ import annotations

from fractions import Fraction

import attrs

from campaign.engine.odds import p_at_least
from campaign.engine.quick import quick_init
from campaign.rulesets.flat_out_war import dice as ladder

TARGET = 4
LADDER: tuple[int, ...] = tuple(d.sides for d in ladder.LADDER)


@quick_init
@attrs.frozen
class Mod:
    """One modifier on a roll, labelled so events and odds can explain the sum."""

    label: str
    value: int


def total_of(mods: tuple[Mod, ...] | list[Mod]) -> int:
    if not mods:  # (most rolls: no generator made for nothing)
        return 0
    return sum(m.value for m in mods)


def die_sides(text: str | int) -> int:
    """'d8' / 'D8' / 8 -> 8; anything off the ladder is refused."""
    return ladder.die(text).sides


def step(sides: int, steps: int) -> int | None:
    """The die `steps` rungs up (negative: down); None off either end of the ladder."""
    name = ladder.step(sides, steps)
    return ladder.die(name).sides if name else None


def step_capped(sides: int, steps: int) -> int:
    """As `step` but staying on the ladder (a d20 stays a d20: A-28)."""
    index = min(max(LADDER.index(sides) + steps, 0), len(LADDER) - 1)
    return LADDER[index]


def succeeds(face: int, modifier: int) -> bool:
    return face + modifier >= TARGET


def p_success(sides: int, modifier: int) -> Fraction:
    """Exact chance that one die of `sides` plus `modifier` reaches 4 (the core's p_at_least)."""
    return p_at_least(sides, TARGET, modifier)


def is_natural_one(face: int) -> bool:
    return face == 1
