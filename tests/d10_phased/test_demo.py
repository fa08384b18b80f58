"""The d10 demo campaign: `muster new DIR --demo d10-phased` writes three linked battles, one
per victory condition (DP-19), and the whole campaign plays through the API to its end."""

from __future__ import annotations

from pathlib import Path

import pytest

from saves.campaign_file import load_campaign
from scenarios import builtin_scenarios
from tests.d10_phased.phasedplay import step
from tests.d10_phased.test_campaign import play_through
from tui.cli import main


@pytest.mark.parametrize("name", ["d10-phased", "d10"])
def test_muster_new_writes_the_d10_demo(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", str(tmp_path / "tusker"), "--demo", name]) == 0
    capsys.readouterr()
    state = load_campaign(tmp_path / "tusker", builtin_scenarios())
    campaign = state.campaign
    assert campaign.ruleset == "d10-phased" and campaign.activation == "phased"
    lib = builtin_scenarios()
    victories = [lib[s.scenario].victory for s in campaign.track]
    assert victories == ["position", "objectives", "sudden-death"]
    assert sorted(f.name for f in state.forces.values()) == ["Gnasher Horde", "Iron Legion"]


def test_the_d10_demo_plays_through_the_api(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", str(tmp_path / "tusker"), "--demo", "d10-phased"]) == 0
    capsys.readouterr()
    reasons = play_through(tmp_path / "tusker", step)
    assert len(reasons) == 3
    assert "Q1" in reasons[0] and "markers held" in reasons[1] and "half" in reasons[2]
    final = load_campaign(tmp_path / "tusker", builtin_scenarios()).campaign
    assert final.finished and [h.step for h in final.history] == ["position", "markers", "death"]
