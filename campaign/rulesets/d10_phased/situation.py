"""What the table reports about one attacker's shot, turned into dice multipliers and
modifiers (DP-14, DP-15), or a refusal naming the rule.

The geometry is the players' call ([T]); the consequences are the engine's.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import attrs

HALF = Fraction(1, 2)
DOUBLE = Fraction(2)

# fact name -> (help, default)
FIRE_FACTS: dict[str, tuple[str, Any]] = {
    "through_trees": ("fires through trees or bushes (half dice unless touching them)", False),
    "touches_cover": ("the attacker touches the trees, bushes or wall it fires through", False),
    "through_wall": ("fires through a wall the target touches, all on the wall's level", False),
    "target_in_stream": ("the target stands in a stream", False),
    "attacker_in_stream": ("the attacker stands in a stream", False),
    "contour_edge": ("fired across the up-slope contour edge at a target touching it (-1)", False),
    "through_rock": ("a rock on the same level stands between them", False),
    "gap_under_1in": ("the line passes a gap narrower than 1 inch", False),
    "through_friend": ("the line passes a friendly model the attacker does not touch", False),
    "bonus": ("the sum of the positive modifiers from specials (capped with the rest at +2)", 0),
    "penalty": ("the sum of the other negative modifiers, as a positive number", 0),
}


class IllegalShot(ValueError):
    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule


@attrs.frozen
class Shot:
    multipliers: tuple[Fraction, ...] = ()
    modifiers: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()


def read_fire(facts: Mapping[str, Any], *, close: bool = False, fire_through_friends: bool = False) -> Shot:
    """The multipliers and modifiers of one attacker's dice from the reported facts."""
    unknown = set(facts) - set(FIRE_FACTS)
    if unknown:
        raise IllegalShot("DP-14", f"unknown fact(s): {', '.join(sorted(unknown))}")
    f = {name: facts.get(name, default) for name, (_, default) in FIRE_FACTS.items()}
    if f["through_rock"]:
        raise IllegalShot("DP-14.6", "no attack through a rock on the same level")
    if f["gap_under_1in"] and not close:
        raise IllegalShot("DP-14.1", "no fire through a gap narrower than 1 inch")
    if f["through_friend"] and not (close or fire_through_friends):
        raise IllegalShot("DP-14.2", "no fire through a friendly model it does not touch")
    if close and f["through_trees"]:
        raise IllegalShot("DP-14.6", "close attacks do not pass through trees")
    mults: list[Fraction] = []
    for name in ("bonus", "penalty"):
        if isinstance(f[name], bool) or not isinstance(f[name], int) or f[name] < 0:
            raise IllegalShot("DP-15.1", f"{name} must be a whole number, 0 or more, not {f[name]!r}")
    mods: list[int] = [m for m in (f["bonus"], -f["penalty"]) if m]
    notes: list[str] = []
    if not close:
        if (f["through_trees"] or f["through_wall"]) and not f["touches_cover"]:
            mults.append(HALF)
            notes.append("half dice through cover")
        if f["target_in_stream"] and not f["attacker_in_stream"]:
            mults.append(DOUBLE)
            notes.append("double dice at a target in a stream")
        if f["attacker_in_stream"]:
            mults.append(HALF)
            notes.append("half dice out of a stream")
    if f["contour_edge"]:
        mods.append(-1)
        notes.append("-1 across a contour edge")
    return Shot(tuple(mults), tuple(mods), tuple(notes))
