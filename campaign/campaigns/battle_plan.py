"""The next battle of a campaign: its step, scenario, file, seed, roles and activation."""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from campaign.activation import DEFAULT_SCHEME
from campaign.campaigns.flow import CampaignError
from campaign.campaigns.model import Campaign
from campaign.campaigns.scenario import Scenario
from campaign.frozen import frozen


@frozen
class BattlePlan:
    number: int
    step: str
    scenario: Scenario
    file: str  # battles/NN-<scenario>.toml
    seed: int
    roles: dict[str, str]  # side id -> the scenario's role for it ("attacker"...)
    activation: str = DEFAULT_SCHEME  # the scenario's scheme, else the campaign's
    activation_options: dict[str, int | str | bool] = attrs.field(factory=dict)

    @property
    def points_limit(self) -> int | None:
        return self.scenario.points_limit


def battle_seed(campaign: Campaign, number: int) -> int:
    return (campaign.seed * 1_000_003 + number * 7_919) % 2**31


def plan_battle(campaign: Campaign, scenarios: Mapping[str, Scenario]) -> BattlePlan:
    if campaign.finished:
        raise CampaignError("the campaign has ended: its track has no more battles")
    step = campaign.step(campaign.position)
    try:
        scenario = scenarios[step.scenario]
    except KeyError:
        raise CampaignError(f"step {step.id!r} names scenario {step.scenario!r}, which is not available") from None
    number = len(campaign.history) + 1
    roles = {side.id: role for side, role in zip(campaign.sides, scenario.roles)}
    activation, activation_options = activation_for(campaign, scenario)
    return BattlePlan(
        number=number,
        step=step.id,
        scenario=scenario,
        file=f"battles/{number:02d}-{scenario.id}.toml",
        seed=battle_seed(campaign, number),
        roles=roles,
        activation=activation,
        activation_options=activation_options,
    )


def activation_for(campaign: Campaign, scenario: Scenario) -> tuple[str, dict[str, int | str | bool]]:
    """The activation scheme a battle of `scenario` uses: the scenario's own when it names
    one (with its options), else the campaign's default. A bad choice is a CampaignError."""
    from campaign.activation.registry import check_activation

    if scenario.activation:
        name, options, source = scenario.activation, dict(scenario.activation_options), f"scenario {scenario.id!r}"
    else:
        name, options, source = campaign.activation, dict(campaign.activation_options), "the campaign"
    problem = check_activation(name, options)
    if problem:
        raise CampaignError(f"{source}: {problem}")
    return name, options
