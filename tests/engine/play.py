"""Drive a battle to its end with a seeded, deterministic policy (for tests and benchmarks)."""

from __future__ import annotations

import random

from campaign.engine import Battle, Decision


def play(battle: Battle, seed: int = 0, max_steps: int = 10_000, prefer_action: float = 0.85) -> Battle:
    """Answer every Decision with a legal command picked by random.Random(seed).random()."""
    rng = random.Random(seed)
    steps = 0
    while isinstance(battle.pending, Decision) and steps < max_steps:
        legal = battle.legal_commands()
        acting = [s for s in legal if s.type not in ("pass", "end_activation")]
        pool = acting if acting and rng.random() < prefer_action else legal
        spec = pool[int(rng.random() * len(pool))]
        fields = {}
        for fact in spec.facts:
            if fact.choices:
                fields.setdefault("facts", {})[fact.name] = fact.choices[int(rng.random() * len(fact.choices))]
        battle.apply(battle.command(spec, **fields))
        steps += 1
    return battle
