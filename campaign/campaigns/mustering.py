"""Mustering: the units a side takes into the next battle, survivors only, checked
against the scenario's points limit and the ruleset's error findings."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from campaign.campaigns.battle_plan import BattlePlan
from campaign.campaigns.flow import CampaignError
from campaign.findings import Finding, named
from campaign.force import Force, Unit
from campaign.frozen import frozen


def surviving(unit: Unit) -> list[int]:
    """Indices of the unit's element entries that still have elements alive."""
    return [i for i, element in enumerate(unit.elements) if element.alive > 0]


def fielded(unit: Unit) -> Unit:
    """The unit as it takes the field: lost elements left behind, counts reduced."""
    return attrs.evolve(
        unit,
        elements=tuple(attrs.evolve(unit.elements[i], count=unit.elements[i].alive, lost=0) for i in surviving(unit)),
    )


@frozen
class MusterCheck:
    """Whether a mustered force may take the field, and if not, why (in words)."""

    total: float | None  # its price (None when no price was given)
    limit: int | None  # the scenario's points limit
    refusals: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.refusals


def check_muster(
    plan: BattlePlan,
    mustered: Force,
    price: Callable[[Force], float] | None = None,
    findings: Callable[[Force], Sequence[Finding]] | None = None,
) -> MusterCheck:
    """The scenario's points limit and the ruleset's error findings, as reasons to refuse."""
    refusals: list[str] = []
    total = price(mustered) if price is not None else None
    limit = plan.points_limit
    if total is not None and limit is not None and total > limit:
        refusals.append(
            f"{mustered.name} musters {total:g} points, over the scenario's limit of {limit} by {total - limit:g}"
        )
    for finding in named(mustered, list(findings(mustered))) if findings is not None else []:
        if finding.severity == "error" and finding.rule != "FOW 19 points limit":  # the limit is the scenario's
            where = f"{finding.where}: " if finding.where else ""
            refusals.append(f"{where}{finding.message} ({finding.rule})")
    return MusterCheck(total, limit, tuple(refusals))


def muster(
    plan: BattlePlan,
    force: Force,
    units: Sequence[str] | None = None,
    price: Callable[[Force], float] | None = None,
    *,
    findings: Callable[[Force], Sequence[Finding]] | None = None,
    override: str = "",
) -> Force:
    """The force a side takes into the battle: chosen units, survivors only, within the limit.

    `units` None takes every unit with survivors. `price` (a ruleset's cost of a force)
    checks the scenario's points limit and `findings` (a ruleset's validate) the errors;
    without them nothing is checked. A force over the limit or with error findings is
    refused with the reasons, unless `override` says why it may muster anyway (a house
    rule); the caller logs that reason with the battle (BattleSide.override).
    """
    names = [u.name for u in force.units if surviving(u)] if units is None else list(units)
    chosen: list[Unit] = []
    for name in names:
        try:
            unit = force.unit(name)
        except KeyError:
            raise CampaignError(f"{force.name} has no unit named {name!r}") from None
        if not surviving(unit):
            raise CampaignError(f"{name!r} has no elements left to field")
        if any(u.name == name for u in chosen):
            raise CampaignError(f"{name!r} is mustered twice")
        chosen.append(fielded(unit))
    if not chosen:
        raise CampaignError(f"{force.name} musters no units")
    mustered = attrs.evolve(force, units=tuple(chosen), points_limit=plan.points_limit)
    check = check_muster(plan, mustered, price, findings)
    if not check.ok and not override.strip():
        raise CampaignError("; ".join(check.refusals) + " (an override with a reason lets it muster as a house rule)")
    return mustered
