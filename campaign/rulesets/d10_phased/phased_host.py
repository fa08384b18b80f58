"""The d10 turn on the core's phased scheme (DP-3): `D10Play`'s hooks as a `PhasedHost`.

The turn start rolls initiative and settles Super Initiative, and its template gives this
turn's phases: the movement phases are one side's (the mover gives a command per model
until it ends the phase; the other side may op-fire inside a move, a contacted model's
owner may run away), the specials interphase is each side in turn, the attack phases are
alternating target picks (two passes in a row end them; hits held to the phase's end,
settled there), and the morale phases are the engine's. After each step the core's
elements are kept in step with the d10 records (`D10Rules.sync`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from campaign.activation.phased import ALTERNATE, EACH_SIDE, ENGINE, ONE_SIDE, Phase, PhasedHost, TurnPlan
from campaign.activation.phased.host import PlanSteps, Steps
from campaign.engine.commands import Command
from campaign.engine.pending import CommandSpec
from campaign.engine.state import BattleState
from campaign.rulesets.d10_phased.turn import (
    ATTACK_PHASES,
    MORALE_PHASES,
    MOVE_PHASES,
    PHASE_NAMES,
    SPECIALS,
    TEMPLATES,
)

if TYPE_CHECKING:
    from campaign.engine.context import Context
    from campaign.rulesets.d10_phased.play import Game
    from campaign.rulesets.d10_phased.rules import D10Rules


def phase_kind(phase: str) -> str:
    """How the sides act in a d10 phase."""
    if phase in MOVE_PHASES:
        return ONE_SIDE
    if phase == SPECIALS:
        return EACH_SIDE
    if phase in ATTACK_PHASES:
        return ALTERNATE
    if phase in MORALE_PHASES:
        return ENGINE
    raise ValueError(f"no d10 phase {phase!r}")


class D10Turn(PhasedHost):
    rules: D10Rules

    def game(self, state: BattleState) -> Game:
        return self.rules.game(state)

    def turn_start(self, state: BattleState, ctx: Context) -> PlanSteps:
        game = self.game(state)
        play = self.rules.play
        yield from play.turn_start(game, ctx.emit)
        self.rules.sync(state)
        phases = []
        for phase in play.phases(game):
            kind = phase_kind(phase)
            sides = tuple(play.actors(game, phase)) if kind != ENGINE else ()
            phases.append(Phase(phase, PHASE_NAMES[phase], kind, sides))
        return TurnPlan(tuple(phases), game.first, TEMPLATES[game.template].name)

    def phase_start(self, state: BattleState, phase: Phase, ctx: Context) -> Steps:
        yield from self.rules.play.phase_start(self.game(state), phase.id, ctx.emit)
        self.rules.sync(state)

    def commands(self, state: BattleState, phase: Phase, side: str) -> list[CommandSpec]:
        return self.rules.play.legal(self.game(state), phase.id, side)

    def prompt(self, state: BattleState, phase: Phase, side: str) -> str:
        if phase.kind == ALTERNATE:
            return f"{phase.name}: pick a target and declare every attack on it, or pass"
        if phase.kind == ONE_SIDE:
            return f"{phase.name}: move a model, or end the phase"
        return super().prompt(state, phase, side)

    def resolve(self, state: BattleState, phase: Phase, side: str, command: Command, ctx: Context) -> Steps:
        try:
            yield from self.rules.play.resolve(self.game(state), side, command, ctx.emit)
        finally:
            self.rules.sync(state)

    def phase_end(self, state: BattleState, phase: Phase, ctx: Context) -> Steps:
        yield from self.rules.play.phase_end(self.game(state), phase.id, ctx.emit)
        self.rules.sync(state)

    def turn_end(self, state: BattleState, ctx: Context) -> Steps:
        yield from self.rules.play.turn_end(self.game(state), ctx.emit)
        self.rules.sync(state)
