"""What the phased scheme asks of the rules it runs (docs/rulesets.md, "The phased turn").

A ruleset with a phased turn hands out a `PhasedHost` from
`BattleRules.scheme_host("phased", options)`, kept in its own folder. The scheme owns the
order: the phases the host plans, whose pick it is, passes, the end of a phase, the turn
and game limits. The host owns everything the rules say inside them. Every hook that may
roll or ask is a generator yielding the core's RollRequests (faces come back) and
Decisions (the answering command comes back); a Decision may name either side, so the
other side can interject inside a resolution (a shot at a mover, running away).

Rules without a host get `UnitTurns`: one alternating phase a turn in which each pick
activates a unit through the rules' ordinary activation hooks.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING, Any

from campaign.activation.phased.plan import ALTERNATE, Phase, TurnPlan
from campaign.engine.commands import Command
from campaign.engine.pending import CommandSpec, Pending, Resolution
from campaign.engine.rules import scheme_adapter
from campaign.engine.state import BattleState

if TYPE_CHECKING:
    from campaign.engine.context import Context
    from campaign.engine.rules import BattleRules

SCHEME_NAME = "phased"  # the scheme's registry name, passed to BattleRules.scheme_host

Steps = Resolution  # a hook that may roll and ask (campaign.engine.pending)
PlanSteps = Generator[Pending, Any, TurnPlan]  # the turn-start hook: rolls, asks, then the plan
PASS = CommandSpec("pass", label="Pass")  # offered with every pick of an ALTERNATE phase (frozen: made once)


def no_steps() -> Steps:
    """A hook with nothing to do."""
    return
    yield  # pragma: no cover  (makes this a generator)


class PhasedHost(ABC):
    """The hooks of a phased turn. `turn_start`, `commands` and `resolve` are the rules'
    to write; the others default to doing nothing."""

    def __init__(self, rules: BattleRules, options: dict[str, Any] | None = None) -> None:
        self.rules = rules
        self.options = dict(options or {})

    @abstractmethod
    def turn_start(self, state: BattleState, ctx: Context) -> PlanSteps:
        """Initiative and whatever decides the turn's shape; returns this turn's plan."""

    def phase_start(self, state: BattleState, phase: Phase, ctx: Context) -> Steps:
        """Before anyone picks (facts the phase needs, command control ...)."""
        return no_steps()

    @abstractmethod
    def commands(self, state: BattleState, phase: Phase, side: str) -> list[CommandSpec]:
        """What `side` may do now in `phase`, one model or unit per command; empty when it
        has nothing left (the scheme then passes for it)."""

    def pick_start(self, state: BattleState, phase: Phase, side: str, ctx: Context) -> Steps:
        """Before each turn of `side` in an ALTERNATE phase (its commands are asked after)."""
        return no_steps()

    def menu(self, state: BattleState, phase: Phase, side: str, legal: list[CommandSpec],
             may_pass: bool) -> Sequence[CommandSpec]:
        """The Decision's menu of a pick in an ALTERNATE phase: `legal`, then the pass when
        `may_pass`. A host may answer a menu it keeps: the same specs, in the same order."""
        return (*legal, PASS) if may_pass else tuple(legal)

    def pick_end(self, state: BattleState, phase: Phase, side: str, picked: bool, ctx: Context) -> Steps:
        """After each turn of `side` in an ALTERNATE phase; `picked`: it gave a command
        (False: it passed, or had nothing to do)."""
        return no_steps()

    def may_pass(self, state: BattleState, phase: Phase, side: str) -> bool:
        """Whether `side` is offered a pass with its commands in an ALTERNATE phase."""
        return True

    def pass_text(self, state: BattleState, phase: Phase, side: str, forced: bool) -> str:
        """The log's words for a pass (`forced`: the side had nothing to do)."""
        name = state.side(side).name
        return f"{name} has nothing left to pick in {phase.name}" if forced else f"{name} passes"

    def prompt(self, state: BattleState, phase: Phase, side: str) -> str:
        """The question put to `side` with its commands."""
        return f"{phase.name}: pick a command" + (" or pass" if phase.kind == ALTERNATE else " or end your part of the phase")

    @abstractmethod
    def resolve(self, state: BattleState, phase: Phase, side: str, command: Command, ctx: Context) -> Steps:
        """Carry out one command of `side` (raise IllegalCommand to refuse it: the engine
        then rebuilds the state as it was)."""

    def engine_phase(self, state: BattleState, phase: Phase, ctx: Context) -> Steps:
        """An ENGINE phase's own work (between phase_start and phase_end)."""
        return no_steps()

    def phase_end(self, state: BattleState, phase: Phase, ctx: Context) -> Steps:
        """After the last pick: settle what the phase held back (campaign.activation.phased.held)."""
        return no_steps()

    def turn_end(self, state: BattleState, ctx: Context) -> Steps:
        """After the last phase (victory checks, reports the rules ask for)."""
        return no_steps()

    def game_end(self, state: BattleState, ctx: Context) -> Steps:
        """Once, when the battle ends (by the rules or the turn limit)."""
        return no_steps()


class UnitTurns(PhasedHost):
    """Any rules as a phased turn: the sides roll the rules' initiative each turn, then one
    alternating phase in which a pick activates one of the side's units (each once a turn)
    through the rules' own activation hooks."""

    ACTIVATED = "activated"

    def turn_start(self, state: BattleState, ctx: Context) -> PlanSteps:
        from campaign.engine.scheme import initiative_order

        yield from self.rules.on_round_start(state, ctx)
        state.scheme[self.ACTIVATED] = []
        order = yield from initiative_order(state, state.side_ids(), ctx)
        names = ", ".join(state.side(s).name for s in order)
        ctx.emit("initiative", f"Turn order for turn {state.round}: {names}", order=list(order))
        state.scheme["order"] = list(order)
        return TurnPlan((Phase("activations", "Activations", ALTERNATE, tuple(order)),), first=order[0])

    def commands(self, state: BattleState, phase: Phase, side: str) -> list[CommandSpec]:
        done = state.scheme.get(self.ACTIVATED, [])
        return [
            CommandSpec("activate", {"unit": u.id}, label=f"Activate {u.name}")
            for u in state.units_of(side)
            if u.id not in done and self.rules.can_activate(state, u.id)
        ]

    def resolve(self, state: BattleState, phase: Phase, side: str, command: Command, ctx: Context) -> Steps:
        unit_id = str(getattr(command, "unit", ""))
        unit = state.unit(unit_id)
        state.turn += 1
        state.scheme[self.ACTIVATED].append(unit_id)
        state.scheme["active_unit"] = unit_id
        yield from self.rules.on_turn_start(state, side, ctx)
        ctx.emit("activation", f"{unit.name} activates", unit=unit_id, side=unit.side)
        yield from self.rules.on_activation_start(state, unit_id, ctx)
        yield from self.rules.activation(state, unit_id, ctx)
        yield from self.rules.on_activation_end(state, unit_id, ctx)
        yield from self.rules.on_turn_end(state, side, ctx)
        state.scheme["active_unit"] = ""

    def turn_end(self, state: BattleState, ctx: Context) -> Steps:
        yield from self.rules.on_round_end(state, ctx)


def host_for(rules: BattleRules, options: dict[str, Any] | None = None) -> PhasedHost:
    """The rules' own phased host (BattleRules.scheme_host), else `UnitTurns`."""
    # mypy refuses an abstract class as type[T] (python/mypy#4717); isinstance takes it fine
    return scheme_adapter(rules, SCHEME_NAME, PhasedHost, options, UnitTurns)  # type: ignore[type-abstract]
