"""The d10 phased rules as a Ruleset: metadata, options, samples, validation.

There are no points in our sources (the army-building part is missing), so every model
prices at 0 and the only findings are the profile checks.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from campaign.costing import ElementCost, ForceCost, UnitCost
from campaign.findings import Finding
from campaign.force import Force
from campaign.profiles import Profile
from campaign.rulesets.base import CampaignDefaults, Ruleset
from campaign.rulesets.simulator import Simulator
from campaign.rulesets.d10_phased.forces import MODEL_STATS, RULESET_ID, UNIT_STATS, army_to_force, force_to_army
from campaign.rulesets.d10_phased.help import HELP
from campaign.rulesets.d10_phased.options import OPTIONS
from campaign.rulesets.d10_phased.profile import PROFILE
from campaign.rulesets.d10_phased.samples import SAMPLES
from campaign.rulesets.d10_phased.specials import CATALOGUE
from campaign.rulesets.d10_phased.validation import validate_army

_MODEL_PATH = re.compile(r"\.models\[")
_MODEL_STAT = re.compile(r"(\.elements\[\d+\])\.(" + "|".join(MODEL_STATS) + r")$")
_UNIT_STAT = re.compile(r"^units\[(\d+)\]\.(" + "|".join(UNIT_STATS) + r")$")
_WEAPON_DICE = re.compile(r"(\.weapons\[\d+\])\.dice$")


def force_path(path: str, force: Force | None = None) -> str:
    """An army finding's key path as the force file spells it: a model's numbers are
    stats, a weapon's dice are its die, a unit's fields are the unit's stats (or its first
    element's, where an older file keeps them there)."""
    path = _MODEL_PATH.sub(".elements[", path).replace(".specials", ".attributes")
    path = _MODEL_STAT.sub(r"\1.stats.\2", path)
    unit = _UNIT_STAT.match(path)
    if unit:
        index, key = int(unit.group(1)), unit.group(2)
        units = force.units if force is not None else ()
        legacy = (index < len(units) and key not in units[index].stats and bool(units[index].elements)
                  and key in units[index].elements[0].stats)
        return f"units[{index}].elements[0].stats.{key}" if legacy else f"units[{index}].stats.{key}"
    return _WEAPON_DICE.sub(r"\1.die", path)


class D10Phased(Ruleset):
    id: ClassVar[str] = RULESET_ID
    name: ClassVar[str] = "d10 phased rules"
    aliases: ClassVar[tuple[str, ...]] = ("d10",)
    dice: ClassVar[tuple[str, ...]] = ()  # every die is a d10; weapons write their dice as "2d10"
    option_specs = OPTIONS
    # our sources have no campaign rules: a lost model comes back on the d10 test (5+)
    campaign_defaults: ClassVar[CampaignDefaults] = CampaignDefaults(recovery_die=10, recovery_target=5)
    help_text: ClassVar[str] = HELP
    has_points = False  # every model prices 0: no cost columns in views and `muster cost`
    profile: ClassVar[Profile] = PROFILE  # profile.py: models, weapons and units, typed
    # the d10 turn on the core's phased turn (phased_host.py); a scenario may play it with
    # the card deck instead (card-activation.md 7.4, card_host.py)
    activation_schemes: ClassVar[tuple[str, ...]] = ("cards", "phased")
    default_activation: ClassVar[str] = "phased"

    odds_help: ClassVar[str] = (
        "d10-phased: --action fire|close; the unit's models declare on the target unit's first\n"
        "  model. Facts: modifiers=1,1,-1 (before the +2 cap)  attacker_state=pinned|routed\n"
        "  out_of_command=true  target_model=ID  contact=N (models touching the target)\n"
        "  through_trees  touches_cover  through_wall  target_in_stream  attacker_in_stream\n"
        "  contour_edge (true/false)"
    )

    def validate(self, force: Force) -> list[Finding]:
        army, found = force_to_army(force)
        for f in validate_army(army):
            found.append(Finding(f.severity, f.rule, f.message, force_path(f.path, force)))
        return found

    def price(self, force: Force) -> ForceCost:
        units = tuple(
            UnitCost(u.name, tuple(ElementCost(e.name, e.count, 0) for e in u.elements)) for u in force.units
        )
        return ForceCost(units, tuple(self.validate(force)))

    def sample_forces(self) -> list[Force]:
        return [army_to_force(a) for a in SAMPLES]

    def attribute_names(self) -> list[str]:
        return [s.name for s in CATALOGUE]

    def rule_text(self, text: str) -> tuple[str, str]:
        from campaign.rulesets.d10_phased.specials import special

        found = special(text)
        return (found.name, found.help) if found is not None else ("", "")

    def battle_rules(self) -> Any:
        from campaign.rulesets.d10_phased.rules import D10Rules

        return D10Rules(dict(self.options), ruleset=self)

    def simulator(self) -> Simulator:
        """The deterministic d10 player (autoplay.py) on the phased turn, in the open field."""
        from campaign.rulesets.d10_phased.autoplay import ASSUMPTIONS, play_out

        return Simulator(play=play_out, assumptions=ASSUMPTIONS)
