"""Priced forces: what a ruleset's cost calculator returns."""

from __future__ import annotations

import attrs

from campaign.findings import Finding


@attrs.define(frozen=True)
class CostLine:
    """One term of an element's price: "MOVE 4\"" = 4, "Power Claw d8 (2DAC)" = 6."""

    label: str
    points: float


@attrs.define(frozen=True)
class ElementCost:
    name: str
    count: int
    each: float
    lines: tuple[CostLine, ...] = ()

    @property
    def total(self) -> float:
        return self.each * self.count


@attrs.define(frozen=True)
class UnitCost:
    name: str
    elements: tuple[ElementCost, ...]

    @property
    def total(self) -> float:
        return sum(e.total for e in self.elements)


@attrs.define(frozen=True)
class ForceCost:
    units: tuple[UnitCost, ...]
    findings: tuple[Finding, ...] = ()

    @property
    def total(self) -> float:
        return sum(u.total for u in self.units)
