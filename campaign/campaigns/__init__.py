"""Campaign flow, pure: create, plan and muster the next battle, post-battle, the track.

Nothing here touches the disk or the clock; saves/campaign_file.py reads and writes
these records and the CLI/TUI drive the flow.

Each name below is imported from its module when first asked for: importing one module
of the package (the records of `model`, say) loads no other, so a new campaign's dashboard
never loads the steps it does not take (issue 17: start-up).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from campaign.campaigns.after_battle import PostBattle, post_battle, recovery_dice_needed
    from campaign.campaigns.battle_plan import BattlePlan, plan_battle
    from campaign.campaigns.flow import (
        CampaignError,
        create_campaign,
        force_changes,
        reinforcement_cost,
        ruleset_price,
        spend_reinforcements,
    )
    from campaign.campaigns.model import (
        Branch,
        Campaign,
        CampaignRules,
        HistoryEntry,
        LedgerLine,
        Side,
        Spending,
        TrackStep,
    )
    from campaign.campaigns.mustering import MusterCheck, check_muster, muster
    from campaign.campaigns.scenario import Objective, Scenario, VictoryKind
    from campaign.campaigns.standing import campaign_winner, standings

# Each name's module in this package.
_HOMES = {
    "after_battle": ("PostBattle", "post_battle", "recovery_dice_needed"),
    "battle_plan": ("BattlePlan", "plan_battle"),
    "flow": (
        "CampaignError", "create_campaign", "force_changes", "reinforcement_cost", "ruleset_price",
        "spend_reinforcements",
    ),
    "model": ("Branch", "Campaign", "CampaignRules", "HistoryEntry", "LedgerLine", "Side", "Spending", "TrackStep"),
    "mustering": ("MusterCheck", "check_muster", "muster"),
    "scenario": ("Objective", "Scenario", "VictoryKind"),
    "standing": ("campaign_winner", "standings"),
}  # fmt: skip
_HOME = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "BattlePlan",
    "Branch",
    "Campaign",
    "CampaignError",
    "CampaignRules",
    "HistoryEntry",
    "LedgerLine",
    "MusterCheck",
    "Objective",
    "PostBattle",
    "Scenario",
    "Side",
    "Spending",
    "TrackStep",
    "VictoryKind",
    "campaign_winner",
    "check_muster",
    "create_campaign",
    "force_changes",
    "muster",
    "plan_battle",
    "post_battle",
    "recovery_dice_needed",
    "reinforcement_cost",
    "ruleset_price",
    "spend_reinforcements",
    "standings",
]


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # asked once: the next lookup finds it here
    return value
