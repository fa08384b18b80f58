"""Effects held until the end of a phase (all of a phase's attacks land together).

A host holds an effect on a model or unit while the phase runs and settles the lot in
its phase-end hook. They sit in the scheme's bookkeeping (`state.scheme[HELD_EFFECTS]`),
as plain data, so they replay and show on screen (the core's generic unit view lists
them under "pending"). Hosts that keep their own ledger need not use this.
"""

from __future__ import annotations

from typing import Any

from campaign.engine.display import HELD_EFFECTS
from campaign.engine.state import BattleState


def hold(state: BattleState, target: str, kind: str, text: str, **data: Any) -> None:
    """Hold an effect on `target` (an element or unit id) until the phase ends."""
    state.scheme.setdefault(HELD_EFFECTS, []).append({"target": target, "kind": kind, "text": text, "data": dict(data)})


def held(state: BattleState, target: str | None = None) -> list[dict[str, Any]]:
    """The effects held now (on `target` only, when given), in the order they were held."""
    out = list(state.scheme.get(HELD_EFFECTS, []))
    return out if target is None else [e for e in out if e["target"] == target]


def release(state: BattleState) -> list[dict[str, Any]]:
    """Every held effect, removed from the bookkeeping: for the phase-end hook to apply."""
    return list(state.scheme.pop(HELD_EFFECTS, []))
