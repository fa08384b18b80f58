"""A deterministic bot for d10 battles under the card scheme, through the Battle API."""

from __future__ import annotations

from typing import Any

from campaign.engine.battle import Battle
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import Decision, RollRequest
from tests.activation.play import place_in_order


def enemy_models(battle: Battle, side: str) -> list[str]:
    game = battle.rules.game(battle.state)
    return [m.id for s in game.sides if s != side for m in game.roster.side_models(s)]


def step(battle: Battle) -> None:
    pending = battle.pending
    assert not isinstance(pending, RollRequest), "auto dice answer every roll"
    assert isinstance(pending, Decision)
    first = pending.legal[0].type
    if first == "assign_cards":
        place_in_order(battle)
        return
    if first == "activate_cards":
        battle.apply(battle.command(pending.legal[-1]))
        return
    by_type: dict[str, list[Any]] = {}
    for spec in pending.legal:
        by_type.setdefault(spec.type, []).append(spec)
    game = battle.rules.game(battle.state)
    tries: list[tuple[Any, dict[str, Any]]] = []
    for spec in by_type.get("card_rally", []):
        tries.append((spec, {"facts": {"at_edge": False}}))
    for spec in by_type.get("close", []):
        tries.append((spec, {}))
    fire = by_type.get("fire", [])
    if fire:
        spec = fire[(game.turn * 7) % len(fire)]
        tries.append((spec, {}))
    for spec in by_type.get("unit_move", []):
        unit = spec.params["unit"]
        fighters = [m for m in game.roster.members(unit) if not any(w != "close" and n for w, n in m.attack.items())]
        free = [e for e in enemy_models(battle, pending.side) if not game.touching(e)]
        contacts = free[:1] if fighters and game.turn >= 2 else []
        tries.append((spec, {"path": ["clear 3"], "contacts": contacts}))
    for spec in by_type.get("report", []):
        names = {f.name for f in spec.facts}
        if "points" in names:  # Battle of Position: each side's survivors hold its own half
            alive = {s: len(game.roster.side_models(s)) for s in game.sides}
            points = {"Q1": {game.sides[0]: alive[game.sides[0]]}, "Q2": {game.sides[0]: alive[game.sides[0]]},
                      "Q3": {game.sides[1]: alive[game.sides[1]]}, "Q4": {game.sides[1]: 0, game.sides[0]: 0}}
            tries.append((spec, {"facts": {"points": points}}))
        elif "markers" in names:
            tries.append((spec, {"facts": {"markers": {"1": [game.sides[0]], "2": [game.sides[1]], "3": [], "4": list(game.sides)}}}))
    for spec in pending.legal:
        if spec.type in ("choose", "report", "pass"):
            fields: dict[str, Any] = {}
            if spec.type == "choose" and spec.params.get("option") not in ("no", "keep"):
                continue
            tries.append((spec, fields))
    for spec in pending.legal:
        if spec.type in ("end_activation", "pass", "choose"):
            tries.append((spec, {}))
    for spec, fields in tries:
        try:
            battle.apply(battle.command(spec, **fields))
            return
        except IllegalCommand:
            continue
    raise AssertionError(f"the bot is stuck at {pending.prompt}: {[s.type for s in pending.legal]}")


def play_out(battle: Battle, limit: int = 3000) -> None:
    for _ in range(limit):
        if battle.is_over:
            return
        step(battle)
    raise AssertionError("the battle did not end")
