"""Activation schemes by name, for scenario and campaign files.

A file says `activation = "initiative"` or `"cards"` with an `[activation_options]`
table; saves and the TUI call `check_activation` to explain a bad choice before a
battle starts, and `schemes()` to list the choices with their documented options.
"""

from __future__ import annotations

from typing import Any

from campaign.engine.scheme import get_scheme, scheme_names
from campaign.rulesets.base import Option


def schemes() -> dict[str, tuple[Option, ...]]:
    """Every registered activation scheme and its options (name -> Option specs)."""
    out = {}
    for name in scheme_names():
        out[name] = tuple(type(get_scheme(name)).option_specs)
    return out


def check_activation(name: str, options: dict[str, Any] | None = None) -> str | None:
    """None if `name` with `options` makes a valid scheme, else a message saying why."""
    try:
        get_scheme(name, **dict(options or {}))
    except ValueError as exc:
        return str(exc)
    except TypeError as exc:
        return f"activation options for {name!r}: {exc}"
    return None
