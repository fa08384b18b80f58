"""Drive a card battle from tests: scripted answers, or a simple deterministic bot."""

from __future__ import annotations

from collections.abc import Sequence
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


def autoplay(battle: Battle, limit: int = 3000) -> int:
    steps = 0
    while battle.pending is not None:
        steps += 1
        assert steps < limit, "battle did not end"
        bot_step(battle)
    return steps
