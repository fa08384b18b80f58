"""A plain, deterministic Flat Out War player for simulations, tests and benchmarks.

It answers every Decision the engine asks: activate a unit, move (charging when it
means to fight in melee), shoot or cast an attack spell at an enemy, end the
activation; it reports no witnesses, takes Stand shots, rallies fleeing units and
keeps Lucky rolls. Its choices come from `random.Random(seed).random()` only, so a
game is the same on every machine.
"""

from __future__ import annotations

import random
from itertools import groupby
from operator import attrgetter
from typing import Any

from campaign.engine.lazy_specs import LazySpecs
from campaign.engine.pending import CommandSpec, Decision


_TYPE = attrgetter("type")
_NONE: list[CommandSpec] = []


class AutoPlayer:
    def __init__(self, seed: int = 0, long_range: float = 0.3) -> None:
        self.rng = random.Random(seed)
        self.long_range = long_range

    def pick(self, items: list[CommandSpec]) -> CommandSpec:
        return items[int(self.rng.random() * len(items))]

    def answer(self, battle: Any) -> Any:
        decision = battle.pending
        assert isinstance(decision, Decision)
        # the legal specs by kind, each kind's in order: one pass over the runs of a kind
        # (a Decision lists its specs kind by kind: a few runs for dozens of specs)
        kinds: dict[str, list[CommandSpec]] = {}
        legal = decision.legal
        # a lazy menu (the rules' activations) by its groups, never made whole
        runs = legal.runs() if isinstance(legal, LazySpecs) else groupby(legal, _TYPE)
        for kind, run in runs:
            found = kinds.get(kind)
            if found is None:
                specs = list(run)
                if specs:  # (a keyed group may make no spec: its kind is then not offered)
                    kinds[kind] = specs
            else:
                found.extend(run)

        def of(kind: str) -> list[CommandSpec]:
            """The legal specs of `kind`, in order (do not change the list)."""
            return kinds.get(kind, _NONE)

        if "activate" in kinds:
            return battle.command(self.pick(of("activate")))
        for kind in ("report", "choose", "keep", "rally"):
            if kind in kinds:
                specs = of(kind)
                stand = [s for s in specs if s.params.get("option") == "stand"] if kind == "choose" else []
                return battle.command(stand[0] if stand else specs[0])
        casts = [s for s in of("cast") if s.params.get("spell") in ("Zap", "Fireball")]
        if casts:
            spec = self.pick(casts)
            enemies = of("shoot") or of("melee")
            if enemies:
                target = self.pick(enemies).params["target"]
                return battle.command(spec, target=target, facts={"los": "open"})
        if "shoot" in kinds:
            spec = self.pick(of("shoot"))
            band = "long" if self.rng.random() < self.long_range else "short"
            return battle.command(spec, facts={"range_band": band})
        melee = of("melee")
        if "move" in kinds:
            spec = of("move")[0]
            unit_id = spec.params["unit"]
            if battle.state.unit(unit_id).data.get("morale") == "fleeing":  # the flight: its whole run
                inches = battle.rules.move_allowance(battle.state, unit_id)
                return battle.command(spec, facts={"path": f"open {inches}"} if inches else {"stopped": True})
            if melee:
                target = self.pick(melee).params["target"]
                return battle.command(spec, facts={"path": "open 2", "distance": 2, "contact": [target]})
            return battle.command(spec, facts={"path": "open 2", "distance": 2})
        if melee:
            unit = battle.state.unit(melee[0].params["unit"])
            charged = [s for s in melee if s.params["target"] == unit.markers.get("charged")]
            return battle.command(charged[0] if charged else self.pick(melee))
        for name in ("end_activation", "pass"):
            if name in kinds:
                return battle.command(of(name)[0])
        return battle.command(decision.legal[0])


def play_out(battle: Any, seed: int = 0, max_steps: int = 20_000, long_range: float = 0.3) -> int:
    """Answer decisions until the battle ends (or max_steps); returns the steps taken.
    `long_range` is the share of shots taken at long range (0: all at short range)."""
    from campaign.engine.collector import collector_paused
    from campaign.engine.errors import IllegalCommand

    player = AutoPlayer(seed, long_range=long_range)
    steps = 0
    with collector_paused():  # a batch of steps (campaign.engine.collector)
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
