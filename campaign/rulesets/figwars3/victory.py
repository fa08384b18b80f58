"""How a FigWars 3 battle is won (spec 5, PR-26): the scenario names the condition.

The source leaves game length and victory to the scenario. The built-in FigWars
scenarios use three conditions, each decided here from counts the engine keeps or
facts the players report:

  vp            casualties inflicted (fled models count), plus the VPs of objectives
                held when the turn limit is reached (PR-26's default)
  sudden-death  at the end of a turn, a side that has lost half or more of the models it
                started with loses; both at once is a draw
  objectives    when the turn limit is reached, the side holding the most objectives wins
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

import attrs

VP = "vp"
SUDDEN_DEATH = "sudden-death"
OBJECTIVES = "objectives"
MODES = (VP, SUDDEN_DEATH, OBJECTIVES)
DRAW = ""


@attrs.frozen
class Verdict:
    winner: str  # a side id, or DRAW
    reason: str


def mode_of(victory: str) -> str:
    """The condition a scenario's `victory` names; anything else plays PR-26's default."""
    return victory if victory in MODES else VP


def sudden_death(started: Mapping[str, int], lost: Mapping[str, int], names: Mapping[str, str] | None = None) -> Verdict | None:
    """None while no side has lost half its starting models (`names`: side id -> name)."""
    broken = [s for s, n in started.items() if n and Fraction(lost.get(s, 0), n) >= Fraction(1, 2)]
    if not broken:
        return None
    if len(broken) == len(started):
        return Verdict(DRAW, "every side has lost half its models")
    survivors = [s for s in started if s not in broken]
    if len(survivors) > 1:
        return None  # several sides still stand: the battle goes on without the broken one
    return Verdict(survivors[0], f"{', '.join((names or {}).get(s, s) for s in broken)} lost half its models")


def held_objectives(held: Mapping[str, str], names: Sequence[str], sides: Sequence[str]) -> dict[str, list[str]]:
    """Objective name -> holding side ("" or absent: nobody) as the players report it,
    checked: every name an objective of the scenario, every holder a side."""
    out: dict[str, list[str]] = {s: [] for s in sides}
    for name, side in held.items():
        if name not in names:
            raise ValueError(f"no objective {name!r} in this scenario (objectives: {', '.join(names)})")
        if not isinstance(side, str) or (side and side not in sides):
            raise ValueError(f"{name}: {side!r} is not a side ({', '.join(sides)}, or \"\" for nobody)")
        if side:
            out[side].append(name)
    return out


def most_objectives(by_side: Mapping[str, Sequence[str]]) -> Verdict:
    counts = {s: len(v) for s, v in by_side.items()}
    best = max(counts.values(), default=0)
    leaders = [s for s, n in counts.items() if n == best]
    if best == 0 or len(leaders) > 1:
        return Verdict(DRAW, f"objectives held level ({best} each)")
    return Verdict(leaders[0], f"{leaders[0]} holds {best} objective(s)")
