"""Commands and rolls are built from log dicts, and turned back into them, without cattrs
when their values are plain: the result must be what cattrs gives, and odd values must
still go to cattrs (and its errors)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from campaign.engine.commands import Command, CommandTypes, _converter
from campaign.engine.dice import RollRecord
from campaign.engine.errors import IllegalCommand


@attrs.define(frozen=True)
class Order(Command):
    type = "order"
    unit: str = ""
    count: int = 0
    hurry: bool = False
    units: list[str] = attrs.field(factory=list)
    facts: dict[str, Any] = attrs.field(factory=dict)


TYPES = CommandTypes([Order])

PLAIN = [
    {"type": "order"},
    {"type": "order", "unit": "reds", "count": 3, "hurry": True},
    {"type": "order", "units": ["a", "b"], "facts": {"path": "open 2", "contact": ["blues"], "n": 2, "x": 1.5}},
    {"type": "order", "facts": {"nested": {"deep": [1, "two", {"three": True}]}}},
]


@pytest.mark.parametrize("data", PLAIN)
def test_a_plain_command_is_what_cattrs_builds_and_writes(data: dict[str, Any]) -> None:
    command = TYPES.from_dict(data)
    fields = {k: v for k, v in data.items() if k != "type"}
    assert command == _converter.structure(fields, Order)
    assert command.to_dict() == data
    written = {"type": "order", **{k: _converter.unstructure(v) for k, v in fields.items()}}
    assert command.to_dict() == written
    if "facts" in data:  # a copy, not the log's own dict: the log cannot be changed through it
        assert command.facts is not data["facts"] and command.to_dict()["facts"] is not command.facts


def test_values_that_are_not_plain_still_go_through_cattrs() -> None:
    # a tuple in the facts is written as cattrs writes it (a list)
    assert Order(facts={"t": (1, 2)}).to_dict() == {"type": "order", "facts": {"t": [1, 2]}}
    with pytest.raises(IllegalCommand, match="count must be a whole number"):
        TYPES.from_dict({"type": "order", "count": True})
    with pytest.raises(IllegalCommand, match="has no field 'colour'"):
        TYPES.from_dict({"type": "order", "colour": "red"})
    with pytest.raises(IllegalCommand, match="units must be a list"):
        TYPES.from_dict({"type": "order", "units": "a"})


def test_a_roll_from_the_log_is_the_same_by_either_path() -> None:
    assert RollRecord.from_dict({"die": 6, "faces": [1, 6], "purpose": "hit"}) == RollRecord(6, (1, 6), "hit")
    assert RollRecord.from_dict({"die": 6, "faces": [2], "by": "engine"}) == RollRecord(6, (2,), "", "engine")
    assert RollRecord.from_dict({"die": "6", "faces": ["3"]}) == RollRecord(6, (3,), "")
    with pytest.raises(ValueError, match="by must be"):
        RollRecord.from_dict({"die": 6, "faces": [2], "by": "me"})
    with pytest.raises(ValueError, match="a roll needs"):
        RollRecord.from_dict({"die": 6})
