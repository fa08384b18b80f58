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
    "friends_between": ("friendly models the line passes over (plunging fire is worked out from bases)", []),
    "over_obstruction": ("fires between levels over a unit or terrain between them", False),
    "attacker_edge_inches": ("attacker to the obstruction's edge (farthest if higher, nearest if lower)", 0.0),
    "target_edge_inches": ("target to that same edge", 0.0),
    "both_above_obstruction": ("attacker and target both stand above the obstruction", False),
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
    if f["over_obstruction"] and not close:
        attacker_edge = inches(f["attacker_edge_inches"], "attacker_edge_inches")
        target_edge = inches(f["target_edge_inches"], "target_edge_inches")
        if not over_obstruction(attacker_edge, target_edge, bool(f["both_above_obstruction"])):
            raise IllegalShot("DP-14.5", f"the target stands {target_edge}\" from the edge, under half the attacker's {attacker_edge}\"")
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


def inches(value: Any, name: str) -> Fraction:
    """A reported distance (a number, or text typed in a form) as inches, 0 or more."""
    try:
        got = Fraction(str(value)) if not isinstance(value, bool) else None
    except (ValueError, ZeroDivisionError):
        got = None
    if got is None or got < 0:
        raise IllegalShot("DP-14.5", f"{name} must be a distance in inches, 0 or more, not {value!r}")
    return got


def over_obstruction(attacker_edge: Fraction, target_edge: Fraction, both_above: bool) -> bool:
    """DP-14.5: fire between levels passes over what stands between when both models are
    above it, or when the target is at least half as far from the edge as the attacker."""
    return both_above or target_edge >= attacker_edge / 2


def plunging_fire(attacker_base: Fraction, friend_base: Fraction) -> bool:
    """DP-14.3: a base of 1.5 inches or more fires over friends on bases at least half an
    inch smaller."""
    return attacker_base >= Fraction(3, 2) and friend_base <= attacker_base - Fraction(1, 2)


# DP-14.6 heights; a jump path stands one level above the highest obstacle it clears (DP-13.4)
HEIGHTS: dict[str, int] = {"none": 0, "stream": 0, "rocks": 1, "wall": 1, "bushes": 1, "hill": 1, "trees": 3}


def jump_path_level(highest_obstacle: str) -> int:
    return HEIGHTS[highest_obstacle] + 1
