"""Vehicle and mount movement (spec 8.9, 8.10, PR-15, PR-33): direction classes, turning
costs and limits, and the optional mire tests in difficult terrain.

A move is a list of segments the players describe: a direction class and inches, or a
turn of so many 45-degree steps. `move_cost` checks the segments against the mover's
rules and returns the MOV they use.
"""

from __future__ import annotations

from collections.abc import Generator
from fractions import Fraction
from typing import Any, Literal

import attrs

from campaign.engine.dice import roll as request_roll
from campaign.engine.errors import IllegalCommand

Mover = Literal["vehicle", "mount", "hover_vehicle", "hover_mount", "mecha"]
Direction = Literal["forward", "backward", "diagonal", "sideways"]
# Inches of MOV per 45-degree step: a vehicle 1" per 45, a mount 1" per 90 (1/2" per 45).
TURN_COST_PER_45: dict[str, Fraction] = {"vehicle": Fraction(1), "hover_vehicle": Fraction(1), "mount": Fraction(1, 2), "hover_mount": Fraction(1, 2), "mecha": Fraction(0)}
# Inches actually moved per facing change while moving.
INCHES_PER_TURN: dict[str, int] = {"vehicle": 3, "hover_vehicle": 3, "mount": 2, "hover_mount": 2}
HALF_SPEED: tuple[str, ...] = ("backward", "diagonal", "sideways")


@attrs.frozen
class Segment:
    kind: Literal["move", "turn"]
    direction: Direction = "forward"
    inches: Fraction = Fraction(0)
    steps: int = 0  # 45-degree steps of a turn


def mover_of(locomotion: str, vehicle: bool, mecha: bool = False) -> Mover:
    if mecha:
        return "mecha"
    hover = locomotion in ("hover", "flight slow", "flight fast", "flying mount")
    if vehicle:
        return "hover_vehicle" if hover else "vehicle"
    return "hover_mount" if hover else "mount"


def move_cost(mover: Mover, segments: tuple[Segment, ...], moving_already: bool = False,
              moved_before: Fraction | int = 0, turns_before: int = 0) -> Fraction:
    """MOV used by the segments (8.9): straight ahead at full rate, the other directions
    at half (each inch costs two); diagonal and sideways only for hovering movers (and
    mecha, which move as troops: PR-15); turns cost per 45 degrees; once the model has
    moved, one facing change per 3\" (vehicle) or 2\" (mount) actually moved (the turn's
    earlier moves count: `moved_before` inches and `turns_before` changes)."""
    used = Fraction(0)
    moved = Fraction(moved_before)
    turns_while_moving = turns_before
    moving = moving_already
    for seg in segments:
        if seg.kind == "turn":
            if mover == "mecha":
                continue  # PR-15: free, the facing is only recorded
            used += TURN_COST_PER_45[mover] * seg.steps
            if moving:
                turns_while_moving += 1
                if turns_while_moving * INCHES_PER_TURN[mover] > moved:
                    raise IllegalCommand("FW3 8.9", f"a moving {mover.replace('_', ' ')} changes facing once per {INCHES_PER_TURN[mover]}\" moved")
            continue
        if mover == "mecha":
            used += seg.inches
            moved += seg.inches
            moving = True
            continue
        if seg.direction in ("diagonal", "sideways") and not mover.startswith("hover"):
            raise IllegalCommand("FW3 8.9", f"only hovering movers go {seg.direction}; this one moves forward or back")
        used += seg.inches * (2 if seg.direction in HALF_SPEED else 1)
        moved += seg.inches
        moving = True
    return used


# --- mire tests (8.10, PR-33), an optional rule --------------------------------------------

MIRE_PASS_MIN = 3  # 1d8: 3-8 passes
MIRE_STUCK_FOR_GOOD = 6  # after the sixth failure in all


@attrs.frozen
class Mire:
    failures: int = 0
    mired: bool = False
    stuck_for_good: bool = False
    halved_this_turn: bool = False  # freed this turn: MOV halved for the rest of it


def mires(locomotion: str, vehicle: bool) -> bool:
    """Wheeled and tracked vehicles test; walkers and mounts pay double; hovers ignore it."""
    return vehicle and locomotion in ("wheeled", "tracked")


def push_bonus(pusher_siz: int, mired_siz: int) -> int:
    """A pusher half the mired vehicle's size or more: +1; twice its size or more: +2."""
    if pusher_siz * 2 < mired_siz:
        return 0
    return 2 if pusher_siz >= 2 * mired_siz else 1


def mire_test(state: Mire, push: int = 0) -> Generator[Any, Any, Mire]:
    """One test: entering difficult terrain, or trying to get out at the vehicle's next turn
    at -1 per failure so far (PR-33), plus any push."""
    if state.stuck_for_good:
        return state
    (face,) = yield from request_roll(8, 1, f"mire test: 1d8 {-state.failures + push:+d}, 3+ passes")
    if face - state.failures + push >= MIRE_PASS_MIN:
        return attrs.evolve(state, mired=False, halved_this_turn=state.mired)
    failures = state.failures + 1
    return Mire(failures, True, failures >= MIRE_STUCK_FOR_GOOD)


def p_mire_pass(failures: int, push: int = 0) -> Fraction:
    return Fraction(sum(1 for f in range(1, 9) if f - failures + push >= MIRE_PASS_MIN), 8)


# --- a move's segments as the players report them (8.9 in battle) ---------------------------

DIRECTIONS: tuple[str, ...] = ("forward", "backward", "diagonal", "sideways")
SEGMENTS_HELP = "vehicles and mounts: the path in order, e.g. forward 4, turn 2, backward 1 (a turn in 45-degree steps)"


def parse_segments(raw: object) -> tuple[Segment, ...]:
    """Segments from the move's fact: a list of "forward 4" / "turn 2" strings (or one
    comma-separated string). Inches and steps are whole numbers."""
    items = raw.split(",") if isinstance(raw, str) else raw
    if not isinstance(items, (list, tuple)):
        raise IllegalCommand("FW3 8.9", f"segments are a list like 'forward 4, turn 2', not {raw!r}")
    out = []
    for item in items:
        words = str(item).split()
        if len(words) != 2 or not words[1].isdigit() or (words[0] not in DIRECTIONS and words[0] != "turn"):
            raise IllegalCommand("FW3 8.9", f"a segment is '<{'|'.join(DIRECTIONS)}|turn> <whole number>', not {str(item)!r}")
        n = int(words[1])
        if words[0] == "turn":
            out.append(Segment("turn", steps=n))
        else:
            out.append(Segment("move", words[0], Fraction(n)))  # type: ignore[arg-type]
    return tuple(out)


def mover_for(locomotion: str, vehicle: bool, mecha: bool, mount: str = "") -> Mover | None:
    """Who moves by facing and direction (8.9): vehicles, mecha (PR-15), mounted troopers."""
    if vehicle or mecha:
        return mover_of(locomotion, vehicle, mecha)
    if mount:
        return mover_of(mount, False)
    return None


def inches_moved(segments: tuple[Segment, ...]) -> int:
    return int(sum((s.inches for s in segments if s.kind == "move"), Fraction(0)))


def turns_while_moving(segments: tuple[Segment, ...], moving_already: bool) -> int:
    """Facing changes made while moving (the count 8.9 limits), for the next move's check."""
    moving, n = moving_already, 0
    for seg in segments:
        if seg.kind == "turn":
            n += 1 if moving else 0
        else:
            moving = True
    return n
