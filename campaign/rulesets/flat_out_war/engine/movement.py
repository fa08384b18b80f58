"""Movement allowance and terrain cost (spec section 6)."""

from __future__ import annotations

from fractions import Fraction
from math import floor
from typing import Literal, Sequence

import attrs

from campaign.rulesets.flat_out_war.editions import SO, V17
from campaign.rulesets.flat_out_war.engine.combatant import Combatant, Edition

Terrain = Literal["open", "light", "heavy", "impassable"]
TERRAIN_COST: dict[str, Fraction | None] = {
    "open": Fraction(1),
    "light": Fraction(3, 2),
    "heavy": Fraction(3),
    "impassable": None,
}


class IllegalMove(ValueError):
    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(message)


@attrs.frozen
class Segment:
    terrain: Terrain
    inches: Fraction
    water: bool = False
    ground_level: bool = False


WHOLE = Fraction(1)  # the whole MOVE: `allowance`'s `sailed` when the unit does not sail


def allowance(
    move: int,
    *,
    fast: bool = False,
    slow: bool = False,
    running: bool = False,
    flying_so: bool = False,
    submerged: bool = False,
    sailed: Fraction = WHOLE,
    formation_change: bool = False,
    stand_up: bool = False,
) -> Fraction | int:
    """A-10: flat spell changes, then multipliers, then costs; floored at 0. Whole inches
    come back as an int (equal to its Fraction, and cheaper to make and compare)."""
    if type(move) is int and not (submerged or formation_change) and (sailed is WHOLE or sailed == 1):
        # whole inches all the way (the common move): the same value without Fraction arithmetic
        whole = (move + (2 if fast else 0) - (2 if slow else 0)) * (2 if running else 1) * (3 if flying_so else 1)
        return max(whole - (2 if stand_up else 0), 0)
    value = Fraction(move + (2 if fast else 0) - (2 if slow else 0))
    if running:
        value *= 2
    if flying_so:
        value *= 3
    if submerged:
        value /= 2
    value *= sailed
    if formation_change:
        value /= 2
    if stand_up:
        value -= 2
    return max(value, Fraction(0))


# Sailed: the share of MOVE by heading relative to the wind; straight into it is not allowed
SAIL_FRACTION: dict[str, Fraction] = {
    "downwind": Fraction(1),
    "crosswind": Fraction(1, 2),
    "upwind": Fraction(1, 4),
}
# the d8 compass the engine rolls the wind's source on
COMPASS: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def inches_in_terrain(remaining: Fraction, terrain: Terrain) -> int:
    """Movement inside terrain is bought in whole actual inches (the worked examples:
    MOVE 4 in light terrain gives 2", MOVE 10 in heavy gives 3")."""
    cost = TERRAIN_COST[terrain]
    if cost is None:
        return 0
    return floor(Fraction(remaining) / cost)


def effective_terrain(seg: Segment, mover: Combatant, edition: Edition, *, airborne: bool = False,
                      jumping: bool = False) -> Terrain:
    """The class a mover pays for, after its exemptions."""
    t = seg.terrain
    if t == "open" or jumping:
        return "open"
    if airborne:  # [SO] ignores all terrain; [1.7] flies over terrain and units
        return "open"
    if mover.has("amphibious") and seg.water:
        return "open"
    if edition == SO and mover.has("skimmer") and seg.ground_level:
        return "open"
    if edition == V17 and mover.has("tracked") and t == "light":
        return "open"
    if edition == V17 and mover.has("walker"):
        return {"light": "open", "heavy": "light"}.get(t, t)  # type: ignore[return-value]
    return t


_NONE = Fraction(0)


