"""The force container, shared by every rule system.

A force is units of elements. The fields here are the ones most rule systems share
(a die, a MOVE, weapons, attributes as text); anything a ruleset needs beyond them
goes in `stats` (FigWars 3's TQ/MOV/DEF/DP, the d10 rules' attack and save dice), and a
unit's own fields in `Unit.stats` (the d10 rules' morale grade, command radius...).
Attribute and weapon-trait strings are kept exactly as the player wrote them
("Jump 8\"", "Multi-shot 3x", "Reload: 2"); the ruleset parses them, so a force file
round-trips byte for byte.
"""

from __future__ import annotations

from typing import Literal

import attrs

from campaign.frozen import frozen

WeaponKind = Literal["melee", "ranged"]
Mount = Literal["main", "extra", "sponson", "turret"]
ElementKind = Literal["trooper", "vehicle"]


@frozen
class Weapon:
    name: str
    kind: WeaponKind = "melee"
    die: str | None = None  # None: the element's base die
    range: int = 0  # the priced (short) range in inches; long range is twice this
    mount: Mount = "main"
    traits: tuple[str, ...] = ()  # weapon-level attributes ("Exhaustible", "Reload: 2", ...)


@frozen
class Element:
    name: str
    count: int = 1  # identical elements sharing this entry
    die: str | None = None
    move: int | None = None
    kind: ElementKind = "trooper"
    mounted: bool = False
    large: bool = False
    weapons: tuple[Weapon, ...] = ()
    attributes: tuple[str, ...] = ()
    spells: tuple[str, ...] = ()  # chosen spells or powers, for Magic
    stats: dict[str, int | str] = attrs.field(factory=dict)  # other rule systems' traits
    # Lasting campaign state: how many of `count` are lost, and damage carried over
    # (e.g. a Resilient element's reduced die). Empty in a fresh force.
    lost: int = 0
    state: dict[str, int | str] = attrs.field(factory=dict)
    note: str = ""

    @property
    def alive(self) -> int:
        return self.count - self.lost


@frozen
class Unit:
    name: str
    elements: tuple[Element, ...] = ()
    cohesion: str | None = None  # None: the ruleset's default for the unit's kind
    honours: tuple[str, ...] = ()
    note: str = ""
    # a ruleset's fields of the unit as a whole (its profile's `unit` specs: a d10 unit's grade...)
    stats: dict[str, int | str] = attrs.field(factory=dict)


@frozen
class Force:
    name: str
    ruleset: str
    edition: str | None = None
    units: tuple[Unit, ...] = ()
    points_limit: int | None = None
    options: dict[str, int | str | bool] = attrs.field(factory=dict)  # ruleset options (A-56 ...)
    note: str = ""

    def unit(self, name: str) -> Unit:
        for unit in self.units:
            if unit.name == name:
                return unit
        raise KeyError(name)
