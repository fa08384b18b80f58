"""The end of an attack phase: one save roll per model, absorption, criticals (DP-11, 16, 17).

`settle` rolls, for each model with pending hits in the order it was first hit, its save
dice once against the phase's total (AMB-17), then one d6 per critical check; only
after every roll are the effects applied together (DP-10.6). Op fire uses the same
steps for its one target, applied at once (DP-13.3).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import attrs

from campaign.engine.dice import roll
from campaign.rulesets.d10_phased.attack import Ledger
from campaign.rulesets.d10_phased.rolls import DIE, success
from campaign.rulesets.d10_phased.state import CLOSE, ModelState, Roster

CRIT_DIE = 6
NO_MOVE = "no_move"
NO_ATTACK = "no_attack"
CRITICAL_TABLE = {1: NO_MOVE, 2: NO_MOVE, 3: NO_ATTACK, 4: NO_ATTACK, 5: "", 6: ""}  # DP-17.1


def critical_result(face: int) -> str:
    return CRITICAL_TABLE[face]


def saves_from_faces(faces: tuple[int, ...]) -> int:
    return sum(success(f) for f in faces)


def removed_by(unsaved: int, hits_left: int) -> bool:
    """DP-16: a model goes when its unsaved hits reach the hits it has left (1-hit: any;
    2-hit: the second; more: the last one, AMB-20)."""
    return unsaved > 0 and unsaved >= hits_left


@attrs.frozen
class Outcome:
    """What one model's share of a phase came to."""

    model: str
    hits: int
    saves: int
    unsaved: int
    destroyed: bool
    criticals: tuple[str, ...] = ()  # results of the critical d6s: NO_MOVE, NO_ATTACK or ""


def apply_unsaved(model: ModelState, unsaved: int) -> bool:
    """DP-16 on the model's current numbers; True when it is destroyed."""
    if unsaved <= 0:
        return False
    if removed_by(unsaved, model.hits_left):
        model.hits_left = 0
        model.alive = False
        model.gone = "destroyed"
        return True
    if model.hits == 2:
        # first lost hit: combat and save dice halved for good, rounded down (AMB-19)
        model.hits_left = 1
        model.attack = {k: v // 2 for k, v in model.attack.items()}
        model.save //= 2
        return False
    model.hits_left -= unsaved
    model.attack = {k: max(0, v - unsaved) for k, v in model.attack.items()}
    model.save = max(0, model.save - unsaved)
    return False


def apply_critical(model: ModelState, result: str, turn: int) -> None:
    if result == NO_MOVE:
        model.crit_no_move = True
    elif result == NO_ATTACK:
        model.crit_no_attack_turn = turn + 1


def settle(roster: Roster, ledger: Ledger, turn: int, side_of_roll: str = "") -> Generator[Any, Any, list[Outcome]]:
    """Roll every pending model's saves and criticals, then apply everything at once."""
    rolled: list[tuple[ModelState, int, int, list[str]]] = []
    for model_id, pending in ledger.in_order():
        model = roster.model(model_id)
        if not model.alive or pending.hits <= 0 and not pending.criticals:
            continue
        saves = 0
        if pending.hits and model.save:
            faces = yield from roll(DIE, model.save, f"{model.save} x d{DIE} save, {model.label}", model.side)
            saves = saves_from_faces(faces)
        unsaved = max(0, pending.hits - saves)
        crits: list[str] = []
        # criticals hit models of more than 2 hits as bought (AMB-21); none for one that dies now
        if model.hits > 2 and pending.criticals and not removed_by(unsaved, model.hits_left):
            for attack in pending.criticals:
                (face,) = yield from roll(CRIT_DIE, 1, f"critical on {model.label} from {attack}", model.side)
                crits.append(critical_result(face))
        rolled.append((model, saves, unsaved, crits))
    out: list[Outcome] = []
    for model, saves, unsaved, crits in rolled:
        pending = ledger.pending[model.id]
        destroyed = apply_unsaved(model, unsaved)
        if unsaved:
            roster.unit_of(model.id).hit_since_morale = True  # "takes a hit" = unsaved (AMB-22)
        if not destroyed:
            for result in crits:
                apply_critical(model, result, turn)
        out.append(Outcome(model.id, pending.hits, saves, unsaved, destroyed, tuple(crits)))
    ledger.pending.clear()
    return out


def attack_dice(model: ModelState, weapon: str = CLOSE) -> int:
    return model.attack.get(weapon, 0)
