"""A test-only stand-in for the core's phased turn, to run whole d10 battles through the
hooks before the plug-in core carries them: phases in the template's order, one side or
alternating picks with two passes ending a phase. Not the product's turn."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from campaign.engine.canonical import digest
from campaign.engine.dice import AutoDice
from campaign.engine.pending import Decision, RollRequest
from campaign.rulesets.d10_phased.autoplay import act, answer
from campaign.rulesets.d10_phased.play import D10Play, Game
from campaign.rulesets.d10_phased.turn import MORALE_PHASES, MOVE_PHASES


def run(gen: Generator[Any, Any, Any], dice: AutoDice) -> Any:
    try:
        request = next(gen)
        while True:
            if isinstance(request, RollRequest):
                request = gen.send(dice.draw(request))
            else:
                assert isinstance(request, Decision)
                request = gen.send(answer(request))
    except StopIteration as stop:
        return stop.value


def battle(rules: D10Play, game: Game, seed: int, max_turns: int = 12) -> tuple[str, list[tuple[str, str]]]:
    dice = AutoDice(seed)
    events: list[tuple[str, str]] = []

    def emit(kind: str, text: str = "", **data: Any) -> None:
        events.append((kind, text))

    while game.turn < max_turns and not rules.is_over(game):
        run(rules.turn_start(game, emit), dice)
        for phase in rules.phases(game):
            run(rules.phase_start(game, phase, emit), dice)
            if phase not in MORALE_PHASES:
                sides = rules.actors(game, phase)
                passes, i = 0, 0
                while passes < (1 if phase in MOVE_PHASES else 2):
                    side = sides[i % len(sides)]
                    command = act(rules, game, phase, side)
                    if command is None:
                        passes += 1
                    else:
                        passes = 0
                        run(rules.resolve(game, side, command, emit), dice)
                    if phase not in MOVE_PHASES:
                        i += 1
            run(rules.phase_end(game, phase, emit), dice)
        run(rules.turn_end(game, emit), dice)
    return digest(game), events
