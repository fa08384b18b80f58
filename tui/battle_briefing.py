"""The next battle of a campaign as the briefing and muster screens use it: planned,
briefed and priced, then written once its sides are mustered.

Its own module, read when a briefing opens (issue 17: start-up).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from campaign.force import Force
from tui.workspace import campaign_scenarios, hold_campaign, open_campaign


@attrs.define
class BattleBriefing:
    """What the briefing and muster screens need: the campaign as read, the planned battle,
    its briefing, and the ruleset's price and findings for checking a muster."""

    loaded: Any
    plan: Any
    briefing: Any
    price: Callable[[Force], float] | None
    findings: Callable[[Force], Sequence[Any]] | None


def battle_briefing(folder: Path) -> BattleBriefing:
    """The next battle of the campaign in `folder`, briefed (SaveError or CampaignError if none)."""
    from campaign.campaigns import plan_battle
    from campaign.campaigns.briefing import briefing
    from campaign.rulesets import get_ruleset

    loaded = open_campaign(folder)
    camp = loaded.campaign
    plan = plan_battle(camp, campaign_scenarios(folder))
    ruleset = get_ruleset(camp.ruleset, camp.edition, **camp.options)
    price: Callable[[Force], float] | None = None
    if ruleset.has_points:
        price = lambda force: ruleset.price(force).total  # noqa: E731
    doc = briefing(camp, plan, loaded.forces, price, ruleset.validate)
    return BattleBriefing(loaded, plan, doc, price, ruleset.validate)


def start_mustered_battle(folder: Path, ready: BattleBriefing, mustered: dict[str, Force], overrides: dict[str, str]) -> Path:
    """Write the battle file of `ready`'s plan with each side's mustered units (and the reason
    for any override), holding the campaign's lease only while writing; the battle screen
    then resumes it. CampaignBusy when another Muster writes the campaign."""
    from saves.campaign_file import start_battle

    lease = hold_campaign(folder, "muster")
    try:
        ready.loaded.lease = lease
        return start_battle(ready.loaded, ready.plan, mustered, overrides)
    finally:
        ready.loaded.lease = None
        lease.release()
