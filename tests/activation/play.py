"""Drive a card battle from tests: scripted answers, or a simple deterministic bot."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from campaign.engine.battle import Battle
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import Decision, RollRequest

ATTACKS = ("shoot", "melee")


def place_in_order(battle: Battle) -> None:
    """Answer a pending assign_cards Decision: units in order take the hand in order."""
    decision = battle.pending
    assert isinstance(decision, Decision) and decision.legal[0].type == "assign_cards"
    units = [u for u, _ in decision.data["units"]]
    battle.apply({"type": "assign_cards", "cards": dict(zip(units, decision.data["hand"]))})


def bot_step(battle: Battle, table_faces: Sequence[int] = (4,)) -> None:
    """One deterministic step: attack if possible, otherwise end; never interrupt."""
    pending = battle.pending
    if isinstance(pending, RollRequest):
        faces = [table_faces[i % len(table_faces)] for i in range(pending.count)]
        battle.roll([min(f, pending.die) for f in faces])
        return
    assert isinstance(pending, Decision)
    first = pending.legal[0].type
    if first == "assign_cards":
        place_in_order(battle)
        return
    if first == "activate_cards":
        battle.apply(battle.command(pending.legal[-1]))  # all together
        return
    specs = sorted(pending.legal, key=lambda s: (s.type not in ATTACKS, s.type == "card_rally" and False))
    for spec in specs:
        if spec.type in ("pass", "end_activation") and any(s.type in ATTACKS for s in specs):
            continue
        fields: dict[str, Any] = {}
        if spec.type == "card_rally":
            fields["facts"] = {"at_edge": False}
        try:
            battle.apply(battle.command(spec, **fields))
            return
        except IllegalCommand:
            continue
    for spec in pending.legal:
        if spec.type in ("pass", "end_activation"):
            battle.apply(battle.command(spec))
            return
    raise AssertionError(f"bot is stuck at {pending.prompt}")


def _random_fields(b: Battle, decision: Decision, spec: Any, rng: random.Random) -> dict[str, Any] | None:
    """Fields for a random answer to `spec`, or None to skip it."""
    if spec.type == "assign_cards":
        units = [u for u, _ in decision.data["units"]]
        hand = list(decision.data["hand"])
        rng.shuffle(hand)
        return {"cards": dict(zip(units, hand))}
    if spec.type == "card_rally":
        return {"facts": {"at_edge": rng.random() < 0.2}}
    if spec.type == "move":
        enemies = [u.id for u in b.state.units if u.side != decision.side and not u.eliminated]
        facts: dict[str, Any] = {"straight": rng.random() < 0.6}
        if any(f.name == "distance" for f in spec.facts):  # Flat Out War's move facts
            facts["distance"] = rng.randint(0, 8)
            if enemies and rng.random() < 0.4:
                facts["contact"] = [rng.choice(enemies)]
        else:
            facts["inches"] = rng.randint(0, 10)
            facts["contact"] = rng.random() < 0.4
        return {"facts": facts}
    if spec.type in ("objective", "strategic_victory"):
        return None
    return {}


def random_play(b: Battle, rng: random.Random, limit: int = 4000) -> int:
    """Random legal play (random faces in table mode) with random table facts."""
    steps = 0
    while b.pending is not None:
        steps += 1
        assert steps < limit, "battle did not end"
        pending = b.pending
        if isinstance(pending, RollRequest):
            b.roll([rng.randint(1, pending.die) for _ in range(pending.count)])
            continue
        if not random_answer(b, pending, rng, _random_fields):
            raise AssertionError(f"stuck at {pending.prompt}: {[s.type for s in pending.legal]}")
    return steps


FieldsFor = Callable[[Battle, Decision, Any, random.Random], "dict[str, Any] | None"]


def random_answer(b: Battle, pending: Decision, rng: random.Random, fields_for: FieldsFor) -> bool:
    """Apply a random legal answer to `pending` (False: none of its specs fits)."""
    specs = list(pending.legal)
    rng.shuffle(specs)
    for spec in specs:
        fields = fields_for(b, pending, spec, rng)
        if fields is None:
            continue
        try:
            b.apply(b.command(spec, **fields))
            return True
        except IllegalCommand:
            continue
    return False


def autoplay(battle: Battle, limit: int = 3000) -> int:
    steps = 0
    while battle.pending is not None:
        steps += 1
        assert steps < limit, "battle did not end"
        bot_step(battle)
    return steps
