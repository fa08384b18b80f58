"""`muster simulate` for d10 forces: the ruleset's autoplayer on the phased turn, its open-field
assumptions printed, the same forecast for one seed whether one process plays or four."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from campaign.rulesets import get_ruleset
from campaign.rulesets.d10_phased.autoplay import ASSUMPTIONS
from campaign.simulate import open_field, play_one
from tui.cli import main


@pytest.fixture
def armies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    assert main(["samples", "--out", str(tmp_path), "--ruleset", "d10-phased"]) == 0
    capsys.readouterr()
    folder = tmp_path / "d10-phased"
    return str(folder / "iron-legion.toml"), str(folder / "gnasher-horde.toml")


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(["simulate", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_same_seed_gives_the_same_forecast_with_one_process_or_four(armies, capsys) -> None:
    one = _json(capsys, *armies, "--battles", "8", "--jobs", "1", "--seed", "7")
    four = _json(capsys, *armies, "--battles", "8", "--jobs", "4", "--seed", "7")  # 2 battles a process
    assert one == four
    assert one["ruleset"] == "d10-phased" and one["battles"] == 8
    assert one["assumptions"] == list(ASSUMPTIONS)
    other = _json(capsys, *armies, "--battles", "8", "--jobs", "1", "--seed", "8")
    assert other["sides"] != one["sides"]  # the seed does matter
    legion, horde = one["sides"]
    assert legion["win"]["count"] + legion["draw"]["count"] + legion["loss"]["count"] == 8
    assert legion["win"]["count"] == horde["loss"]["count"]
    # the attacks happened: both sides lost models and kills were credited to units
    assert sum(u["avg_losses"] for u in horde["units"]) > 0 and sum(u["avg_kills"] for u in legion["units"]) > 0


def test_the_text_prints_the_open_field_assumptions(armies, capsys) -> None:
    assert main(["simulate", *armies, "--battles", "2", "--jobs", "1", "--scenario", "four-markers"]) == 0
    out = capsys.readouterr().out
    assert "assumed (open field): " + "; ".join(ASSUMPTIONS) in out
    assert "Iron Legion against Gnasher Horde: 2 battles, scenario Four Markers" in out


def test_an_open_field_battle_is_won_by_the_side_that_removed_more() -> None:
    from saves.force_file import parse_force, dump_force

    legion, horde = (parse_force(dump_force(f)) for f in get_ruleset("d10-phased").sample_forces()[:2])
    result = play_one(legion, horde, open_field(), seed=5, index=0)
    removed_by = {"a": sum(n for (side, _), n in result.losses.items() if side == "b"),
                  "b": sum(n for (side, _), n in result.losses.items() if side == "a")}
    assert result.vps == {"a": removed_by["a"], "b": removed_by["b"]}
    if removed_by["a"] != removed_by["b"]:
        assert result.winner == max(removed_by, key=removed_by.__getitem__)
    else:
        assert result.winner is None
