"""Events: what happened, each readable as one plain line of a battle report."""

from __future__ import annotations

from typing import Any

import attrs


@attrs.define(frozen=True)
class Event:
    """`kind` is a short machine tag ("hit", "destroyed", "round_start"), `text` the report
    line (plain text, never markup), `data` TOML/JSON-able details. `seq` is the log entry
    that produced the event; the battle sets it."""

    kind: str
    text: str
    data: dict[str, Any] = attrs.field(factory=dict)
    seq: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "kind": self.kind, "text": self.text, "data": dict(self.data)}
