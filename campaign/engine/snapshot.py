"""Battle snapshots: a battle's state and events at a round boundary, as plain JSON data.

A snapshot lets a long battle resume without replaying its whole log: the battle is
rebuilt from the snapshot and only the log entries after it are replayed. It is a cache,
never the truth: it names the log prefix it stands for (`prefix`, a digest of those
entries) and the digest of its state, and Battle.resume refuses it unless both match.
Pure data: writing it to disk is the saves layer's business (saves/snapshot_cache.py).

The codec is exact where canonical JSON is not: tuples, sets and Fractions come back as
they were, so the resumed battle plays on exactly as the replayed one would. Only the
engine's own state classes, and the plain records a ruleset or a scheme keeps in the state
and names with `register` (a card turn, a d10 game), are rebuilt; no code is ever loaded
from the data.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import attrs

from campaign.engine.canonical import canonical_json
from campaign.engine.events import Event
from campaign.engine.state import BattleState, Effect, ElementState, SideState, UnitState

FORMAT = 1
_CLASSES: dict[str, type] = {c.__name__: c for c in (BattleState, SideState, UnitState, ElementState, Effect, Event)}
_KEYS: dict[type, str] = {c: name for name, c in _CLASSES.items()}


def register(*classes: type) -> None:
    """Let snapshots hold these attrs classes: the plain records (ints, strings, Fractions,
    containers and other registered records) that a ruleset or a scheme keeps in the state.
    The module defining them registers them when imported, and building the battle's rules
    and scheme imports it, before any snapshot of that battle is read."""
    for cls in classes:
        if not attrs.has(cls):
            raise TypeError(f"{cls.__name__} is not an attrs class")
        key = f"{cls.__module__}:{cls.__qualname__}"
        _CLASSES[key] = cls
        _KEYS[cls] = key


_CORE = frozenset(_CLASSES.values())


def _build(cls: type, fields: dict[str, Any]) -> Any:
    """An instance of the attrs class `cls` with these field values (by field name)."""
    if cls in _CORE:  # the bulk of a snapshot: every field is an init argument of its name
        return cls(**fields)
    kwargs, later = {}, {}
    for field in attrs.fields(cls):
        if field.name not in fields:
            raise SnapshotError(f"a snapshot's {cls.__name__} lacks {field.name}")
        if field.init:
            kwargs[field.alias or field.name] = fields[field.name]
        else:
            later[field.name] = fields[field.name]
    made = cls(**kwargs)
    for name, value in later.items():
        object.__setattr__(made, name, value)
    return made


class SnapshotError(ValueError):
    """A snapshot that cannot be used (damaged, of another format, for another log)."""


def encode(value: Any) -> Any:
    """`value` as JSON-able data that `decode` turns back into an equal value."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) and not k.startswith("__") for k in value):
            return {k: encode(v) for k, v in value.items()}
        return {"__dict": [[encode(k), encode(v)] for k, v in value.items()]}
    if isinstance(value, tuple):
        return {"__tuple": [encode(v) for v in value]}
    if isinstance(value, Fraction):
        return {"__fraction": [value.numerator, value.denominator]}
    if isinstance(value, (set, frozenset)):
        items = sorted((encode(v) for v in value), key=canonical_json)
        return {"__frozenset" if isinstance(value, frozenset) else "__set": items}
    cls = type(value)
    if cls is Event:  # the bulk of a long battle's snapshot: kept short
        return {"__event": [value.seq, value.kind, value.text, encode(value.data)]}
    key = _KEYS.get(cls)
    if key is not None:
        return {"__attrs": key, "fields": {f.name: encode(getattr(value, f.name)) for f in attrs.fields(cls)}}
    raise TypeError(f"a snapshot cannot hold a {cls.__name__}")


