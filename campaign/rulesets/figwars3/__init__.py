"""FigWars 3 (seed 003; rules spec ../shared/rules/figwars3.md), part 1: troopers and heroes.

Catalogues are data (traits, abilities, weapons); dice, re-rolls, opposed rolls and the
margin's effects live in one place each, and odds and resolution both read the same
`OpposedRoll` description (attack.py). The battle rules are `play.FigWarsRules`.
There is no points system: forces are agreed per scenario, so prices are zero and
only the findings of `validation.py` are reported.
"""

from __future__ import annotations

from typing import Any

from campaign.costing import ElementCost, ForceCost, UnitCost
from campaign.findings import Finding
from campaign.force import Element, Force
from campaign.profiles import Profile
from campaign.rulesets import register
from campaign.rulesets.base import CampaignDefaults, Option, Ruleset
from campaign.rulesets.figwars3.abilities import ABILITIES, MARKERS
from campaign.rulesets.figwars3.fields import PROFILE
from campaign.rulesets.figwars3.help import HELP

RULESET_ID = "figwars-3"


@register
class FigWars3(Ruleset):
    id = RULESET_ID
    name = "FigWars 3"
    aliases = ("figwars3", "fw3")
    dice = ("d6", "d8")
    help_text = HELP
    has_points = False  # every model prices 0: no cost columns in views and `muster cost`
    profile = PROFILE  # fields.py: a trooper's stats and a weapon entry, typed
    # Between battles a surviving model is back to full DP; the dead stay dead unless the
    # campaign's recovery roll brings them back.
    campaign_defaults = CampaignDefaults(recovery_die=6, recovery_target=4, heals=("dp",))
    option_specs = (
        Option(
            "printed_def",
            default=False,
            choices=(False, True),
            help="use the DEF a profile prints even where TQ + armour says otherwise",
            ruling="PR-11",
        ),
        # The optional rules of 15 and 8.10, switched on per scenario (optional_rules.py).
        Option("formations", default=False, choices=(False, True), help="formations in melee and shooting (15.1)", ruling="FW3 15.1"),
        Option("hail_of_arrows", default=False, choices=(False, True), help="Hail of Arrows for bow and crossbow units (15.2)", ruling="PR-67"),
        Option("mire_tests", default=False, choices=(False, True), help="mire tests for wheeled and tracked vehicles (8.10)", ruling="PR-33"),
        Option(
            "down_at_end",
            default="medic",
            choices=("medic", "dead", "saved"),
            help="a model still down at 0 DP when the battle ends: saved if its side has a medic standing, dead, or always saved",
            ruling="PR-62",
        ),
        Option(
            "out_of_ammo",
            default=False,
            choices=(False, True),
            help="11.22's optional rule: a non-reload weapon scoring no success rolls 1d8 and is empty on 1-3",
            ruling="PR-58",
        ),
        Option(
            "coherency_checks",
            default=True,
            choices=(True, False),
            help="offer, before a unit's first action, to report models out of coherency and check them alone (9)",
            ruling="PR-34",
        ),
        Option(
            "cover_hits",
            default=False,
            choices=(False, True),
            help="a shot that scores but does not hurt a model in cover may hit the door or wall instead (12.4)",
            ruling="PR-60",
        ),
        Option(
            "heavy_passengers",
            default="1",
            choices=("1", "1.5", "2"),
            help="CAP spaces a passenger of DEF 4 or more fills aboard a vehicle (4.4, the players' discretion)",
            ruling="FW3 4.4",
        ),
        Option(
            "deployment_specials",
            default=True,
            choices=(True, False),
            help="Drop Deployment units start off the table and Ambush units hidden (off: everyone starts on the table)",
            ruling="PR-29",
        ),
        # 1: as battles were recorded before session 6 (no placement step, ambushes sprung
        # only as a unit activates, ...); 2 and 3: the rules of docs/figwars-3.md "Revisions".
        # A battle without the key is revision 1 so it replays as played; new battles of a
        # campaign are stamped with the latest (new_battle_options).
        Option(
            "rules_revision",
            default=1,
            choices=(1, 2, 3),
            help="1: the engine as battles were recorded before the placement step; 2: adds placement, ambush at any moment, PR-39, move facts, and part 2's passenger seat, entity leash and formation ranks; 3: the self-destruct rolls against each model's own cover",
            ruling="FW3 5",
        ),
    )
    LATEST_REVISION = 3

    def new_battle_options(self, options: Any) -> dict[str, Any]:
        """New battles play the latest revision unless the campaign names one."""
        return {"rules_revision": self.LATEST_REVISION, **dict(options)}

    def price(self, force: Force) -> ForceCost:
        units = tuple(
            UnitCost(unit.name, tuple(ElementCost(el.name, el.count, 0) for el in unit.elements))
            for unit in force.units
        )
        return ForceCost(units, tuple(self.validate(force)))

    def validate(self, force: Force) -> list[Finding]:
        from campaign.rulesets.figwars3.validation import validate

        return validate(force, bool(self.options.get("printed_def")))

    def sample_forces(self) -> list[Force]:
        from campaign.rulesets.figwars3.samples import sample_forces

        return sample_forces()

    def element_profile(self, element: Element) -> Profile:
        """A vehicle's or a mecha's fields for a machine, a trooper's otherwise."""
        from campaign.rulesets.figwars3.vehicles import is_machine

        if not is_machine(element):
            return type(self).profile
        from campaign.rulesets.figwars3.machine_fields import MECHA, VEHICLE

        return MECHA if "build" in element.stats else VEHICLE

    def derived_values(self, element: Element) -> list[str]:
        """A trooper's MOV, DEF, COM and DP as the rules use them (a caster's ARC); a vehicle's or mecha's
        SIZ, MOV, DEF and DP, and a vehicle's CAP, crew and RAM (4.4, 4.5)."""
        from campaign.rulesets.figwars3.profile import profile_of
        from campaign.rulesets.figwars3.vehicles import is_machine, machine_of

        try:
            if not is_machine(element):
                p = profile_of(element, printed_def=bool(self.options.get("printed_def")))
                arc = element.stats.get("arc")
                return [f"MOV {p.mov}", f"DEF {p.defence}d", f"COM {p.com}", f"DP {p.dp}", *([f"ARC {arc}"] if arc else [])]
            m = machine_of(element)
        except ValueError:  # an entry not yet complete: its findings say what is missing
            return []
        out = [f"SIZ {m.siz}", f"MOV {m.mov}" + (f" / {m.second_mov}" if m.second_mov else ""), f"DEF {m.defence}d", f"DP {m.dp}"]
        if m.vehicle:
            out += [f"CAP {m.cap} (crew {m.crew})", f"RAM {m.ram}"]
        return out

    def attribute_names(self) -> list[str]:
        return [a.name for a in ABILITIES] + list(MARKERS)

    def rule_text(self, text: str) -> tuple[str, str]:
        from campaign.rulesets.figwars3.abilities import BY_NAME, UnknownAbility, parse_ability

        try:
            name = parse_ability(text).name
        except UnknownAbility:
            return "", ""
        found = BY_NAME.get(name.lower())
        return (found.name, found.summary) if found is not None else ("", "")

    def battle_rules(self) -> Any:
        from campaign.rulesets.figwars3.play import FigWarsRules

        return FigWarsRules(dict(self.options), self)
