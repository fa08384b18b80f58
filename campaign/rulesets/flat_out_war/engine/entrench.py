"""[1.7] Entrenched (setup 3.5, section 20): a secret position, revealed later.

At setup the owner writes where each Entrenched unit is dug in. The text goes into
`state.secret[side]["entrenched"][unit]`, the same place the card scheme keeps hands
(docs/cards.md), and into the log as the owner's `entrench` command. The unit is hidden
(`unit.markers["entrenched"]`) until its owner activates it (revealing it, it acts at
once) or an enemy unit comes within 6" (a move fact). On reveal the position becomes
public in `unit.data["entrenched_at"]`.

What another side may see of the log: `visible_log`, as the card scheme's, masks the
location of every `entrench` command whose unit is still hidden.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from campaign.engine.state import BattleState, UnitState

HIDDEN = "??"  # as campaign.activation.cards.view.HIDDEN
KEY = "entrenched"


def waiting(state: BattleState) -> list[UnitState]:
    """Entrenched units whose owner has not yet written their position, in unit order."""
    return [u for u in state.units if u.markers.get(KEY) and u.id not in positions(state, u.side)]


def positions(state: BattleState, side: str) -> dict[str, str]:
    """The hidden positions only `side` may see: unit id -> the written location."""
    return dict(state.secret.get(side, {}).get(KEY, {}))


def record(state: BattleState, unit: UnitState, location: str) -> None:
    state.secret.setdefault(unit.side, {}).setdefault(KEY, {})[unit.id] = location


def reveal(state: BattleState, unit: UnitState) -> str | None:
    """Unhide the unit and publish its written position; None if it was not hidden."""
    if not unit.markers.pop(KEY, None):
        return None
    location: str = state.secret.get(unit.side, {}).get(KEY, {}).pop(unit.id, "")
    unit.data["entrenched_at"] = location
    return location


def visible_log(entries: Iterable[Mapping[str, Any]], state: BattleState, viewer: str | None) -> list[dict[str, Any]]:
    """The log (as `battle.log_dicts()`) as `viewer` may see it (None: a spectator):
    other sides' written positions are masked while their units stay hidden."""
    hidden = {u.id for u in state.units if u.markers.get(KEY)}
    out = []
    for entry in entries:
        entry = dict(entry)
        command = dict(entry.get("command", {}))
        if command.get("type") == "entrench" and entry.get("side") != viewer and command.get("unit") in hidden:
            command["facts"] = {**command.get("facts", {}), "location": HIDDEN}
        entry["command"] = command
        out.append(entry)
    return out
