"""Building a melee attack (spec 10.2-10.8): both sides roll DEF + ATK + modifiers.

Facts are those of 18.2 and the odds command: `charged`, `defender_engaged`,
`prior_attackers` (models of this side that already struck the defender this turn),
`reach`, focus on either side, shield wall, fast target, entanglement, and the
defender's state (pinned, stunned) that decides whether it may counter.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaign.engine.errors import IllegalCommand
from campaign.rulesets.figwars3.attack import OpposedRoll, Side, Term
from campaign.rulesets.figwars3.profile import Profile
from campaign.rulesets.figwars3.ranged import check_facts
from campaign.rulesets.figwars3.rerolls import ReRoll
from campaign.rulesets.figwars3.weapons import POLEARM_ORDER, POLEARM_REACH, MeleeWeapon, paired_atk

MELEE_FACTS: dict[str, tuple[Any, ...]] = {
    "reach": ("contact", "1in", "2in"),
    "charged": (False, True),
    "defender_engaged": (False, True),
    "prior_attackers": tuple(range(0, 21)),
    "attacker_focus": (False, True),
    "defender_focus": (False, True),
    "shield_wall_front": (False, True),
    "fast_target": (False, True),
    "attacker_entangled": (False, True),
    "defender_entangled": (False, True),
    "defender_state": ("normal", "pinned", "stunned"),
    "target_kind": ("trooper", "vehicle", "structure"),
}
MELEE_DEFAULTS: dict[str, Any] = {
    "reach": "contact",
    "charged": False,
    "defender_engaged": False,
    "prior_attackers": 0,
    "attacker_focus": False,
    "defender_focus": False,
    "shield_wall_front": False,
    "fast_target": False,
    "attacker_entangled": False,
    "defender_entangled": False,
    "defender_state": "normal",
    "target_kind": "trooper",
}
REACH_INCHES: dict[str, int] = {"contact": 0, "1in": 1, "2in": 2}


def weapons_atk(weapons: tuple[MeleeWeapon, ...]) -> int:
    if len(weapons) == 1:
        return weapons[0].atk
    if len(weapons) == 2:
        return paired_atk(weapons[0].atk, weapons[1].atk)
    raise IllegalCommand("FW3 10.4", "a model fights with one weapon or a pair")


def _polearm(weapons: tuple[MeleeWeapon, ...]) -> str:
    return max((w.polearm for w in weapons), key=POLEARM_ORDER.index, default="")


def _reach_of(weapons: tuple[MeleeWeapon, ...]) -> int:
    return max((2 if w.entangling else POLEARM_REACH[w.polearm] for w in weapons), default=0)


def melee_attack(
    attacker: Profile,
    target: Profile,
    facts: Mapping[str, Any] | None = None,
    attacker_weapons: tuple[str, ...] = (),
    defender_weapons: tuple[str, ...] = (),
) -> OpposedRoll:
    """One Strike by `attacker` at `target`; the defender fights back (10.2)."""
    f = {**MELEE_DEFAULTS, **check_facts(facts or {}, MELEE_FACTS, "FW3 18.2")}
    a_w = attacker.melee_weapons(attacker_weapons)
    d_w = target.melee_weapons(defender_weapons)
    reach = REACH_INCHES[f["reach"]]
    if reach > _reach_of(a_w):
        raise IllegalCommand("FW3 10.1", f"{attacker.name}'s weapon does not reach {reach}\"; it needs base contact")
    notes: list[str] = []
    att = [Term("DEF", attacker.defence), Term("ATK", weapons_atk(a_w))]
    a_pole = _polearm(a_w)
    d_pole = _polearm(d_w)
    if f["attacker_focus"]:
        att.append(Term("Focus", 1))
    trooper = f["target_kind"] == "trooper"
    if f["prior_attackers"] and trooper:
        att.append(Term("multiple attackers", f["prior_attackers"]))
    if f["charged"] and a_pole in ("medium", "long"):
        att.append(Term("polearm charge", 1))
    if a_pole == "long" and reach == 0:
        att.append(Term("long polearm in contact", -1))
    if f["attacker_entangled"]:
        att.append(Term("entangled", -1))
    state = f["defender_state"]
    dfn = [Term("DEF", target.defence)]
    if trooper and state != "stunned":
        dfn.append(Term("ATK", weapons_atk(d_w)))
        if f["defender_focus"]:
            dfn.append(Term("Focus", 1))
        if d_pole and f["charged"] and not f["defender_engaged"]:
            dfn.append(Term("receiving a charge with a polearm", 1))
        if d_pole == "long" and reach == 0:
            dfn.append(Term("long polearm in contact", -1))
    if f["fast_target"]:
        dfn.append(Term("fast target", 1))
    if f["shield_wall_front"] and target.has("Shield Wall"):
        dfn.append(Term("shield wall", 1))
    if f["defender_entangled"]:
        dfn.append(Term("entangled", -1))
    counter = trooper and state == "normal"
    if reach > 0 and POLEARM_ORDER.index(d_pole) < POLEARM_ORDER.index(a_pole):
        counter = False  # PR-42: a win against a reach attack only stops it
        notes.append("reach attack: the defender's win only stops the blow (PR-42)")
    a_rr = _melee_rerolls(attacker, a_w)
    d_rr = _melee_rerolls(target, d_w) if trooper and state != "stunned" else ()
    return OpposedRoll(
        kind="melee",
        attacker=Side(
            attacker.name,
            tuple(att),
            a_rr,
            shield=attacker.shield in ("normal shield", "large shield", "small shield"),
            strong=attacker.has("Strong"),
            mighty_blow=attacker.has("Mighty Blow"),
            aggressive=attacker.has("Aggressive"),
            stuns=any(w.rider == "storm_hammer" for w in a_w),
        ),
        defender=Side(
            target.name,
            tuple(dfn),
            d_rr,
            shield=trooper and state != "stunned" and target.shield in ("normal shield", "large shield", "small shield"),
            strong=target.has("Strong"),
            mighty_blow=target.has("Mighty Blow"),
            aggressive=target.has("Aggressive"),
            stuns=trooper and state != "stunned" and any(w.rider == "storm_hammer" for w in d_w),
            no_counter_dp=any(w.entangling for w in d_w),
        ),
        counter=counter,
        notes=tuple(notes),
    )


def _melee_rerolls(model: Profile, weapons: tuple[MeleeWeapon, ...]) -> tuple[ReRoll, ...]:
    out = []
    if model.hero:
        out.append(ReRoll("hero"))  # PR-7: his fight rolls, attacking or defending
    if model.has("Master Warrior"):
        out.append(ReRoll("Master Warrior"))
    if len(weapons) == 2:
        out.append(ReRoll("paired weapons"))
    return tuple(out)
