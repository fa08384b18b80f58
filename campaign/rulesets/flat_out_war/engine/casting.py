"""Spellcasting (spec section 14): the casting roll, misfires, Summon's die, durations.

The spell catalogue (difficulty, range, duration, template) is the ruleset's data;
this module holds what each spell *does* once cast, as data, and the casting maths.
"""

from __future__ import annotations

from typing import Literal

import attrs

from campaign.engine.quick import quick_init
from campaign.rulesets.flat_out_war.engine.rolls import LADDER, Mod, is_natural_one, step_capped, succeeds, total_of

EffectKind = Literal["unit_effect", "ranged_attack", "template_attack", "summon", "teleport", "flight"]


@attrs.frozen
class SpellEffect:
    """The engine form of a spell's effect."""

    kind: EffectKind
    note: str


# What each of the 12 spells does when it works (spec 14.1 "Effect (engine form)").
SPELL_EFFECTS: dict[str, SpellEffect] = {
    "Fast": SpellEffect("unit_effect", "target unit +2 MOVE for the duration"),
    "Fireball": SpellEffect("template_attack", 'ranged-attack procedure; every element under the 2" template takes a hit'),
    "Fly": SpellEffect("flight", "target unit gains Flying; still airborne at the end: crash roll (A-30)"),
    "Ironwill": SpellEffect("unit_effect", "target unit +2 on morale rolls"),
    "Shield": SpellEffect("unit_effect", "attacks against the target unit -2"),
    "Slow": SpellEffect("unit_effect", "target unit -2 MOVE"),
    "Strengthen": SpellEffect("unit_effect", "target unit +2 on melee and ranged attack rolls"),
    "Summon": SpellEffect("summon", "a d4 trooper appears touching the caster, stepped up per full +2 over 4"),
    "Teleport": SpellEffect("teleport", "one unit within range is placed anywhere within range"),
    "Terrify": SpellEffect("unit_effect", "target unit -2 on morale rolls"),
    "Weaken": SpellEffect("unit_effect", "target unit -2 on melee and ranged attack rolls"),
    "Zap": SpellEffect("ranged_attack", "ranged-attack procedure; the hit's recovery roll takes -2"),
}


@quick_init
@attrs.frozen
class CastResult:
    face: int
    total: int
    works: bool
    misfire: bool  # natural 1: the spell fails and a misfire roll follows


def resolve_cast(face: int, mods: tuple[Mod, ...]) -> CastResult:
    total = face + total_of(mods)
    if is_natural_one(face):
        return CastResult(face, total, works=False, misfire=True)
    return CastResult(face, total, works=succeeds(face, total_of(mods)), misfire=False)


def summon_die(total: int) -> int:
    """A-40: the d4 steps up once per full +2 the modified total beats 4
    (6 -> d6, 8 -> d8, 10 -> d10, 12 -> d12, 14+ -> d20)."""
    steps = max(0, (total - 4) // 2)
    return step_capped(LADDER[0], steps)


def duration_turns(duration: int | str) -> int | None:
    """Player-turns an effect lasts; None for Instant and Permanent."""
    return duration if isinstance(duration, int) else None
