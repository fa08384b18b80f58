"""Campaign flow, pure: create, plan and muster the next battle, post-battle, the track.

Nothing here touches the disk or the clock; saves/campaign_file.py reads and writes
these records and the CLI/TUI drive the flow.
"""

from campaign.campaigns.flow import (
    BattlePlan,
    CampaignError,
    MusterCheck,
    PostBattle,
    check_muster,
    create_campaign,
    muster,
    plan_battle,
    post_battle,
    force_changes,
    recovery_dice_needed,
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
from campaign.campaigns.scenario import Objective, Scenario, VictoryKind
from campaign.campaigns.standing import campaign_winner, standings

__all__ = [
    "BattlePlan",
    "Branch",
    "Campaign",
    "CampaignError",
    "MusterCheck",
    "check_muster",
    "CampaignRules",
    "HistoryEntry",
    "LedgerLine",
    "Objective",
    "PostBattle",
    "Scenario",
    "Side",
    "Spending",
    "TrackStep",
    "VictoryKind",
    "campaign_winner",
    "create_campaign",
    "muster",
    "plan_battle",
    "post_battle",
    "force_changes",
    "recovery_dice_needed",
    "reinforcement_cost",
    "spend_reinforcements",
    "ruleset_price",
    "standings",
]
