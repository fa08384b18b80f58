"""Element facts as combat sees them: current die, attributes, surviving weapons.

A `Combatant` is a frozen snapshot built from a force `Element` plus its battle
state (current die after Resilient steps, weapons lost, Hit Points left, markers).
Resolution functions take Combatants and never touch the battle state directly.
"""

from __future__ import annotations

import re
from typing import Iterable, Literal

import attrs

from campaign.force import Element, Weapon
from campaign.rulesets.flat_out_war.attributes import AttributeTextError, ParsedAttribute, parse_attribute
from campaign.rulesets.flat_out_war.engine.rolls import die_sides

Edition = str  # editions.V17 or editions.SO

_PARAM = re.compile(r"(\d+)")


def _parsed(text: str) -> ParsedAttribute | None:
    try:
        return parse_attribute(text)
    except AttributeTextError:
        return None  # validation reports it; combat just ignores what it cannot read


def attribute_key(text: str) -> str:
    """The catalogue name, lower case, without inch marks: 'Heavy Armor' -> 'heavy armour',
    'Jump 8"' -> 'jump', 'Template: 4"' -> 'template: 4'."""
    parsed = _parsed(text)
    name = parsed.name if parsed else re.sub(r"[:\s]*\d+.*$", "", text.strip())
    return name.lower().replace('"', "").strip()


def attribute_param(text: str) -> int | None:
    """The number in 'Jump 8"', 'Multi-shot 3x', 'Reload: 2', 'Hit Points 2'."""
    parsed = _parsed(text)
    if parsed is not None:
        p = parsed.params
        for value in (p.inches, p.rate, p.turns, p.count):
            if value is not None:
                return value
        return None
    match = _PARAM.search(text)
    return int(match.group(1)) if match else None


def attribute_map(texts: Iterable[str]) -> dict[str, int | None]:
    return {attribute_key(t): attribute_param(t) for t in texts}


@attrs.frozen
class Arm:
    """A weapon as combat sees it."""

    name: str
    kind: Literal["melee", "ranged"]
    die: int
    range: int = 0
    mount: str = "main"
    traits: frozenset[str] = frozenset()
    shots: int = 1  # Multi-shot 2x/3x/4x
    uses: int | None = None  # Exhaustible: 4 in total
    reload: int = 0  # Reload: X owner-turns

    @property
    def template(self) -> str | None:
        for trait in self.traits:
            if trait.startswith("template: "):
                return trait.split(": ", 1)[1]
        return None

    def has(self, name: str) -> bool:
        return name in self.traits

    @property
    def counts_for_recovery(self) -> bool:
        """A-25: ranged weapons and mounted extras make an element multi-weapon."""
        return self.kind == "ranged" or self.mount in ("extra", "sponson", "turret")


def arm_from_weapon(weapon: Weapon, base_die: int, element_attrs: dict[str, int | None]) -> Arm:
    traits = attribute_map(weapon.traits)
    die = die_sides(weapon.die) if weapon.die else base_die
    shots = traits.get("multi-shot") or 1
    uses = 4 if "exhaustible weapon" in traits else None
    reload = traits.get("reload") or 0
    if weapon.mount == "main":
        # Element-level weapon attributes describe the main weapon.
        for key in ("multi-shot", "exhaustible weapon", "reload"):
            if key in element_attrs and key not in traits:
                traits[key] = element_attrs[key]
        shots = traits.get("multi-shot") or shots
        uses = 4 if "exhaustible weapon" in traits else uses
        reload = traits.get("reload") or reload
    return Arm(
        name=weapon.name,
        kind=weapon.kind,
        die=die,
        range=weapon.range,
        mount=weapon.mount,
        traits=frozenset(traits),
        shots=int(shots),
        uses=uses,
        reload=int(reload),
    )


@attrs.frozen
class Combatant:
    name: str
    base_die: int  # as created
    die: int  # current base die (Resilient steps it down)
    kind: str = "trooper"
    mounted: bool = False
    large: bool = False
    attributes: frozenset[str] = frozenset()
    params: tuple[tuple[str, int], ...] = ()
    weapons: tuple[Arm, ...] = ()  # surviving weapons
    airborne: bool = False
    prone: bool = False
    hit_points: int = 0  # Hit Points left
    down: bool = False  # Reliant, failed and waiting

    def has(self, name: str) -> bool:
        return name in self.attributes

    def param(self, name: str) -> int | None:
        return dict(self.params).get(name)

    @property
    def ranged(self) -> tuple[Arm, ...]:
        return tuple(w for w in self.weapons if w.kind == "ranged")

    @property
    def melee(self) -> tuple[Arm, ...]:
        return tuple(w for w in self.weapons if w.kind == "melee")

    @property
    def recovery_weapons(self) -> tuple[Arm, ...]:
        return tuple(w for w in self.weapons if w.counts_for_recovery)

    def weapon_has(self, weapon: Arm | None, name: str) -> bool:
        """An attribute bought for the element or for this weapon."""
        return self.has(name) or (weapon is not None and weapon.has(name))


def combatant_from_element(
    element: Element,
    *,
    die: int | None = None,
    lost_weapons: Iterable[str] = (),
    hit_points: int | None = None,
    airborne: bool = False,
    prone: bool = False,
    down: bool = False,
) -> Combatant:
    """The combat view of a force element with its current battle state."""
    if not element.die:
        raise ValueError(f"element {element.name!r} has no base die")
    base = die_sides(element.die)
    amap = attribute_map(element.attributes)
    gone = set(lost_weapons)
    arms = tuple(
        arm_from_weapon(w, base, amap) for w in element.weapons if w.name not in gone
    )
    hp = hit_points if hit_points is not None else int(amap.get("hit points") or 0)
    return Combatant(
        name=element.name,
        base_die=base,
        die=die or base,
        kind=element.kind,
        mounted=element.mounted,
        large=element.large,
        attributes=frozenset(amap),
        params=tuple(sorted((k, v) for k, v in amap.items() if v is not None)),
        weapons=arms,
        airborne=airborne,
        prone=prone,
        hit_points=hp,
        down=down,
    )
