"""Banked reinforcement points are spent between battles, within the bank, and recorded."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import attrs
import pytest

from campaign.campaigns import (
    CampaignError,
    HistoryEntry,
    force_changes,
    reinforcement_cost,
    spend_reinforcements,
)
from campaign.force import Element, Force, Unit
from saves.campaign_file import load_campaign, save_campaign, save_reinforced_force
from scenarios import builtin_scenarios
from scenarios.demo import demo_campaign, write_demo
from tui.cli import main

LIB = builtin_scenarios()
SQUAD = Force("Red", "flat-out-war", units=(Unit("Guards", (Element("Guard", 4),)),))


def price(force: Force) -> float:
    return 10.0 * sum(e.count for u in force.units for e in u.elements)


def _after_one_battle(bank: int = 50):  # type: ignore[no-untyped-def]
    campaign, _ = demo_campaign()
    sides = tuple(attrs.evolve(s, reinforcements=bank) for s in campaign.sides)
    done = HistoryEntry(1, "landing", "demo-landing", "Hot Landing", "battles/01-demo-landing.toml")
    return attrs.evolve(campaign, sides=sides, history=(done,), position="bridge")


def test_edits_cost_what_the_force_grew_once_a_battle_is_fought() -> None:
    grown = attrs.evolve(SQUAD, units=(Unit("Guards", (Element("Guard", 6),)),))
    campaign, _ = demo_campaign()
    assert reinforcement_cost(campaign, SQUAD, grown, price) == 0  # before the first battle: free
    assert reinforcement_cost(_after_one_battle(), SQUAD, grown, price) == 20
    assert reinforcement_cost(_after_one_battle(), grown, SQUAD, price) == 0  # cheaper: no refund
    assert force_changes(SQUAD, grown) == "Guards: Guard 4 -> 6"


def test_spending_within_the_bank_is_recorded() -> None:
    campaign = spend_reinforcements(_after_one_battle(50), "humans", 20, "Guards: Guard 4 -> 6")
    assert campaign.side("humans").reinforcements == 30 and campaign.side("aliens").reinforcements == 50
    assert [(s.after_battle, s.side, s.points, s.what) for s in campaign.spent] == [(1, "humans", 20, "Guards: Guard 4 -> 6")]


@pytest.mark.parametrize(
    "change,words",
    [
        ({}, "have 50 reinforcement points banked; this costs 60"),
        ({"battle_in_progress": "battles/02-demo-bridge.toml"}, "battle 2 is in progress"),
        ({"position": ""}, "the campaign has ended"),
    ],
)
def test_spending_is_refused_with_the_reason(change: dict, words: str) -> None:
    campaign = attrs.evolve(_after_one_battle(50), **change)
    with pytest.raises(CampaignError, match=words):
        spend_reinforcements(campaign, "humans", 60 if not change else 10)


def test_a_reinforced_force_is_saved_with_the_spending(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = write_demo(tmp_path / "demo")
    loaded = load_campaign(folder, LIB)
    save_campaign(folder, _after_one_battle(50))
    loaded = load_campaign(folder, LIB)
    humans = loaded.forces["humans"]
    squad = humans.units[0]
    more = attrs.evolve(squad.elements[0], count=squad.elements[0].count + 2)  # two Assault Troops, 20 pts each
    grown = attrs.evolve(humans, units=(attrs.evolve(squad, elements=(more, *squad.elements[1:])), *humans.units[1:]))
    assert save_reinforced_force(loaded, "humans", grown) == 40
    again = load_campaign(folder, LIB)
    assert again.campaign.side("humans").reinforcements == 10
    assert again.forces["humans"].units[0].elements[0].count == more.count
    assert again.campaign.spent[0].what == f"Assault Squad: Assault Troop {squad.elements[0].count} -> {more.count}"
    assert main(["status", str(folder), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["reinforcements_spent"][0]["points"] == 40
    assert main(["status", str(folder)]) == 0
    assert "Humans spent 40 reinforcement points after battle 1: Assault Squad: Assault Troop" in capsys.readouterr().out
    assert main(["report", str(folder)]) == 0
    assert "| 1 | Humans | 40 | Assault Squad: Assault Troop" in capsys.readouterr().out
    # Two more troops would cost 40 again: only 10 are left, and nothing is written.
    bigger = attrs.evolve(grown, units=(attrs.evolve(grown.units[0], elements=(attrs.evolve(more, count=more.count + 2), *squad.elements[1:])), *grown.units[1:]))  # fmt: skip
    before = (folder / "campaign.toml").read_text(), (folder / "forces" / "humans.toml").read_text()
    with pytest.raises(CampaignError, match="have 10 reinforcement points banked; this costs 40"):
        save_reinforced_force(again, "humans", bigger)
    assert before == ((folder / "campaign.toml").read_text(), (folder / "forces" / "humans.toml").read_text())
    assert Fraction(again.campaign.side("humans").reinforcements) == 10
