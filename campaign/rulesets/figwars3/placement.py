"""Placing the forces before turn 1 (spec 5, PR-22, PR-23), from rules revision 2.

The engine keeps the order; where a unit stands is the players' (5: within 6" of the
owner's table edge, a Recon unit anywhere up to the centre line). Sides are ordered by
their number of units, ties on 1d8 (`turn.deployment_order`); units go down one at a
time, sides alternating (`turn.placement_sequence` gives whose turn it is, the owner
picks which of its units); Recon units come last, sides without Recon first. When more
than one side has Recon, turn 1's initiative is rolled before them and kept for turn 1
(PR-22: `FigWarsRules.rolled_initiative`). Ambush units note their secret point and Drop
Deployment units wait in reserve: neither is placed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from campaign.engine.pending import CommandSpec, Decision
from campaign.engine.scheme import initiative_order
from campaign.engine.state import BattleState, UnitState
from campaign.rulesets.figwars3 import turn

if TYPE_CHECKING:
    from campaign.engine.context import Context

REVISION = 2  # the rules revision that places the forces
WHERE = {"normal": 'within 6" of its own table edge', "recon": "anywhere up to the centre line on its own side"}


def kind(unit: UnitState, recon: bool) -> str:
    """How the unit deploys: "drop" (reserve), "ambush" (hidden), "recon" or "normal"."""
    if unit.data.get("reserve"):
        return "drop"
    if unit.data.get("hidden"):
        return "ambush"
    return "recon" if recon else "normal"


def place_forces(state: BattleState, has_recon: Callable[[UnitState], bool], ctx: Context) -> Any:
    """The placement step: every decision and roll of spec 5's deployment machine."""
    sides = [s.id for s in state.sides]
    units = {s: [(u.id, kind(u, has_recon(u))) for u in state.units_of(s) if not u.eliminated] for s in sides}
    order = yield from turn.deployment_order({s: len(units[s]) for s in sides})
    ctx.emit("deployment_order", "Deployment: " + ", ".join(state.side(s).name for s in order) + " (most units first)",
             order=list(order))
    first = ""
    if sum(1 for s in sides if any(k == "recon" for _, k in units[s])) > 1:
        rolled = yield from initiative_order(state, sides, ctx)  # PR-22: turn 1's, kept for turn 1
        state.data["initiative_1"] = list(rolled)
        first = rolled[0]
        ctx.emit("initiative", f"Turn 1 initiative, rolled before Recon placement: {state.side(first).name} is First Player",
                 order=list(rolled))
    left = {s: [u for u, k in units[s] if k in WHERE] for s in sides}
    for side, planned in turn.placement_sequence(order, units, first):
        kind_now = dict(units[side])[planned]
        choices = [u for u in left[side] if dict(units[side])[u] == kind_now]
        if len(choices) == 1:
            picked = choices[0]
        else:
            legal = tuple(CommandSpec("choose", {"option": u}, label=f"Place {state.unit(u).name}") for u in choices)
            answer = yield Decision(side, f"Deployment: {state.side(side).name} places a unit ({WHERE[kind_now]})", legal)
            picked = str(getattr(answer, "option", choices[0]))
        left[side].remove(picked)
        ctx.emit("placed", f"{state.unit(picked).name} is placed {WHERE[kind_now]}", unit=picked, side=side, how=kind_now)
    for side in order:
        for u, k in units[side]:
            if k == "ambush":
                ctx.emit("hidden", f"{state.unit(u).name} notes its secret ambush point", unit=u, side=side)
            elif k == "drop":
                ctx.emit("reserve", f"{state.unit(u).name} waits off the table (Drop Deployment)", unit=u, side=side)
    state.data["placed"] = True
