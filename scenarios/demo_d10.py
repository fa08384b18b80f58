"""The d10 demo campaign: three linked battles, the Iron Legion against the Gnasher Horde,
one for each victory condition of the d10 rules (DP-19).

Battle of Position opens it (quadrants after eight turns); the Four Markers follow
(objective markers after eight turns); Sudden Death ends it (half an army destroyed).
The forces are the samples written for Muster (`muster samples --ruleset d10-phased`).
Between battles each model lost gets a recovery roll (d10, 5+: the ruleset's campaign
default, our choice since the sources have no campaign rules).
"""

from __future__ import annotations

import attrs

from campaign.campaigns import Campaign, CampaignRules, Side, TrackStep, create_campaign
from campaign.force import Force
from campaign.rulesets import get_ruleset
from scenarios.loader import builtin_scenarios

RULESET = "d10-phased"
NAME = "Demo: The Tusker Wars"
SIDES = (("legion", "Iron Legion", "Iron Legion"), ("horde", "Gnasher Horde", "Gnasher Horde"))
TRACK = (
    TrackStep("position", "battle-of-position", next="markers"),
    TrackStep("markers", "four-markers", next="death"),
    TrackStep("death", "sudden-death"),
)


def demo_forces() -> dict[str, Force]:
    samples = {f.name: f for f in get_ruleset(RULESET).sample_forces()}
    return {side_id: attrs.evolve(samples[sample], name=name) for side_id, name, sample in SIDES}


def demo_campaign(seed: int = 2026) -> tuple[Campaign, dict[str, Force]]:
    campaign = create_campaign(
        NAME,
        RULESET,
        [Side(side_id, name) for side_id, name, _ in SIDES],
        TRACK,
        rules=CampaignRules(recovery_rolls=True),
        activation="phased",  # the d10 turn; a scenario may still say activation = "cards"
        seed=seed,
        scenario_ids=set(builtin_scenarios()),
    )
    return campaign, demo_forces()
