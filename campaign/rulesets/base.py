"""The ruleset interface: metadata, catalogues, and a few named hooks.

Like python-chess's variants, a ruleset is a small subclass that sets class
attributes and overrides the hooks where its rules differ. The engine core and the
campaign flow talk to rulesets only through this interface.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from campaign.costing import ForceCost
from campaign.findings import Finding
from campaign.force import Element, Force
from campaign.frozen import frozen
from campaign.options import Option, resolve_options
from campaign.profiles import DEFAULT_PROFILE, FieldSpec, Profile

if TYPE_CHECKING:  # the engine imports this module: no cycle at run time
    from campaign.engine.rules import BattleRules
    from campaign.rulesets.simulator import Simulator  # made by `muster simulate` only

__all__ = ["CampaignDefaults", "Option", "Ruleset", "UnknownRuleset"]


class UnknownRuleset(KeyError):
    def __str__(self) -> str:  # KeyError quotes its message; we want it plain
        return str(self.args[0]) if self.args else "unknown ruleset"


@frozen
class CampaignDefaults:
    """What a new campaign of this ruleset starts with (campaign.toml [rules] may change it):
    the die and target of a recovery roll for each element lost, and the Element.state keys
    that reset between battles (damage that heals)."""

    recovery_die: int = 6
    recovery_target: int = 4
    heals: tuple[str, ...] = ()


class Ruleset:
    id: ClassVar[str] = ""
    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    editions: ClassVar[tuple[str, ...]] = ()
    default_edition: ClassVar[str | None] = None
    dice: ClassVar[tuple[str, ...]] = ()  # the die ladder, smallest first
    option_specs: ClassVar[tuple[Option, ...]] = ()
    # A short reference of the rules in our own words, shown by the TUI's help screen.
    help_text: ClassVar[str] = ""
    # What `muster odds` takes for this ruleset: action names and facts (its --help epilog).
    odds_help: ClassVar[str] = ""
    # Activation schemes (campaign.engine.scheme registry names) this ruleset can be played
    # with; () means every registered scheme. "" as default means the core's default scheme.
    activation_schemes: ClassVar[tuple[str, ...]] = ()
    default_activation: ClassVar[str] = ""
    campaign_defaults: ClassVar[CampaignDefaults] = CampaignDefaults()
    # The fields its elements (models) and weapons use, typed (campaign.profiles); whether
    # it prices forces in points (no: no cost columns anywhere).
    profile: ClassVar[Profile] = DEFAULT_PROFILE
    has_points: ClassVar[bool] = True

    def __init__(self, edition: str | None = None, **options: Any) -> None:
        edition = edition or self.default_edition
        if self.editions and edition not in self.editions:
            raise ValueError(
                f"{self.name} has no edition {edition!r} (editions: {', '.join(self.editions)})"
            )
        self.edition = edition
        self.options: dict[str, Any] = resolve_options(self.option_specs, options, self.name or self.id)

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

    def element_profile(self, element: Element) -> Profile:
        """The profile one element is edited and checked with: the ruleset's own, unless
        its rules give some elements another shape (FigWars 3's vehicles and mecha)."""
        return type(self).profile

    def derived_values(self, element: Element) -> list[str]:
        """Values the rules work out from an element's entry (FigWars 3's DEF, a vehicle's
        DP and CAP...), as short phrases an editor shows beside it; [] when there are none
        or the entry is not complete enough to work them out (its findings say why)."""
        return []

    def suggestions(self, spec: FieldSpec) -> list[str]:
        """Names an editor offers for a text or list field of the profile: its choices, or
        for `attributes` this edition's attribute names."""
        if spec.name == "attributes" and not spec.choices:
            return self.attribute_names()
        return list(spec.choices)

    def rule_text(self, text: str) -> tuple[str, str]:
        """An attribute, trait or spell as a force writes it -> (its rule's name, the rule
        in a line of Muster's own words). ("", "") when the ruleset does not know it;
        rosters print these beside the names."""
        return "", ""

    # --- playing battles (campaign.engine) ---------------------------------
    def battle_rules(self) -> BattleRules:
        """The campaign.engine.BattleRules that plays this ruleset (edition and options set).

        Battle.start finds a ruleset's battle rules through this hook."""
        raise NotImplementedError(f"{self.name or self.id} cannot be played in the battle engine yet")

    def new_battle_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options a NEW battle's file records, from the campaign's: a ruleset whose
        rules changed the order of a battle's decisions or dice stamps its revision here, so
        battles recorded before (no such key) still replay as they were played."""
        return dict(options)

    def simulator(self) -> Simulator | None:
        """The autoplayer `muster simulate` uses, or None when the ruleset has none."""
        return None
