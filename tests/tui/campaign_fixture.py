"""A small toy-war campaign folder with one battle fought, for dashboard tests and snapshots.

Built from the toy ruleset so its numbers never move when Flat Out War's costs do.
The second side is named with markup on purpose: it must show as typed.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from campaign.campaigns import CampaignRules, HistoryEntry, LedgerLine, Side, TrackStep, create_campaign
from saves.battle_file import BattleHeader, BattleSide, append_log, create_battle_file
from saves.campaign_file import create_campaign_folder, force_ref, save_campaign
from scenarios import builtin_scenarios
from tests.tui.toy_ruleset import toy_force

HOSTILE_UNIT = "[@click=app.quit]Boss[/]"
HOSTILE_SIDE = "[bold]x"
HOSTILE_CAMPAIGN = "Toy [i]Campaign"


def make_toy_campaign(folder: Path) -> Path:
    sides = [Side("knights", "Knights"), Side("raiders", HOSTILE_SIDE)]
    track = [TrackStep("bridge", "hold-the-bridge"), TrackStep("break", "breakthrough")]
    campaign = create_campaign(
        HOSTILE_CAMPAIGN, "toy-war", sides, track, edition="1",
        rules=CampaignRules(reinforcement_per_battle=20), seed=7, scenario_ids=set(builtin_scenarios()),
    )  # fmt: skip
    forces = {"knights": toy_force("Knight Host", "Lances"), "raiders": toy_force("Raider Band", HOSTILE_UNIT)}
    create_campaign_folder(folder, campaign, forces)
    battle = "battles/01-hold-the-bridge.toml"
    header = BattleHeader(
        "toy-war",
        tuple(BattleSide(s.id, s.name, "", force_ref(s.id), forces[s.id]) for s in sides),
        edition="1", seed=7, campaign=campaign.name, number=1,
    )  # fmt: skip
    create_battle_file(folder / battle, header)
    append_log(folder / battle, {"seq": 1, "side": "knights", "command": {"type": "activate", "unit": "Lances"}})
    append_log(folder / battle, {
        "seq": 2, "side": "raiders", "command": {"type": "shoot", "unit": HOSTILE_UNIT, "target": "Lances"},
        "rolls": [{"die": 6, "faces": [4, 2, 6], "purpose": "3 x d6 to hit"}],
    })  # fmt: skip
    played = attrs.evolve(
        campaign,
        position="break",
        ledger=(LedgerLine(1, "knights", 5, "objective"), LedgerLine(1, "raiders", 8, "Lances")),
        history=(HistoryEntry(1, "bridge", "hold-the-bridge", "Hold the Bridge", battle, winner="raiders",
                              how="vp", vps={"knights": 5, "raiders": 8}, summary="Raiders win 8 to 5"),),
    )
    save_campaign(folder, played)
    return folder
