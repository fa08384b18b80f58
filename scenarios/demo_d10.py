"""The d10 demo campaign: three linked battles, the Iron Legion against the Gnasher Horde,
one for each victory condition of the d10 rules (DP-19).

Battle of Position opens it (quadrants after eight turns); the Four Markers follow
(objective markers after eight turns); Sudden Death ends it (half an army destroyed).
The forces are the samples written for Muster (`muster samples --ruleset d10-phased`).
Between battles each model lost gets a recovery roll (d10, 5+: the ruleset's campaign
default, our choice since the sources have no campaign rules).
"""

from __future__ import annotations

from campaign.campaigns import Campaign, TrackStep
from campaign.force import Force
from scenarios.sample_demo import sample_demo, sample_forces

RULESET = "d10-phased"
NAME = "Demo: The Tusker Wars"
SIDES = (("legion", "Iron Legion", "Iron Legion"), ("horde", "Gnasher Horde", "Gnasher Horde"))
TRACK = (
    TrackStep("position", "battle-of-position", next="markers"),
    TrackStep("markers", "four-markers", next="death"),
    TrackStep("death", "sudden-death"),
)


def demo_forces() -> dict[str, Force]:
    return sample_forces(RULESET, SIDES)


def demo_campaign(seed: int = 2026) -> tuple[Campaign, dict[str, Force]]:
    return sample_demo(
        RULESET, NAME, SIDES, TRACK, seed,
        activation="phased",  # the d10 turn; a scenario may still say activation = "cards"
    )
