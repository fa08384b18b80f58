"""Vehicle design (spec 4.4, 17.9, PR-13, PR-19, PR-27): the design tables, the values
derived from them, the weapon mounts, and the findings on a design.

A vehicle in a force file is an element of kind "vehicle" whose `stats` name its design:
`siz`, `tq` (crew), `locomotion`, `armour` (vehicle armour) with `armour_mod` (+1
reinforced, -1 worn), `role` (troop carrier or battle vehicle), `open_topped` (0/1),
`trade` (carrier: DP bought with CAP; battle vehicle: CAP bought with DP), `mount_cap`
(how much of the mounts' cost comes out of CAP; the rest is DP) and `crew` (the CAP
slots that are crew, PR-27). Printed values (`mov`, `def`, `dp`, `cap`, `ram`) may be
given; the rules use the derived ones and a finding names any difference.

Weapons are the element's ranged weapons; the mount is the weapon's `mount` ("turret",
"sponson", or "main" for an integral weapon) with the traits "restricted" (a 90-degree
sponson or a 180-degree turret) or "pintle" (an external mount, free).
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from campaign.findings import Finding
from campaign.force import Element, Weapon
from campaign.rulesets.figwars3.abilities import UnknownAbility, parse_ability
from campaign.rulesets.figwars3.profile import Profile, ProfileError, derived_com
from campaign.rulesets.figwars3.vehicle_weapons import MOUNTABLE
from campaign.rulesets.figwars3.weapons import MELEE, MeleeWeapon, RangedWeapon

# 4.4 MOV by locomotion (also the roster's "Movement Type" list, 17.9).
LOCOMOTION: dict[str, int] = {
    "walker short": 6,
    "walker tall": 8,
    "tracked": 6,
    "wheeled": 9,
    "hover": 12,
    "flight slow": 12,
    "flight fast": 18,
}
# 4.4 vehicle armour -> DEF dice (mecha use the same table, 4.5).
VEHICLE_ARMOUR: dict[str, int] = {
    "none": 1,
    "security armor": 3,
    "light battle armor": 5,
    "medium battle armor": 7,
    "heavy battle armor": 9,
    "super heavy battle armor": 11,
}
ARMOUR_MODS: tuple[int, ...] = (-1, 0, 1)  # worn / as listed / reinforced
ROLES: tuple[str, ...] = ("troop carrier", "battle vehicle")


@attrs.frozen
class MountKind:
    name: str
    arc: int  # degrees; 0: whatever the weapon can see (pintle)
    cost: int  # DP and/or CAP
    limit: int | None  # per vehicle; None: any number that fit


MOUNTS: dict[str, MountKind] = {
    "turret": MountKind("turret", 360, 3, 1),
    "restricted turret": MountKind("restricted turret", 180, 2, None),
    "sponson": MountKind("sponson", 180, 2, None),
    "restricted sponson": MountKind("restricted sponson", 90, 1, None),
    "integral": MountKind("integral", 45, 0, None),
    "pintle": MountKind("pintle", 0, 0, None),
}
TURRET_LIMIT = 1
CREW_TQ = range(0, 4)
DEFAULT_CREW_TQ = 1  # PR-19: the Hedgehog prints no crew TQ


def mount_of(weapon: Weapon) -> str:
    """The mount a force-file weapon names (see the module docstring)."""
    traits = {t.strip().lower() for t in weapon.traits}
    if "pintle" in traits:
        return "pintle"
    restricted = "restricted" in traits
    if weapon.mount == "turret":
        return "restricted turret" if restricted else "turret"
    if weapon.mount == "sponson":
        return "restricted sponson" if restricted else "sponson"
    return "integral"


def base_dp_cap(role: str, siz: int) -> tuple[int, int]:
    """4.4: a troop carrier has 3/4 SIZ DP and SIZ CAP; a battle vehicle SIZ DP, 1/2 SIZ CAP."""
    if role == "troop carrier":
        return (3 * siz) // 4, siz
    return siz, siz // 2


def ram_rating(siz: int, mov: int) -> int:
    """RAM = SIZ / 2 rounded down + MOV / 3 rounded up (4.4)."""
    return siz // 2 + -(-mov // 3)


def free_mount_cost(role: str, mounts: tuple[str, ...]) -> int:
    """A battle vehicle's free mount: one turret, or one sponson, or a pair of restricted
    sponsons -- whichever saves the most."""
    if role != "battle vehicle":
        return 0
    options = [0]
    if "turret" in mounts:
        options.append(MOUNTS["turret"].cost)
    if "sponson" in mounts or "restricted turret" in mounts:
        options.append(MOUNTS["sponson"].cost)
    restricted = mounts.count("restricted sponson")
    if restricted:
        options.append(MOUNTS["restricted sponson"].cost * min(restricted, 2))
    return max(options)


def allowance_used(weapons: tuple[tuple[RangedWeapon, str], ...]) -> int:
    """PR-13: one shared budget of DP; normal weapons cost 1, heavy ones 2, pintles 0."""
    return sum(0 if mount == "pintle" else (2 if w.heavy else 1) for w, mount in weapons)


@attrs.frozen
class MountedWeapon:
    weapon: RangedWeapon
    mount: str

    @property
    def arc(self) -> int:
        return MOUNTS[self.mount].arc


@attrs.frozen
class Machine:
    """A vehicle's or mecha's design with its derived values (the rules use these)."""

    name: str
    kind: str  # "vehicle" or "mecha"
    tq: int  # crew or pilot TQ
    siz: int
    mov: int
    defence: int
    dp: int
    cap: int = 0
    ram: int = 0
    role: str = ""
    locomotion: str = ""
    open_topped: bool = False
    crew: int = 0  # CAP slots held by crew (gunners, co-pilots); the driver is extra
    weapons: tuple[MountedWeapon, ...] = ()
    melee: tuple[MeleeWeapon, ...] = ()
    hero_pilot: bool = False
    build: str = ""  # mecha: slender / normal / stocky
    shield: bool = False  # mecha shield, +2d DEF
    second_mode: str = ""  # mecha: a second locomotion from the vehicle table
    second_mov: int = 0
    jump_jets: bool = False
    abilities: frozenset[str] = frozenset()
    findings: tuple[Finding, ...] = ()

    @property
    def vehicle(self) -> bool:
        return self.kind == "vehicle"

    def profile(self) -> Profile:
        """The model as attacks see it: crew/pilot TQ, the machine's DEF and DP, its weapons.
        A hero pilot gives his re-roll but no DEF or DP (PR-16)."""
        return Profile(
            name=self.name,
            tq=self.tq,
            mov=self.mov,
            dp=self.dp,
            defence=self.defence,
            com=derived_com(self.tq),
            abilities=self.abilities,
            hero=self.hero_pilot,
            ranged=tuple(m.weapon for m in self.weapons),
            melee=self.melee,
        )


VEHICLE_STATS: tuple[str, ...] = (
    "tq", "siz", "locomotion", "armour", "armour_mod", "role", "open_topped", "trade", "mount_cap", "crew",
    "mov", "def", "dp", "cap", "ram",
)


def _int(stats: Mapping[str, int | str], key: str, where: str, default: int | None = None) -> int:
    raw = stats.get(key, default)
    if raw is None:
        raise ProfileError(f"{where}: stats.{key} is required (a whole number)")
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ProfileError(f"{where}: stats.{key} must be a whole number, not {raw!r}")
    return raw


def _choice(stats: Mapping[str, int | str], key: str, table: Mapping[str, object] | tuple[str, ...], where: str, default: str) -> str:
    raw = stats.get(key, default)
    if not isinstance(raw, str) or raw not in table:
        raise ProfileError(f"{where}: stats.{key} {raw!r} is not one of: {', '.join(table)}")
    return raw


def _printed(stats: Mapping[str, int | str], derived: dict[str, int], where: str, rule: str) -> list[Finding]:
    out = []
    for key, value in derived.items():
        if key in stats and _int(stats, key, where) != value:
            out.append(Finding("warning", rule, f"printed {key.upper()} {stats[key]} but the design gives {value}; the design's value is used"))
    return out


def mounted_weapons(element: Element, where: str) -> tuple[tuple[MountedWeapon, ...], tuple[MeleeWeapon, ...]]:
    ranged_w: list[MountedWeapon] = []
    melee_w: list[MeleeWeapon] = []
    for i, weapon in enumerate(element.weapons):
        if weapon.kind == "melee":
            found_m = MELEE.get(weapon.name)
            if found_m is None:
                raise ProfileError(f"{where}: weapons[{i}]: no melee weapon {weapon.name!r} in FigWars 3's lists")
            melee_w.append(found_m)
            continue
        found = MOUNTABLE.get(weapon.name)
        if found is None:
            raise ProfileError(f"{where}: weapons[{i}]: no ranged weapon {weapon.name!r} in FigWars 3's lists")
        ranged_w.append(MountedWeapon(found, mount_of(weapon)))
    return tuple(ranged_w), tuple(melee_w)


def vehicle_of(element: Element, where: str = "") -> Machine:
    """The vehicle of a force element; ProfileError names a field it cannot read."""
    where = where or element.name
    stats = element.stats
    unknown = sorted(set(stats) - set(VEHICLE_STATS))
    if unknown:
        raise ProfileError(f"{where}: unknown vehicle stat {unknown[0]!r} (expected one of {', '.join(VEHICLE_STATS)})")
    siz = _int(stats, "siz", where)
    if siz < 1:
        raise ProfileError(f"{where}: SIZ must be at least 1, not {siz}")
    tq = _int(stats, "tq", where, DEFAULT_CREW_TQ)
    if tq not in CREW_TQ:
        raise ProfileError(f"{where}: crew TQ runs from 0 to 3, not {tq}")
    locomotion = _choice(stats, "locomotion", LOCOMOTION, where, "wheeled")
    armour = _choice(stats, "armour", VEHICLE_ARMOUR, where, "none")
    mod = _int(stats, "armour_mod", where, 0)
    if mod not in ARMOUR_MODS:
        raise ProfileError(f"{where}: stats.armour_mod is -1 (worn), 0 or +1 (reinforced), not {mod}")
    role = _choice(stats, "role", ROLES, where, "troop carrier")
    open_topped = bool(_int(stats, "open_topped", where, 0))
    trade = _int(stats, "trade", where, 0)
    mount_cap = _int(stats, "mount_cap", where, 0)
    crew = _int(stats, "crew", where, 0)
    weapons, melee = mounted_weapons(element, where)
    mounts = tuple(m.mount for m in weapons)
    mount_cost = sum(MOUNTS[m].cost for m in mounts) - free_mount_cost(role, mounts)
    if not 0 <= mount_cap <= mount_cost:
        raise ProfileError(f"{where}: stats.mount_cap runs from 0 to the mounts' cost {mount_cost}, not {mount_cap}")
    if trade < 0:
        raise ProfileError(f"{where}: stats.trade must be 0 or more, not {trade}")
    dp, cap = base_dp_cap(role, siz)
    if role == "troop carrier":
        dp, cap = dp + trade, cap - trade
    else:
        dp, cap = dp - trade, cap + trade
    dp -= mount_cost - mount_cap
    cap -= mount_cap
    mov = LOCOMOTION[locomotion]
    defence = VEHICLE_ARMOUR[armour] + mod
    ram = ram_rating(siz, mov)
    findings: list[Finding] = []
    rule = "FW3 4.4"
    if dp > siz:
        findings.append(Finding("error", rule, f"DP {dp} is more than SIZ {siz}"))
    if cap > siz:
        findings.append(Finding("error", rule, f"CAP {cap} is more than SIZ {siz}"))
    if dp < 1:
        findings.append(Finding("error", rule, f"the design leaves {dp} DP; a vehicle needs at least 1"))
    if cap < 0:
        findings.append(Finding("error", rule, f"the design leaves CAP {cap}"))
    if mounts.count("turret") > TURRET_LIMIT:
        findings.append(Finding("error", rule, f"{mounts.count('turret')} turrets; a vehicle has at most one"))
    used = allowance_used(tuple((m.weapon, m.mount) for m in weapons))
    if used > max(dp, 0):
        findings.append(Finding("error", "PR-13", f"weapons need {used} DP of allowance (normal 1, heavy 2), the vehicle has {dp}"))
    if crew > cap:
        findings.append(Finding("error", "PR-27", f"{crew} crew do not fit in CAP {cap}"))
    findings.extend(_printed(stats, {"mov": mov, "def": defence, "dp": dp, "cap": cap, "ram": ram}, where, rule))
    return Machine(
        name=element.name,
        kind="vehicle",
        tq=tq,
        siz=siz,
        mov=mov,
        defence=defence,
        dp=dp,
        cap=cap,
        ram=ram,
        role=role,
        locomotion=locomotion,
        open_topped=open_topped,
        crew=crew,
        weapons=weapons,
        melee=melee,
        abilities=abilities_of(element, where),
        findings=tuple(findings),
    )


def abilities_of(element: Element, where: str) -> frozenset[str]:
    out = set()
    for text in element.attributes:
        try:
            out.add(parse_ability(text).name)
        except UnknownAbility as exc:
            raise ProfileError(f"{where}: {exc}") from None
    return frozenset(out)


def is_machine(element: Element) -> bool:
    return element.kind == "vehicle" or "siz" in element.stats


def machine_of(element: Element, where: str = "") -> Machine:
    """A vehicle or a mecha (stats.build names a mecha's build)."""
    if "build" in element.stats:
        from campaign.rulesets.figwars3.mecha import mecha_of

        return mecha_of(element, where)
    return vehicle_of(element, where)
