"""The FigWars 3 demo campaign: three linked battles, USC marines against the Revenant.

Firefight first. If the marines win it they go for the downed lander (Salvage); if not
(a loss or a draw) the Revenant press them at Breaking Point. Either way the campaign
ends with Seize the Uplinks. The forces are the samples of 17.6 and 17.7. Between
battles the living heal to full DP (`heals = ["dp"]`), each model lost gets a recovery
roll (d6, 4+), and a model still down at 0 DP when a battle ends lives on if its side
has a Medic standing (the ruleset option `down_at_end`, default "medic").
"""

from __future__ import annotations

from campaign.campaigns import Branch, Campaign, TrackStep
from campaign.force import Force
from scenarios.sample_demo import sample_demo, sample_forces

RULESET = "figwars-3"
NAME = "Demo: The Uplink War"  # its finale, Seize the Uplinks; folders are named by ruleset (demo-figwars-3), not by this
SIDES = (("usc", "USC Marines", "USC Strike Group"), ("revenant", "Revenant", "Revenant Host"))
TRACK = (
    TrackStep("firefight", "fw-firefight", branches=(Branch("usc", "salvage"), Branch("revenant", "breaking"), Branch("draw", "breaking"))),
    TrackStep("salvage", "fw-salvage", next="uplink"),
    TrackStep("breaking", "fw-breaking-point", next="uplink"),
    TrackStep("uplink", "fw-uplink"),
)


def demo_forces() -> dict[str, Force]:
    return sample_forces(RULESET, SIDES)


def demo_campaign(seed: int = 2026) -> tuple[Campaign, dict[str, Force]]:
    return sample_demo(
        RULESET, NAME, SIDES, TRACK, seed,
        options={"down_at_end": "medic"},  # written out so campaign.toml shows the choice
        activation_options={"turn_structure": "alternate_until_all_pass"},  # FigWars 6.2
    )
