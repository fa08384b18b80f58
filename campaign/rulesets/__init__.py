"""Rulesets are plugins: one package each under campaign/rulesets/, found by this registry.

A ruleset package registers its Ruleset subclass with `@register` when imported. The
registry imports every sub-package of campaign.rulesets on first use, and every object
published under the entry-point group `muster.rulesets` by installed distributions (a
Ruleset subclass, or a module whose import registers one). Nothing outside a ruleset's
own folder names it: callers ask the registry (`get_ruleset`, `ruleset_ids`,
`ruleset_class`).
"""

from __future__ import annotations

import importlib
import importlib.util

from campaign.plugins import LoadOnce, entry_point_classes, import_packages
from campaign.rulesets.base import CampaignDefaults, Option, Ruleset, UnknownRuleset

ENTRY_POINT_GROUP = "muster.rulesets"
_REGISTRY: dict[str, type[Ruleset]] = {}
_loading = LoadOnce()


def register(cls: type[Ruleset]) -> type[Ruleset]:
    """Class decorator: make a ruleset reachable by its id and aliases."""
    for key in (cls.id, *cls.aliases):
        _REGISTRY[key] = cls
    return cls


def unregister(cls: type[Ruleset]) -> None:
    """Forget a ruleset (tests that register one of their own clean up with this)."""
    for key in [k for k, v in _REGISTRY.items() if v is cls]:
        del _REGISTRY[key]


def _load_builtins() -> None:
    """Import every ruleset package once (importing registers it), then the entry points."""
    _loading(_load_all)


def _load_all() -> None:
    import_packages(__path__, f"{__name__}.")
    for cls in entry_point_classes(ENTRY_POINT_GROUP, Ruleset):
        if cls.id not in _REGISTRY:
            register(cls)


def _load_named(ruleset_id: str) -> None:
    """Import only the package named like the id (flat-out-war: flat_out_war), if there is
    one: opening a campaign needs its own ruleset, not every ruleset's catalogues."""
    name = ruleset_id.replace("-", "_")
    if not name.isidentifier():
        return
    # find_spec, not pkgutil.iter_modules: pkgutil is a slow import for one lookup at start-up
    spec = importlib.util.find_spec(f"{__name__}.{name}")
    if spec is not None and spec.submodule_search_locations is not None:  # a package, as the rulesets are
        importlib.import_module(spec.name)


def ruleset_class(ruleset_id: str) -> type[Ruleset]:
    """The registered class for an id or alias; UnknownRuleset naming the known ids if none."""
    if ruleset_id not in _REGISTRY and not _loading.done and isinstance(ruleset_id, str):
        _load_named(ruleset_id)
    if ruleset_id not in _REGISTRY:
        _load_builtins()
    try:
        return _REGISTRY[ruleset_id]
    except KeyError:
        known = ", ".join(ruleset_ids())
        raise UnknownRuleset(f"unknown ruleset {ruleset_id!r} (known: {known})") from None


def get_ruleset(ruleset_id: str, edition: str | None = None, **options: object) -> Ruleset:
    """An instance of the ruleset for one edition with its options set."""
    return ruleset_class(ruleset_id)(edition=edition, **options)


def ruleset_ids() -> list[str]:
    _load_builtins()
    return sorted({c.id for c in _REGISTRY.values()})


__all__ = [
    "CampaignDefaults",
    "ENTRY_POINT_GROUP",
    "Option",
    "Ruleset",
    "UnknownRuleset",
    "get_ruleset",
    "register",
    "ruleset_class",
    "ruleset_ids",
    "unregister",
]
