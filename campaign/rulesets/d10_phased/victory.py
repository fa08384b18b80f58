"""Victory conditions (DP-19), computed from what the players report and the losses
the engine knows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

import attrs

POSITION = "position"
OBJECTIVES = "objectives"
SUDDEN_DEATH = "sudden-death"
MODES = (POSITION, OBJECTIVES, SUDDEN_DEATH)
TURN_LIMIT = 8
QUADRANTS = ("Q1", "Q2", "Q3", "Q4")
DRAW = ""


@attrs.frozen
class Verdict:
    winner: str  # a side id, or DRAW
    reason: str
    tally: dict[str, int] = attrs.field(factory=dict)


def _more(tally: Mapping[str, int]) -> str:
    ranked = sorted(tally.items(), key=lambda kv: -kv[1])
    if len(ranked) < 2 or ranked[0][1] == ranked[1][1]:
        return DRAW
    return ranked[0][0]


def battle_of_position(points: Mapping[str, Mapping[str, int]], sides: Sequence[str]) -> Verdict:
    """DP-19.1 (AMB-34): `points[quadrant][side]` = army points standing there; more points
    holds the quadrant, level points hold nothing; more quadrants wins, equal is a draw."""
    held = {side: 0 for side in sides}
    owners: list[str] = []
    for quadrant, by_side in points.items():
        owner = _more({side: by_side.get(side, 0) for side in sides})
        owners.append(f"{quadrant}: {owner or 'nobody'}")
        if owner:
            held[owner] += 1
    winner = _more(held)
    return Verdict(winner, "; ".join(owners), held)


def objectives(markers: Mapping[str, Sequence[str]], sides: Sequence[str]) -> Verdict:
    """DP-19.2: `markers[marker]` = the sides with models on it; a marker shared by both
    sides counts for neither; more markers wins, equal is a draw."""
    held = {side: 0 for side in sides}
    for present in markers.values():
        on = {s for s in present if s in held}
        if len(on) == 1:
            held[on.pop()] += 1
    return Verdict(_more(held), f"markers held: {held}", held)


def sudden_death(started: Mapping[str, int], lost: Mapping[str, int]) -> Verdict | None:
    """DP-19.3 (AMB-36): at the end of a turn an army that has lost half or more of its
    starting models loses; both at once is a draw; None while neither has."""
    broken = [s for s, n in started.items() if n and Fraction(lost.get(s, 0), n) >= Fraction(1, 2)]
    if not broken:
        return None
    tally = {s: lost.get(s, 0) for s in started}
    if len(broken) == len(started):
        return Verdict(DRAW, "both armies lost half their models", tally)
    (loser,) = broken
    (winner,) = [s for s in started if s != loser]
    return Verdict(winner, f"{loser} lost half its models", tally)


def objective_placement_problem(distances_to_edges: Sequence[float], distances_to_markers: Sequence[float], in_pool: bool) -> str | None:
    """DP-19.2 (AMB-35): at least 12 inches from every edge and every other marker, never in a pool."""
    if in_pool:
        return "DP-19.2: no objective in a pool or on an island in one"
    if any(d < 12 for d in distances_to_edges):
        return "DP-19.2: an objective stands at least 12 inches from every table edge"
    if any(d < 12 for d in distances_to_markers):
        return "DP-19.2: objectives stand at least 12 inches apart"
    return None
