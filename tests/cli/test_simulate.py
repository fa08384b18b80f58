"""`muster simulate`: reproducible whatever --jobs, honest intervals, its JSON, its refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from campaign.simulate import battle_seed, wilson
from tui.cli import main

SQUAD = """\
format = "muster/1"
ruleset = "flat-out-war"
edition = "special-ops"
name = "{name}"

[[units]]
name = "Blades"

[[units.elements]]
name = "Blade"
count = 3
die = "d6"
move = 4
weapons = [{{ name = "Sword", kind = "melee", die = "d6" }}]

[[units]]
name = "Guns"

[[units.elements]]
name = "Gunner"
count = 2
die = "d6"
move = 4
weapons = [{{ name = "Rifle", kind = "ranged", die = "d6", range = 12 }}]
"""


@pytest.fixture
def squads(tmp_path: Path) -> tuple[str, str]:
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text(SQUAD.format(name="Red"), encoding="utf-8")
    b.write_text(SQUAD.format(name="Blue"), encoding="utf-8")
    return str(a), str(b)


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(["simulate", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_same_seed_gives_the_same_forecast_with_one_process_or_four(squads, capsys) -> None:
    one = _json(capsys, *squads, "--battles", "12", "--jobs", "1", "--seed", "7")
    four = _json(capsys, *squads, "--battles", "12", "--jobs", "4", "--seed", "7")  # 3 battles a process
    assert one == four
    other = _json(capsys, *squads, "--battles", "12", "--jobs", "1", "--seed", "8")
    assert other["sides"] != one["sides"]  # the seed does matter
    assert battle_seed(7, 0) != battle_seed(7, 1) != battle_seed(8, 1)


def test_two_identical_forces_have_even_chances_within_the_interval(squads, capsys) -> None:
    a, _ = squads
    report = _json(capsys, a, a, "--battles", "60", "--jobs", "1", "--seed", "11")
    red, blue = report["sides"]
    n = report["battles"]
    assert n == 60
    assert red["win"]["count"] == blue["loss"]["count"] and red["draw"]["count"] == blue["draw"]["count"]
    assert red["win"]["count"] + red["draw"]["count"] + red["loss"]["count"] == n
    score = red["win"]["count"] + red["draw"]["count"] / 2  # a draw is half a win to each side
    low, high = wilson(score, n)
    assert low < 0.5 < high
    assert red["win"]["low"] < red["win"]["p"] < red["win"]["high"]


def test_wilson_matches_a_known_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)


def test_json_shape(squads, capsys) -> None:
    report = _json(capsys, *squads, "--battles", "3", "--jobs", "1")
    assert set(report) == {"battles", "requested", "complete", "seed", "ruleset", "scenario", "assumptions", "sides"}
    assert report["complete"] and report["battles"] == report["requested"] == 3
    assert "every attack at short range" in report["assumptions"]
    assert report["scenario"]["id"] == "open-field"
    red = report["sides"][0]
    assert red["force"] == "Red" and red["side"] == "a"
    for key in ("win", "draw", "loss"):
        assert set(red[key]) == {"count", "p", "low", "high"}
    assert sum(d["count"] for d in red["vp_distribution"]) == 3
    assert [u["unit"] for u in red["units"]] == ["Blades", "Guns"]
    assert set(red["units"][0]) == {"unit", "models", "avg_losses", "avg_kills"}
    assert red["units"][0]["models"] == 3
    # every model one side lost, the other side destroyed (kills are credited to a unit)
    lost = sum(u["avg_losses"] for u in red["units"])
    killed = sum(u["avg_kills"] for u in report["sides"][1]["units"])
    assert killed == pytest.approx(lost)


def test_text_prints_the_assumptions_and_chances(squads, capsys) -> None:
    assert main(["simulate", *squads, "--battles", "2", "--jobs", "1", "--scenario", "hold-the-bridge"]) == 0
    out = capsys.readouterr().out
    assert "assumed (open field): every attack at short range; clear line of sight; front aspect" in out
    assert "Red against Blue: 2 battles, scenario Hold the Bridge" in out
    assert "win (95% interval)" in out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--battles", "0"], "--battles must be at least 1"),
        (["--jobs", "0"], "--jobs must be at least 1"),
        (["--scenario", "nowhere"], "no built-in scenario 'nowhere'"),
    ],
)
def test_bad_options_are_refused_plainly(squads, capsys, extra, message) -> None:
    assert main(["simulate", *squads, *extra]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""


def test_a_ruleset_without_an_autoplayer_is_refused(tmp_path: Path, capsys) -> None:
    assert main(["samples", "--out", str(tmp_path), "--ruleset", "figwars-3"]) == 0
    files = sorted((tmp_path / "figwars-3").glob("*.toml"))
    capsys.readouterr()
    assert main(["simulate", str(files[0]), str(files[1])]) == 2
    assert "has no autoplayer yet, so it cannot be simulated" in capsys.readouterr().err


def test_missing_file_and_mixed_rulesets_are_refused(squads, tmp_path: Path, capsys) -> None:
    assert main(["simulate", squads[0], str(tmp_path / "none.toml")]) == 2
    assert "none.toml" in capsys.readouterr().err
    assert main(["samples", "--out", str(tmp_path), "--ruleset", "d10-phased"]) == 0
    d10 = sorted((tmp_path / "d10-phased").glob("*.toml"))[0]
    capsys.readouterr()
    assert main(["simulate", squads[0], str(d10)]) == 2
    assert "different rulesets" in capsys.readouterr().err


def test_ctrl_c_reports_the_battles_played_so_far(squads, capsys, monkeypatch) -> None:
    import tui.cli.simulate as cli

    real = cli.play_one

    def interrupted(a, b, scenario, seed, index):
        if index == 3:
            raise KeyboardInterrupt
        return real(a, b, scenario, seed, index)

    monkeypatch.setattr(cli, "play_one", interrupted)
    assert main(["simulate", *squads, "--battles", "10", "--jobs", "1", "--json"]) == 130
    report = json.loads(capsys.readouterr().out)
    assert report["battles"] == 3 and report["requested"] == 10 and report["complete"] is False


class _Tty:
    def __init__(self) -> None:
        self.text = ""

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass


def test_the_progress_line_shows_on_a_terminal_only(squads) -> None:
    from saves.force_file import load_force
    from campaign.simulate import open_field
    from tui.cli.simulate import Progress, play_all

    a, b = load_force(squads[0]), load_force(squads[1])
    tty = _Tty()
    results, complete = play_all(a, b, open_field(), 1, 2, 1, Progress(2, tty))
    assert complete and len(results) == 2
    assert "2/2 battles" in tty.text and "left" in tty.text
    assert tty.text.endswith("\r")  # the line is wiped before the report

    class Pipe(_Tty):
        def isatty(self) -> bool:
            return False

    pipe = Pipe()
    play_all(a, b, open_field(), 1, 1, 1, Progress(1, pipe))
    assert pipe.text == ""
