"""Documented options (of a ruleset, an activation scheme or a card host) and the one
check that overlays given values on their defaults."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from campaign.frozen import frozen


OptionValue = bool | int | str  # what a TOML file or the command line gives an option


@frozen
class Option:
    """A documented option: a proposed ruling that is a real choice. A value given for it
    must have its default's type (a yes/no is not a number) and be one of its choices."""

    name: str
    default: OptionValue
    choices: tuple[OptionValue, ...] = ()
    help: str = ""
    ruling: str = ""  # the spec's ruling id, e.g. "A-56"


def resolve_options(specs: Iterable[Option], given: Mapping[str, Any] | None, owner: str) -> dict[str, Any]:
    """Defaults overlaid with `given`; ValueError for unknown names or values off the choices."""
    known = {o.name: o for o in specs}
    given = dict(given or {})
    unknown = sorted(set(given) - set(known))
    if unknown:
        names = ", ".join(known) or "none"
        raise ValueError(f"unknown option(s) for {owner}: {', '.join(unknown)} (options: {names})")
    out = {o.name: o.default for o in known.values()}
    for key, value in given.items():
        spec = known[key]
        if type(value) is not type(spec.default):
            kind = {bool: "true or false", int: "a whole number", str: "text"}.get(type(spec.default), type(spec.default).__name__)
            raise ValueError(f"option {key} must be {kind}, not {value!r}")
        if spec.choices and value not in spec.choices:
            raise ValueError(f"option {key} must be one of {', '.join(map(str, spec.choices))}, not {value!r}")
        out[key] = value
    return out
