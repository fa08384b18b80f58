"""Priced forces: what a ruleset's cost calculator returns."""

from __future__ import annotations

from campaign.findings import Finding
from campaign.frozen import frozen


@frozen
class CostLine:
    """One term of an element's price: "MOVE 4\"" = 4, "Power Claw d8 (2DAC)" = 6."""

    label: str
    points: float


@frozen
class ElementCost:
    name: str
    count: int
    each: float
    lines: tuple[CostLine, ...] = ()

    @property
    def total(self) -> float:
        return self.each * self.count


@frozen
class UnitCost:
    name: str
    elements: tuple[ElementCost, ...]

    @property
    def total(self) -> float:
        return sum(e.total for e in self.elements)


@frozen
class ForceCost:
    units: tuple[UnitCost, ...]
    findings: tuple[Finding, ...] = ()

    @property
    def total(self) -> float:
        return sum(u.total for u in self.units)
