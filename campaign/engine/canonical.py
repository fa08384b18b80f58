"""Canonical JSON of battle state and its SHA-256 digest.

Sorted keys, no whitespace, Fractions as "n/d", no floats (refused: a float would make
the digest depend on arithmetic details). The same state gives the same bytes on any
machine, process (PYTHONHASHSEED) and Python version.
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from typing import Any

import attrs


def plain(value: Any, path: str = "state") -> Any:
    """The JSON-able form of state: attrs -> dict, tuples -> lists, Fraction -> "n/d"."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, float):
        raise TypeError(f"{path} is a float ({value!r}); battle state takes ints or Fractions")
    if attrs.has(type(value)):
        return {f.name: plain(getattr(value, f.name), f"{path}.{f.name}") for f in attrs.fields(type(value))}
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"{path} has a non-string key {key!r}")
            out[key] = plain(item, f"{path}.{key}")
        return out
    if isinstance(value, (list, tuple)):
        return [plain(item, f"{path}[{i}]") for i, item in enumerate(value)]
    if isinstance(value, (set, frozenset)):
        return sorted(plain(item, path) for item in value)
    raise TypeError(f"{path} holds a {type(value).__name__}, which battle state cannot hold")


def canonical_json(value: Any) -> str:
    return json.dumps(plain(value), sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def digest(value: Any) -> str:
    return hashlib.sha256(canonical_json(value).encode("ascii")).hexdigest()
