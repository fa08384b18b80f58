"""A trooper's profile and its derived traits (spec 3.2-3.3, 4.2, PR-11).

DEF = TQ + armour + shield + natural + enhancement, then +1d for a hero and +1d when
mounted. COM = 2 x TQ inches (TQ 0: 1), Comms +4, Grizzled +1. A force file keeps the
trooper's numbers in an element's `stats` (tq, mov, dp, def) and its equipment by
catalogue name (armour, shield, natural, enhancement, mount); `def` is the printed DEF,
which the rules replace by the derived one when the two disagree (PR-11) unless the
ruleset option `printed_def` is set.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from campaign.force import Element
from campaign.rulesets.figwars3 import traits
from campaign.rulesets.figwars3.abilities import UnknownAbility, parse_ability
from campaign.rulesets.figwars3.fields import DP, TQ
from campaign.rulesets.figwars3.weapons import MELEE, RANGED, UNARMED, MeleeWeapon, RangedWeapon

STAT_KEYS: tuple[str, ...] = ("tq", "mov", "dp", "def", "armour", "shield", "natural", "enhancement", "mount", "arc")


class ProfileError(ValueError):
    """A trooper entry the rules cannot read; the message names the field."""


def derived_def(
    tq: int,
    armour: str = "none",
    shield: str = "none",
    natural: str = "none",
    enhancement: int = 0,
    hero: bool = False,
    mounted: bool = False,
) -> int:
    return (
        tq
        + traits.ARMOUR[armour].dice
        + traits.SHIELDS[shield].dice
        + traits.NATURAL[natural].dice
        + enhancement
        + (traits.HERO_DEF if hero else 0)
        + (traits.MOUNTED_DEF if mounted else 0)
    )


def derived_com(tq: int, comms: bool = False, grizzled: bool = False) -> int:
    base = 2 * tq if tq > 0 else 1
    return base + (traits.COMMS_BONUS if comms else 0) + (traits.GRIZZLED_BONUS if grizzled else 0)


@attrs.frozen
class Profile:
    name: str
    tq: int
    mov: int
    dp: int  # starting DP (a hero's +1 included)
    defence: int  # the DEF the rules use
    com: int
    abilities: frozenset[str] = frozenset()
    flight: int = 0
    hero: bool = False
    sniper: bool = False  # a trained, designated sniper (11.15)
    mounted: bool = False
    shield: str = "none"
    ranged: tuple[RangedWeapon, ...] = ()
    melee: tuple[MeleeWeapon, ...] = ()
    printed_def: int | None = None  # the DEF the entry prints
    composed_def: int | None = None  # the DEF its equipment adds up to (hero/mount included)

    def has(self, ability: str) -> bool:
        return ability in self.abilities

    @property
    def grade(self) -> str:
        return traits.TQ_GRADES.get(self.tq, "")

    def ranged_weapon(self, name: str | None = None) -> RangedWeapon:
        if not self.ranged:
            raise ProfileError(f"{self.name} carries no ranged weapon")
        if name is None:
            return self.ranged[0]
        for weapon in self.ranged:
            if weapon.name == name:
                return weapon
            for round_ in weapon.ammo:
                if round_.name == name or f"{weapon.name}: {round_.name}" == name:
                    return round_
        raise ProfileError(f"{self.name} carries no ranged weapon {name!r}")

    def melee_weapons(self, names: tuple[str, ...] = ()) -> tuple[MeleeWeapon, ...]:
        """The weapons it fights with: the named ones (pistols allowed), else its best."""
        if not names:
            return (max(self.melee, key=lambda w: w.atk),) if self.melee else (UNARMED,)
        out = []
        for name in names:
            found = next((w for w in self.melee if w.name == name), None)
            if found is None:
                pistol = next((w for w in self.ranged if w.name == name and w.pistol), None)
                if pistol is None:
                    raise ProfileError(f"{self.name} has no melee weapon or pistol {name!r}")
                found = MeleeWeapon(pistol.name, pistol.atk or 0)  # PR-44
            out.append(found)
        return tuple(out)


def _int(stats: Mapping[str, int | str], key: str, where: str, default: int | None = None) -> int:
    raw = stats.get(key, default)
    if raw is None:
        raise ProfileError(f"{where}: stats.{key} is required (a whole number)")
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ProfileError(f"{where}: stats.{key} must be a whole number, not {raw!r}")
    return raw


def _name(stats: Mapping[str, int | str], key: str, table: Mapping[str, object], where: str) -> str:
    raw = stats.get(key, "none")
    if not isinstance(raw, str) or raw not in table:
        raise ProfileError(f"{where}: stats.{key} {raw!r} is not one of: {', '.join(table)}")
    return raw


def profile_of(element: Element, where: str = "", printed_def: bool = False) -> Profile:
    """The trooper profile of a force element; ProfileError names what is wrong."""
    where = where or element.name
    stats = element.stats
    unknown = sorted(set(stats) - set(STAT_KEYS))
    if unknown:
        raise ProfileError(f"{where}: unknown stat {unknown[0]!r} (expected one of {', '.join(STAT_KEYS)})")
    tq = _int(stats, "tq", where)
    if TQ.check(tq):
        raise ProfileError(f"{where}: TQ runs from {TQ.min} (Green) to {TQ.max} (Elite), not {tq}")
    dp = _int(stats, "dp", where)
    if DP.check(dp):
        raise ProfileError(f"{where}: {DP.check(dp)}")
    armour = _name(stats, "armour", traits.ARMOUR, where)
    shield = _name(stats, "shield", traits.SHIELDS, where)
    natural = _name(stats, "natural", traits.NATURAL, where)
    enhancement = _int(stats, "enhancement", where, 0)
    mount = stats.get("mount")
    if mount is not None and mount not in traits.MOUNT_MOV:
        raise ProfileError(f"{where}: stats.mount {mount!r} is not one of: {', '.join(traits.MOUNT_MOV)}")
    mounted = mount is not None or element.mounted
    mov = _int(stats, "mov", where, traits.MOUNT_MOV.get(str(mount)) if mount else element.move)
    abilities: set[str] = set()
    flight = 0
    for text in element.attributes:
        try:
            parsed = parse_ability(text)
        except UnknownAbility as exc:
            raise ProfileError(f"{where}: {exc}") from None
        abilities.add(parsed.name)
        if parsed.name == "Flight":
            flight = parsed.value or 6
    hero = "Hero" in abilities
    if hero:
        abilities.update(traits.HERO_ABILITIES)
    composed = any(stats.get(k, "none") != "none" for k in ("armour", "shield", "natural")) or enhancement
    composed_def = (
        derived_def(tq, armour, shield, natural, enhancement, hero, mounted)
        if composed or "def" not in stats
        else None
    )
    printed = _int(stats, "def", where) if "def" in stats else None
    if printed is not None:
        printed_total = printed + (traits.HERO_DEF if hero else 0) + (traits.MOUNTED_DEF if mounted else 0)
    else:
        printed_total = None
    if composed_def is None or (printed_def and printed_total is not None):
        defence = printed_total if printed_total is not None else 0
    else:
        defence = composed_def
    ranged_w: list[RangedWeapon] = []
    melee_w: list[MeleeWeapon] = []
    for i, weapon in enumerate(element.weapons):
        table: Mapping[str, RangedWeapon | MeleeWeapon] = RANGED if weapon.kind == "ranged" else MELEE
        found = table.get(weapon.name)
        if found is None:
            raise ProfileError(f"{where}: weapons[{i}]: no {weapon.kind} weapon {weapon.name!r} in FigWars 3's lists")
        if isinstance(found, RangedWeapon):
            ranged_w.append(found)
        else:
            melee_w.append(found)
    return Profile(
        name=element.name,
        tq=tq,
        mov=mov,
        dp=dp + (traits.HERO_DP if hero else 0),
        defence=defence,
        com=derived_com(tq, "Comms" in abilities, "Grizzled" in abilities),
        abilities=frozenset(abilities),
        flight=flight,
        hero=hero,
        sniper="Trained Sniper" in abilities and tq >= 1,
        mounted=mounted,
        shield=shield,
        ranged=tuple(ranged_w),
        melee=tuple(melee_w),
        printed_def=printed,
        composed_def=composed_def,
    )


def carried_mov(profile: Profile) -> int:
    """MOV after the heaviest carried weapon's penalty (11.13): Strong removes one level;
    never below 2" (PR-17)."""
    worst = 0
    for weapon in profile.ranged:
        level = {"": 0, "H": 0, "H1": 1, "H2": 2}[weapon.heavy]
        if profile.has("Strong"):
            level = max(level - 1, 0)
        worst = max(worst, level)
    return max(profile.mov - worst, traits.MOV_MIN) if worst else profile.mov
