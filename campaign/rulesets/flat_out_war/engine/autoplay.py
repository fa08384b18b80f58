"""A plain, deterministic Flat Out War player for simulations, tests and benchmarks.

It answers every Decision the engine asks: activate a unit, move (charging when it
means to fight in melee), shoot or cast an attack spell at an enemy, end the
activation; it reports no witnesses, takes Stand shots, rallies fleeing units and
keeps Lucky rolls. Its choices come from `random.Random(seed).random()` only, so a
game is the same on every machine.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from campaign.engine.lazy_specs import is_lazy
from campaign.engine.pending import CommandSpec, Decision
from campaign.rulesets.flat_out_war.engine.attack_part import AttackPart


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
        # over the menu; a lazy menu (the rules' activations) by its groups, of which only
        # those of the kinds asked for below are made (never an attach, detach or switch), and
        # an attack part as a sequence of its specs (a pick makes only the spec it picks)
        legal = decision.legal
        runs: dict[str, list[Iterable[CommandSpec]]]
        if type(legal) is not tuple and is_lazy(legal):
            runs = legal.by_type()
        else:  # (a plain menu: each kind's specs as one run)
            plain: dict[str, list[CommandSpec]] = {}
            for spec in legal:
                same = plain.get(spec.type)
                if same is None:
                    plain[spec.type] = [spec]
                else:
                    same.append(spec)
            runs = {kind: [specs] for kind, specs in plain.items()}
        get = runs.get

        found = get("activate")
        if found is not None:
            specs = _joined(found)
            if specs:
                return battle.command(self.pick(specs))
        for kind in ("report", "choose", "keep", "rally"):
            found = get(kind)
            if found is not None:
                specs = _joined(found)
                if specs:
                    stand = [s for s in specs if s.params.get("option") == "stand"] if kind == "choose" else _NONE
                    return battle.command(stand[0] if stand else specs[0])
        shoot: Sequence[CommandSpec] | None = None  # (made when first needed)
        found = get("cast")
        if found is not None:
            casts = [s for s in _joined(found) if s.params.get("spell") in ("Zap", "Fireball")]
            if casts:
                spec = self.pick(casts)
                shoot = _of(runs, "shoot")
                enemies = shoot or _of(runs, "melee")
                if enemies:
                    target = self.pick(enemies).params["target"]
                    return battle.command(spec, target=target, facts={"los": "open"})
        if shoot is None:
            shoot = _of(runs, "shoot")
        if shoot:
            spec = self.pick(shoot)
            band = "long" if self.rng.random() < self.long_range else "short"
            return battle.command(spec, facts={"range_band": band})
        melee = _of(runs, "melee")
        moves = _of(runs, "move")
        if moves:
            spec = moves[0]
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
            specs = _of(runs, name)
            if specs:
                return battle.command(specs[0])
        return battle.command(decision.legal[0])


def _joined(runs: list[Iterable[CommandSpec]]) -> Sequence[CommandSpec]:
    """A kind's runs as one sequence, in order: a lone run as it is where it is one (a list,
    a tuple, an attack part, made only as read), else joined."""
    if len(runs) == 1:
        run = runs[0]
        kind = type(run)
        return run if kind is list or kind is tuple or kind is AttackPart else list(run)  # type: ignore[return-value]
    return [spec for run in runs for spec in run]


def _of(runs: dict[str, list[Iterable[CommandSpec]]], kind: str) -> Sequence[CommandSpec]:
    """The legal specs of `kind`, in order: empty when the kind is not offered (a keyed
    group may make no spec)."""
    found = runs.get(kind)
    return _NONE if found is None else _joined(found)


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
