"""Flat Out War, v1.7 and Special Operations (rules spec ../shared/rules/flat-out-war.md).

The ruleset reads like a python-chess variant: metadata and catalogues as class
attributes, and the few hooks the core calls (price, validate, sample_forces,
attribute_names). The data lives in sibling modules: `dice`, `editions`,
`attributes`, `spells`, `samples`; the rules in `costs` and `validation`; the
battle rules in `engine/`.

Force.options may carry this ruleset's options for one force; they override the
ruleset instance's. Force.edition, when given, picks the edition.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from campaign.costing import ElementCost, ForceCost
from campaign.findings import Finding
from campaign.force import Element, Force
from campaign.profiles import FieldSpec
from campaign.rulesets import register
from campaign.rulesets.base import CampaignDefaults, Option, Ruleset
from campaign.rulesets.flat_out_war.attributes import names_in
from campaign.rulesets.flat_out_war.costs import price_element, price_force
from campaign.rulesets.flat_out_war.dice import DIE_NAMES
from campaign.rulesets.flat_out_war.editions import EDITIONS, SO, normalize_edition
from campaign.rulesets.flat_out_war.engine.options import BATTLE_OPTIONS
from campaign.rulesets.flat_out_war.fields import PROFILE
from campaign.rulesets.flat_out_war.help import HELP, ODDS_HELP
from campaign.rulesets.flat_out_war.samples import ALL_FORCES
from campaign.rulesets.flat_out_war.spells import SPELL_NAMES
from campaign.rulesets.flat_out_war.validation import resolve_options, validate_force

if TYPE_CHECKING:  # made by `muster simulate` only
    from campaign.rulesets.simulator import Simulator

# What the autoplayer takes as given on an open field (its facts' defaults and choices).
SIMULATION_ASSUMPTIONS = (
    "every attack at short range",
    "clear line of sight",
    "front aspect",
    "units in contact once they charge",
    "open ground: each unit advances 2\" a move",
)


@register
class FlatOutWar(Ruleset):
    id = "flat-out-war"
    name = "Flat Out War"
    aliases = ("fow",)
    editions = EDITIONS
    default_edition = SO
    dice = DIE_NAMES
    help_text = HELP
    odds_help = ODDS_HELP
    profile = PROFILE  # fields.py: every field of an element and a weapon, with its range
    # Recovery: d6, 4+ brings a lost element back (FOW's own recovery roll); a damaged
    # element's reduced die heals between battles.
    campaign_defaults = CampaignDefaults(recovery_die=6, recovery_target=4, heals=("die",))
    option_specs = (
        Option(
            "ranged_base_dac",
            default=2,
            choices=(2, 1),
            help="DAC a ranged weapon costs before its range: 2 prices like the sample lists, "
            "1 follows the Special Operations text literally",
            ruling="A-56",
        ),
        Option(
            "free_attributes",
            default="",
            help="attributes every element in the game has, left out of costs (comma separated, "
            "e.g. 'Loose Cohesion')",
            ruling="FOW 19.1",
        ),
        *BATTLE_OPTIONS,  # battle options, read by engine/rules.py
    )

    def __init__(self, edition: str | None = None, **options: Any) -> None:
        # Accept "SO", "Special Ops", "v1.7"...; an unknown one falls through to the base error.
        super().__init__(normalize_edition(edition) or edition, **options)

    def edition_of(self, force: Force) -> str:
        """The edition a force is priced in: its own if it names a known one, else ours."""
        return normalize_edition(force.edition) or str(self.edition)

    def price(self, force: Force) -> ForceCost:
        edition = self.edition_of(force)
        opts, _ = resolve_options(self.options, force)
        return price_force(force, edition, opts, self.validate(force))

    def price_element(self, element: Element, force: Force | None = None) -> ElementCost:
        """One element's cost (with `force`'s edition and options when given)."""
        if force is None:
            force = Force(name="", ruleset=self.id, edition=self.edition)
        opts, _ = resolve_options(self.options, force)
        return price_element(element, self.edition_of(force), opts)

    def validate(self, force: Force) -> list[Finding]:
        return validate_force(force, str(self.edition), self.options)

    def sample_forces(self) -> list[Force]:
        """Every built-in sample force, this edition's first; each carries its own edition."""
        return sorted(ALL_FORCES, key=lambda f: f.edition != self.edition)

    def attribute_names(self) -> list[str]:
        return names_in(str(self.edition))

    def spell_names(self) -> list[str]:
        return list(SPELL_NAMES)

    def suggestions(self, spec: FieldSpec) -> list[str]:
        return self.spell_names() if spec.name == "spells" else super().suggestions(spec)

    def rule_text(self, text: str) -> tuple[str, str]:
        from campaign.rulesets.flat_out_war.attributes import AttributeTextError, parse_attribute
        from campaign.rulesets.flat_out_war.spells import spell

        try:
            spec = parse_attribute(text).spec
            return spec.name, spec.summary
        except AttributeTextError:
            pass
        try:
            found = spell(text)
        except KeyError:
            return "", ""
        return found.name, found.summary

    def battle_rules(self) -> Any:
        """Flat Out War resolved by the engine (engine/rules.py)."""
        from campaign.rulesets.flat_out_war.engine.rules import FlatOutWarRules

        return FlatOutWarRules(dict(self.options), ruleset=self, edition=str(self.edition))

    def simulator(self) -> Simulator:
        """The seeded autoplayer (engine/autoplay.py), every attack taken at short range."""
        from functools import partial

        from campaign.rulesets.flat_out_war.engine.autoplay import play_out
        from campaign.rulesets.simulator import Simulator

        return Simulator(play=partial(play_out, long_range=0.0), assumptions=SIMULATION_ASSUMPTIONS)
