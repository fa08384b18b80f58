"""Campaign flow, pure: create, plan and muster the next battle, post-battle, the track.

Nothing here touches the disk or the clock; saves/campaign_file.py reads and writes
these records and the CLI/TUI drive the flow.
"""

from campaign.campaigns.flow import (
    BattlePlan,
    CampaignError,
    PostBattle,
    create_campaign,
    muster,
    plan_battle,
    post_battle,
    recovery_dice_needed,
    ruleset_price,
)
from campaign.campaigns.model import (
    Branch,
    Campaign,
    CampaignRules,
    HistoryEntry,
    LedgerLine,
    Side,
    TrackStep,
)
from campaign.campaigns.scenario import Objective, Scenario, VictoryKind
from campaign.campaigns.standing import campaign_winner, standings

__all__ = [
    "BattlePlan",
    "Branch",
    "Campaign",
    "CampaignError",
    "CampaignRules",
    "HistoryEntry",
    "LedgerLine",
    "Objective",
    "PostBattle",
    "Scenario",
    "Side",
    "TrackStep",
    "VictoryKind",
    "campaign_winner",
    "create_campaign",
    "muster",
    "plan_battle",
    "post_battle",
    "recovery_dice_needed",
    "ruleset_price",
    "standings",
]
