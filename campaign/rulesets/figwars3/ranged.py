"""Building a ranged attack from a shooter, a target and the table's facts (spec 11.4-11.24).

`ranged_attack` returns the OpposedRoll that both resolution and odds read. Facts are
the names of spec 18.2; anything not given takes its default (below). A shot the rules
forbid raises IllegalCommand naming the rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaign.engine.errors import IllegalCommand
from campaign.rulesets.figwars3.attack import OpposedRoll, Side, Term
from campaign.rulesets.figwars3.firing import with_term
from campaign.rulesets.figwars3.profile import Profile
from campaign.rulesets.figwars3.rerolls import ReRoll
from campaign.rulesets.figwars3.weapons import BAND_MODIFIER, RangedWeapon

# 11.5: the target's DEF bonus for cover; obscuring hard cover cannot be shot through.
COVER_DEF: dict[str, int] = {
    "none": 0,
    "partial_soft": 1,
    "full_soft": 2,
    "obscuring_soft": 3,
    "partial_hard": 2,
    "full_hard": 3,
}
COVER_CHOICES: tuple[str, ...] = (*COVER_DEF, "obscuring_hard")
# PR-53: against blasts and sprays cover counts one level lower, soft/hard kept.
COVER_ONE_LOWER: dict[str, str] = {
    "obscuring_hard": "full_hard",
    "full_hard": "partial_hard",
    "partial_hard": "none",
    "obscuring_soft": "full_soft",
    "full_soft": "partial_soft",
    "partial_soft": "none",
    "none": "none",
}
# 11.5: a prone target's DEF bonus by where it lies and how far the shooter is.
PRONE_DEF: dict[str, int] = {
    "no": 0,
    "open_under_12": 0,
    "open_12_plus": 1,
    "elevation_under_3": 1,
    "elevation_3_plus": 2,
    "crater_under_6": 0,
    "crater_6_plus": 1,
}
# The shooter's own position (11.5): blind -2d, or no shot at all through hard cover.
SHOOTER_COVER: dict[str, int | None] = {
    "none": 0,
    "partial": 0,
    "exposed": 0,  # a trooper in full cover that exposes itself shoots from partial cover
    "full_soft": -2,
    "obscuring_soft": -2,
    "full_hard": None,
    "obscuring_hard": None,
}
# 11.9: shooting while in melee, by weapon class (on top of point blank's +1d).
IN_MELEE_CLASS: dict[str, int] = {"pistol": 0, "normal": -1, "heavy": -2}

RANGED_FACTS: dict[str, tuple[Any, ...]] = {
    "range_band": tuple(BAND_MODIFIER),
    "cover": COVER_CHOICES,
    "prone": tuple(PRONE_DEF),
    "shooter_cover": tuple(SHOOTER_COVER),
    "aim": (False, True),
    "in_melee": (False, True),
    "fast_target": (False, True),
    "shield_wall_front": (False, True),
    "target_entangled": (False, True),
    "sniper_option": ("dice", "reroll"),
    "spotter": ("self", "friend", "forward_observer"),
    "thrower_sees": (True, False),
    "role": ("direct", "placed", "blast_victim", "spray", "spray_primary"),
}
RANGED_DEFAULTS: dict[str, Any] = {
    "range_band": "short",
    "cover": "none",
    "prone": "no",
    "shooter_cover": "none",
    "aim": False,
    "in_melee": False,
    "fast_target": False,
    "shield_wall_front": False,
    "target_entangled": False,
    "sniper_option": "dice",
    "spotter": "self",
    "thrower_sees": True,
    "role": "direct",
}


def unused_facts(weapon: RangedWeapon, trained_sniper: bool, shield_wall: bool, paired: bool) -> frozenset[str]:
    """The facts of 18.2 that cannot change a shot with `weapon` (read off ranged_attack
    and placement_terms below): a screen need not ask them. `trained_sniper`: the
    shooter may use a sniper weapon's bonus; `shield_wall`: the target unit has Shield
    Wall; `paired`: a second weapon may fire with it, reading the same facts."""
    unused = {"target_entangled"}  # the engine knows who is entangled (10.6)
    if not (weapon.sniper and trained_sniper):
        unused.add("sniper_option")
    if not weapon.indirect:
        unused.add("spotter")
    if not weapon.grenade:
        unused.add("thrower_sees")
    if not shield_wall:
        unused.add("shield_wall_front")
    if not (weapon.blast or weapon.spray):
        unused.add("under_template")
    if not paired:
        if weapon.spray or weapon.grenade:
            unused.add("range_band")  # a template or a throw: no range band (11.20, 11.21)
        if weapon.indirect or weapon.grenade:
            unused.add("shooter_cover")  # placed by a skill check, not aimed past cover
    return frozenset(unused)


# 11.19: indirect fire seen only by another friendly model is blind (-2d), -1d with a
# Forward Observer; 11.20: a grenade thrown without sight of the point is -1d.
SPOTTER: dict[str, int] = {"self": 0, "friend": -2, "forward_observer": -1}
GRENADE_BLIND = -1


def check_facts(facts: Mapping[str, Any], known: Mapping[str, tuple[Any, ...]], rule: str) -> dict[str, Any]:
    out = {}
    for name, value in facts.items():
        if name not in known:
            raise IllegalCommand(rule, f"unknown fact {name!r} (expected one of {', '.join(known)})")
        if value not in known[name] or (isinstance(value, bool) != isinstance(known[name][0], bool)):
            choices = ", ".join(str(c) for c in known[name])
            raise IllegalCommand(rule, f"fact {name} must be one of {choices}, not {value!r}")
        out[name] = value
    return out


def weapon_class(weapon: RangedWeapon) -> str:
    if weapon.heavy:
        return "heavy"
    return "pistol" if weapon.pistol else "normal"


def ranged_attack(
    shooter: Profile,
    weapon: RangedWeapon,
    target: Profile,
    facts: Mapping[str, Any] | None = None,
) -> OpposedRoll:
    """One shooting attack by one model at one model (11.4)."""
    f = {**RANGED_DEFAULTS, **check_facts(facts or {}, RANGED_FACTS, "FW3 18.2")}
    role = f["role"]
    in_melee = f["in_melee"]
    band = "point_blank" if in_melee else f["range_band"]
    if band not in weapon.bands() and role == "direct":
        raise IllegalCommand("FW3 11.4", f"{weapon.name} cannot shoot at {band.replace('_', ' ')} range")
    if weapon.short is None and not weapon.spray and not weapon.grenade:
        raise IllegalCommand("FW3 17", f"{weapon.name} fires through its ammunition: name one of its rounds")
    notes: list[str] = []
    att: list[Term] = []
    rerolls: list[ReRoll] = []
    if role == "placed":
        # PR-52: after a placement roll, the initial target takes the direct ATK if the
        # weapon has one, else the blast ATK; no TQ either way
        att.append(Term("ATK" if weapon.atk is not None else "blast ATK", weapon.atk if weapon.atk is not None else weapon.blast_atk or 0))
    elif role == "blast_victim":
        # 11.18 step 5: every other model under the template takes the blast ATK alone
        att.append(Term("blast ATK", weapon.blast_atk or 0))
    elif role == "spray":
        att.append(Term("ATK", weapon.atk or 0))  # 11.21: TQ only against the primary target
    else:
        att.append(Term("TQ", shooter.tq))
        att.append(Term("ATK", weapon.atk or 0))
        if weapon.atk is None:
            notes.append("no direct ATK: the roll only places the template (PR-52 b)")
    blast_like = role in ("placed", "blast_victim", "spray", "spray_primary")
    if role in ("direct", "spray_primary") and not weapon.spray:
        mod = BAND_MODIFIER[band]
        if weapon.grenade and band != "point_blank":
            mod = 0  # 11.20: grenades are always short range
        if mod:
            att.append(Term(band.replace("_", " "), mod))
    if role in ("direct", "spray_primary"):
        if f["aim"]:
            att.append(Term("Aim", 1))
        if (shooter.has("Targeter")) and not (weapon.spray or weapon.sniper or weapon.indirect):
            att.append(Term("Targeter", 1))
        if weapon.sniper and shooter.sniper:
            if f["sniper_option"] == "dice":
                att.append(Term("sniper", 1))
            else:
                rerolls.append(ReRoll("sniper"))
        if weapon.scatter and band == "point_blank":
            att.append(Term("scatter", 1))
        own = SHOOTER_COVER[f["shooter_cover"]]
        if own is None and not (weapon.indirect or weapon.grenade):
            raise IllegalCommand("FW3 11.5", "a shooter in full or obscuring hard cover cannot shoot through it")
        if own:
            att.append(Term("shooting blind", own))
        if in_melee:
            cls_mod = IN_MELEE_CLASS[weapon_class(weapon)]
            if cls_mod:
                att.append(Term(f"{weapon_class(weapon)} weapon in melee", cls_mod))
        if shooter.hero:
            rerolls.append(ReRoll("hero"))
        if shooter.has("Marksman") and not (in_melee and weapon.pistol):
            rerolls.append(ReRoll("Marksman"))
        if in_melee and weapon.pistol and shooter.has("Master Warrior"):
            rerolls.append(ReRoll("Master Warrior"))
    pool = sum(t.dice for t in att)
    if pool <= 0 and role in ("direct", "spray_primary"):
        raise IllegalCommand(
            "FW3 2.2", f"{shooter.name}'s attack comes to {pool} dice: a ranged attack needs at least 1 (Aim, or close to point blank)"
        )
    cover = f["cover"]
    if blast_like:
        cover = COVER_ONE_LOWER[cover]
    if cover == "obscuring_hard" and not weapon.indirect:
        raise IllegalCommand("FW3 11.5", f"{target.name} is behind obscuring hard cover and cannot be shot")
    dfn = [Term("DEF", target.defence)]
    if band != "point_blank" or blast_like:
        if COVER_DEF.get(cover, 0):
            dfn.append(Term(cover.replace("_", " ") + " cover", COVER_DEF[cover]))
        if PRONE_DEF[f["prone"]]:
            dfn.append(Term("prone", PRONE_DEF[f["prone"]]))
    elif cover != "none":
        notes.append("cover never counts at point blank (11.6)")
    if f["fast_target"]:
        dfn.append(Term("fast target", 1))
    stealth = target.has("Stealth") and not in_melee
    if stealth:
        dfn.append(Term("Stealth", 1))
    if f["shield_wall_front"] and target.has("Shield Wall"):
        dfn.append(Term("shield wall", 1))
    if f["target_entangled"]:
        dfn.append(Term("entangled", -1))
    return OpposedRoll(
        kind="ranged",
        attacker=Side(shooter.name, tuple(att), tuple(rerolls)),
        defender=Side(target.name, tuple(dfn), aggressive=target.has("Aggressive")),
        stealth=stealth,
        counter=False,
        notes=tuple(notes),
    )


def placement_terms(shooter: Profile, weapon: RangedWeapon, facts: Mapping[str, Any] | None = None) -> tuple[Term, ...]:
    """The placement roll of indirect fire (TQ + range band) or a hand grenade (TQ alone),
    with the blind penalties; an Aim adds +1d (PR-52 e, proposed)."""
    f = {**RANGED_DEFAULTS, **check_facts(facts or {}, RANGED_FACTS, "FW3 18.2")}
    terms = [Term("TQ", shooter.tq)]
    if weapon.indirect and BAND_MODIFIER[f["range_band"]] and f["range_band"] != "point_blank":
        terms.append(Term(f["range_band"], BAND_MODIFIER[f["range_band"]]))
    if weapon.indirect and SPOTTER[f["spotter"]]:
        terms.append(Term("indirect, seen by " + f["spotter"].replace("_", " "), SPOTTER[f["spotter"]]))
    if weapon.grenade and not f["thrower_sees"]:
        terms.append(Term("thrown blind", GRENADE_BLIND))
    if f["aim"]:
        terms.append(Term("Aim", 1))
    return tuple(terms)


def placed(successes: int) -> bool:
    """A blast, indirect or grenade roll lands on its point with at least one success."""
    return successes >= 1


# --- spray in melee (11.21); two weapons and burst fire are in firing.py ------------------


def spray_in_melee(shooter: Profile, weapon: RangedWeapon, target: Profile) -> tuple[OpposedRoll, OpposedRoll]:
    """A spray weapon fired in melee (11.21): no template, the opponent is attacked twice,
    TQ in one roll only; both take the weapon class's melee-shooting modifier (PR-57)."""
    if not weapon.spray:
        raise IllegalCommand("FW3 11.21", f"{weapon.name} is not a spray weapon")
    first = ranged_attack(shooter, weapon, target, {"in_melee": True, "role": "spray_primary"})
    second = ranged_attack(shooter, weapon, target, {"in_melee": True, "role": "spray"})
    mod = IN_MELEE_CLASS[weapon_class(weapon)]
    if mod:
        second = with_term(second, Term(f"{weapon_class(weapon)} weapon in melee", mod), keep_rerolls=False)
    return first, second
