"""Rulesets are plugins: one folder each, found through this registry."""

from __future__ import annotations

from campaign.rulesets.base import Option, Ruleset, UnknownRuleset

_REGISTRY: dict[str, type[Ruleset]] = {}


def register(cls: type[Ruleset]) -> type[Ruleset]:
    """Class decorator: make a ruleset reachable by its id and aliases."""
    for key in (cls.id, *cls.aliases):
        _REGISTRY[key] = cls
    return cls


def _load_builtins() -> None:
    # Importing a ruleset package registers it.
    import campaign.rulesets.flat_out_war  # noqa: F401


def get_ruleset(ruleset_id: str, edition: str | None = None, **options: object) -> Ruleset:
    """An instance of the ruleset for one edition with its options set."""
    _load_builtins()
    try:
        cls = _REGISTRY[ruleset_id]
    except KeyError:
        known = ", ".join(sorted({c.id for c in _REGISTRY.values()}))
        raise UnknownRuleset(f"unknown ruleset {ruleset_id!r} (known: {known})") from None
    return cls(edition=edition, **options)


def ruleset_ids() -> list[str]:
    _load_builtins()
    return sorted({c.id for c in _REGISTRY.values()})


__all__ = ["Option", "Ruleset", "UnknownRuleset", "register", "get_ruleset", "ruleset_ids"]
