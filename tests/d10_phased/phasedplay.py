"""A deterministic bot for d10 battles on the core's phased turn, through the Battle API:
the ruleset's own autoplayer (`autoplay.step`), asserting it stays on the phased turn."""

from __future__ import annotations

from campaign.engine.battle import Battle
from campaign.rulesets.d10_phased.autoplay import step
from campaign.rulesets.d10_phased.phased_host import D10Turn

__all__ = ["play_out", "step"]


def play_out(battle: Battle, limit: int = 5000) -> Battle:
    assert isinstance(battle.scheme.host(battle.ctx), D10Turn)  # type: ignore[attr-defined]
    for _ in range(limit):
        if battle.is_over:
            return battle
        step(battle)
    raise AssertionError("the battle did not end")
