"""A force as players take it to the table: the roster document.

`roster(force, ruleset)` turns a force into plain records: each unit with its
elements' profiles, weapons and attributes, costs where the ruleset has points, the
campaign's lasting state (elements lost, damage carried, honours), and every rule the
force uses once, in the ruleset's own one-line words. Renderers (Markdown, HTML, text)
live in tui/cli/roster.py; nothing here formats for a medium.
"""

from __future__ import annotations

from typing import Any

import attrs

from campaign.findings import Finding, named
from campaign.force import Element, Force, Weapon
from campaign.profiles import Profile


@attrs.define(frozen=True)
class RosterElement:
    name: str
    count: int
    alive: int
    profile: tuple[tuple[str, str], ...]  # ("Die", "d6"), ("Move", '4"'), ("DEF", "3")...
    weapons: tuple[str, ...]
    attributes: tuple[str, ...]  # as the force file writes them
    spells: tuple[str, ...]
    cost_each: float | None = None  # None: the ruleset has no points
    damage: tuple[tuple[str, str], ...] = ()  # lasting state carried from battle to battle
    note: str = ""

    @property
    def lost(self) -> int:
        return self.count - self.alive

    @property
    def cost_total(self) -> float | None:
        return None if self.cost_each is None else self.cost_each * self.count


@attrs.define(frozen=True)
class RosterUnit:
    name: str
    elements: tuple[RosterElement, ...]
    honours: tuple[str, ...] = ()
    cohesion: str = ""
    note: str = ""
    cost: float | None = None
    profile: tuple[tuple[str, str], ...] = ()  # the unit's own fields (Unit.stats), labelled

    @property
    def alive(self) -> int:
        return sum(e.alive for e in self.elements)

    @property
    def count(self) -> int:
        return sum(e.count for e in self.elements)


@attrs.define(frozen=True)
class RuleLine:
    """One rule the force uses, once: its name and a line of Muster's words."""

    name: str
    text: str


@attrs.define(frozen=True)
class Roster:
    force: str
    ruleset: str  # the ruleset's name ("Flat Out War")
    edition: str
    units: tuple[RosterUnit, ...]
    rules: tuple[RuleLine, ...]
    findings: tuple[Finding, ...] = ()
    total: float | None = None
    points_limit: int | None = None
    note: str = ""

    @property
    def alive(self) -> int:
        return sum(u.alive for u in self.units)

    @property
    def count(self) -> int:
        return sum(u.count for u in self.units)


def weapon_line(weapon: Weapon) -> str:
    """"Plasma Rifle (ranged d8, 24\", Reload: 2)": a weapon as one line."""
    details = [f"{weapon.kind} {weapon.die}" if weapon.die else weapon.kind]
    if weapon.range:
        details.append(f'{weapon.range}"')
    if weapon.mount != "main":
        details.append(weapon.mount)
    details.extend(weapon.traits)
    return f"{weapon.name} ({', '.join(details)})"


def profile(element: Element, fields: Profile | None = None) -> tuple[tuple[str, str], ...]:
    """The element's numbers as (label, value), the shared fields first, then `stats`,
    each called by its label in `fields` (the ruleset's profile for it) where it has one."""
    rows: list[tuple[str, str]] = []
    if element.die:
        rows.append(("Die", element.die))
    if element.move is not None:
        rows.append(("Move", f'{element.move}"'))
    if element.kind != "trooper":
        rows.append(("Kind", element.kind))
    if element.mounted:
        rows.append(("Mounted", "yes"))
    if element.large:
        rows.append(("Large", "yes"))
    for key, value in element.stats.items():
        spec = fields.field(str(key)) if fields is not None else None
        rows.append((spec.heading, spec.show(value)) if spec is not None else (str(key), str(value)))
    return tuple(rows)


def _costs(ruleset: Any, force: Force) -> tuple[Any, list[Finding]]:
    """The ruleset's prices and findings; (None, findings) when it has no points."""
    try:
        priced = ruleset.price(force)
    except NotImplementedError:
        try:
            return None, list(ruleset.validate(force))
        except NotImplementedError:
            return None, []
    found = list(priced.findings)
    found += [f for f in ruleset.validate(force) if f not in found]
    if all(e.each == 0 for u in priced.units for e in u.elements):
        return None, found  # a ruleset without points prices every element at 0: print no costs
    return priced, found


def unit_profile(stats: dict[str, Any], fields: Profile | None) -> tuple[tuple[str, str], ...]:
    """A unit's own fields as (label, value), labelled by the profile's unit fields."""
    rows = []
    for key, value in stats.items():
        spec = fields.field(str(key), "unit") if fields is not None else None
        rows.append((spec.heading, spec.show(value)) if spec is not None else (str(key), str(value)))
    return tuple(rows)


def _fields_of(ruleset: Any, element: Element) -> Profile | None:
    """The profile `ruleset` reads `element` with, if it declares one."""
    found = getattr(ruleset, "element_profile", None)
    return found(element) if callable(found) else None


def roster(force: Force, ruleset: Any) -> Roster:
    """The roster of `force` under `ruleset` (a campaign.rulesets Ruleset instance)."""
    priced, findings = _costs(ruleset, force)
    rules: dict[str, str] = {}

    def note_rule(text: str) -> None:
        name, line = ruleset.rule_text(text)
        if name and line and name not in rules:
            rules[name] = line

    units = []
    for u, unit in enumerate(force.units):
        unit_cost = priced.units[u] if priced is not None and u < len(priced.units) else None
        elements = []
        for e, element in enumerate(unit.elements):
            each = None
            if unit_cost is not None and e < len(unit_cost.elements):
                each = float(unit_cost.elements[e].each)
            for text in (*element.attributes, *element.spells, *(t for w in element.weapons for t in w.traits)):
                note_rule(text)
            elements.append(RosterElement(
                name=element.name,
                count=element.count,
                alive=element.alive,
                profile=profile(element, _fields_of(ruleset, element)),
                weapons=tuple(weapon_line(w) for w in element.weapons),
                attributes=element.attributes,
                spells=element.spells,
                cost_each=each,
                damage=tuple((str(k), str(v)) for k, v in element.state.items()),
                note=element.note,
            ))  # fmt: skip
        for honour in unit.honours:
            note_rule(honour)
        units.append(RosterUnit(
            name=unit.name,
            elements=tuple(elements),
            honours=unit.honours,
            cohesion=unit.cohesion or "",
            note=unit.note,
            cost=float(unit_cost.total) if unit_cost is not None else None,
            profile=unit_profile(unit.stats, getattr(type(ruleset), "profile", None)),
        ))  # fmt: skip
    return Roster(
        force=force.name,
        ruleset=ruleset.name or ruleset.id,
        edition=str(force.edition or ruleset.edition or ""),
        units=tuple(units),
        rules=tuple(RuleLine(name, text) for name, text in sorted(rules.items())),
        findings=tuple(named(force, findings)),
        total=float(priced.total) if priced is not None else None,
        points_limit=force.points_limit,
        note=force.note,
    )
