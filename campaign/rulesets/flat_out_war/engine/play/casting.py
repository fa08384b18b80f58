"""Casting a spell: the check and the casting roll, misfires, and each spell's effect."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from campaign.engine.errors import IllegalCommand
from campaign.engine.state import BattleState, Effect, ElementState, UnitState
from campaign.rulesets.flat_out_war import spells as catalogue
from campaign.rulesets.flat_out_war.engine import contact
from campaign.rulesets.flat_out_war.engine.attack import heavy_armour_blocks, hit_from
from campaign.rulesets.flat_out_war.engine.casting import SPELL_EFFECTS, resolve_cast, summon_die
from campaign.rulesets.flat_out_war.engine.commands import CAST_FACTS, Cast, fact
from campaign.rulesets.flat_out_war.engine.modifiers import spell_modifiers
from campaign.rulesets.flat_out_war.engine.play.base import PlayHelpers, Resolution, _mods_text
from campaign.rulesets.flat_out_war.engine.recovery import resolve_misfire

if TYPE_CHECKING:
    from campaign.engine.context import Context


class CastingMixin(PlayHelpers):
    """`FlatOutWarRules`' cast command."""

    edition: str

    def _check_cast(self, state: BattleState, cmd: Cast) -> None:
        unit = self._unit(state, cmd.unit)
        try:
            es = state.element(cmd.element)
        except KeyError:
            raise IllegalCommand("FOW 14", f"there is no element {cmd.element!r}") from None
        if es.unit != unit.id or not es.alive:
            raise IllegalCommand("FOW 14", f"{es.name} is not a living element of {unit.name}")
        spell = _spell(cmd.spell)
        if spell is None:
            raise IllegalCommand("FOW 14.1", f"unknown spell {cmd.spell!r} (spells: {', '.join(catalogue.SPELL_NAMES)})")
        if not self.combatant(state, es).has("magic"):
            raise IllegalCommand("FOW 14", f"{es.name} has no Magic")
        if es.data.get("lockout"):
            raise IllegalCommand("FOW 14", f"{es.name} cannot cast for {es.data['lockout']} more turn(s) after a misfire")
        if spell.name != "Summon":
            self._unit(state, cmd.target, "target unit")
            if not fact(cmd, "within_range", CAST_FACTS):
                raise IllegalCommand("FOW 14", f"the target is out of range ({spell.name} reaches {spell.range}\")")
        if spell.needs_los and fact(cmd, "los", CAST_FACTS) == "none":
            raise IllegalCommand("A-32", f"{spell.name} uses the ranged-attack rules and needs line of sight")

    def _do_cast(self, state: BattleState, cmd: Cast, ctx: Context) -> Resolution:
        unit = state.unit(cmd.unit)
        es = state.element(cmd.element)
        spell = _spell(cmd.spell)
        assert spell is not None
        self._take_action(state, unit, cmd, CAST_FACTS)
        target = state.unit(cmd.target) if spell.name != "Summon" else None
        caster = self.combatant(state, es)
        sit = self._situation(state, unit, target, cmd, CAST_FACTS)
        lost_before = self._loss_mark()
        attack = spell.name in ("Zap", "Fireball")
        tgt_c = self.combatant(state, target.living[0]) if (attack and target and target.living) else None
        mods = spell_modifiers(caster, spell.difficulty, sit, self.edition, target=tgt_c, ranged_attack=attack)
        if attack and tgt_c is not None and heavy_armour_blocks(caster, "spell", caster.die, tgt_c, self.edition) \
                and spell.name == "Zap":
            ctx.emit("no_effect", f"{es.name}'s Zap cannot harm {target.name} (Heavy Armour, A-19)",  # type: ignore[union-attr]
                     element=es.id)
            return
        on = f" on {target.name}" if target else ""
        (face,) = yield from self._roll(state, ctx, caster.die, 1, f"1 x d{caster.die} casting {spell.name}{on}, {es.name}"
                                        + _mods_text(mods), unit.side, es)
        result = resolve_cast(face, mods)
        if result.misfire:
            ctx.emit("misfire", f"{es.name} misfires {spell.name} (a natural 1)", element=es.id)
            (mface,) = yield from self._roll(state, ctx, caster.die, 1, f"1 x d{caster.die} misfire, {es.name}", unit.side, es)
            mis = resolve_misfire(caster, mface, self.edition)
            ctx.emit("misfire_result", f"{es.name}: {mis.text} ({mis.total})", element=es.id, lockout=mis.lockout)
            if mis.killed:
                self._remove(state, ctx, es, None)
            elif mis.lockout:
                es.data["lockout"] = mis.lockout
                es.data["lockout_fresh"] = True
            yield from self._losses_morale(state, ctx, lost_before)
            return
        if not result.works:
            ctx.emit("spell_fail", f"{es.name} fails to cast {spell.name} ({result.total})", element=es.id)
            return
        ctx.emit("spell", f"{es.name} casts {spell.name}{on} ({result.total})", element=es.id, spell=spell.name)
        kind = SPELL_EFFECTS[spell.name].kind
        if kind in ("unit_effect", "flight"):
            assert target is not None
            state.effects = [e for e in state.effects if not (e.kind == spell.name and e.target == target.id)]
            state.effects.append(Effect(id=f"{spell.name.lower()}-{target.id}-{state.turn}", kind=spell.name,
                                        target=target.id, remaining=int(spell.duration), clock="player_turn",
                                        source=es.id, data={"fresh": True}))
        elif spell.name == "Zap":
            assert target is not None
            victim = target.living[0] if target.living else None
            if victim is not None:
                ctx.emit("hit", f"{victim.name} is zapped", element=victim.id)
                yield from self._hit(state, ctx, victim, hit_from(caster, caster.die, self.edition, zap=True, source="Zap"),
                                     unit.side)
        elif spell.name == "Fireball":
            assert target is not None
            covered = yield from self._covered(state, cmd, unit, f"{es.name}'s Fireball template (on {target.name})")
            for victim in covered:  # one hit each, friend or foe
                vc = self.combatant(state, victim)
                if heavy_armour_blocks(caster, "spell", caster.die, vc, self.edition):
                    ctx.emit("no_effect", f"{victim.name} is not harmed by the Fireball (Heavy Armour, A-19)", element=victim.id)
                    continue
                ctx.emit("hit", f"{victim.name} is caught in the Fireball", element=victim.id)
                yield from self._hit(state, ctx, victim, hit_from(caster, caster.die, self.edition, source="Fireball"),
                                     unit.side)
        elif spell.name == "Summon":
            die = summon_die(result.total)
            uid = f"summoned-{len([u for u in state.units if u.data.get('summon_die')]) + 1}"
            new = UnitState(id=uid, name=f"Summoned d{die} trooper", side=unit.side)
            new.elements.append(ElementState(id=f"{uid}/trooper", name="Summoned trooper", unit=uid))
            new.elements[0].data.update(die=die, hp=0, lost_weapons=[], uses={}, reload={})
            new.data.update(start=1, lost=0, morale="steady", disordered=False, cost=Fraction(0), officer="",
                            attached_to="", summon_die=die)
            state.units.append(new)
            ctx.emit("summon", f"A d{die} trooper appears beside {es.name} (its own unit, worth 0 VP)", unit=uid, die=die)
        elif spell.name == "Teleport":
            assert target is not None
            ctx.emit("teleport", f"{target.name} is teleported: place it within 24\" of the caster, clear of enemies "
                                 "and impassable terrain (A-40)", unit=target.id)
            for other in contact.break_off(state, target):
                ctx.emit("break_off", f"{target.name} is no longer in contact with {other.name}", unit=target.id,
                         other=other.id)
        yield from self._losses_morale(state, ctx, lost_before)


def _spell_name(text: str) -> str:
    spec = _spell(text)
    return spec.name if spec else text


def _spell(text: str) -> Any:
    try:
        return catalogue.spell(text)
    except KeyError:
        return None
