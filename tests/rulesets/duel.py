"""Duel: a deliberately small rule system that lives only in tests (docs/rulesets.md,
"How to add a rule system", walks through it).

Two stats per model (skill, guard, in Element.stats). A strike is an opposed roll: the
striker's d6 + skill against the target's d6 + guard; a higher total removes one target
model. Each round has two phases: a volley (every unit rolls a d6, a 6 removes a model of
the first enemy unit), then activations in initiative order, each unit striking once.
A unit costs skill + guard per model. Registered only by the tests that use it.

Under the initiative scheme a unit's activation goes model by model (the core's
`campaign.activation.model_actions`): each fencer has two actions, a strike costs one;
the fencers of a unit share them in any order, and a fencer the player names as acting
apart spends both before anyone else acts.

Under the core's phased turn (`activation = "phased"`, `DuelTurn`) the same two phases are
phases of the turn: a volley of alternating picks (a unit aims at an enemy model; the
target's side may dodge by giving up that unit's own volley; hits are held and land
together when the phase ends), then strikes, each side in turn in initiative order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any, ClassVar

import attrs

from campaign.activation.model_actions import Groups, ModelActions, set_apart
from campaign.activation.phased import ALTERNATE, EACH_SIDE, Phase, PhasedHost, TurnPlan, hold, release
from campaign.costing import ElementCost, ForceCost, UnitCost
from campaign.engine.commands import Command
from campaign.engine.events import Event
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import CommandSpec, Decision, FactSpec, RollRequest
from campaign.engine.report import OddsReport, Outcome
from campaign.engine.rules import BattleRules, Initiative
from campaign.engine.scheme import initiative_order
from campaign.engine.state import BattleState
from campaign.force import Element, Force, Unit
from campaign.profiles import FieldSpec, Profile, check_stats
from campaign.rulesets import Ruleset

SKILL = FieldSpec("skill", "int", "Skill", "added to the striker's d6", default=1, min=0, max=5, stat=True, column=5)
GUARD = FieldSpec("guard", "int", "Guard", "added to the target's d6", default=1, min=0, max=5, stat=True, column=5)


@attrs.define(frozen=True)
class Strike(Command):
    type: ClassVar[str] = "strike"
    unit: str = ""
    target: str = ""
    facts: dict[str, Any] = attrs.field(factory=dict)
    model: str = ""  # the fencer who strikes, in a model-by-model activation


@attrs.define(frozen=True)
class Apart(Command):
    """Name the fencers who act apart (each spends its actions before anyone else acts)."""

    type: ClassVar[str] = "apart"
    unit: str = ""
    models: list[str] = attrs.field(factory=list)


@attrs.define(frozen=True)
class Volley(Command):
    type: ClassVar[str] = "volley"
    unit: str = ""
    target: str = ""  # an enemy model (element id)


CHARGED = FactSpec("charged", (False, True), False, "the striker charged in: +1 to its roll")


def p_beats(skill: int, guard: int) -> Fraction:
    """d6 + skill strictly above d6 + guard."""
    wins = sum(1 for a in range(1, 7) for b in range(1, 7) if a + skill > b + guard)
    return Fraction(wins, 36)


class DuelRules(BattleRules):
    id: ClassVar[str] = "duel"
    initiative: ClassVar[Initiative] = Initiative(die=8)

    def command_types(self) -> Iterable[type[Command]]:
        return (Strike, Volley, Apart)

    def model_actions(self) -> DuelModels:
        return DuelModels(self)

    def scheme_host(self, scheme: str, options: dict[str, Any]) -> Any:
        return DuelTurn(self, options) if scheme == "phased" else None

    def activation_commands(self, state: BattleState, unit_id: str) -> list[CommandSpec]:
        unit = state.unit(unit_id)
        if unit.markers.get("struck"):
            return []
        return [CommandSpec("strike", {"unit": unit_id, "target": e.id}, (CHARGED,), f"{unit.name}: strike {e.name}",
                            odds=True, targets="units")
                for e in state.units if e.side != unit.side and not e.eliminated]

    def stat(self, state: BattleState, unit_id: str, name: str) -> int:
        return int(state.unit(unit_id).alive[0].data.get(name, 0))

    def skill(self, state: BattleState, command: Command) -> int:
        """The striker's skill, +1 when it charged: odds and resolution both read this."""
        return self.stat(state, command.unit, "skill") + (1 if command.facts.get("charged") else 0)

    def new_state(self, setup: Any) -> BattleState:
        state = super().new_state(setup)
        for side in setup.sides:
            for unit in side.force.units:
                us = next(u for u in state.units if u.side == side.id and u.name == unit.name)
                for es in us.elements:
                    es.data.update({k: int(v) for k, v in unit.elements[es.entry].stats.items()})
        return state

    def on_round_start(self, state: BattleState, ctx: Any) -> Any:  # phase 1: the volley
        ctx.emit("phase", "Volley phase")
        for unit in [u for u in state.units if not u.eliminated]:
            unit.markers.pop("struck", None)
            enemies = [e for e in state.units if e.side != unit.side and not e.eliminated]
            if unit.eliminated or not enemies:
                continue
            (face,) = yield RollRequest(6, 1, f"1 x d6 volley, {unit.name}", unit.side)
            if face == 6:
                enemies[0].alive[0].alive = False
                ctx.emit("removed", f"{unit.name}'s volley removes one of {enemies[0].name}")
        ctx.emit("phase", "Strike phase")

    def resolve(self, state: BattleState, command: Command, ctx: Any) -> Any:
        unit, target = state.unit(command.unit), state.unit(command.target)
        attack, defend = yield RollRequest(6, 2, f"2 x d6 opposed, {unit.name} strikes {target.name}", unit.side)
        unit.markers["struck"] = True
        if attack + self.skill(state, command) > defend + self.stat(state, target.id, "guard"):
            target.alive[0].alive = False
            ctx.emit("removed", f"{unit.name} removes one of {target.name}", strike=unit.id)
        else:
            ctx.emit("held", f"{target.name} holds")

    def odds(self, state: BattleState, command: Command) -> OddsReport:
        p = p_beats(self.skill(state, command), self.stat(state, command.target, "guard"))
        return OddsReport((Outcome("removed", {0: 1 - p, 1: p}),), (f"d6+skill beats d6+guard: {float(p):.0%}",))

    def odds_observed(self, before: BattleState, after: BattleState, command: Command,
                      events: Sequence[Event]) -> dict[str, int]:
        """The strike's own removal (a volley later in the same step removes models too)."""
        return {"removed": sum(1 for e in events if e.kind == "removed" and e.data.get("strike") == command.unit)}

    def is_over(self, state: BattleState) -> bool:
        return any(all(u.eliminated for u in state.units_of(s.id, alive=False)) for s in state.sides)


