"""A FigWars 3 unit's activation, model by model, on the core's shared activation
(campaign.activation.model_actions; spec 7.1, 7.3, 9).

Every model spends its own actions (two, three with an extra action), kept in
`el.data["actions"]`. Before the first action the player may name the models that were
too far apart to share (`share`: each acts alone, finishing before anyone else acts) and,
with coherency checks on, report models out of coherency. The models that share form one
pool that does not lock (7.3 as this ruleset reads it: a model acting apart may start
between two actions of the pool). A unit acting uncontrolled (PR-39) is offered only
what it may do so; a side wiped out ends the activation after the objectives are asked
(PR-26). Unused actions are lost (PR-9).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from campaign.activation.model_actions import GroupSteps, Groups, ModelActions, StopSteps, set_apart
from campaign.engine.commands import Command
from campaign.engine.lazy_specs import LazyPart, LazySpecs
from campaign.engine.pending import CommandSpec, Resolution
from campaign.engine.state import BattleState
from campaign.rulesets.figwars3.revisions import PART2_TABLE_FACTS
from campaign.rulesets.figwars3 import control, entities, interrupts, optional_play, passengers

if TYPE_CHECKING:
    from campaign.engine.context import Context
    from campaign.rulesets.figwars3.play import FigWarsRules


class FigWarsModels(ModelActions):
    """The hooks FigWars 3 gives the core's model-by-model activation."""

    rules: FigWarsRules
    lock_pools: ClassVar[bool] = False

    def models(self, state: BattleState, unit_ids: Sequence[str]) -> list[str]:
        """The unit's models and its casters' entities (16.8: they act in his slot)."""
        helpers = [e.id for u in entities.of_caster_unit(state, state.unit(unit_ids[0])) for e in u.alive]
        return [e.id for u in unit_ids for e in state.unit(u).alive] + helpers

    def actions_left(self, state: BattleState, model_id: str) -> int:
        return int(state.element(model_id).data["actions"])

    def can_act(self, state: BattleState, model_id: str) -> bool:
        el = state.element(model_id)
        return el.alive and el.data["incap"] is None

    def menu(self, state: BattleState, model_ids: Sequence[str]) -> Sequence[CommandSpec]:
        """Each model's menu made only when read (engine/lazy_specs.py: a replayed command
        reads one model's, mostly one spec of it); what the menus share (the enemies in
        sight, ...) is worked out once for the decision: see FigWarsRules.shared."""
        self.rules._menu_memo = {}
        try:
            return LazySpecs([LazyPart(None, self.rules.later(functools.partial(self.commands, state, m)), {"model": m})
                              for m in model_ids])
        finally:
            self.rules._menu_memo = None

    def commands(self, state: BattleState, model_id: str) -> Sequence[CommandSpec]:
        el = state.element(model_id)
        unit = state.unit(el.unit)
        keeps = [optional_play.keeper(self.rules, unit, el)]  # 15.1 formations
        if self.rules._uncontrolled(state, unit):  # PR-39
            drive = unit.data.get("drive") if self.rules.revision >= 2 else ""
            allowed = (*control.DRIVE_COMMANDS[drive], *control.IDLE) if drive else control.UNCONTROLLED
            keeps.append(lambda s: s.type in allowed)
        specs = self.rules._model_specs(state, unit, el)
        kept = [k for k in keeps if k is not None]
        if kept:
            specs = LazySpecs([specs], kept[0] if len(kept) == 1 else lambda s: all(k(s) for k in kept))
        return passengers.adjust(self.rules, state, unit, el, specs)  # 4.4, PR-28

    def unit_commands(self, state: BattleState, unit_ids: Sequence[str], started: bool,
                      used: Sequence[str]) -> list[CommandSpec]:
        from campaign.rulesets.figwars3.play import COHERENCY_FACT

        unit = state.unit(unit_ids[0])
        formation = optional_play.unit_specs(self.rules, unit, state)  # 15.1, option formations
        if started or len(unit.alive) < 2:
            return formation
        out = [CommandSpec("share", {"unit": unit.id}, label="Name the models that act apart", picks={"apart": "unit_elements"})]
        if self.rules.options.get("coherency_checks", True) and "coherency" not in used:
            out.append(CommandSpec("coherency", {"unit": unit.id}, (COHERENCY_FACT,), "Report models out of coherency"))
        return out + formation

    def unit_command(self, state: BattleState, unit_ids: Sequence[str], groups: Groups, command: Command,
                     ctx: Context) -> GroupSteps:
        unit = state.unit(unit_ids[0])
        if command.type in optional_play.FORMATION_FREE:
            if command.type == "form":
                optional_play.form(self.rules, state, unit, command, ctx)
            elif command.type == "face":
                optional_play.face(self.rules, unit, ctx, state if self.rules.revision >= PART2_TABLE_FACTS else None)
            elif command.type == "wheel":
                optional_play.wheel(self.rules, state, unit, command, ctx)
            elif command.type == "consolidate":
                optional_play.consolidate(self.rules, state, unit, command, ctx)
            else:
                optional_play.break_up(unit, ctx)
            return None
        if command.type == "coherency":
            yield from self.rules._coherency(state, unit, getattr(command, "facts", {}).get("out_of_coherency", []), ctx)
            return None
        apart = self.rules._check_apart(unit, list(getattr(command, "apart", [])))
        ctx.emit("share", f"{unit.name}: {apart_text(len(apart))}", apart=apart)  # (an event's text is in no digest)
        return set_apart(self.groups(state, unit_ids), apart)  # a new list replaces the last

    def before_action(self, state: BattleState, command: Command, ctx: Context) -> Resolution:
        from campaign.rulesets.figwars3.play import ACTING

        if command.type in ACTING:
            yield from ctx.window(interrupts.BEFORE_ACTION, actor=self.model_of(command), action=command.type)

    def after_action(self, state: BattleState, command: Command, ctx: Context) -> StopSteps:
        if not self.rules._wiped(state):
            return False
        if state.data.get("objectives"):  # the battle ends now: first the objectives (PR-26)
            yield from self.rules._ask_objectives(state, early=True)
        return True

    def end(self, state: BattleState, unit_ids: Sequence[str], ctx: Context) -> Resolution:
        helpers = entities.of_caster_unit(state, state.unit(unit_ids[0]))
        for unit in [state.unit(u) for u in unit_ids] + helpers:
            for el in unit.elements:
                el.data["actions"] = 0  # unused actions are lost (PR-9)
        return
        yield  # pragma: no cover


def apart_text(count: int) -> str:
    """What the log says of a unit's answer to "Name the models that act apart"."""
    if count == 0:
        return "all its models act together"
    return "1 model acts apart" if count == 1 else f"{count} models act apart"