def decode(data: Any) -> Any:
    """The value `encode` was given; SnapshotError on anything `encode` never writes."""
    if data is None or isinstance(data, (bool, int, str)):
        return data
    if isinstance(data, list):
        return [decode(v) for v in data]
    if not isinstance(data, dict):
        raise SnapshotError(f"a snapshot holds a {type(data).__name__}")
    if not any(k.startswith("__") for k in data):
        return {k: decode(v) for k, v in data.items()}
    try:
        if "__tuple" in data:
            return tuple(decode(v) for v in data["__tuple"])
        if "__fraction" in data:
            n, d = data["__fraction"]
            return Fraction(int(n), int(d))
        if "__set" in data:
            return {decode(v) for v in data["__set"]}
        if "__frozenset" in data:
            return frozenset(decode(v) for v in data["__frozenset"])
        if "__dict" in data:
            return {decode(k): decode(v) for k, v in data["__dict"]}
        if "__event" in data:
            seq, kind, text, details = data["__event"]
            if not (isinstance(seq, int) and isinstance(kind, str) and isinstance(text, str)):
                raise SnapshotError("a snapshot's event is damaged")
            return Event(kind, text, decode(details), seq)
        if "__attrs" in data:
            return _build(_CLASSES[data["__attrs"]], {k: decode(v) for k, v in data["fields"].items()})
    except SnapshotError:
        raise
    except Exception as exc:  # a damaged cache file: say so, the caller replays instead
        raise SnapshotError(f"a snapshot value cannot be read ({exc})") from None
    raise SnapshotError(f"a snapshot holds an unknown table {sorted(data)}")


def _hook(table: dict[str, Any]) -> Any:
    """json's object_hook for `loads`: a tagged table (its insides already decoded)."""
    if not any(k.startswith("__") for k in table):
        return table
    try:
        if "__tuple" in table:
            return tuple(table["__tuple"])
        if "__event" in table:
            seq, kind, text, details = table["__event"]
            if not (isinstance(seq, int) and isinstance(kind, str) and isinstance(text, str)
                    and isinstance(details, dict)):
                raise SnapshotError("a snapshot's event is damaged")
            return Event(kind, text, details, seq)
        if "__fraction" in table:
            n, d = table["__fraction"]
            return Fraction(int(n), int(d))
        if "__set" in table:
            return set(table["__set"])
        if "__frozenset" in table:
            return frozenset(table["__frozenset"])
        if "__dict" in table:
            return {k: v for k, v in table["__dict"]}
        if "__attrs" in table:
            return _build(_CLASSES[table["__attrs"]], table["fields"])
    except SnapshotError:
        raise
    except Exception as exc:
        raise SnapshotError(f"a snapshot value cannot be read ({exc})") from None
    raise SnapshotError(f"a snapshot holds an unknown table {sorted(table)}")


def loads(text: str) -> Snapshot:
    """A snapshot from its JSON text with its state and events decoded in the same pass
    (json calls `_hook` for each table): what a cache hands to Battle.resume."""
    try:
        data = json.loads(text, object_hook=_hook)
    except SnapshotError:
        raise
    except (ValueError, RecursionError) as exc:
        raise SnapshotError(f"not a snapshot ({exc})") from None
    return Snapshot.from_dict(data)


def dumps(snapshot: Snapshot) -> str:
    return json.dumps(snapshot.to_dict(), separators=(",", ":"), ensure_ascii=True)


def prefix_digest(log: Sequence[Mapping[str, Any]], entry: int, rolls: int) -> str:
    """The digest of the log a snapshot stands for: entries before `entry` whole, then
    entry `entry` with its first `rolls` rolls (the dice it had used at the snapshot)."""
    if entry >= len(log):
        raise SnapshotError(f"the log has {len(log)} entries; the snapshot needs {entry + 1}")
    last = dict(log[entry])
    last["rolls"] = list(last.get("rolls", []))[:rolls]
    try:  # log entries are plain TOML data already: json's own sorted dump is canonical enough
        text = json.dumps([*log[:entry], last], sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    except (TypeError, ValueError) as exc:
        raise SnapshotError(f"the log holds a value a snapshot cannot name ({exc})") from None
    return hashlib.sha256(text.encode("ascii")).hexdigest()


@attrs.frozen
class Snapshot:
    """The battle at a round boundary: reached while entry `entry` was being resolved, after
    its first `rolls` rolls. `state` and `events` are `encode`d (or already decoded, when
    read by `loads`); `digest` is the state's."""

    entry: int
    rolls: int
    prefix: str
    digest: str
    state: Any
    events: Any
    format: int = FORMAT

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self, recurse=False)

    @classmethod
    def from_dict(cls, data: Any) -> Snapshot:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise SnapshotError("not a snapshot of this format")
        try:
            snap = cls(**{f.name: data[f.name] for f in attrs.fields(cls)})
        except KeyError as exc:
            raise SnapshotError(f"a snapshot lacks {exc}") from None
        if not (isinstance(snap.entry, int) and isinstance(snap.rolls, int) and snap.entry >= 0 and snap.rolls >= 0
                and isinstance(snap.prefix, str) and isinstance(snap.digest, str)):
            raise SnapshotError("a snapshot's position or digests are damaged")
        return snap