ACTIONS = 2  # a fencer's actions in a model-by-model activation


class DuelModels(ModelActions):
    """A unit's activation, fencer by fencer: two actions each, a strike costs one."""

    rules: DuelRules

    def start_model(self, state: BattleState, model_id: str, ctx: Any) -> Any:
        state.element(model_id).data["actions"] = ACTIONS
        return
        yield

    def actions_left(self, state: BattleState, model_id: str) -> int:
        return int(state.element(model_id).data.get("actions", 0))

    def commands(self, state: BattleState, model_id: str) -> list[CommandSpec]:
        el = state.element(model_id)
        unit = state.unit(el.unit)
        return [CommandSpec("strike", {"unit": unit.id, "model": model_id, "target": e.id}, (CHARGED,),
                            f"{el.name} {model_id.rsplit('/', 1)[-1]}: strike {e.name}", odds=True, targets="units")
                for e in state.units if e.side != unit.side and not e.eliminated]

    def resolve(self, state: BattleState, command: Command, ctx: Any) -> Any:
        state.element(command.model).data["actions"] -= 1
        yield from self.rules.resolve(state, command, ctx)

    def unit_commands(self, state: BattleState, unit_ids: Any, started: bool, used: Any) -> list[CommandSpec]:
        if started or len(state.unit(unit_ids[0]).alive) < 2:
            return []
        return [CommandSpec("apart", {"unit": unit_ids[0]}, label="Name the fencers that act apart", picks={"models": "unit_elements"})]

    def unit_command(self, state: BattleState, unit_ids: Any, groups: Groups, command: Command, ctx: Any) -> Any:
        mine = {e.id for u in unit_ids for e in state.unit(u).alive}
        if not set(command.models) <= mine:
            raise IllegalCommand("duel", f"not fencers of this activation: {', '.join(sorted(set(command.models) - mine))}")
        ctx.emit("apart", f"{len(command.models)} fencer(s) act apart", apart=list(command.models))
        return set_apart(groups, command.models)
        yield

    def end(self, state: BattleState, unit_ids: Any, ctx: Any) -> Any:
        for unit_id in unit_ids:
            for el in state.unit(unit_id).elements:
                el.data["actions"] = 0  # unspent actions are lost
        return
        yield


