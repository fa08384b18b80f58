"""Events: what happened, each readable as one plain line of a battle report."""

from __future__ import annotations

from typing import Any

import attrs

from campaign.engine.quick import quick_init


@quick_init
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


# An event recorded by `ctx.emit("kind", "text", ...)` is kept by the battle as this plain
# tuple (kind, text, data, seq) until someone reads it (Battle.events, apply's answer, a
# snapshot): a replay records thousands of events nobody reads, and an Event apiece would
# be one more object the garbage collector walks for the rest of the battle.
RawEvent = tuple[str, str, dict[str, Any], int]

_new = object.__new__
_set_kind = Event.__dict__["kind"].__set__  # (the slots' own setters: what attrs' __init__ calls, less its dispatch)
_set_text = Event.__dict__["text"].__set__
_set_data = Event.__dict__["data"].__set__
_set_seq = Event.__dict__["seq"].__set__


def make_events(events: list[Event | RawEvent], first: int = 0) -> list[Event]:
    """Make the raw tuples in `events[first:]` into Events, in place (each is made once,
    however often it is read), and answer the list, now of Events alone from `first` on."""
    for index in range(first, len(events)):
        item = events[index]
        if type(item) is tuple:
            kind, text, data, seq = item
            event = _new(Event)  # Event(kind, text, data, seq), without attrs' per-field dispatch
            _set_kind(event, kind)
            _set_text(event, text)
            _set_data(event, data)
            _set_seq(event, seq)
            events[index] = event
    return events  # type: ignore[return-value]
