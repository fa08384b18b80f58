"""FigWars 3's vehicles and mecha as typed field specs (spec 4.4, 4.5): the stats a machine's
entry keeps, and its weapons' mounts. The element editor shows these for a machine (an
element of kind vehicle, or one with a SIZ) instead of a trooper's fields."""

from __future__ import annotations

from campaign.profiles import FieldSpec, Profile
from campaign.rulesets.figwars3.fields import ABILITIES, WEAPON_KIND
from campaign.rulesets.figwars3.mecha import BUILD_DP, MECHA_ARCS, MECHA_STATS
from campaign.rulesets.figwars3.vehicle_weapons import MOUNTABLE
from campaign.rulesets.figwars3.vehicles import (
    DEFAULT_CREW_TQ,
    LOCOMOTION,
    MOUNTS,
    ROLES,
    VEHICLE_ARMOUR,
    VEHICLE_STATS,
)
from campaign.rulesets.figwars3.weapons import MELEE


def _int(name: str, label: str, help: str, rule: str, low: int | None = 0, high: int | None = None,
         default: int | None = None) -> FieldSpec:
    return FieldSpec(name, "int", label, help, default=default, min=low, max=high, stat=True, rule=rule)


def _choice(name: str, label: str, help: str, choices: tuple[str, ...], default: str, rule: str) -> FieldSpec:
    return FieldSpec(name, "choice", label, help, default=default, choices=choices, stat=True, rule=rule)


_V = "FW3 4.4"
_M = "FW3 4.5"
PRINTED = "as printed; the design's own value is used"

VEHICLE_FIELDS: dict[str, FieldSpec] = {
    "tq": _int("tq", "Crew TQ", "the crew's troop quality", _V, 0, 3, DEFAULT_CREW_TQ),
    "siz": _int("siz", "SIZ", "the vehicle's size", _V, 1),
    "locomotion": _choice("locomotion", "Locomotion", "how it moves (sets MOV)", tuple(LOCOMOTION), "wheeled", _V),
    "armour": _choice("armour", "Armour", "its armour (sets DEF)", tuple(VEHICLE_ARMOUR), "none", _V),
    "armour_mod": _int("armour_mod", "Armour mod", "-1 worn, 0 as listed, +1 reinforced", _V, -1, 1, 0),
    "role": _choice("role", "Role", "troop carrier or battle vehicle (DP and CAP)", ROLES, "troop carrier", _V),
    "open_topped": _int("open_topped", "Open top", "1: open-topped", _V, 0, 1, 0),
    "trade": _int("trade", "Trade", "DP traded for CAP (or back)", _V, 0, None, 0),
    "mount_cap": _int("mount_cap", "Mount CAP", "CAP paid for its mounts", _V, 0, None, 0),
    "crew": _int("crew", "Crew", "crew models", _V, 0, None, 0),
    "mov": _int("mov", "MOV", PRINTED, _V),
    "def": _int("def", "DEF", PRINTED, _V),
    "dp": _int("dp", "DP", PRINTED, _V),
    "cap": _int("cap", "CAP", PRINTED, _V),
    "ram": _int("ram", "RAM", PRINTED, _V),
}
MECHA_FIELDS: dict[str, FieldSpec] = {
    "build": _choice("build", "Build", "slender, normal or stocky (DP)", tuple(BUILD_DP), "normal", _M),
    "tq": _int("tq", "Pilot TQ", "the pilot's troop quality", _M, 0, 3),
    "siz": _int("siz", "SIZ", "the mecha's height in inches", _M, 1),
    "armour": VEHICLE_FIELDS["armour"],
    "armour_mod": VEHICLE_FIELDS["armour_mod"],
    "shield": _int("shield", "Shield", "1: carries a shield", _M, 0, 1, 0),
    "second_mode": _choice("second_mode", "2nd mode", "a second way to move", ("none", *LOCOMOTION), "none", _M),
    "jump_jets": _int("jump_jets", "Jump jets", "1: fitted with jump jets", _M, 0, 1, 0),
    "mov": _int("mov", "MOV", PRINTED, _M),
    "def": _int("def", "DEF", PRINTED, _M),
    "dp": _int("dp", "DP", PRINTED, _M),
}


def _weapons(mounts: tuple[str, ...], rule: str) -> tuple[FieldSpec, ...]:
    name = FieldSpec("name", "text", "Name", "a weapon of the lists; Tab completes",
                     choices=tuple(dict.fromkeys([*MOUNTABLE, *MELEE])), rule=rule)
    mount = FieldSpec("mount", "text", "Mount", "where it is mounted; Tab completes", choices=mounts, rule=rule)
    return name, WEAPON_KIND, mount


VEHICLE = Profile(element=(*(VEHICLE_FIELDS[k] for k in VEHICLE_STATS), ABILITIES), weapon=_weapons(tuple(MOUNTS), _V))
MECHA = Profile(element=(*(MECHA_FIELDS[k] for k in MECHA_STATS), ABILITIES), weapon=_weapons(tuple(MECHA_ARCS), _M))
