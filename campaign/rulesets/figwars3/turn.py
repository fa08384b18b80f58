"""The turn's bookkeeping (spec 5, 6.1-6.4, 7.1, PR-20, PR-21, PR-23): initiative with
re-rolls among tied sides, the extra-action table, the forced activation order, the
deployment order and what each action costs.

Initiative and deployment ties ask the dice source through resolution generators, so
table dice, auto dice and replay agree.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from typing import Any

from campaign.engine.dice import roll as request_roll

INITIATIVE_DIE = 8
EXTRA_ACTION_DIE = 8
ACTIONS_PER_MODEL = 2
MAX_ACTIONS = 3  # two plus at most one extra action a turn

# 6.4: bonus by units in play (retreating units not counted), then the table of totals.
UNIT_BONUS: tuple[tuple[int, int], ...] = ((1, 0), (3, 1), (5, 2), (7, 3), (9, 4))
EXTRA_TABLE: tuple[tuple[int, int], ...] = ((1, 0), (5, 1), (8, 2), (10, 3), (12, 4))

# 7.1: cost in actions.
ACTION_COSTS: dict[str, int] = {
    "walk": 1,
    "run": 2,
    "strike": 1,
    "focus": 1,
    "shoot": 1,  # 2 for Slow weapons and every grenade
    "throw": 1,
    "aim": 1,
    "draw": 0,
    "stow": 1,
    "drop": 0,
    "retrieve": 1,
    "reload": 1,
    "sentry": 1,  # plus the held attack's own cost
    "push": 1,
    "medic": 2,
    "release_entangle": 1,
    "remove_pin": 1,
    "remove_stun": 2,
}


def _bracket(table: tuple[tuple[int, int], ...], value: int) -> int:
    out = 0
    for low, result in table:
        if value >= low:
            out = result
    return out


def unit_bonus(units_in_play: int) -> int:
    return _bracket(UNIT_BONUS, units_in_play)


def extra_actions(total: int) -> int:
    """Extra actions for a side's total (6.4): 1-4 none, 5-7 one, 8-9 two, 10-11 three, 12+ four."""
    return _bracket(EXTRA_TABLE, total)


def extra_action_total(roll: int, units_in_play: int, heroes: int) -> int:
    """The d8 plus the units bonus plus one per surviving hero (a hero counts as a unit too, PR-20)."""
    return roll + unit_bonus(units_in_play) + heroes


def shoot_cost(slow: bool) -> int:
    return 2 if slow else 1


def initiative(sides: Sequence[str]) -> Generator[Any, Any, list[str]]:
    """Every side rolls 1d8; ties are re-rolled among the tied sides only (6.2).
    Returns the sides in initiative order, First Player first."""
    return (yield from _order(list(sides), "initiative"))


def _order(sides: list[str], what: str) -> Generator[Any, Any, list[str]]:
    if len(sides) <= 1:
        return sides
    faces = yield from request_roll(INITIATIVE_DIE, len(sides), f"{what}: 1d8 each for {', '.join(sides)}")
    groups: dict[int, list[str]] = {}
    for side, face in zip(sides, faces):
        groups.setdefault(face, []).append(side)
    out: list[str] = []
    for face in sorted(groups, reverse=True):
        tied = groups[face]
        out.extend((yield from _order(tied, what)) if len(tied) > 1 else tied)
    return out


def extra_action_rolls(
    sides: Sequence[str], units_in_play: Mapping[str, int], heroes: Mapping[str, int]
) -> Generator[Any, Any, dict[str, int]]:
    """Each side's extra-action pool for this turn."""
    pool: dict[str, int] = {}
    for side in sides:
        (face,) = yield from request_roll(EXTRA_ACTION_DIE, 1, f"extra actions: 1d8 for {side}", side)
        pool[side] = extra_actions(extra_action_total(face, units_in_play[side], heroes.get(side, 0)))
    return pool


def deployment_order(unit_counts: Mapping[str, int]) -> Generator[Any, Any, list[str]]:
    """Sides by number of units, most first; equal counts roll 1d8, high first (PR-23)."""
    by_count: dict[int, list[str]] = {}
    for side, count in unit_counts.items():
        by_count.setdefault(count, []).append(side)
    out: list[str] = []
    for count in sorted(by_count, reverse=True):
        tied = by_count[count]
        out.extend((yield from _order(tied, "deployment")) if len(tied) > 1 else tied)
    return out


def placement_sequence(side_order: Sequence[str], units: Mapping[str, Sequence[tuple[str, str]]], first_player: str = "") -> list[tuple[str, str]]:
    """5, PR-22: (side, unit) in the order units are placed. `side_order` is
    `deployment_order`'s; `units[side]` lists (unit, kind) with kind "normal", "recon",
    "ambush" or "drop". Normal units go one at a time, sides alternating and skipping a side
    with none left; then Recon units, sides without Recon first and, when several sides
    have Recon, the turn-1 First Player last. Ambush (secret point) and Drop (reserve)
    units are not placed."""
    queues = {side: [u for u, kind in units.get(side, ()) if kind == "normal"] for side in side_order}
    out: list[tuple[str, str]] = []
    while any(queues.values()):
        for side in side_order:
            if queues[side]:
                out.append((side, queues[side].pop(0)))
    recon = {side: [u for u, kind in units.get(side, ()) if kind == "recon"] for side in side_order}
    with_recon = [s for s in side_order if recon[s]]
    if len(with_recon) > 1 and first_player in with_recon:
        with_recon = [s for s in with_recon if s != first_player] + [first_player]
    for side in with_recon:
        out.extend((side, u) for u in recon[side])
    return out


PRIORITY: dict[str, int] = {"retreating": 0, "falling_back": 1, "normal": 2}
DROP_FROM_TURN = 2  # 4.3 Drop Deployment: any turn after the first


def must_activate_first(statuses: Mapping[str, str]) -> list[str]:
    """The units a side may pick now: retreating ones first, then falling back, then any (6.2)."""
    if not statuses:
        return []
    best = min(PRIORITY[s] for s in statuses.values())
    return [unit for unit, status in statuses.items() if PRIORITY[status] == best]


def next_side(order: Sequence[str], last: str | None, eligible: Mapping[str, bool]) -> str | None:
    """The side that activates next: the one after `last` in initiative order that still
    has an eligible unit (PR-21: sides with nothing left are skipped)."""
    if not any(eligible.get(s) for s in order):
        return None
    start = 0 if last is None else (order.index(last) + 1) % len(order)
    for step in range(len(order)):
        side = order[(start + step) % len(order)]
        if eligible.get(side):
            return side
    return None


def activation_sequence(order: Sequence[str], units: Mapping[str, list[tuple[str, str]]]) -> list[tuple[str, str]]:
    """The whole turn's (side, unit) sequence when every side always picks the first unit
    allowed: alternation, forced priority and skipping of exhausted sides together."""
    left = {side: list(us) for side, us in units.items()}
    out: list[tuple[str, str]] = []
    last: str | None = None
    while True:
        side = next_side(order, last, {s: bool(left.get(s)) for s in order})
        if side is None:
            return out
        allowed = must_activate_first(dict(left[side]))
        unit = allowed[0]
        left[side] = [(u, s) for u, s in left[side] if u != unit]
        out.append((side, unit))
        last = side
