"""The demo campaign: three linked Flat Out War battles, Humans against Aliens.

Hot Landing first. If the Humans win it they push on to The Last Bridge; if not
(a loss or a draw) they fight The Rout. Either way the campaign ends Into the Hive.
The forces are Special Operations' printed Human and Alien lists. Other rulesets'
demos (scenarios/demo_figwars.py, scenarios/demo_d10.py) are found by `demo_for`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from campaign.campaigns import Branch, Campaign, CampaignRules, Side, TrackStep, create_campaign
from campaign.force import Force
from campaign.rulesets import get_ruleset
from scenarios.loader import builtin_scenario_ids

if TYPE_CHECKING:
    from saves.campaign_file import CampaignFolder

RULESET, EDITION = "flat-out-war", "special-ops"
SIDES = (("humans", "Humans", "Human Force"), ("aliens", "Aliens", "Alien Force"))
TRACK = (
    TrackStep("landing", "demo-landing", branches=(Branch("humans", "bridge"), Branch("aliens", "rout"), Branch("draw", "rout"))),
    TrackStep("bridge", "demo-bridge", next="hive"),
    TrackStep("rout", "demo-rout", next="hive"),
    TrackStep("hive", "demo-hive"),
)


def demo_forces() -> dict[str, Force]:
    samples = {f.name: f for f in get_ruleset(RULESET, EDITION).sample_forces()}
    return {side_id: attrs.evolve(samples[sample], name=name) for side_id, name, sample in SIDES}


def demo_campaign(seed: int = 2026) -> tuple[Campaign, dict[str, Force]]:
    campaign = create_campaign(
        "Demo: The Hive War",
        RULESET,
        [Side(side_id, name) for side_id, name, _ in SIDES],
        TRACK,
        edition=EDITION,
        rules=CampaignRules(reinforcement_per_battle=50, reinforcement_per_vp=1, recovery_rolls=True),
        seed=seed,
        scenario_ids=set(builtin_scenario_ids()),
    )
    return campaign, demo_forces()


def demos() -> dict[str, Callable[[int], tuple[Campaign, dict[str, Force]]]]:
    """Every demo campaign by its ruleset's id; Flat Out War's is the default one."""
    from scenarios import demo_d10, demo_figwars

    return {RULESET: demo_campaign, demo_figwars.RULESET: demo_figwars.demo_campaign, demo_d10.RULESET: demo_d10.demo_campaign}


def demo_for(ruleset: str = "") -> Callable[[int], tuple[Campaign, dict[str, Force]]]:
    """The demo of a ruleset named by id or alias ("" for the default); ValueError if none."""
    if not ruleset:
        return demo_campaign  # without importing the other rulesets' demos
    from campaign.rulesets import UnknownRuleset, ruleset_class

    found = demos()
    try:
        rid = ruleset_class(ruleset).id
    except UnknownRuleset:
        rid = ruleset
    if rid not in found:
        raise ValueError(f"no demo campaign for {ruleset!r} (demos: {', '.join(found)})")
    return found[rid]


def write_demo(folder: str | Path, seed: int = 2026, ruleset: str = "") -> Path:
    """A fresh demo campaign folder (refused where a campaign already is)."""
    return create_demo(folder, seed, ruleset).path


def create_demo(folder: str | Path, seed: int = 2026, ruleset: str = "") -> CampaignFolder:
    """`write_demo`, returning the folder as it would be read back (saves' CampaignFolder)."""
    from saves.campaign_file import new_campaign_folder

    campaign, forces = demo_for(ruleset)(seed)
    # built-in samples: each demo's folder is checked against a load of it by the tests
    return new_campaign_folder(folder, campaign, forces, forces_load_as_given=True)
