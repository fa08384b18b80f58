"""Structural edits of a force, as pure functions the force builder calls.

Forces are frozen attrs objects; every edit returns a new force, so the builder can
compare with the saved one to know whether there is anything to lose. A place in the
force is (unit index, element index or None for the unit itself).
"""

from __future__ import annotations

import attrs

from campaign.force import Element, Force, Unit

Place = tuple[int, int | None]


def _with_units(force: Force, units: list[Unit]) -> Force:
    return attrs.evolve(force, units=tuple(units))


def _with_elements(force: Force, unit: int, elements: list[Element]) -> Force:
    units = list(force.units)
    units[unit] = attrs.evolve(units[unit], elements=tuple(elements))
    return _with_units(force, units)


def unique_name(name: str, taken: set[str]) -> str:
    """`name`, or `name (2)`, `name (3)`... whichever is free."""
    if name not in taken:
        return name
    n = 2
    while f"{name} ({n})" in taken:
        n += 1
    return f"{name} ({n})"


def add_unit(force: Force, unit: Unit, after: int | None = None) -> tuple[Force, Place]:
    taken = {u.name for u in force.units}
    unit = attrs.evolve(unit, name=unique_name(unit.name, taken))
    units = list(force.units)
    at = len(units) if after is None else after + 1
    units.insert(at, unit)
    return _with_units(force, units), (at, None)


def add_element(force: Force, unit: int, element: Element, after: int | None = None) -> tuple[Force, Place]:
    elements = list(force.units[unit].elements)
    at = len(elements) if after is None else after + 1
    elements.insert(at, element)
    return _with_elements(force, unit, elements), (unit, at)


def replace_element(force: Force, unit: int, index: int, element: Element) -> Force:
    elements = list(force.units[unit].elements)
    elements[index] = element
    return _with_elements(force, unit, elements)


def replace_unit(force: Force, unit: int, new: Unit) -> Force:
    units = list(force.units)
    units[unit] = new
    return _with_units(force, units)


def rename_unit(force: Force, unit: int, name: str) -> Force:
    units = list(force.units)
    units[unit] = attrs.evolve(units[unit], name=name)
    return _with_units(force, units)


def duplicate(force: Force, place: Place) -> tuple[Force, Place]:
    unit, element = place
    if element is None:
        return add_unit(force, force.units[unit], after=unit)
    return add_element(force, unit, force.units[unit].elements[element], after=element)


def delete(force: Force, place: Place) -> tuple[Force, Place | None]:
    """Remove a unit or element; returns the place the cursor should go to next."""
    unit, element = place
    if element is None:
        units = list(force.units)
        del units[unit]
        nxt: Place | None = (min(unit, len(units) - 1), None) if units else None
        return _with_units(force, units), nxt
    elements = list(force.units[unit].elements)
    del elements[element]
    nxt = (unit, min(element, len(elements) - 1)) if elements else (unit, None)
    return _with_elements(force, unit, elements), nxt


def move(force: Force, place: Place, step: int) -> tuple[Force, Place]:
    """Move a unit among units, or an element within its unit, by `step` (-1 up, +1 down)."""
    unit, element = place
    if element is None:
        units = list(force.units)
        to = unit + step
        if not 0 <= to < len(units):
            return force, place
        units[unit], units[to] = units[to], units[unit]
        return _with_units(force, units), (to, None)
    elements = list(force.units[unit].elements)
    to = element + step
    if not 0 <= to < len(elements):
        return force, place
    elements[element], elements[to] = elements[to], elements[element]
    return _with_elements(force, unit, elements), (unit, to)


def describe(place: Place, force: Force) -> str:
    unit, element = place
    if element is None:
        return f"unit {force.units[unit].name}"
    return f"element {force.units[unit].elements[element].name} of {force.units[unit].name}"


def path_of(place: Place) -> str:
    """The key path findings use: units[2] or units[2].elements[0]."""
    unit, element = place
    return f"units[{unit}]" if element is None else f"units[{unit}].elements[{element}]"
