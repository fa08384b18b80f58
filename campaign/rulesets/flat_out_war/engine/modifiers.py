"""Modifier sums for melee, ranged and spell attack rolls (spec sections 10, 11, 14).

Each list is built from a table of (label, value, condition) rows so the whole set
reads as data and every modifier is reported by name.
"""

from __future__ import annotations

from typing import Callable

import attrs

from campaign.rulesets.flat_out_war.editions import SO, V17
from campaign.rulesets.flat_out_war.engine.combatant import Arm, Combatant, Edition
from campaign.rulesets.flat_out_war.engine.rolls import Mod
from campaign.rulesets.flat_out_war.engine.situation import Situation

Check = Callable[[Combatant, Arm | None, Combatant, Situation, Edition], bool]


def _charge(att: Combatant, w: Arm | None, tgt: Combatant, s: Situation, ed: Edition) -> bool:
    return s.charging and att.has("charge") and not tgt.has("deny charge")


def _sharpshooter(att: Combatant, w: Arm | None, tgt: Combatant, s: Situation, ed: Edition) -> bool:
    if s.moved or not att.weapon_has(w, "sharpshooter"):
        return False
    # [1.7]: not for elements with Heavy Ranged Weapon
    return not (ed == V17 and att.weapon_has(w, "heavy ranged weapon"))


def _los_penalty(att: Combatant, w: Arm | None, tgt: Combatant, s: Situation, ed: Edition) -> bool:
    return s.los == "partial" and not att.weapon_has(w, "arcing artillery")


_SHARED: tuple[tuple[str, int, Check], ...] = (
    # a target that turned to meet the charge is attacked from its front
    ("flank", 1, lambda a, w, t, s, e: s.aspect == "flank" and not t.faced),
    ("rear", 2, lambda a, w, t, s, e: s.aspect == "rear" and not t.faced),
    ("ran", -1, lambda a, w, t, s, e: s.ran),
    ("Strengthen", 2, lambda a, w, t, s, e: "Strengthen" in s.attacker_effects),
    ("Weaken", -2, lambda a, w, t, s, e: "Weaken" in s.attacker_effects),
    ("Shield", -2, lambda a, w, t, s, e: "Shield" in s.target_effects),
)

# (declare.melee_attacks works these out once per kind of pair: the attributes of both, the
# target's prone and faced, and the situation are all they may read)
MELEE_ROWS: tuple[tuple[str, int, Check], ...] = (
    ("Aggressive", 1, lambda a, w, t, s, e: a.has("aggressive")),
    ("Charge", 1, _charge),
    ("target prone", 1, lambda a, w, t, s, e: s.target_prone or t.prone),
    *_SHARED,
)

RANGED_ROWS: tuple[tuple[str, int, Check], ...] = (
    ("long range", -1, lambda a, w, t, s, e: s.range_band == "long"),
    ("partial LoS", -1, _los_penalty),
    ("target prone", -1, lambda a, w, t, s, e: s.target_prone or t.prone),
    ("Sharpshooter", 1, _sharpshooter),
    ("Anti-flyer", 1, lambda a, w, t, s, e: e == SO and a.has("anti-flyer") and (s.target_flying or t.airborne)),
    *_SHARED,
)


def _apply(rows: tuple[tuple[str, int, Check], ...], mods: tuple[Mod, ...], att: Combatant, weapon: Arm | None,
           tgt: Combatant, sit: Situation, edition: Edition) -> tuple[Mod, ...]:
    """The Mods (`mods`: one per row) of the rows that apply."""
    return tuple(mod for mod, (_, _, ok) in zip(mods, rows) if ok(att, weapon, tgt, sit, edition))


# each row's Mod, made once and shared (frozen, so the same as a new one)
_MELEE_MODS = tuple(Mod(label, value) for label, value, _ in MELEE_ROWS)
_RANGED_MODS = tuple(Mod(label, value) for label, value, _ in RANGED_ROWS)


def melee_modifiers(att: Combatant, tgt: Combatant, sit: Situation, edition: Edition) -> tuple[Mod, ...]:
    return _apply(MELEE_ROWS, _MELEE_MODS, att, None, tgt, sit, edition)


def ranged_modifiers(
    att: Combatant, weapon: Arm | None, tgt: Combatant, sit: Situation, edition: Edition
) -> tuple[Mod, ...]:
    return _apply(RANGED_ROWS, _RANGED_MODS, att, weapon, tgt, sit, edition)


def spell_modifiers(
    caster: Combatant,
    difficulty: int,
    sit: Situation,
    edition: Edition,
    *,
    target: Combatant | None = None,
    ranged_attack: bool = False,
) -> tuple[Mod, ...]:
    """Difficulty (A-33: a penalty of its printed size), running, and for Fireball/Zap
    the ranged-attack modifiers with the whole spell range counted as short (A-32)."""
    mods = [Mod(f"difficulty -{abs(difficulty)}", -abs(difficulty))] if difficulty else []
    if ranged_attack and target is not None:
        mods += ranged_modifiers(caster, None, target, _short(sit), edition)
    elif sit.ran:
        mods.append(Mod("ran", -1))
    return tuple(mods)


def _short(sit: Situation) -> Situation:
    return attrs.evolve(sit, range_band="short")
