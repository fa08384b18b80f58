"""Activation schemes by name, for scenario and campaign files.

A file names a registered scheme (`activation = "..."`, see `scheme_names()`) with an
`[activation_options]` table; saves and the TUI call `check_activation` to explain a bad
choice before a battle starts, and `schemes()` to list the choices with their options.

The default scheme without options, which most campaigns play, is checked without
loading the engine: reading a campaign (the TUI's dashboard) needs no battle code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from campaign.activation import DEFAULT_SCHEME

if TYPE_CHECKING:
    from campaign.options import Option


def schemes() -> dict[str, tuple[Option, ...]]:
    """Every registered activation scheme and its options (name -> Option specs)."""
    from campaign.engine.scheme import get_scheme, scheme_names

    out = {}
    for name in scheme_names():
        out[name] = tuple(type(get_scheme(name)).option_specs)
    return out


def check_scheme_name(name: object, ruleset_id: str | None = None) -> str | None:
    """None if `name` is a registered scheme the ruleset (when given) can be played with,
    else a message naming the choices."""
    if isinstance(name, str) and _registered(name):  # a known name needs no search of every scheme
        declared: tuple[str, ...] = ()
        if ruleset_id:
            from campaign.rulesets import UnknownRuleset, ruleset_class

            try:
                declared = tuple(ruleset_class(ruleset_id).activation_schemes)
            except UnknownRuleset:
                declared = ()
        if not declared or name in declared:
            return None
    from campaign.engine.scheme import scheme_names

    known = scheme_names()
    allowed = known
    if ruleset_id:
        from campaign.rulesets import UnknownRuleset, ruleset_class

        try:
            declared = ruleset_class(ruleset_id).activation_schemes
        except UnknownRuleset:
            declared = ()
        allowed = [n for n in known if n in declared] if declared else known
    if name in allowed:
        return None
    if name in known:
        return f"{ruleset_id} cannot be played with activation scheme {name!r} (choices: {', '.join(allowed)})"
    return f"unknown activation scheme {name!r} (known: {', '.join(known)})"


def _registered(name: str) -> bool:
    # the default scheme is always registered (a test holds it): known without loading it
    if name == DEFAULT_SCHEME:
        return True
    from campaign.engine.scheme import scheme_registered

    return scheme_registered(name)


def check_activation(name: str, options: dict[str, Any] | None = None, ruleset_id: str | None = None) -> str | None:
    """None if `name` with `options` makes a valid scheme (for the ruleset, when given),
    else a message saying why."""
    problem = check_scheme_name(name, ruleset_id)
    if problem:
        return problem
    if name == DEFAULT_SCHEME and not options:  # built with its defaults: valid (a test holds it)
        return None
    from campaign.engine.scheme import get_scheme

    try:
        get_scheme(name, **dict(options or {}))
    except ValueError as exc:
        return str(exc)
    except TypeError as exc:
        return f"activation options for {name!r}: {exc}"
    return None
