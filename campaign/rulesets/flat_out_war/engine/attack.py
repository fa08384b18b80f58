"""Which die an attack rolls, the Heavy Armour gate, and one attack roll's result."""

from __future__ import annotations

from typing import Literal

import attrs

from campaign.engine.quick import quick_init
from campaign.rulesets.flat_out_war.editions import V17
from campaign.rulesets.flat_out_war.engine.combatant import Arm, Combatant, Edition
from campaign.rulesets.flat_out_war.engine.rolls import Mod, succeeds, total_of

AttackKind = Literal["melee", "ranged", "spell"]
HEAVY_DIE = 10  # Heavy Armour ignores attackers below d10


def melee_die(att: Combatant, edition: Edition) -> int | None:
    """[1.7] the base die. [SO] the melee weapon's die, or the base die if the element
    carries a ranged weapon; an [SO] element with no weapon cannot attack (None)."""
    if edition == V17:
        return att.die
    if att.ranged:
        return att.die
    if att.melee:
        return max(w.die for w in att.melee)
    return None


def heavy_armour_blocks(
    att: Combatant, kind: AttackKind, attack_die: int, tgt: Combatant, edition: Edition,
    weapon: Arm | None = None,
) -> bool:
    """True when the attack cannot harm the target (A-19: no roll, no hit).

    [1.7] compares the attacker's base die, [SO] the die actually rolled; spells are
    attacks by the caster and have no heavy weapon to get through."""
    if "heavy armour" not in tgt.attributes:  # (asked for every roll: no call for the answer of most)
        return False
    heavy = {"melee": "heavy melee weapon", "ranged": "heavy ranged weapon"}.get(kind)
    if heavy and att.weapon_has(weapon, heavy):
        return False
    die = att.die if edition == V17 else attack_die
    return die < HEAVY_DIE


@quick_init
@attrs.frozen
class AttackRoll:
    die: int
    face: int
    mods: tuple[Mod, ...]

    @property
    def total(self) -> int:
        return self.face + total_of(self.mods)

    @property
    def hit(self) -> bool:
        return succeeds(self.face, total_of(self.mods))


@quick_init
@attrs.frozen
class Hit:
    """What the target's recovery roll needs to know about the hit."""

    attack_die: int  # Adaptive Armor compares it with the target's base die
    penetrator: bool = False  # [1.7] attacker with Penetrator: -1
    zap: bool = False  # Zap spell: -2
    source: str = ""


def hit_from(att: Combatant, attack_die: int, edition: Edition, *, weapon: Arm | None = None,
             zap: bool = False, source: str = "") -> Hit:
    penetrator = edition == V17 and att.weapon_has(weapon, "penetrator")
    return Hit(attack_die=attack_die, penetrator=penetrator, zap=zap, source=source)
