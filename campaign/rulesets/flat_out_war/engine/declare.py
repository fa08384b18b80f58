"""A unit's Other Action as a list of attack rolls (AttackSpec), with every modifier.

Used by the odds (before rolling) and by the battle rules (to know what to roll), so
both always agree on dice and modifiers.
"""

from __future__ import annotations

from typing import Callable, Sequence

import attrs

from campaign.rulesets.flat_out_war.engine.attack import Hit, heavy_armour_blocks, hit_from, melee_die
from campaign.rulesets.flat_out_war.engine.combatant import Arm, Combatant
from campaign.rulesets.flat_out_war.engine.modifiers import melee_modifiers, ranged_modifiers, spell_modifiers
from campaign.rulesets.flat_out_war.engine.artillery import Covered, template_plan
from campaign.rulesets.flat_out_war.engine.odds import AreaVictim, AttackSpec, lucky_rolls
from campaign.rulesets.flat_out_war.engine.rolls import Mod
from campaign.rulesets.flat_out_war.engine.situation import Situation


class NoAttack(ValueError):
    """The declared action has no legal attack roll; the message names the rule."""


def _target_for(i: int, targets: Sequence[Combatant]) -> tuple[int, Combatant]:
    index = i % len(targets)
    return index, targets[index]


def melee_attacks(
    attackers: Sequence[Combatant], targets: Sequence[Combatant], sit: Situation, edition: str
) -> list[AttackSpec]:
    """One roll per attacking element (Multi-shot does not apply in melee, A-69)."""
    specs: list[AttackSpec] = []
    dice = [(a, melee_die(a, edition)) for a in attackers if not a.down]
    able = [a for a, die in dice if die is not None]
    if not able:
        raise NoAttack("no element can fight in melee (an element with no weapon cannot attack, FOW 19.4)")
    # A unit's elements are mostly alike: the modifiers and the hit are worked out once for
    # each kind of pair. The melee rows read only the attributes of both, the target's prone
    # and faced, and the situation (modifiers.py); a hit, the attacker's name, attributes
    # and die. (Equal values, shared: both are frozen.)
    mods_of: dict[tuple[frozenset[str], frozenset[str], bool, bool], tuple[Mod, ...]] = {}
    hits_of: dict[tuple[str, frozenset[str], int], Hit] = {}
    for i, (att, die) in enumerate((a, d) for a, d in dice if d is not None):
        assert die is not None
        index, tgt = _target_for(i, targets)
        blocked = heavy_armour_blocks(att, "melee", die, tgt, edition)
        pair = (att.attributes, tgt.attributes, tgt.prone, tgt.faced)
        mods = mods_of.get(pair)
        if mods is None:
            mods = mods_of[pair] = melee_modifiers(att, tgt, sit, edition)
        who = (att.name, att.attributes, die)
        hit = hits_of.get(who)
        if hit is None:
            hit = hits_of[who] = hit_from(att, die, edition, source=f"{att.name} in melee")
        # (fields in order, positional: called with keywords, a class costs about a quarter
        # more a record, and this is once a roll)
        specs.append(AttackSpec(
            f"{att.name}: melee d{die}",  # label
            die,
            mods,
            hit,
            "Heavy Armour: the attacking die is below d10 (A-19)" if blocked else "",  # blocked
            False,  # harmless
            False,  # spell
            index,  # target_index
            1,  # covers
            att.key or att.name,  # attacker
            tgt.key,  # target_key
        ))
    return lucky_rolls(specs, {a.key or a.name for a in able if a.lucky_ready})


@attrs.frozen
class UnderTemplate:
    """An element the players report under a template: who it is and whose side."""

    element: Combatant
    unit: str
    friendly: bool


