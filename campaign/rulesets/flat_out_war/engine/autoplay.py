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
from collections.abc import Iterable, Sequence
from typing import Any

from campaign.engine.lazy_specs import is_lazy
from campaign.engine.pending import CommandSpec, Decision
from campaign.rulesets.flat_out_war.engine.attack_part import AttackPart


_TYPE = attrgetter("type")
_NONE: tuple[CommandSpec, ...] = ()


class AutoPlayer:
    def __init__(self, seed: int = 0, long_range: float = 0.3) -> None:
        self.rng = random.Random(seed)
        self.long_range = long_range

    def pick(self, items: Sequence[CommandSpec]) -> CommandSpec:
        return items[int(self.rng.random() * len(items))]

    def answer(self, battle: Any) -> Any:
        decision = battle.pending
        assert isinstance(decision, Decision)
        # the legal specs by kind, each kind's in order, made when first asked for: one pass
        # over the runs of a kind (a Decision lists its specs kind by kind: a few runs for
        # dozens of specs); a lazy menu (the rules' activations) by its groups, of which only
        # those of the kinds asked for below are made (never an attach, detach or switch), and
        # an attack part as a sequence of its specs (a pick makes only the spec it picks)
        legal = decision.legal
        runs: dict[str, list[Iterable[CommandSpec]]]
        if type(legal) is not tuple and is_lazy(legal):
            runs = legal.by_type()
        else:
            runs = {}  # (each run a tuple: a groupby group is gone once the next is read)
            for kind, group in groupby(legal, _TYPE):
                found = runs.get(kind)
                if found is None:
                    runs[kind] = [tuple(group)]
                else:
                    found.append(tuple(group))
        made: dict[str, Sequence[CommandSpec]] = {}

        def of(kind: str) -> Sequence[CommandSpec]:
            """The legal specs of `kind`, in order: empty when the kind is not offered (a
            keyed group may make no spec). Ask `kind in runs` first: most kinds are not."""
            specs = made.get(kind)
            if specs is None:
                found = runs.get(kind)
                if found is None:
                    specs = _NONE
                elif len(found) == 1:
                    run = found[0]
                    specs = run if type(run) is tuple or type(run) is AttackPart else list(run)
                else:
                    specs = [spec for run in found for spec in run]
                made[kind] = specs
            return specs

        if "activate" in runs and of("activate"):
            return battle.command(self.pick(of("activate")))
        for kind in ("report", "choose", "keep", "rally"):
            specs = of(kind) if kind in runs else _NONE
            if specs:
                stand = [s for s in specs if s.params.get("option") == "stand"] if kind == "choose" else []
                return battle.command(stand[0] if stand else specs[0])
        casts = [s for s in of("cast") if s.params.get("spell") in ("Zap", "Fireball")] if "cast" in runs else _NONE
        if casts:
            spec = self.pick(casts)
            enemies = of("shoot") or of("melee")
            if enemies:
                target = self.pick(enemies).params["target"]
                return battle.command(spec, target=target, facts={"los": "open"})
        if "shoot" in runs and of("shoot"):
            spec = self.pick(of("shoot"))
            band = "long" if self.rng.random() < self.long_range else "short"
            return battle.command(spec, facts={"range_band": band})
        melee = of("melee") if "melee" in runs else _NONE
        if "move" in runs and of("move"):
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
            charged = battle.state.unit(melee[0].params["unit"]).markers.get("charged")
            if charged is None:  # (no spec targets None)
                return battle.command(self.pick(melee))
            if type(melee) is AttackPart:  # (its specs' targets, without making them)
                at = [melee[melee.values.index(charged)]] if charged in melee.values else []
            else:
                at = [s for s in melee if s.params["target"] == charged]
            return battle.command(at[0] if at else self.pick(melee))
        for name in ("end_activation", "pass"):
            if name in runs and of(name):
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
