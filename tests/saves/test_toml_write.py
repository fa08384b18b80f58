"""saves/toml_write.py writes plain values itself (issue 17's start-up: a whole tomli-w
document per value was most of a save's time): each must come out as tomli-w writes it,
so every file keeps its bytes; and `compact` with its per-class plans leaves out what the
one-class-at-a-time version left out."""

from __future__ import annotations

import math
from typing import Any

import attrs
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from saves import toml_write
from saves.convert import compact


def tomli_w_scalar(value: Any) -> str:
    return tomli_w.dumps({"v": value})[len("v = ") : -1]


def tomli_w_key(name: str) -> str:
    return tomli_w.dumps({name: 0})[: -len(" = 0\n")]


EDGES = ["", "plain", 'a "quote"', "back\\slash", "tab\there", "new\nline", "\r\n", "\x00\x1f\x7f", "é → ⭘ 🎲",
         "\u2028", "'single'", "bare_key-1", "with space", "a.b", 'Template: 4"', '\\"', '"\\\\"', 'q"\n',
         "Ünïcode_key", "-", "_"]  # fmt: skip


def test_edge_values_are_written_as_tomli_w_writes_them() -> None:
    values: list[Any] = [*EDGES, 0, -1, 10**30, True, False, 1.5, -0.0, 1e300, math.inf, -math.inf, math.nan]
    for value in values:
        assert toml_write._scalar(value) == tomli_w_scalar(value), value
    for name in EDGES:
        assert toml_write._key(name) == tomli_w_key(name), name
        assert toml_write._key(name) == tomli_w_key(name), name  # from the cache too


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.one_of(st.text(), st.integers(), st.floats(), st.booleans()))
def test_any_value_is_written_as_tomli_w_writes_it(value: Any) -> None:
    assert toml_write._scalar(value) == tomli_w_scalar(value)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.text())
def test_any_key_is_written_as_tomli_w_writes_it(name: str) -> None:
    assert toml_write._key(name) == tomli_w_key(name)


def test_the_escaped_characters_are_tomli_ws() -> None:
    from tomli_w._writer import BARE_KEY_CHARS, COMPACT_ESCAPES, ILLEGAL_BASIC_STR_CHARS

    assert toml_write._ESCAPED == ILLEGAL_BASIC_STR_CHARS
    assert toml_write._BARE_KEY == BARE_KEY_CHARS  # keys written without tomli-w
    assert {c: COMPACT_ESCAPES[c] for c in toml_write._QUOTING} == {'"': '\\"', "\\": "\\\\"}


@attrs.define
class Inner:
    name: str
    tags: list[str] = attrs.field(factory=list)
    size: int = 1


@attrs.define
class Outer:
    title: str
    inner: list[Inner] = attrs.field(factory=list)
    note: str | None = None
    options: dict[str, Any] = attrs.field(factory=dict)
    count: int = 0


def test_compact_leaves_out_defaults_and_keeps_what_it_is_told() -> None:
    obj = Outer("t", [Inner("a"), Inner("b", ["x"], 2)], None, {"k": Inner("c", size=3)}, 0)
    assert compact(obj) == {"title": "t", "inner": [{"name": "a"}, {"name": "b", "tags": ["x"], "size": 2}],
                            "options": {"k": {"name": "c", "size": 3}}}  # fmt: skip
    ordered = compact(obj, order={Outer: ("count", "title")}, keep={Outer: frozenset({"count"}), Inner: frozenset({"size"})})
    assert list(ordered) == ["count", "title", "inner", "options"] and ordered["count"] == 0
    assert ordered["inner"][0] == {"name": "a", "size": 1}
    # the same class told differently in another call is written as that call says
    assert compact(obj)["inner"][0] == {"name": "a"}