def template_area(att: Combatant, weapon: Arm, aimed: Combatant, aimed_unit: str, covered: Sequence[UnderTemplate],
                  sit_of: Callable[[UnderTemplate], Situation], edition: str, *, mode: str = "roll_each",
                  friendly_fire: bool = False) -> tuple[AreaVictim, ...]:
    """Who a burst template harms once its aiming roll succeeds, and how (A-20): the
    aimed element is hit, each other element under it rolled for (or hit outright in
    `auto_hit` mode); friends only with friendly fire; Heavy Armour as for any shot. The
    engine resolves exactly this list and the odds enumerate it."""
    under = list(covered)
    if not any(u.element.key == aimed.key for u in under):
        under.insert(0, UnderTemplate(aimed, aimed_unit, False))
    by_key = {u.element.key: u for u in under}
    plan = template_plan([Covered(u.unit, u.element.key, u.friendly) for u in under], mode=mode,  # type: ignore[arg-type]
                         friendly_fire=friendly_fire, aimed_at=Covered(aimed_unit, aimed.key, False))
    hit = hit_from(att, weapon.die, edition, weapon=weapon, source=f"{att.name}'s {weapon.name}")
    out = []
    for item, rolled in [*((i, False) for i in plan.auto_hits), *((i, True) for i in plan.rolled)]:
        u = by_key[item.element]
        blocked = heavy_armour_blocks(att, "ranged", weapon.die, u.element, edition, weapon)
        mods = ranged_modifiers(att, weapon, u.element, sit_of(u), edition) if rolled else ()
        out.append(AreaVictim(u.element.key, rolled, weapon.die, mods, hit,
                              "Heavy Armour: needs d10+ or Heavy Ranged Weapon (A-19)" if blocked else ""))
    return tuple(out)


def own_procedure(att: Combatant, weapon: Arm) -> bool:
    """Weapons that fire by section 17's procedure (one aiming roll at a marker): templates,
    Linear Artillery, and Inaccurate ones, which scatter on a miss."""
    if att.template_of(weapon):
        return True
    own, traits = att.attributes, weapon.traits  # (att.weapon_has, inlined: asked for every weapon of every shot)
    return "linear artillery" in own or "linear artillery" in traits or "inaccurate" in own or "inaccurate" in traits


def weapon_problem(weapon: Arm, sit: Situation, att: Combatant | None = None) -> str | None:
    """Why this weapon cannot fire now, naming the rule; None if it can. Arcing
    Artillery bought for the element (`att`) belongs to its weapon as well."""
    if sit.range_band == "out":
        return f"target is out of range (long range is {2 * weapon.range}\")"
    arcing = att.weapon_has(weapon, "arcing artillery") if att is not None else weapon.has("arcing artillery")
    if sit.los == "none" and not arcing:
        return "no line of sight to the target (FOW 11.3)"
    if weapon.uses is not None and weapon.uses <= 0:
        return f"{weapon.name} has no uses left (Exhaustible Weapon)"
    return None


