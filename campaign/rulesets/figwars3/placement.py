"""Placing the forces before turn 1 (spec 5, PR-22, PR-23), from rules revision 2.

The engine keeps the order; where a unit stands is the players' (5: within 6" of the
owner's table edge unless the scenario says otherwise, a Recon unit anywhere up to the
centre line). Sides are ordered by
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
    from campaign.campaigns.scenario import Scenario
    from campaign.engine.context import Context

REVISION = 2  # the rules revision that places the forces
DEPLOY_INCHES = 6  # 5: the deployment zone's depth from the owner's edge, unless the scenario says otherwise
WHERE = {"normal": 'within {inches}" of its own table edge', "recon": "anywhere up to the centre line on its own side"}
AS_THE_SCENARIO_SAYS = "where the scenario's deployment says"


def where(kind: str, scenario: Scenario) -> str:
    """Where a unit of `kind` ("normal" or "recon") may be placed, as a prompt says it: a
    scenario's own depth (`deploy_within`) before the rules' 6"; a scenario whose
    deployment is in words only (one side first, a river...) is left to those words."""
    if kind != "normal":
        return WHERE[kind]
    if scenario.deploy_within is None and scenario.deployment:
        return AS_THE_SCENARIO_SAYS
    return WHERE[kind].format(inches=scenario.deploy_within or DEPLOY_INCHES)


def order_reason(counts: dict[str, int], order: list[str], names: dict[str, str]) -> str:
    """What decided the deployment order (5, PR-23): the units alone, or a 1d8 roll-off
    between sides with as many units."""
    tied = {n for n in counts.values() if list(counts.values()).count(n) > 1}
    if not tied:
        return "the most units place first"
    if len(set(counts.values())) == 1:
        return f"as many units each, so 1d8 decided: {names[order[0]]} rolled highest"
    return "the most units place first; sides with as many rolled 1d8, highest first"


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
    counts = {s: len(units[s]) for s in sides}
    order = yield from turn.deployment_order(counts)
    names = {s: state.side(s).name for s in sides}
    listed = ", ".join(f"{names[s]} ({counts[s]} unit{'' if counts[s] == 1 else 's'})" for s in order)
    ctx.emit("deployment_order", f"Deployment: {listed}; {order_reason(counts, order, names)}", order=list(order))
    first = ""
    if sum(1 for s in sides if any(k == "recon" for _, k in units[s])) > 1:
        rolled = yield from initiative_order(state, sides, ctx)  # PR-22: turn 1's, kept for turn 1
        state.data["initiative_1"] = list(rolled)
        first = rolled[0]
        ctx.emit("initiative", f"Turn 1 initiative, rolled before Recon placement: {state.side(first).name} is First Player",
                 order=list(rolled))
    left = {s: [u for u, k in units[s] if k in WHERE] for s in sides}
    zone = {k: where(k, ctx.setup.scenario) for k in WHERE}
    for side, planned in turn.placement_sequence(order, units, first):
        kind_now = dict(units[side])[planned]
        choices = [u for u in left[side] if dict(units[side])[u] == kind_now]
        if len(choices) == 1:
            picked = choices[0]
        else:
            legal = tuple(CommandSpec("choose", {"option": u}, label=f"Place {state.unit(u).name}") for u in choices)
            answer = yield Decision(side, f"Deployment: {state.side(side).name} places a unit ({zone[kind_now]})", legal)
            picked = str(getattr(answer, "option", choices[0]))
        left[side].remove(picked)
        ctx.emit("placed", f"{state.unit(picked).name} is placed {zone[kind_now]}", unit=picked, side=side, how=kind_now)
    for side in order:
        for u, k in units[side]:
            if k == "ambush":
                ctx.emit("hidden", f"{state.unit(u).name} notes its secret ambush point", unit=u, side=side)
            elif k == "drop":
                ctx.emit("reserve", f"{state.unit(u).name} waits off the table (Drop Deployment)", unit=u, side=side)
    state.data["placed"] = True
