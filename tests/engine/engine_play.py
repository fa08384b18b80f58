"""Drive a battle to its end with a seeded, deterministic policy (for tests and benchmarks)."""

from __future__ import annotations

import random

from campaign.engine import Battle, Decision, IllegalCommand
from campaign.engine.pending import CommandSpec


def _facts(spec: CommandSpec, rng: random.Random, defaults: bool) -> dict:
    facts = {}
    for fact in spec.facts:
        if defaults and fact.default is not None:
            facts[fact.name] = fact.default
        elif fact.choices:
            facts[fact.name] = fact.choices[int(rng.random() * len(fact.choices))]
    return {"facts": facts} if facts else {}


def _offered(spec: CommandSpec, rng: random.Random) -> dict:
    """A field the rules narrow to some ids (`offers`: the models able to attack now) gets
    a few of them, so a declaration names its attackers instead of being refused."""
    fields = {}
    for name, ids in spec.offers.items():
        if ids:
            fields[name] = [i for i in ids if rng.random() < 0.5] or [ids[int(rng.random() * len(ids))]]
    return fields


def play(battle: Battle, seed: int = 0, max_steps: int = 10_000, prefer_action: float = 0.85) -> Battle:
    """Answer every Decision with a legal command picked by random.Random(seed).random().

    Commands the rules refuse (facts that do not fit) are skipped for another pick;
    if nothing is accepted, the first spec without facts (pass, end...) is taken."""
    rng = random.Random(seed)
    steps = 0
    while isinstance(battle.pending, Decision) and steps < max_steps:
        legal = battle.legal_commands()
        acting = [s for s in legal if s.type not in ("pass", "end_activation")]
        for attempt in range(12):
            pool = acting if acting and rng.random() < prefer_action else legal
            spec = pool[int(rng.random() * len(pool))]
            try:
                fields = {**_offered(spec, rng), **_facts(spec, rng, defaults=attempt % 2 == 0)}
                battle.apply(battle.command(spec, **fields))
                break
            except IllegalCommand:
                continue
        else:
            fallback = [s for s in legal if not s.facts] or legal
            battle.apply(battle.command(fallback[-1]))
        steps += 1
    return battle
