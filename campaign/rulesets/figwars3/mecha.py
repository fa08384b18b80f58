"""Mecha design (spec 4.5, PR-14, PR-16): SIZ, pilot TQ, MOV, a second movement mode,
jump jets, DEF with a mecha shield, DP by build, unarmed melee ATK and weapon mounts.

A mecha in a force file is an element of kind "vehicle" whose `stats` carry `build`
(slender, normal, stocky), `siz`, `tq` (pilot), `armour` (vehicle armour) with
`armour_mod`, `shield` (0/1), `second_mode` (a locomotion of the vehicle table, or
"none") and `jump_jets` (0/1); printed `mov`, `def`, `dp` may be given. A "Hero"
attribute makes the pilot a hero: his re-roll, no DEF or DP (PR-16).
"""

from __future__ import annotations

from campaign.findings import Finding
from campaign.force import Element
from campaign.rulesets.figwars3.profile import ProfileError
from campaign.rulesets.figwars3.vehicles import (
    ARMOUR_MODS,
    CREW_TQ,
    LOCOMOTION,
    VEHICLE_ARMOUR,
    Machine,
    _choice,
    _int,
    _printed,
    abilities_of,
    allowance_used,
    mounted_weapons,
)
from campaign.rulesets.figwars3.weapons import MeleeWeapon

BUILD_DP: dict[str, int] = {"slender": -1, "normal": 0, "stocky": 1}  # PR-14: on top of SIZ
MECHA_SHIELD_DEF = 2
TROOP_HEIGHT = 3  # up to 3" tall a model is better treated as armoured troops
MECHA_STATS: tuple[str, ...] = (
    "build", "tq", "siz", "armour", "armour_mod", "shield", "second_mode", "jump_jets", "mov", "def", "dp",
)
# Weapon arcs (4.5): body and leg mounts 90 degrees to the front, arms and hands 180.
MECHA_ARCS: dict[str, int] = {"integral": 90, "turret": 180, "sponson": 180, "restricted sponson": 90, "restricted turret": 180, "pintle": 0}


def unarmed_atk(siz: int) -> int:
    """Unarmed melee ATK = SIZ / 2 rounded up (4.5)."""
    return -(-siz // 2)


def mecha_mov(siz: int) -> int:
    """Walking MOV = SIZ + 1 (4.5), never raised."""
    return siz + 1


def mecha_of(element: Element, where: str = "") -> Machine:
    where = where or element.name
    stats = element.stats
    unknown = sorted(set(stats) - set(MECHA_STATS))
    if unknown:
        raise ProfileError(f"{where}: unknown mecha stat {unknown[0]!r} (expected one of {', '.join(MECHA_STATS)})")
    build = _choice(stats, "build", BUILD_DP, where, "normal")
    siz = _int(stats, "siz", where)
    if siz < 1:
        raise ProfileError(f"{where}: SIZ must be at least 1, not {siz}")
    tq = _int(stats, "tq", where)
    if tq not in CREW_TQ:
        raise ProfileError(f"{where}: pilot TQ runs from 0 to 3, not {tq}")
    armour = _choice(stats, "armour", VEHICLE_ARMOUR, where, "none")
    mod = _int(stats, "armour_mod", where, 0)
    if mod not in ARMOUR_MODS:
        raise ProfileError(f"{where}: stats.armour_mod is -1 (worn), 0 or +1 (reinforced), not {mod}")
    shield = bool(_int(stats, "shield", where, 0))
    second = _choice(stats, "second_mode", {"none": 0, **LOCOMOTION}, where, "none")
    jump_jets = bool(_int(stats, "jump_jets", where, 0))
    weapons, melee = mounted_weapons(element, where)
    abilities = abilities_of(element, where)
    mov = mecha_mov(siz)
    defence = VEHICLE_ARMOUR[armour] + mod + (MECHA_SHIELD_DEF if shield else 0)
    dp = siz + BUILD_DP[build]
    findings: list[Finding] = []
    if siz <= TROOP_HEIGHT:
        findings.append(Finding("warning", "FW3 4.5", f"a model {siz}\" tall is normally played as armoured troops"))
    used = allowance_used(tuple((m.weapon, m.mount) for m in weapons))
    if used > dp:
        findings.append(Finding("error", "PR-13", f"weapons need {used} DP of allowance (normal 1, heavy 2), the mecha has {dp}"))
    findings.extend(_printed(stats, {"mov": mov, "def": defence, "dp": dp}, where, "FW3 4.5"))
    unarmed = MeleeWeapon("unarmed (mecha)", unarmed_atk(siz))
    return Machine(
        name=element.name,
        kind="mecha",
        tq=tq,
        siz=siz,
        mov=mov,
        defence=defence,
        dp=dp,
        weapons=weapons,
        melee=melee or (unarmed,),
        hero_pilot="Hero" in abilities,
        build=build,
        shield=shield,
        second_mode="" if second == "none" else second,
        second_mov=LOCOMOTION.get(second, 0),
        jump_jets=jump_jets,
        abilities=abilities,
        findings=tuple(findings),
    )
