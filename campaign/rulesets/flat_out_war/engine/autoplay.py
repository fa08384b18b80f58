"""A plain, deterministic Flat Out War player for simulations, tests and benchmarks.

It answers every Decision the engine asks: activate a unit, move (charging when it
means to fight in melee), shoot or cast an attack spell at an enemy, end the
activation; it reports no witnesses, takes Stand shots, rallies fleeing units and
keeps Lucky rolls. Its choices come from `random.Random(seed).random()` only, so a
game is the same on every machine.
"""

from __future__ import annotations

import random
from typing import Any

from campaign.engine.pending import CommandSpec, Decision


class AutoPlayer:
    def __init__(self, seed: int = 0, long_range: float = 0.3) -> None:
        self.rng = random.Random(seed)
        self.long_range = long_range

    def pick(self, items: list[CommandSpec]) -> CommandSpec:
        return items[int(self.rng.random() * len(items))]

    def answer(self, battle: Any) -> Any:
        decision = battle.pending
        assert isinstance(decision, Decision)
        legal = list(decision.legal)
        by_type: dict[str, list[CommandSpec]] = {}
        for spec in legal:
            by_type.setdefault(spec.type, []).append(spec)
        if "activate" in by_type:
            return battle.command(self.pick(by_type["activate"]))
        if "report" in by_type:
            return battle.command(by_type["report"][0])
        if "choose" in by_type:
            stand = [s for s in by_type["choose"] if s.params.get("option") == "stand"]
            return battle.command(stand[0] if stand else by_type["choose"][0])
        if "keep" in by_type:
            return battle.command(by_type["keep"][0])
        if "rally" in by_type:
            return battle.command(by_type["rally"][0])
        casts = [s for s in by_type.get("cast", []) if s.params.get("spell") in ("Zap", "Fireball")]
        if casts:
            spec = self.pick(casts)
            enemies = by_type.get("shoot") or by_type.get("melee") or []
            if enemies:
                target = self.pick(enemies).params["target"]
                return battle.command(spec, target=target, facts={"los": "open"})
        if "shoot" in by_type:
            spec = self.pick(by_type["shoot"])
            band = "long" if self.rng.random() < self.long_range else "short"
            return battle.command(spec, facts={"range_band": band})
        if "move" in by_type:
            spec = by_type["move"][0]
            unit_id = spec.params["unit"]
            if battle.state.unit(unit_id).data.get("morale") == "fleeing":  # the flight: its whole run
                inches = battle.rules.move_allowance(battle.state, unit_id)
                return battle.command(spec, facts={"path": f"open {inches}"} if inches else {"stopped": True})
            melee = by_type.get("melee", [])
            if melee:
                target = self.pick(melee).params["target"]
                return battle.command(spec, facts={"path": "open 2", "distance": 2, "contact": [target]})
            return battle.command(spec, facts={"path": "open 2", "distance": 2})
        if "melee" in by_type:
            unit = battle.state.unit(by_type["melee"][0].params["unit"])
            charged = [s for s in by_type["melee"] if s.params["target"] == unit.markers.get("charged")]
            return battle.command((charged or by_type["melee"])[0] if charged else self.pick(by_type["melee"]))
        for name in ("end_activation", "pass"):
            if name in by_type:
                return battle.command(by_type[name][0])
        return battle.command(legal[0])


def play_out(battle: Any, seed: int = 0, max_steps: int = 20_000, long_range: float = 0.3) -> int:
    """Answer decisions until the battle ends (or max_steps); returns the steps taken.
    `long_range` is the share of shots taken at long range (0: all at short range)."""
    from campaign.engine.errors import IllegalCommand

    player = AutoPlayer(seed, long_range=long_range)
    steps = 0
    while isinstance(battle.pending, Decision) and steps < max_steps:
        try:
            battle.apply(player.answer(battle))
        except IllegalCommand:  # a choice the table facts rule out: give up the activation
            quiet = [s for s in battle.legal_commands() if s.type in ("end_activation", "pass", "report", "keep")]
            if not quiet:
                raise
            battle.apply(battle.command(quiet[0]))
        steps += 1
    return steps
