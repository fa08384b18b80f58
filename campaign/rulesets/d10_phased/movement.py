"""Movement (DP-8), command control's effect on it (DP-6.2), and Run Away (DP-9).

A move arrives as a path of segments the players measured on the table: (terrain,
length in inches). The engine does the arithmetic: terrain costs, the stream roll,
the 18-inch limit and its exemptions, half speed out of command.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import attrs

from campaign.rulesets.d10_phased.rolls import floor_fraction
from campaign.rulesets.d10_phased.specials import BREAKS_SPEED_LIMIT, JUMPS, MACHINE, NO_RUN_AWAY, has_hook
from campaign.rulesets.d10_phased.state import ModelState

SPEED_LIMIT = 18  # DP-8.2, inches
STREAM = "stream"
IMPASSABLE = None
# DP-8.4: the cost of an inch of each terrain; None = cannot be moved through
TERRAIN_COST: dict[str, int | None] = {
    "clear": 1,
    "road": 1,
    "ford": 1,
    "rough": 2,
    "mire": 2,
    "bushes": 2,  # AMB-13: the garbled row read as rough (option bushes = "impassable")
    "rocks": IMPASSABLE,
    "trees": IMPASSABLE,
    "pool": IMPASSABLE,
    "cliff": IMPASSABLE,
    "hostile": IMPASSABLE,
    STREAM: 1,
}
TERRAINS = tuple(TERRAIN_COST)

SWAMPED = "swamped"
FLOUNDERING = "floundering"
CROSSES = "crosses"


def stream_result(face: int) -> str:
    """DP-8.5 with AMB-14: 1-3 swamped (the first matching row wins), 4-5 floundering, 6-10 crosses."""
    if face <= 3:
        return SWAMPED
    if face <= 5:
        return FLOUNDERING
    return CROSSES


class IllegalMove(ValueError):
    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule


def exempt_from_speed_limit(model: ModelState) -> bool:
    return has_hook(model.specials, BREAKS_SPEED_LIMIT)


def allowance(model: ModelState, toward_leader: bool = False) -> Fraction:
    """DP-6.2 item 1 and AMB-11: out of command, half speed (rounded down) unless the
    move is straight toward the unit leader."""
    full = Fraction(model.move)
    if model.out_of_command and not toward_leader:
        return Fraction(floor_fraction(full / 2))
    return full


def why_cannot_move(model: ModelState, in_contact: bool) -> str | None:
    """DP-8.1: why the model may not move in its movement phase, or None."""
    if not model.alive:
        return "DP-8.1: it is no longer on the table"
    if model.immobile:
        return "DP-8.1: it cannot move (move 0)"
    if in_contact:
        return "DP-8.1 item 1: it touches a hostile model"
    if model.ran_away:
        return "DP-9.5: it ran away this turn"
    if model.moved:
        return "DP-8.1: it has moved this turn"
    if model.marker:
        return f"DP-8.1 item 4: it is {model.marker}"
    if model.crit_no_move:
        return "DP-17: a critical hit holds it this movement phase"
    return None


@attrs.frozen
class Walk:
    moved: Fraction  # inches covered
    spent: Fraction  # allowance used
    left: Fraction  # allowance left
    stream: str = ""  # the stream result, if a stream was entered
    stopped: bool = False  # swamped, or out of allowance part-way: the move ends short


def _inches(value: object) -> Fraction:
    try:
        out = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise IllegalMove("DP-8", f"a length must be a number of inches, not {value!r}") from None
    if out < 0:
        raise IllegalMove("DP-8", f"a length cannot be negative ({value!r})")
    return out


def walk(
    model: ModelState,
    path: Sequence[tuple[str, object]],
    *,
    stream_face: int | None = None,
    toward_leader: bool = False,
    jump: bool = False,
    bushes: str = "rough",
    stop_short: bool = False,
) -> Walk:
    """Walk a path of (terrain, inches) segments; raise IllegalMove naming the rule if it
    cannot be done. `stream_face` is the model's one stream roll this phase (AMB-14).
    `stop_short`: a segment the allowance cannot pay for ends the move part-way instead."""
    left = allowance(model, toward_leader)
    start = left
    moved = Fraction(0)
    stream = ""
    if jump:
        if not has_hook(model.specials, JUMPS):
            raise IllegalMove("DP-8.3", f"{model.name} cannot jump")
        # a jump goes straight over everything: only its length counts
        total = sum((_inches(length) for _, length in path), Fraction(0))
        if total > left:
            raise IllegalMove("DP-8.3", f"a {total}\" jump is longer than the {left}\" allowed")
        return Walk(total, total, left - total)
    for terrain, length in path:
        inches = _inches(length)
        if terrain not in TERRAIN_COST:
            raise IllegalMove("DP-8.4", f"unknown terrain {terrain!r} (known: {', '.join(TERRAINS)})")
        cost = TERRAIN_COST[terrain]
        if terrain == "bushes" and bushes == "impassable":
            cost = IMPASSABLE
        if cost is IMPASSABLE:
            raise IllegalMove("DP-8.4", f"{terrain} cannot be moved through")
        if terrain == STREAM and not stream:
            if stream_face is None:
                raise IllegalMove("DP-8.5", "entering a stream needs the stream roll")
            stream = stream_result(stream_face)
            if stream == SWAMPED:
                return Walk(moved, start - left, left, stream, stopped=True)
            if stream == FLOUNDERING:
                left = Fraction(floor_fraction(left / 2))
        spend = inches * cost
        if spend > left and stop_short:
            return Walk(moved + left / cost, start, Fraction(0), stream, stopped=True)
        if spend > left:
            raise IllegalMove("DP-8", f"{inches}\" of {terrain} costs {spend}\" but only {left}\" is left")
        left -= spend
        moved += inches
    if moved > SPEED_LIMIT and not exempt_from_speed_limit(model):
        raise IllegalMove("DP-8.2", f"no single move may be longer than {SPEED_LIMIT}\" ({moved}\" asked)")
    return Walk(moved, start - left, left, stream)


def speed_cap(model: ModelState) -> Fraction:
    """The longest single move the model can make on clear ground."""
    full = allowance(model)
    return full if exempt_from_speed_limit(model) else min(full, Fraction(SPEED_LIMIT))


def why_cannot_run_away(model: ModelState, fearless: bool) -> str | None:
    """DP-9.2 (AMB-28) and DP-9.5."""
    if model.ran_away:
        return "DP-9.5: a model runs away once a turn"
    if fearless and not has_hook(model.specials, MACHINE):
        return "DP-9.2: Fearless models never run away unless they are Machines"
    if has_hook(model.specials, NO_RUN_AWAY) or model.mindless:
        return "DP-2: its special keeps it from running away"
    if model.immobile:
        return "DP-9.1: it cannot move"
    return None


def run_away(model: ModelState, distance: object) -> bool:
    """Move the model its run-away distance (up to its full move; the 18-inch limit holds
    unless exempt). Returns whether it owes the immediate morale check (not Machines, DP-9.3)."""
    inches = _inches(distance)
    cap = Fraction(model.move) if exempt_from_speed_limit(model) else min(Fraction(model.move), Fraction(SPEED_LIMIT))
    if inches > cap:
        raise IllegalMove("DP-9.1", f"a run-away moves at most its full move, {cap}\"")
    model.ran_away = True
    model.moved = True
    return not has_hook(model.specials, MACHINE)
