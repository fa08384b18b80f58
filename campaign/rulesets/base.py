"""The ruleset interface: metadata, catalogues, and a few named hooks.

Like python-chess's variants, a ruleset is a small subclass that sets class
attributes and overrides the hooks where its rules differ. The engine core and the
campaign flow talk to rulesets only through this interface.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from campaign.costing import ForceCost
from campaign.findings import Finding
from campaign.force import Force


class UnknownRuleset(KeyError):
    def __str__(self) -> str:  # KeyError quotes its message; we want it plain
        return str(self.args[0]) if self.args else "unknown ruleset"


@attrs.define(frozen=True)
class Option:
    """A documented ruleset option: a proposed ruling that is a real choice."""

    name: str
    default: Any
    choices: tuple[Any, ...] = ()
    help: str = ""
    ruling: str = ""  # the spec's ruling id, e.g. "A-56"


class Ruleset:
    id: ClassVar[str] = ""
    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    editions: ClassVar[tuple[str, ...]] = ()
    default_edition: ClassVar[str | None] = None
    dice: ClassVar[tuple[str, ...]] = ()  # the die ladder, smallest first
    option_specs: ClassVar[tuple[Option, ...]] = ()

    def __init__(self, edition: str | None = None, **options: Any) -> None:
        edition = edition or self.default_edition
        if self.editions and edition not in self.editions:
            raise ValueError(
                f"{self.name} has no edition {edition!r} (editions: {', '.join(self.editions)})"
            )
        self.edition = edition
        known = {o.name: o for o in self.option_specs}
        unknown = set(options) - set(known)
        if unknown:
            raise ValueError(f"unknown {self.name} option(s): {', '.join(sorted(unknown))}")
        self.options: dict[str, Any] = {o.name: o.default for o in self.option_specs}
        for key, value in options.items():
            spec = known[key]
            if spec.choices and value not in spec.choices:
                choices = ", ".join(map(str, spec.choices))
                raise ValueError(f"option {key} must be one of {choices}, not {value!r}")
            self.options[key] = value

    # --- building forces -------------------------------------------------
    def price(self, force: Force) -> ForceCost:
        """Every element's cost, unit totals, the force total and findings."""
        raise NotImplementedError

    def validate(self, force: Force) -> list[Finding]:
        """Findings that explain problems without blocking."""
        return list(self.price(force).findings)

    def sample_forces(self) -> list[Force]:
        return []

    def attribute_names(self) -> list[str]:
        """Every attribute name of this edition (for suggestions and pickers)."""
        return []

    # --- playing battles (campaign.engine) ---------------------------------
    def battle_rules(self) -> Any:
        """The campaign.engine.BattleRules that plays this ruleset (edition and options set).

        Battle.start finds a ruleset's battle rules through this hook."""
        raise NotImplementedError(f"{self.name or self.id} cannot be played in the battle engine yet")
