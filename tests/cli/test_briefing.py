"""`muster briefing`: the next battle's scenario and what each side can muster (issue 13)."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

from saves.campaign_file import load_campaign, save_campaign
from scenarios import builtin_scenarios
from tui.cli import main


@pytest.fixture()
def border(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    folder = tmp_path / "border"
    assert main(["new", str(folder), "--name", "Border War", "--side", "north=North", "--side", "south=South",
                 "--sample", "north=Human Force", "--sample", "south=Alien Force",
                 "--track", "hold-the-bridge,rescue"]) == 0  # fmt: skip
    capsys.readouterr()
    return folder


def test_text_briefing_names_the_scenario_objectives_and_refusals(border: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["briefing", str(border)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Battle 1: Hold the Bridge\n(points limit 600; 6 rounds; won by its objectives;")
    assert "Deployment: The river runs across the middle" in out
    assert "  - The river is Impassable terrain" in out
    assert "  Bridge held: 100 VP (defender)" in out
    assert "North (defender): 996 pts with every survivor; cannot muster whole" in out
    assert "  Tactical Squad    9/9      248" in out
    assert "  ! Human Force musters 996 points, over the scenario's limit of 600 by 396" in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_json_briefing_and_losses(border: Path, capsys: pytest.CaptureFixture[str]) -> None:
    loaded = load_campaign(border, builtin_scenarios())
    humans = loaded.forces["north"]
    squad = humans.units[1]
    hurt = attrs.evolve(squad, elements=(attrs.evolve(squad.elements[0], lost=8), attrs.evolve(squad.elements[1], lost=1)))
    lighter = attrs.evolve(humans, units=(humans.units[0], hurt, *humans.units[2:4]))  # no Hover Tanks, no Tactical Squad left
    save_campaign(border, loaded.campaign, {"north": lighter})
    assert main(["briefing", str(border), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    north = data["sides"][0]
    assert [u["name"] for u in north["units"]] == ["Assault Squad", "Heavy Squad", "Hover APCs"]  # survivors only
    assert north["total"] == 220 + 208 + 144 and north["fits"] is True and north["refusals"] == []  # 572 of 600
    assert data["objectives"][0] == {"name": "Bridge held", "vp": "100", "side": "defender", "text": data["objectives"][0]["text"]}


def test_no_next_battle_is_a_clear_error(border: Path, capsys: pytest.CaptureFixture[str]) -> None:
    loaded = load_campaign(border, builtin_scenarios())
    save_campaign(border, attrs.evolve(loaded.campaign, position=""))
    assert main(["briefing", str(border)]) == 2
    assert capsys.readouterr().err.startswith("muster briefing: the campaign has ended")
