"""A demo campaign built from a ruleset's own sample forces: what the FigWars 3 and d10
demos share (their scenarios, options and stories stay in their own modules)."""

from __future__ import annotations

from typing import Any, Sequence

import attrs

from campaign.campaigns import Campaign, CampaignRules, Side, TrackStep, create_campaign
from campaign.force import Force
from campaign.rulesets import get_ruleset
from scenarios.loader import builtin_scenario_ids

# (side id, side and force name, the sample force it starts from)
SampleSide = tuple[str, str, str]


def sample_forces(ruleset: str, sides: Sequence[SampleSide]) -> dict[str, Force]:
    """Each side's force: its sample, renamed for the side."""
    samples = {f.name: f for f in get_ruleset(ruleset).sample_forces()}
    return {side_id: attrs.evolve(samples[sample], name=name) for side_id, name, sample in sides}


def sample_demo(
    ruleset: str, name: str, sides: Sequence[SampleSide], track: Sequence[TrackStep], seed: int, **extra: Any
) -> tuple[Campaign, dict[str, Force]]:
    """A new campaign over the built-in scenarios, with recovery rolls between battles;
    `extra` goes to create_campaign (options, activation, activation_options)."""
    campaign = create_campaign(
        name,
        ruleset,
        [Side(side_id, side_name) for side_id, side_name, _ in sides],
        track,
        rules=CampaignRules(recovery_rolls=True),
        seed=seed,
        scenario_ids=set(builtin_scenario_ids()),
        **extra,
    )
    return campaign, sample_forces(ruleset, sides)
