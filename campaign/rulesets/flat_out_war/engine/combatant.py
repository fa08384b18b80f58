"""Element facts as combat sees them: current die, attributes, surviving weapons.

A `Combatant` is a frozen snapshot built from a force `Element` plus its battle
state (current die after Resilient steps, weapons lost, Hit Points left, markers).
Resolution functions take Combatants and never touch the battle state directly.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Iterable, Literal

import attrs

from campaign.engine.quick import Kept, kept, quick_init
from campaign.force import Element, Weapon
from campaign.rulesets.flat_out_war.attributes import AttributeTextError, ParsedAttribute, parse_attribute
from campaign.rulesets.flat_out_war.reading import placed_attributes
from campaign.rulesets.flat_out_war.engine.rolls import die_sides

Edition = str  # editions.V17 or editions.SO

_PARAM = re.compile(r"(\d+)")


def _parsed(text: str) -> ParsedAttribute | None:
    try:
        return parse_attribute(text)
    except AttributeTextError:
        return None  # validation reports it; combat just ignores what it cannot read


@functools.lru_cache(maxsize=4096)
def attribute_key(text: str) -> str:
    """The catalogue name, lower case, without inch marks: 'Heavy Armor' -> 'heavy armour',
    'Jump 8"' -> 'jump', 'Template: 4"' -> 'template: 4'."""
    parsed = _parsed(text)
    name = parsed.name if parsed else re.sub(r"[:\s]*\d+.*$", "", text.strip())
    return name.lower().replace('"', "").strip()


@functools.lru_cache(maxsize=4096)
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


@quick_init
@attrs.frozen
class Arm(Kept):
    """A weapon as combat sees it."""

    name: str
    kind: Literal["melee", "ranged"]
    die: int
    range: int = 0
    index: int = 0  # position in the element's weapons (names may repeat)
    mount: str = "main"
    traits: frozenset[str] = frozenset()
    shots: int = 1  # Multi-shot 2x/3x/4x
    uses: int | None = None  # Exhaustible: 4 in total
    reload: int = 0  # Reload: X owner-turns

    @kept  # (an Arm never changes: asked for on every attack, worked out once)
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


def arm_from_weapon(weapon: Weapon, index: int, base_die: int, traits: dict[str, int | None]) -> Arm:
    """`traits`: the weapon's own traits plus the weapon-bound attributes written on the
    element that apply to it (reading.placed_attributes decides which)."""
    die = die_sides(weapon.die) if weapon.die else base_die
    return Arm(
        name=weapon.name,
        kind=weapon.kind,
        die=die,
        range=weapon.range,
        index=index,
        mount=weapon.mount,
        traits=frozenset(traits),
        shots=int(traits.get("multi-shot") or 1),
        uses=4 if "exhaustible weapon" in traits else None,
        reload=int(traits.get("reload") or 0),
    )


@quick_init
@attrs.frozen
class Combatant(Kept):
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
    faced: bool = False  # [SO] turned to meet this activation's charge: attacked from its front
    lucky_ready: bool = False  # Lucky and its re-roll still unused (the odds follow it, A-67)
    key: str = ""  # the battle's element id, when there is a battle

    def has(self, name: str) -> bool:
        return name in self.attributes

    def param(self, name: str) -> int | None:
        return self._params.get(name)

    # A Combatant is a frozen view, asked for the same derived values again and again in
    # every attack and check: each is worked out on first use and kept with the view.
    @kept
    def memo(self) -> dict[Any, Any]:
        """Answers worked out from this view alone (recovery plans), by their askers' keys:
        the view never changes, so neither do they."""
        return {}

    @kept
    def _params(self) -> dict[str, int]:
        return dict(self.params)

    @kept
    def ranged(self) -> tuple[Arm, ...]:
        return tuple(w for w in self.weapons if w.kind == "ranged")

    @kept
    def melee(self) -> tuple[Arm, ...]:
        return tuple(w for w in self.weapons if w.kind == "melee")

    @kept
    def recovery_weapons(self) -> tuple[Arm, ...]:
        return tuple(w for w in self.weapons if w.counts_for_recovery)

    @kept
    def _element_template(self) -> str | None:
        own = [a.split(": ", 1)[1] for a in self.attributes if a.startswith("template: ")]
        return own[0] if own else None

    @kept
    def flame(self) -> Arm | None:
        """The first weapon with a Flame template (in melee it rolls on every covered element, A-20)."""
        return next((w for w in self.weapons if self.template_of(w) == "flame"), None)

    def template_of(self, weapon: Arm) -> str | None:
        """The weapon's template: its own trait, or one written on the element, which
        belongs to the element's main ranged weapon."""
        if weapon.template:
            return weapon.template
        own = self._element_template
        if own is not None and self.ranged and weapon.index == self.ranged[0].index:
            return own
        return None

    def weapon_has(self, weapon: Arm | None, name: str) -> bool:
        """An attribute bought for the element or for this weapon."""
        return name in self.attributes or (weapon is not None and name in weapon.traits)


