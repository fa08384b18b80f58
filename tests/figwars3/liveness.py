"""A watch on the liveness epoch (campaign.engine.state): caches of which units stand (Flat
Out War's, and any a ruleset or the core keeps) are trusted while the epoch stays put, so a
ruleset that takes a unit off the table in place (`markers["removed"] = True`) must say so
with `liveness_changed()`. The watch records, for every unit asked whether it is eliminated,
the answer and the epoch; the same unit giving another answer at the same epoch is a change
no cache could have seen."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.engine.state import UnitState, liveness_epoch


def watch_liveness(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Patch UnitState.eliminated for the test; returns the list the changes unseen are put in."""
    unseen: list[str] = []
    seen: dict[int, tuple[UnitState, int, bool]] = {}
    original: Any = UnitState.eliminated

    def eliminated(unit: UnitState) -> bool:
        value = bool(original.fget(unit))
        epoch = liveness_epoch()
        last = seen.get(id(unit))
        if last is not None and last[0] is unit and last[1] == epoch and last[2] != value:
            unseen.append(f"{unit.id}: eliminated {last[2]} -> {value} with no liveness_changed()")
        seen[id(unit)] = (unit, epoch, value)
        return value

    monkeypatch.setattr(UnitState, "eliminated", property(eliminated))
    return unseen