class DuelTurn(PhasedHost):
    """Duel's turn on the core's phased scheme: volley (alternating picks), then strikes."""

    rules: DuelRules

    def turn_start(self, state: BattleState, ctx: Any) -> Any:
        for unit in state.units:
            unit.markers.pop("struck", None)
            unit.markers.pop("volleyed", None)
        ctx.emit("round_start", f"Turn {state.round}")
        order = tuple((yield from initiative_order(state, state.side_ids(), ctx)))
        return TurnPlan((Phase("volley", "Volley phase", ALTERNATE, order), Phase("strike", "Strike phase", EACH_SIDE, order)), order[0])

    def phase_start(self, state: BattleState, phase: Phase, ctx: Any) -> Any:
        ctx.emit("phase", phase.name)
        return
        yield

    def commands(self, state: BattleState, phase: Phase, side: str) -> list[CommandSpec]:
        units = [u for u in state.units_of(side) if not u.markers.get("volleyed" if phase.id == "volley" else "struck")]
        if phase.id == "strike":
            return [spec for u in units for spec in self.rules.activation_commands(state, u.id)]
        return [CommandSpec("volley", {"unit": u.id, "target": e.id}, label=f"{u.name}: volley at {e.name}", targets="models")
                for u in units for enemy in state.units if enemy.side != side for e in enemy.alive]

    def resolve(self, state: BattleState, phase: Phase, side: str, command: Command, ctx: Any) -> Any:
        if command.type == "strike":
            return (yield from self.rules.resolve(state, command, ctx))
        unit, target = state.unit(command.unit), state.element(command.target)
        unit.markers["volleyed"] = True
        (face,) = yield RollRequest(6, 1, f"1 x d6 volley, {unit.name} at {target.name}", side)
        if face < 6:
            return ctx.emit("held", f"{unit.name}'s volley misses")
        theirs = state.unit(target.unit)
        if not theirs.markers.get("volleyed"):  # the other side interjects: dodge, giving up its volley
            dodge = yield Decision(theirs.side, f"{theirs.name} is hit: take it, or dodge and lose its volley?",
                                   (CommandSpec("choose", {"option": "take"}, label="Take the hit"),
                                    CommandSpec("choose", {"option": "dodge"}, label="Dodge (no volley this turn)")))
            if dodge.option == "dodge":
                theirs.markers["volleyed"] = True
                return ctx.emit("held", f"{theirs.name} dodges")
        hold(state, target.id, "removed", f"removed by {unit.name}'s volley")
        ctx.emit("hit", f"{unit.name}'s volley hits {target.name} (lands at the end of the phase)")

    def phase_end(self, state: BattleState, phase: Phase, ctx: Any) -> Any:
        for effect in release(state):  # every volley hit lands together
            state.element(effect["target"]).alive = False
            ctx.emit("removed", f"{state.element(effect['target']).name}: {effect['text']}")
        return
        yield


class Duel(Ruleset):
    id = "duel"
    name = "Duel"
    dice = ("d6",)
    help_text = "Duel: d6 + skill against d6 + guard; a volley, then strikes."
    odds_help = "Duel: --action strike"
    profile = Profile(element=(SKILL, GUARD))

    def price(self, force: Force) -> ForceCost:
        def each(e: Element) -> int:
            return int(e.stats.get("skill", 0)) + int(e.stats.get("guard", 0))

        units = tuple(UnitCost(u.name, tuple(ElementCost(e.name, e.count, each(e)) for e in u.elements))
                      for u in force.units)
        return ForceCost(units, tuple(self.validate(force)))

    def validate(self, force: Force) -> list:  # type: ignore[type-arg]
        return check_stats(self.profile, force, "duel")

    def sample_forces(self) -> list[Force]:
        def side(name: str, unit: str, skill: int, guard: int) -> Force:
            return Force(name, self.id, units=(Unit(unit, (Element("Fencer", 3, stats={"skill": skill, "guard": guard}),)),))

        return [side("Blades", "Red Blades", 2, 1), side("Shields", "Blue Shields", 1, 2)]

    def battle_rules(self) -> DuelRules:
        return DuelRules(dict(self.options), ruleset=self)
