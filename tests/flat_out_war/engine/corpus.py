"""A corpus of generated Flat Out War battles whose digests are pinned (corpus_digests.json).

Each battle is fixed by its name: sample forces, edition, activation scheme, seed and
player. The seeded autoplayer plays battles with auto dice; a random player (random legal
commands, random table facts, random faces) plays the rest, so rarer rules get visited too.
Speed work on the engine must leave every digest, log and event count as recorded:

    .venv/bin/python -m tests.flat_out_war.engine.corpus --record   # only when a rule changes
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs

from campaign.campaigns.scenario import Scenario
from campaign.engine.battle import Battle
from campaign.engine.canonical import canonical_json
from campaign.engine.dice import TableDice
from campaign.engine.pending import Decision, RollRequest
from campaign.engine.setup import BattleSetup, SideSetup
from campaign.force import Force
from campaign.rulesets.flat_out_war.engine.autoplay import AutoPlayer, play_out
from campaign.rulesets.flat_out_war.samples import ALIEN, DEMONS, EXAMPLES, HUMAN, ORCS
from tests.activation.play import random_answer

DATA = Path(__file__).with_name("corpus_digests.json")
SO_PAIRS = ((HUMAN, ALIEN), (ORCS, DEMONS), (HUMAN, ORCS), (ALIEN, DEMONS), (DEMONS, HUMAN), (ORCS, ALIEN))


def _setup(a: Force, b: Force, seed: int, *, dice: str = "auto", activation: str = "initiative",
           rounds: int = 8) -> BattleSetup:
    return BattleSetup(
        ruleset="flat-out-war", edition=a.edition,
        sides=(SideSetup("a", a.name, a), SideSetup("b", b.name, b)),
        scenario=Scenario(id="corpus", name="Corpus", rounds=rounds),
        activation=activation, seed=seed, dice=dice,
    )


def _enlarged(name: str, *forces: Force) -> Force:
    """Every unit of `forces` fielded twice: a crowded table (benchmarks/full_battle_bench.py's kind)."""
    units = tuple(attrs.evolve(u, name=f"{u.name} {n + 1}") for n in range(2) for f in forces for u in f.units)
    return Force(name, "flat-out-war", "special-ops", units)


def _random_fields(battle: Battle, decision: Decision, spec: Any, rng: random.Random) -> dict[str, Any] | None:
    """Random table facts for `spec` (None: skip it)."""
    if spec.type == "assign_cards":
        units = [u for u, _ in decision.data["units"]]
        hand = list(decision.data["hand"])
        rng.shuffle(hand)
        return {"cards": dict(zip(units, hand))}
    if spec.type == "card_rally":
        return {"facts": {"at_edge": rng.random() < 0.2}}
    if spec.type == "move":
        enemies = [u.id for u in battle.state.units if u.side != decision.side and not u.eliminated]
        facts: dict[str, Any] = {"distance": rng.randint(0, 8), "path": f"open {rng.randint(0, 8)}"}
        if enemies and rng.random() < 0.5:
            facts["contact"] = [rng.choice(enemies)]
        return {"facts": facts}
    if spec.type == "shoot":
        return {"facts": {"range_band": rng.choice(("short", "long")), "aspect": rng.choice(("front", "flank", "rear"))}}
    if spec.type == "melee":
        return {"facts": {"aspect": rng.choice(("front", "flank", "rear"))}}
    if spec.type in ("objective", "strategic_victory"):
        return None
    return {}


def random_play(battle: Battle, seed: int, limit: int = 3000,
                after: Callable[[Battle, int], None] | None = None) -> int:
    """Random legal play: random commands, facts and (table) faces, from one seeded rng.
    `after(battle, steps)` runs after every step (the cache tests check there); returns the
    steps taken."""
    rng = random.Random(seed)
    fallback = AutoPlayer(seed)
    steps = 0
    while battle.pending is not None and steps < limit:
        steps += 1
        pending = battle.pending
        if isinstance(pending, RollRequest):
            battle.roll([rng.randint(1, pending.die) for _ in range(pending.count)])
        elif not random_answer(battle, pending, rng, _random_fields):
            # nothing random fits (a fleeing unit's whole run...): the autoplayer answers
            battle.apply(fallback.answer(battle))
        if after is not None:
            after(battle, steps)
    return steps


def battles() -> Iterator[tuple[str, Callable[[], tuple[BattleSetup, Battle]]]]:
    """(name, play) for every battle of the corpus."""

    def auto(a: Force, b: Force, seed: int, activation: str = "initiative") -> Callable[[], tuple[BattleSetup, Battle]]:
        def play() -> tuple[BattleSetup, Battle]:
            s = _setup(a, b, seed, activation=activation)
            battle = Battle.start(s)
            play_out(battle, seed=seed, max_steps=1500)
            return s, battle
        return play

    def rand(a: Force, b: Force, seed: int, activation: str) -> Callable[[], tuple[BattleSetup, Battle]]:
        def play() -> tuple[BattleSetup, Battle]:
            # the card deck is dealt by auto dice; under initiative the random player rolls too
            dice = "auto" if activation == "cards" else "table"
            s = _setup(a, b, seed, dice=dice, activation=activation, rounds=5 if activation == "cards" else 8)
            battle = Battle.start(s, TableDice() if dice == "table" else None)
            random_play(battle, seed)
            return s, battle
        return play

    for i, (a, b) in enumerate(SO_PAIRS):
        for seed in (1, 2, 3):
            yield f"auto {a.name} v {b.name} seed {seed + 10 * i}", auto(a, b, seed + 10 * i)
    for seed in (1, 2, 3):
        yield f"auto 1.7 examples seed {seed}", auto(EXAMPLES, EXAMPLES, seed)
    for i, (a, b) in enumerate(SO_PAIRS[:4]):
        yield f"random initiative {a.name} v {b.name}", rand(a, b, 100 + i, "initiative")
        yield f"random cards {a.name} v {b.name}", rand(a, b, 200 + i, "cards")
    horde = _enlarged("Horde", ORCS, HUMAN)
    host = _enlarged("Host", DEMONS, ALIEN)
    yield "auto enlarged Horde v Host seed 5", auto(horde, host, 5)
    for seed in (300, 301):
        yield f"random initiative 1.7 examples seed {seed}", rand(EXAMPLES, EXAMPLES, seed, "initiative")
        yield f"random cards 1.7 examples seed {seed}", rand(EXAMPLES, EXAMPLES, seed, "cards")


def fingerprint(battle: Battle) -> dict[str, Any]:
    """What must not change: the state's digest, the log's hash, the events' count and text."""
    log = hashlib.sha256(canonical_json(battle.log_dicts()).encode()).hexdigest()
    text = hashlib.sha256("\n".join(f"{e.seq} {e.kind} {e.text}" for e in battle.events).encode()).hexdigest()
    return {"digest": battle.digest(), "log": log, "commands": len(battle.log), "events": len(battle.events),
            "event_text": text}


def record() -> dict[str, dict[str, Any]]:
    return {name: fingerprint(play()[1]) for name, play in battles()}


if __name__ == "__main__":
    if "--record" in sys.argv:
        DATA.write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n")
        print(f"wrote {DATA}")
    else:
        print(json.dumps(record(), indent=1, sort_keys=True))