def element_traits(element: Element) -> tuple[dict[str, int | None], list[dict[str, int | None]]]:
    """Element-level attributes and each weapon's traits, weapon-bound attributes
    placed on the weapon they price (Multi-shot on the main ranged weapon...)."""
    own: dict[str, int | None] = {}
    per_weapon: list[dict[str, int | None]] = [{} for _ in element.weapons]
    placed, _bad = placed_attributes(element)
    for p in placed:
        key = attribute_key(p.parsed.text)
        value = attribute_param(p.parsed.text)
        if p.weapon is not None:
            per_weapon[p.weapon][key] = value
        if p.weapon is None or not p.path.startswith("weapons"):
            own.setdefault(key, value)
        linked = p.parsed.params.linked  # [SO] Activate: the switched attribute is the element's too
        if linked is not None:
            own.setdefault(attribute_key(linked.text), attribute_param(linked.text))
    return own, per_weapon


def activate_links(element: Element) -> list[str]:
    """[SO] Activate: the attributes it switches (keys, like 'stealth')."""
    out = []
    for p in placed_attributes(element)[0]:
        linked = p.parsed.params.linked
        if p.parsed.spec.name == "Activate" and linked is not None:
            out.append(attribute_key(linked.text))
    return out


Traits = tuple[dict[str, int | None], list[dict[str, int | None]]]
_STATIC: dict[tuple[tuple[str, ...], tuple[Weapon, ...]], tuple[Traits, list[str]]] = {}


def static_traits(element: Element) -> tuple[Traits, list[str]]:
    """`element_traits` and `activate_links` of the element, read once for each set of
    attribute texts and weapons (all they depend on) and shared: callers must not change them.
    Combat asks for them for every element of every battle; parsing them each time was
    most of the cost of starting a battle."""
    key = (element.attributes, element.weapons)
    found = _STATIC.get(key)
    if found is None:
        if len(_STATIC) >= 4096:  # forces edited for hours in one process: keep the cache bounded
            _STATIC.clear()
        found = _STATIC[key] = (element_traits(element), activate_links(element))
    return found


_ARMS: dict[tuple[tuple[str, ...], tuple[Weapon, ...], int], tuple[object, tuple[Arm, ...]]] = {}


def _arms(element: Element, base: int, per_weapon: list[dict[str, int | None]]) -> tuple[Arm, ...]:
    """Every weapon of the element as an Arm, before losses and uses: made once for each
    set of weapons and base die with the same traits (static_traits' shared list) and
    shared, as a battle builds new combat views of its elements all the time."""
    key = (element.attributes, element.weapons, base)
    found = _ARMS.get(key)
    if found is None or found[0] is not per_weapon:
        if len(_ARMS) >= 4096:  # keep the cache bounded, as static_traits does
            _ARMS.clear()
        arms = tuple(arm_from_weapon(w, i, base, per_weapon[i]) for i, w in enumerate(element.weapons))
        found = _ARMS[key] = (per_weapon, arms)
    return found[1]


def combatant_from_element(
    element: Element,
    *,
    die: int | None = None,
    lost_weapons: Iterable[int] = (),
    uses: dict[int, int] | None = None,
    hit_points: int | None = None,
    airborne: bool = False,
    prone: bool = False,
    down: bool = False,
    faced: bool = False,
    extra_attributes: Iterable[str] = (),
    key: str = "",
    traits: Traits | None = None,
    switched_off: Iterable[str] = (),
) -> Combatant:
    """The combat view of a force element with its current battle state."""
    if not element.die:
        raise ValueError(f"element {element.name!r} has no base die")
    base = die_sides(element.die)
    own, per_weapon = traits if traits is not None else static_traits(element)[0]
    gone = set(lost_weapons)
    arms = []
    for i, arm in enumerate(_arms(element, base, per_weapon)):
        if i in gone:
            continue
        if uses is not None and i in uses and arm.uses is not None:
            arm = attrs.evolve(arm, uses=uses[i])
        arms.append(arm)
    hp = hit_points if hit_points is not None else int(own.get("hit points") or 0)
    names = (set(own) | {attribute_key(a) for a in extra_attributes}) - set(switched_off)
    return Combatant(
        name=element.name,
        base_die=base,
        die=die or base,
        kind=element.kind,
        mounted=element.mounted,
        large=element.large,
        attributes=frozenset(names),
        params=tuple(sorted((k, v) for k, v in own.items() if v is not None)),
        weapons=tuple(arms),
        airborne=airborne,
        prone=prone,
        hit_points=hp,
        down=down,
        faced=faced,
        key=key,
    )