def check_path(
    segments: Sequence[Segment],
    budget: Fraction | int,
    mover: Combatant,
    edition: Edition,
    *,
    running: bool = False,
    airborne: bool = False,
    jumping: bool = False,
) -> Fraction | int:
    """Allowance used by a declared path (an int when whole inches of open ground);
    IllegalMove names the rule broken."""
    used = _NONE
    whole = 0  # whole inches of open ground, added up as ints (most paths: no Fraction sums)
    for seg in segments:
        raw = seg.terrain
        if raw not in TERRAIN_COST:
            raise IllegalMove("FOW 6.2", f"unknown terrain class {raw!r} (open, light, heavy, impassable)")
        inches = seg.inches if type(seg.inches) is Fraction else Fraction(seg.inches)
        if inches.numerator < 0:  # (a Fraction carries its sign on the numerator)
            raise IllegalMove("FOW 6.2", "a path segment cannot be negative")
        t = effective_terrain(seg, mover, edition, airborne=airborne, jumping=jumping)
        if t == "impassable":
            raise IllegalMove("FOW 6.2", "impassable terrain cannot be entered")
        if running and raw == "heavy" and t != "open":
            raise IllegalMove("FOW 6.4", "no running through heavy terrain")
        if t != "open" and inches.denominator != 1:
            raise IllegalMove("FOW 6.2", f"movement inside {t} terrain is bought in whole inches")
        if t == "open" and inches.denominator == 1:
            whole += inches.numerator
        else:
            used += inches * TERRAIN_COST[t]  # type: ignore[operator]
    total: Fraction | int = used + whole if used else whole
    if total > budget:
        raise IllegalMove(
            "FOW 6.2", f"the path uses {_inch(total)} of movement but only {_inch(budget)} is allowed"
        )
    return total


def _inch(value: Fraction | int) -> str:
    return f'{float(value):g}"'


def can_run(elements: Sequence[Combatant], edition: Edition) -> str | None:
    """None if the unit may run, else the reason naming the rule."""
    if any(e.has("unfeeling") for e in elements):
        return "Unfeeling elements cannot run (FOW 20 Unfeeling)"
    if edition == V17 and any(e.kind == "vehicle" for e in elements):
        return "only trooper units may run in v1.7 (A-15)"
    return None


def can_go_prone(element: Combatant, edition: Edition) -> str | None:
    if element.kind == "vehicle":
        return "vehicles never go prone (FOW 6.5)"
    if element.mounted:
        return "mounted troops never go prone (FOW 6.5)"
    if edition == SO and element.large:
        return "large elements never go prone in Special Operations (FOW 6.5)"
    if element.has("unfeeling"):
        return "Unfeeling elements cannot go prone (FOW 20 Unfeeling)"
    return None


LINE_MOVES = ("straight", "oblique", "wheel")


def declares_turns(pivot_start: int, pivot_end: int, turns_during: int, line_move: str) -> bool:
    """Whether a move declares any turn `turning_problem` could refuse: without one it
    finds nothing wrong, whatever the elements (a caller need not build their views)."""
    return bool(pivot_start or pivot_end or turns_during) or line_move not in LINE_MOVES


def turning_problem(
    elements: Sequence[Combatant],
    *,
    tight_line: bool,
    pivot_start: int = 0,
    pivot_end: int = 0,
    turns_during: int = 0,
    line_move: str = "straight",
    about_face: bool = False,
) -> str | None:
    """The engine checks the turns the players declare (spec 6.3); None if they are legal."""
    if all(e.has("agile") for e in elements):
        return None  # Agile: any direction, any number of turns
    if tight_line:
        if line_move not in LINE_MOVES:
            return f"a line moves straight, obliquely or by a wheel, not {line_move!r}"
        if pivot_start or pivot_end or turns_during:
            return "a tight line turns only by an oblique move, a wheel or an about face"
        return None  # an about face combines with one oblique move or one wheel
    limit = 90
    if any(e.has("cumbersome") for e in elements):
        limit = 45
    if all(e.has("tracked") for e in elements):
        limit = 360
    for name, angle in (("start", pivot_start), ("end", pivot_end)):
        if abs(angle) > limit:
            return f"a pivot at the {name} of the move may be at most {limit} degrees"
    allowed = 2 if all(e.has("turn") for e in elements) else 0
    if turns_during > allowed:
        return (f"at most {allowed} extra 45-degree turns during the move" if allowed
                else "no turns during the move without Turn or Agile")
    return None
