"""Commands and rolls are built from log dicts, and turned back into them, without cattrs
when their values are plain: the result must be what cattrs gives, and odd values must
still go to cattrs (and its errors)."""

from __future__ import annotations

import importlib
import pkgutil
import typing
from typing import Annotated, Any, Optional

import attrs
import pytest

from campaign.engine.commands import Command, CommandTypes, _converter, field_types
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


def _every_command_type() -> list[type[Command]]:
    import campaign  # every module of the pure layer, so that every ruleset's commands exist

    for module in pkgutil.walk_packages(campaign.__path__, "campaign."):
        importlib.import_module(module.name)
    found: list[type[Command]] = []
    todo = [Command]
    while todo:
        for sub in todo.pop().__subclasses__():
            found.append(sub)
            todo.append(sub)
    return found


def test_field_types_are_what_get_type_hints_answers_for_every_command_type() -> None:
    classes = _every_command_type() + [Order, _Odd]
    assert len(classes) > 50  # (the core's, the schemes' and every ruleset's)
    for cls in classes:
        fields = attrs.fields_dict(cls)
        want = {name: hint for name, hint in typing.get_type_hints(cls).items() if name in fields}
        assert field_types(cls) == want, cls
        assert list(field_types(cls)) == list(want), cls


@attrs.define(frozen=True)
class _Odd(Command):
    """Annotations that get_type_hints changes (Optional, Annotated): left to it."""

    type = "odd"
    maybe: Optional[str] = None  # noqa: UP007 -- the typing form on purpose
    noted: Annotated[int, "why"] = 0
    either: str | None = None
    rest: tuple[str, ...] = ()