def ranged_attacks(
    attackers: Sequence[Combatant],
    targets: Sequence[Combatant],
    sit: Situation,
    edition: str,
    *,
    extra_check: Callable[[Combatant, Arm], str | None] | None = None,
    covers: int = 1,
    template_mode: str = "roll_each",
    covered: Sequence[UnderTemplate] = (),
    target_unit: str = "",
    friendly_fire: bool = False,
) -> list[AttackSpec]:
    """One roll per shot of every weapon that can fire (Multi-shot: 2, 3 or 4 rolls).

    `extra_check(element, weapon)` adds the battle's own reasons a weapon cannot fire
    (reloading, submerged, not chosen); it returns the reason or None. Template weapons
    follow section 17: a burst template is one aiming roll, then the `covers` elements
    under it (the aimed one is hit; each other one is rolled for, or hit outright in
    `auto_hit` mode); a Flame template rolls once per covered element. Scatter and
    bounce land where only the table knows, so the odds leave them out."""
    specs: list[AttackSpec] = []
    problems: list[str] = []
    n = 0
    # A unit's shooters are mostly alike: a plain shot's modifiers are worked out once for each
    # kind of pair (the ranged rows read the attacker's attributes and the weapon's traits, the
    # target's prone, airborne and faced, and the situation: modifiers.py), its hit once for
    # each kind of shooter and weapon. (Equal values, shared: both are frozen.)
    mods_of: dict[tuple[frozenset[str], frozenset[str], bool, bool, bool], tuple[Mod, ...]] = {}
    hits_of: dict[tuple[str, str, int, frozenset[str], frozenset[str]], Hit] = {}
    for att in attackers:
        if att.down:
            continue
        for weapon in att.ranged:
            problem = weapon_problem(weapon, sit, att) or (extra_check(att, weapon) if extra_check else None)
            if problem:
                problems.append(f"{att.name}'s {weapon.name}: {problem}")
                continue
            harmless = weapon.has("capture") or weapon.has("ensnare") or att.has("capture") or att.has("ensnare")
            template = att.template_of(weapon)
            if own_procedure(att, weapon) and template != "flame":
                # the marker goes on the first element hits are handed to (the engine's _special_fire)
                index, tgt = 0, targets[0]
                mods = ranged_modifiers(att, weapon, tgt, sit, edition)
                blocked = heavy_armour_blocks(att, "ranged", weapon.die, tgt, edition, weapon)
                area = template_area(att, weapon, tgt, target_unit, covered, lambda u: sit, edition,
                                     mode=template_mode, friendly_fire=friendly_fire) if template else ()
                specs.append(AttackSpec(
                    label=f"{att.name}: {weapon.name} d{weapon.die}" + (f" ({template}\" template)" if template else ""),
                    die=weapon.die, mods=mods,
                    hit=hit_from(att, weapon.die, edition, weapon=weapon, source=f"{att.name}'s {weapon.name}"),
                    blocked="Heavy Armour: needs d10+ or Heavy Ranged Weapon (A-19)" if blocked and not template else "",
                    target_index=index, attacker=att.key or att.name, weapon=weapon.index, target_key=tgt.key,
                    area=area,
                ))
                continue
            rolls = max(1, covers) if template == "flame" else weapon.shots
            who = (att.name, weapon.name, weapon.die, att.attributes, weapon.traits)
            hit = hits_of.get(who)
            if hit is None:
                hit = hits_of[who] = hit_from(att, weapon.die, edition, weapon=weapon,
                                              source=f"{att.name}'s {weapon.name}")
            for shot in range(rolls):
                index, tgt = _target_for(n, targets)
                n += 1
                blocked = heavy_armour_blocks(att, "ranged", weapon.die, tgt, edition, weapon)
                pair = (att.attributes, weapon.traits, tgt.prone, tgt.airborne, tgt.faced)
                shot_mods = mods_of.get(pair)
                if shot_mods is None:
                    shot_mods = mods_of[pair] = ranged_modifiers(att, weapon, tgt, sit, edition)
                specs.append(AttackSpec(  # (fields in order, as in melee_attacks)
                    f"{att.name}: {weapon.name} d{weapon.die}" + (f" shot {shot + 1}" if rolls > 1 else ""),  # label
                    weapon.die,
                    shot_mods,
                    hit,
                    "Heavy Armour: needs d10+ or Heavy Ranged Weapon (A-19)" if blocked else "",  # blocked
                    harmless,
                    False,  # spell
                    index,  # target_index
                    1,  # covers
                    att.key or att.name,  # attacker
                    tgt.key,  # target_key
                    weapon.index,  # weapon
                ))
    if not specs:
        raise NoAttack("; ".join(problems) or "no element has a ranged weapon (FOW 11.1)")
    return lucky_rolls(specs, {a.key or a.name for a in attackers if a.lucky_ready})


def spell_attack(
    caster: Combatant,
    spell: str,
    difficulty: int,
    targets: Sequence[Combatant],
    sit: Situation,
    edition: str,
    *,
    covers: int = 1,
) -> list[AttackSpec]:
    """Zap (a hit with -2 recovery) or Fireball (every covered element takes a hit)."""
    if not caster.has("magic"):
        raise NoAttack(f"{caster.name} cannot cast: it has no Magic (FOW 14)")
    if spell not in ("Zap", "Fireball"):
        raise NoAttack(f"{spell} is not an attack spell (only Fireball and Zap harm their target)")
    if sit.los == "none":
        raise NoAttack(f"{spell} uses the ranged-attack rules and needs line of sight (A-32)")
    tgt = targets[0]
    blocked = heavy_armour_blocks(caster, "spell", caster.die, tgt, edition)
    return [AttackSpec(
        label=f"{caster.name}: {spell} d{caster.die}",
        die=caster.die,
        mods=spell_modifiers(caster, difficulty, sit, edition, target=tgt, ranged_attack=True),
        hit=hit_from(caster, caster.die, edition, zap=spell == "Zap", source=f"{caster.name}'s {spell}"),
        blocked="Heavy Armour: spells are attacks by the caster's die (A-19)" if blocked else "",
        spell=True,
        target_index=0,
        covers=max(1, covers) if spell == "Fireball" else 1,
        attacker=caster.key or caster.name,
        target_key=tgt.key,
    )]
