"""A canonical TOML layout for hand-editable files, with tomli-w formatting the values.

tomli-w decides by itself whether a list of tables is written inline or as
`[[...]]`, so the same kind of record could change shape from one save to the next.
Here the caller names the keys that are tables (`[options]`) and arrays of tables
(`[[units]]`, `[[units.elements]]`); everything else is written inline, one key per
line, lists on one line when they fit. The same data always gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

WIDTH = 88  # a list longer than this is split over several lines, one item per line
# What tomli-w escapes in a basic string (quote, backslash, control characters but tab).
_ESCAPED = frozenset('"\\\x7f') | frozenset(chr(i) for i in range(32) if chr(i) != "\t")
_QUOTING = frozenset('"\\')  # escaped with a backslash, as tomli-w does
_KEYS: dict[str, str] = {}  # a key as written, by name (field names: a few dozen)
# What tomli-w writes as a bare key, as it is: such keys (every field name) need no tomli-w,
# which is then imported only for a quoted key or an unusual value (issue 17: start-up).
_BARE_KEY = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")


def _scalar(value: Any) -> str:
    # tomli-w's own formatting of one value (string escapes, booleans, numbers), asked of
    # tomli-w only where it would do more than quote or print the value: a file holds
    # hundreds of values, and a whole tomli-w document per value was most of a save's time.
    kind = type(value)
    if kind is str:
        if _ESCAPED.isdisjoint(value):
            return f'"{value}"'
        if _QUOTING.issuperset(_ESCAPED.intersection(value)):  # inch marks: 'Template: 4"'
            text: str = value
            return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    elif kind is int or kind is float:
        return str(value)
    elif kind is bool:
        return "true" if value else "false"
    import tomli_w

    return tomli_w.dumps({"v": value})[len("v = ") : -1]


def _key(name: str) -> str:
    key = _KEYS.get(name)
    if key is None:
        if isinstance(name, str) and name and _BARE_KEY.issuperset(name):
            key = name
        else:
            import tomli_w

            key = tomli_w.dumps({name: 0})[: -len(" = 0\n")]
        if len(_KEYS) < 4096:  # user-named keys (side ids, options) must not grow it forever
            _KEYS[name] = key
    return key


def inline(value: Any) -> str:
    """One TOML value on one line: scalars, [lists] and { inline = tables }."""
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{_key(k)} = {inline(v)}" for k, v in value.items()) + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(inline(v) for v in value) + "]"
    return _scalar(value)


def _assignment(name: str, value: Any) -> str:
    line = f"{_key(name)} = {inline(value)}"
    if len(line) <= WIDTH or not isinstance(value, (list, tuple)) or len(value) < 2:
        return line + "\n"
    items = "".join(f"    {inline(v)},\n" for v in value)
    return f"{_key(name)} = [\n{items}]\n"


def dumps(doc: Mapping[str, Any], *, tables: Collection[str] = ()) -> str:
    """Write `doc`; `tables` holds the dotted names written as [table] or [[array]]."""
    chunks: list[str] = []
    _table(doc, "", set(tables), chunks, header=None)
    return "".join(chunks)


def _table(
    table: Mapping[str, Any], name: str, tables: set[str], out: list[str], header: str | None
) -> None:
    if header is not None:
        out.append(("\n" if out else "") + header + "\n")
    later: list[tuple[str, Any]] = []
    for key, value in table.items():
        dotted = f"{name}.{key}" if name else key
        if dotted in tables and isinstance(value, (Mapping, list, tuple)):
            later.append((key, value))
        else:
            out.append(_assignment(key, value))
    for key, value in later:
        dotted = f"{name}.{key}" if name else key
        shown = f"{header.strip('[]')}.{_key(key)}" if header else _key(key)
        if isinstance(value, Mapping):
            _table(value, dotted, tables, out, header=f"[{shown}]")
        else:
            for item in value:
                _table(item, dotted, tables, out, header=f"[[{shown}]]")
