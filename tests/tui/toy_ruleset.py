"""A tiny ruleset with simple, hand-checkable prices, so TUI tests know every number.

Element each = die cost + MOVE/2 + 2 per weapon (+ its die cost if it has its own die)
+ 3 per attribute. Findings: over the points limit (error), an unknown attribute
(warning), an odd MOVE (warning).
"""

from __future__ import annotations

from campaign.costing import CostLine, ElementCost, ForceCost, UnitCost
from campaign.findings import Finding
from campaign.force import Element, Force, Unit, Weapon
from campaign.rulesets import Ruleset, register

DIE_COST = {"d4": 2, "d6": 4, "d8": 6, "d10": 8, "d12": 10}
ATTRIBUTES = ("Agile", "Brave", "Jump", "Tough")


def _element_cost(element: Element) -> ElementCost:
    lines = [CostLine(f"base {element.die}", DIE_COST.get(element.die or "", 0))]
    if element.move:
        lines.append(CostLine(f'MOVE {element.move}"', element.move / 2))
    for weapon in element.weapons:
        lines.append(CostLine(weapon.name, 2 + DIE_COST.get(weapon.die or "", 0)))
    for attribute in element.attributes:
        lines.append(CostLine(attribute, 3))
    return ElementCost(element.name, element.count, sum(line.points for line in lines), tuple(lines))


@register
class ToyWar(Ruleset):
    id = "toy-war"
    name = "Toy War"
    editions = ("1", "2")
    default_edition = "1"
    dice = ("d4", "d6", "d8", "d10", "d12")

    def price(self, force: Force) -> ForceCost:
        units = tuple(
            UnitCost(unit.name, tuple(_element_cost(e) for e in unit.elements)) for unit in force.units
        )
        return ForceCost(units, tuple(self.validate(force)))

    def validate(self, force: Force) -> list[Finding]:
        findings = []
        for u, unit in enumerate(force.units):
            for e, element in enumerate(unit.elements):
                path = f"units[{u}].elements[{e}]"
                for attribute in element.attributes:
                    if attribute.split()[0] not in ATTRIBUTES:
                        findings.append(Finding("warning", "TOY 2", f"unknown attribute {attribute!r}", path))
                if element.move is not None and element.move % 2:
                    findings.append(Finding("warning", "TOY 3", "MOVE must be a multiple of 2", path))
        total = sum(_element_cost(e).total for unit in force.units for e in unit.elements)
        if force.points_limit is not None and total > force.points_limit:
            findings.append(Finding("error", "points limit", f"{total:g} points is over the limit of {force.points_limit}"))
        return findings

    def sample_forces(self) -> list[Force]:
        return [
            Force(
                "Toy Knights",
                "toy-war",
                self.edition,
                units=(
                    Unit("Lances", (Element("Knight", count=3, die="d8", move=6, attributes=("Brave",),
                                            weapons=(Weapon("Lance", die="d6"),)),)),
                    Unit("Archers", (Element("Archer", count=4, die="d6", move=4,
                                             weapons=(Weapon("Bow", kind="ranged", range=12),)),)),
                ),
            )
        ]

    def attribute_names(self) -> list[str]:
        return list(ATTRIBUTES)


def toy_force(name: str = "Test Force", unit: str = "Squad", limit: int | None = 100) -> Force:
    """One unit of two elements: Trooper 2 x (d6 4 + MOVE 4 -> 2 + Blade 2 = 8) = 16, Sergeant d8 6+2+2+3 = 13."""
    return Force(
        name,
        "toy-war",
        "1",
        points_limit=limit,
        units=(
            Unit(unit, (
                Element("Trooper", count=2, die="d6", move=4, weapons=(Weapon("Blade"),)),
                Element("Sergeant", die="d8", move=4, weapons=(Weapon("Blade"),), attributes=("Brave",)),
            )),
        ),
    )
