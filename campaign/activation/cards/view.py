"""What one side may see of the card scheme right now (hidden information, AMB-6).

The TUI renders a `CardView` for the player at the keyboard: their own hand and
face-down placements, everyone's revealed cards in the order they came up, whose
card is up, action points left, held overwatch actions. The other side's hand,
placements and discards never appear in it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from campaign.engine.state import BattleState

SCHEME_KEY = "cards"


@attrs.define(frozen=True)
class UnitCardView:
    unit: str
    name: str
    side: str
    card: str | None  # revealed card, or the viewer's own face-down card; else None
    face_down: bool  # True while the card is not revealed
    status: str  # waiting | active | done
    ap_left: int
    ap_max: int
    overwatch: bool
    held_actions: int
    routed: bool
    eliminated: bool
    actions_taken: int
    casting: str  # "hand-o-god 2" or ""
    prep: dict[str, int]  # weapon -> actions still owed


@attrs.define(frozen=True)
class CardView:
    viewer: str | None  # a side id, or None for a spectator (sees only revealed cards)
    turn: int
    phase: str  # deal | assign | activations
    dealt: dict[str, int]  # side -> number of cards dealt (public)
    placed: tuple[str, ...]  # sides that have placed their cards
    hand: tuple[str, ...]  # the viewer's dealt cards
    discarded: tuple[str, ...]  # the viewer's discards
    revealed: tuple[tuple[str, str], ...]  # (unit id, card) in the order they came up
    up: tuple[str, ...]  # units activating now
    units: tuple[UnitCardView, ...]
    card_order: str


def card_activated_this_round(state: BattleState, unit_id: str) -> bool:
    """Whether the unit's card has come up this card turn (it is active or done); a new
    turn sets every unit back to waiting."""
    turn = state.scheme.get(SCHEME_KEY)
    unit = turn.units.get(unit_id) if turn is not None else None
    return unit is not None and unit.status != "waiting"


def card_view(state: BattleState, viewer: str | None) -> CardView:
    """The card scheme as `viewer` may see it now (None: what everyone may see)."""
    turn = state.scheme.get(SCHEME_KEY)
    if turn is None:
        raise ValueError("this battle does not use the card activation scheme")
    own = state.secret.get(viewer or "", {}).get(SCHEME_KEY) if viewer else None
    units = []
    for unit in state.units:
        cu = turn.units.get(unit.id)
        if cu is None:
            continue
        card = cu.card
        if card is None and own is not None and cu.side == viewer:
            card = own.assigned.get(unit.id)
        units.append(
            UnitCardView(
                unit=unit.id,
                name=unit.name,
                side=unit.side,
                card=card,
                face_down=cu.card is None,
                status=cu.status,
                ap_left=cu.ap_left,
                ap_max=cu.ap_max,
                overwatch=cu.overwatch,
                held_actions=cu.held_actions,
                routed=cu.routed,
                eliminated=cu.eliminated,
                actions_taken=cu.actions_taken,
                casting=f"{cu.casting_power} {cu.casting_paid}" if cu.casting_power else "",
                prep={w: n for w, n in cu.prep_remaining.items() if n > 0},
            )
        )
    revealed = tuple((u, turn.units[u].card or "") for u in turn.revealed_order)
    return CardView(
        viewer=viewer,
        turn=turn.turn,
        phase=turn.phase,
        dealt=dict(turn.dealt),
        placed=tuple(turn.assigned_sides),
        hand=tuple(own.hand) if own else (),
        discarded=tuple(own.discarded) if own else (),
        revealed=revealed,
        up=tuple(turn.active),
        units=tuple(units),
        card_order=turn.card_order,
    )


HIDDEN = "??"


def visible_log(entries: Iterable[Mapping[str, Any]], state: BattleState, viewer: str | None) -> list[dict[str, Any]]:
    """The log (as `battle.log_dicts()`) with other sides' cards masked.

    A side's typed deal and its placements show only cards revealed so far this turn;
    earlier turns' placements are masked too unless the unit's card came up (the
    current state keeps only this turn's reveals, so older turns are masked in full).
    The faces of the dice that dealt another side's cards are masked too: with the deck
    order known, they would give that hand away.
    """
    turn = state.scheme.get(SCHEME_KEY)
    shown = {u: turn.units[u].card for u in turn.revealed_order} if turn else {}
    own_deal = f" to {state.side(viewer).name} (" if viewer else None
    out = []
    for entry in entries:
        entry = dict(entry)
        rolls = []
        for roll in entry.get("rolls", []):
            roll = dict(roll)
            purpose = str(roll.get("purpose", ""))
            if purpose.startswith("deal card") and (own_deal is None or own_deal not in purpose):
                roll["faces"] = [HIDDEN for _ in roll.get("faces", [])]
            rolls.append(roll)
        if "rolls" in entry:
            entry["rolls"] = rolls
        command = dict(entry.get("command", {}))
        if entry.get("side") != viewer and command.get("type") == "assign_cards":
            command["cards"] = {
                unit: (code if shown.get(unit) == code else HIDDEN) for unit, code in command.get("cards", {}).items()
            }
        if entry.get("side") != viewer and command.get("type") == "deal_cards":
            command["cards"] = [HIDDEN for _ in command.get("cards", [])]
        entry["command"] = command
        out.append(entry)
    return out
