"""Reading a generic Element the Flat Out War way: its dice, its weapons and its
attributes with the weapon each one belongs to.

Where weapon-level things are written
-------------------------------------
* A weapon's mounting is `Weapon.mount`: `main` (the element's own melee and/or
  ranged weapon), `extra`, `sponson` or `turret`. The attributes "Extra weapon",
  "Sponson x2" and ([SO]) "Turret" in `Element.attributes` are then only labels:
  their price comes from the mounted weapons. [1.7] Turret is a flat +1DAC; a
  turret-mounted weapon there is priced like a main weapon.
* Attributes that are priced against one weapon (Exhaustible Weapon, Multi-shot,
  Reload, Capture, Ensnare, Inaccurate) belong in that weapon's `traits`. Written in
  `Element.attributes` instead, they apply to the element's main ranged weapon (the
  first ranged weapon mounted `main`, else the first ranged weapon; Exhaustible and
  Reload fall back to the first weapon of any kind).
* Any other attribute may sit in either list; it is an element attribute priced
  once per time it is written (Template: 4" on a weapon's traits says which weapon
  uses the template, the price is the same).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from campaign.force import Element, Weapon
from campaign.frozen import frozen
from campaign.rulesets.flat_out_war.attributes import (
    AttributeTextError,
    ParsedAttribute,
    parse_attribute,
)
from campaign.rulesets.flat_out_war.dice import normalize_die

if TYPE_CHECKING:  # made only for text that cannot be read (the sample forces have none)
    from campaign.rulesets.flat_out_war.bad_text import BadText

# Weapon-bound attributes that may also sit on a melee weapon when there is no ranged one.
_ANY_WEAPON = frozenset({"Exhaustible Weapon", "Reload"})


@frozen
class Placed:
    """One attribute of an element, with where it was written and what it applies to."""

    parsed: ParsedAttribute
    path: str  # "attributes[2]" or "weapons[0].traits[1]" (relative to the element)
    weapon: int | None  # index into element.weapons for weapon-bound attributes


def base_die(element: Element) -> str | None:
    return normalize_die(element.die) if element.die is not None else None


def weapon_die(element: Element, weapon: Weapon) -> str | None:
    """The weapon's own die, or the element's base die when the weapon names none."""
    if weapon.die is None:
        return base_die(element)
    return normalize_die(weapon.die)


def main_ranged_index(element: Element) -> int | None:
    ranged = [i for i, w in enumerate(element.weapons) if w.kind == "ranged"]
    for i in ranged:
        if element.weapons[i].mount == "main":
            return i
    return ranged[0] if ranged else None


def has_ranged_weapon(element: Element) -> bool:
    return any(w.kind == "ranged" for w in element.weapons)


def _default_weapon(element: Element, parsed: ParsedAttribute) -> int | None:
    index = main_ranged_index(element)
    if index is None and parsed.spec.name in _ANY_WEAPON and element.weapons:
        return 0
    return index


def placed_attributes(element: Element) -> tuple[list[Placed], list[BadText]]:
    """Every readable attribute of the element, and the texts that could not be read."""
    placed: list[Placed] = []
    bad: list[BadText] = []

    def read(text: str, path: str) -> ParsedAttribute | None:
        try:
            return parse_attribute(text)
        except AttributeTextError as exc:
            from campaign.rulesets.flat_out_war.bad_text import BadText

            bad.append(BadText(path, exc))
            return None

    for i, text in enumerate(element.attributes):
        path = f"attributes[{i}]"
        parsed = read(text, path)
        if parsed is not None:
            index = _default_weapon(element, parsed) if parsed.spec.weapon_bound else None
            placed.append(Placed(parsed, path, index))
    for w, weapon in enumerate(element.weapons):
        for t, text in enumerate(weapon.traits):
            path = f"weapons[{w}].traits[{t}]"
            parsed = read(text, path)
            if parsed is not None:
                placed.append(Placed(parsed, path, w if parsed.spec.weapon_bound else None))
    return placed, bad


def attribute_names_of(element: Element) -> set[str]:
    """Canonical names of the element's readable attributes (Activate's target included)."""
    names: set[str] = set()
    for p in placed_attributes(element)[0]:
        names.add(p.parsed.spec.name)
        if p.parsed.params.linked is not None:
            names.add(p.parsed.params.linked.spec.name)
    return names
