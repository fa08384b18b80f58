"""Odds of a declared action: the attack rolls a command would make, grouped by the
unit each goes to, handed to the exact enumeration in `engine.odds`."""

from __future__ import annotations

from typing import Any

import attrs

from campaign.engine.commands import Command
from campaign.engine.errors import IllegalCommand
from campaign.engine.odds import bernoulli_sum, clean
from campaign.engine.state import BattleState, UnitState
from campaign.rulesets.flat_out_war.engine.combatant import Combatant
from campaign.rulesets.flat_out_war.engine.commands import CAST_FACTS, MELEE_FACTS, SHOOT_FACTS, Attack, Cast, Melee, Shoot, fact
from campaign.rulesets.flat_out_war.engine.declare import NoAttack, melee_attacks, ranged_attacks, spell_attack
from campaign.rulesets.flat_out_war.engine.odds import ActionOdds, AttackSpec, Batch, action_odds
from campaign.rulesets.flat_out_war.engine.play.base import PlayHelpers, _mods_text
from campaign.rulesets.flat_out_war.engine.play.casting import _spell
from campaign.rulesets.flat_out_war.engine.odds_query import odds_command


class OddsMixin(PlayHelpers):
    """`FlatOutWarRules`' odds of a melee, shoot or attack-spell command."""

    edition: str
    options: dict[str, Any]

    def odds(self, state: BattleState, command: Command) -> ActionOdds:
        """The whole action's exact odds: every roll, whichever unit it goes to (A-22);
        `casualties` is the total, `by_target` each target unit's share."""
        if not isinstance(command, (Melee, Shoot, Cast)):
            raise IllegalCommand("odds", f"no odds for {command.type}: only melee, shoot and attack spells")
        unit = self._unit(state, command.unit)
        batches = []
        for target, specs, targets in self.declared_batches(state, command):
            extra = self.attack_modifiers(state, unit, target)
            if extra:  # the same hand-over the dice get in _attack_batch
                specs = [attrs.evolve(s, mods=(*s.mods, *extra)) for s in specs]
            batches.append(Batch(target.id, tuple(specs), tuple(targets)))
        exact, per_unit = action_odds(batches, self.edition)
        notes = tuple(f"{a.label}: {_mods_text(a.mods).strip() or 'no modifiers'}" + (f" [{a.blocked}]" if a.blocked else "")
                      for a in exact.attacks)
        counted = {t.key for batch in batches for t in batch.targets}
        notes += tuple(f"also under {a.label}: {state.element(v.key).name} ({state.unit(state.element(v.key).unit).name}), "
                       "not in these odds" for a in exact.attacks for v in a.area if v.key not in counted and not v.blocked)
        return ActionOdds(exact.p_hit, exact.p_casualty, clean(exact.casualties), clean(bernoulli_sum(exact.p_hit)),
                          notes, by_target={u: clean(o.casualties) for u, o in per_unit.items()}, detail=exact)

    def odds_query(self, state: BattleState, unit_id: str, target_id: str, action: str,
                   facts: dict[str, Any]) -> Command:
        """melee, ranged or spell:NAME, with situation facts set on the state (odds_query.py)."""
        return odds_command(self, state, unit_id, target_id, action, facts)

    def declared_batches(self, state: BattleState, command: Attack) -> list[tuple[UnitState, list[AttackSpec],
                                                                               list[Combatant]]]:
        """`declared`, grouped by the unit each roll goes to: a shoot command's
        `shot_targets` send single shots elsewhere (A-22), as `_fire` does."""
        specs, targets = self.declared(state, command)
        target = self._unit(state, command.target, "target unit")
        if command.type != "shoot" or not self._shot_targets(command):
            return [(target, specs, targets)]
        unit = self._unit(state, command.unit)
        sit = self._situation(state, unit, target, command, SHOOT_FACTS)
        cs = [self.combatant(state, e) for e in self._participants(state, unit, fact(command, "shooters", SHOOT_FACTS), "shoot")]
        out: list[tuple[UnitState, list[AttackSpec], list[Combatant]]] = []
        for aimed_at, batch in self._aim_shots(state, command, sit, target, cs, specs):
            if not batch:
                continue
            # as _attack_batch: each roll goes to the element it names, the named ones
            # first and then the unit's other members (a redirected shot may name one)
            keyed = [state.element(k) for k in dict.fromkeys(s.target_key for s in batch if s.target_key)]
            order = keyed + [e for e in self._members(state, aimed_at) if e not in keyed]
            index = {e.id: i for i, e in enumerate(order)}
            batch = [attrs.evolve(s, target_index=index.get(s.target_key, 0)) for s in batch]
            out.append((aimed_at, batch, [self.combatant(state, e) for e in order]))
        return out

    def _element_or_none(self, state: BattleState, key: str) -> Any:
        try:
            return state.element(key)
        except KeyError:
            return None

    def _odds_weapon_problem(self, state: BattleState, command: Attack, c: Combatant, w: Any) -> str | None:
        """Why weapon `w` would not fire in `command`: what _fire checks, the `weapons` choice included."""
        chosen = set(fact(command, "weapons", SHOOT_FACTS) or [])
        if chosen and w.name not in chosen:
            return "not chosen"
        return self._weapon_problem(state, c, w)

    def declared(self, state: BattleState, command: Attack) -> tuple[list[AttackSpec], list[Combatant]]:
        """The attack rolls a melee, shoot or attack-spell command would make, and its targets."""
        if command.type not in ("melee", "shoot", "cast"):
            raise IllegalCommand("odds", f"no odds for {command.type}: only melee, shoot and attack spells")
        unit = self._unit(state, command.unit)
        target = self._unit(state, command.target, "target unit")
        targets = [self.combatant(state, e) for e in self._allocation(state, target, command)]
        if not targets:
            raise IllegalCommand("odds", f"{target.name} has no elements left")
        try:
            if command.type == "melee":
                sit = self._situation(state, unit, target, command, MELEE_FACTS)
                cs = [self.combatant(state, e) for e in self._participants(state, unit, fact(command, "attackers", MELEE_FACTS), "melee")]
                return melee_attacks(cs, targets, sit, self.edition), targets
            if command.type == "shoot":
                sit = self._situation(state, unit, target, command, SHOOT_FACTS)
                cs = [self.combatant(state, e) for e in self._participants(state, unit, fact(command, "shooters", SHOOT_FACTS), "shoot")]
                covers = len(fact(command, "covered", SHOOT_FACTS) or []) or 1
                # the elements the command says are under a template (none said: the engine will
                # ask, so the odds can only count the aimed one)
                under = self.under_template(state, unit, [e for e in (self._element_or_none(state, k) for k in
                                                                      fact(command, "covered", SHOOT_FACTS) or [])
                                                          if e is not None and e.alive])
                return ranged_attacks(cs, targets, sit, self.edition,
                                      extra_check=lambda c, w: self._odds_weapon_problem(state, command, c, w),
                                      covers=covers, template_mode=self.options["template_mode"], covered=under,
                                      target_unit=target.id,
                                      friendly_fire=self.options["template_friendly_fire"]), targets
            if not isinstance(command, Cast):  # the type checks above leave only a spell
                raise IllegalCommand("odds", f"no odds for {command.type}")
            spell = _spell(command.spell)
            if spell is None:
                raise IllegalCommand("FOW 14.1", f"unknown spell {command.spell!r}")
            caster = self.combatant(state, state.element(command.element))
            sit = self._situation(state, unit, target, command, CAST_FACTS)
            covered = len(fact(command, "covered", CAST_FACTS) or []) or 1
            return spell_attack(caster, spell.name, spell.difficulty, targets, sit, self.edition, covers=covered), targets
        except NoAttack as exc:
            raise IllegalCommand("odds", str(exc)) from None
