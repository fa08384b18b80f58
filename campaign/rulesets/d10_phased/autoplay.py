"""A plain, deterministic player for d10 battles: for demos, simulations and tests.

It answers every Decision the d10 hooks ask with a legal command: no Super Initiative,
the sides' leaders kept, no op fire, never running away; it moves each model a few
inches over clear ground and aims each attack at the nearest-named enemy with every
model still able to attack. It reads only the Game and the Decision, never the dice.
"""

from __future__ import annotations

from typing import Any

from campaign.engine.commands import Choose, Command, Pass
from campaign.engine.pending import Decision
from campaign.rulesets.d10_phased.commands import Declare, Move, Report
from campaign.rulesets.d10_phased.play import D10Play, Game

STEP = 3  # inches a model advances each movement phase


def answer(decision: Decision) -> Command:
    """A legal answer to a Decision the hooks raised (not the phase's own commands)."""
    for spec in decision.legal:
        if spec.type == "choose" and spec.params.get("option") in ("no", "keep"):
            return Choose(option=spec.params["option"])
    for spec in decision.legal:
        if spec.type == "pass":
            return Pass()
    spec = decision.legal[0]
    if spec.type == "choose":
        return Choose(option=spec.params["option"])
    if spec.type == "report":
        return Report(facts={})
    raise ValueError(f"autoplay has no answer for {decision.prompt!r}")


def act(rules: D10Play, game: Game, phase: str, side: str) -> Command | None:
    """The side's next command in a phase, or None to pass / end the phase."""
    legal = rules.legal(game, phase, side)
    if not legal:
        return None
    spec = legal[0]
    if spec.type == "move":
        model = game.roster.model(spec.params["model"])
        contacts: list[str] = []
        if not _ranged(model) and game.turn >= 2:
            # from the second turn, close fighters reach the first enemy nobody touches yet
            free = [m.id for m in rules.targets(game, side) if not game.touching(m.id)]
            contacts = free[:1]
        return Move(model=model.id, path=[f"clear {min(STEP, model.move)}"], contacts=contacts)
    if spec.type == "use_special":
        return None  # the smoke stays in its pots
    if spec.type == "declare":
        able = rules.attackers(game, phase, side)
        open_targets = {m.id for m in rules.targets(game, side)}
        for model in able:  # close fighters first, at a model they touch
            touched = [t for t in game.touching(model.id) if t in open_targets]
            if not _ranged(model) and touched and model.attack.get("close"):
                return Declare(target=touched[0], attackers=[model.id], close=True)
        shooters = [m.id for m in able if _ranged(m)][:2]
        if shooters:
            return Declare(target=sorted(open_targets)[0], attackers=shooters)
    return None


def _ranged(model: Any) -> bool:
    return any(w != "close" and n for w, n in model.attack.items())

