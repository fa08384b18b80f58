"""The briefing before a battle: what the scenario asks and what each side can field.

`briefing(...)` gathers, without side effects, what players read before they muster:
the scenario's deployment, special rules, objectives and their VPs, rounds or end
condition and points limit, and for each side its units with survivors, their price,
and whether mustering all of them passes `check_muster` (with the reasons if not).
`muster briefing` prints it; a briefing screen can render the same record.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import attrs

from campaign.campaigns.battle_plan import BattlePlan
from campaign.campaigns.flow import CampaignError
from campaign.campaigns.mustering import check_muster, fielded, muster, surviving
from campaign.campaigns.model import Campaign
from campaign.campaigns.scenario import Objective
from campaign.findings import Finding
from campaign.force import Force


@attrs.define(frozen=True)
class UnitOffer:
    """A unit a side may muster: its survivors and their price."""

    name: str
    alive: int
    count: int
    points: float | None


@attrs.define(frozen=True)
class SideBriefing:
    side: str
    name: str
    role: str
    units: tuple[UnitOffer, ...]  # units with survivors, in force order
    total: float | None  # every survivor mustered
    refusals: tuple[str, ...] = ()  # why mustering everyone would be refused

    @property
    def fits(self) -> bool:
        return not self.refusals


@attrs.define(frozen=True)
class Briefing:
    number: int
    scenario: str  # its name
    summary: str
    victory: str
    points_limit: int | None
    rounds: int | None
    end_condition: str
    deployment: str
    special_rules: tuple[str, ...]
    objectives: tuple[Objective, ...]
    activation: str
    sides: tuple[SideBriefing, ...]


def briefing(
    campaign: Campaign,
    plan: BattlePlan,
    forces: Mapping[str, Force],
    price: Callable[[Force], float] | None = None,
    findings: Callable[[Force], Sequence[Finding]] | None = None,
) -> Briefing:
    """The briefing for the planned battle (see `plan_battle`)."""
    scenario = plan.scenario
    sides = []
    for side in campaign.sides:
        force = forces[side.id]
        offers = []
        for unit in force.units:
            if not surviving(unit):
                continue
            taken = fielded(unit)
            cost = price(attrs.evolve(force, units=(taken,))) if price is not None else None
            offers.append(UnitOffer(unit.name, sum(e.alive for e in unit.elements), sum(e.count for e in unit.elements), cost))
        total: float | None = None
        refusals: tuple[str, ...] = ()
        try:
            everyone = muster(plan, force, override="briefing: checked below")
        except CampaignError as exc:  # nothing left to field
            refusals = (str(exc),)
        else:
            check = check_muster(plan, everyone, price, findings)
            total, refusals = check.total, check.refusals
        sides.append(SideBriefing(side.id, side.name, plan.roles.get(side.id, ""), tuple(offers), total, refusals))
    return Briefing(
        number=plan.number,
        scenario=scenario.name,
        summary=scenario.summary,
        victory=scenario.victory,
        points_limit=scenario.points_limit,
        rounds=scenario.rounds,
        end_condition=scenario.end_condition,
        deployment=scenario.deployment,
        special_rules=scenario.special_rules,
        objectives=scenario.objectives,
        activation=plan.activation,
        sides=tuple(sides),
    )
