"""Names from files never drive the terminal: every command shows their control characters.

A campaign whose names carry an ESC sequence that clears the screen, an OSC that
retitles the window, a newline that forges a line, a bidi override and a C1 CSI is
run through each command; what they print must hold none of those characters raw,
and the forged line must never start a line of its own.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from campaign.inert_text import control_problem, inert, inert_json
from tests.hostile import EVIL, RAW, assert_inert, hostile_campaign
from tui.cli import main


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return hostile_campaign(tmp_path_factory.mktemp("hostile") / "camp")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_inert_shows_every_control_character() -> None:
    assert inert(EVIL) == "Evil\\x1b[2J\\x1b]0;pwned\\x07⏎FAKE LINE\\u202e\\x9b31m\\x7f"
    assert inert("Plain name, café, 漢字 👍") == "Plain name, café, 漢字 👍"
    assert json.loads(inert_json({"n": EVIL})) == {"n": EVIL}  # still the same JSON value
    assert not RAW.search(inert_json({"n": EVIL}, indent=2).replace("\n", ""))
    assert control_problem("Humans") is None
    assert "\\x1b" in (control_problem("a\x1bb") or "")


@pytest.mark.parametrize(
    "argv",
    [
        ("status", "{camp}"),
        ("status", "{camp}", "--json"),
        ("report", "{camp}"),
        ("replay", "{camp}/battles/01-demo-landing.toml"),
        ("replay", "{camp}/battles/01-demo-landing.toml", "--json"),
        ("validate", "{camp}"),
        ("validate", "{camp}", "--json"),
        ("cost", "{camp}/forces/humans.toml"),
        ("cost", "{camp}/forces/humans.toml", "--json"),
        ("roster", "{camp}/forces/humans.toml"),
        ("roster", "{camp}/forces/humans.toml", "--format", "md"),
        ("roster", "{camp}/forces/humans.toml", "--format", "html"),
        ("roster", "{camp}/forces/humans.toml", "--json"),
        ("briefing", "{camp}"),
        ("briefing", "{camp}", "--json"),
    ],
)
def test_commands_print_names_inert(hostile: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    code, out, err = run(capsys, *(a.format(camp=hostile) for a in argv))
    assert code in (0, 1), err
    assert_inert(out)
    assert_inert(err)
    if argv[0] != "validate":  # validate names files, not what is in them
        assert "Evil" in out  # the names are there, shown
    if "--json" in argv:
        json.loads(out)  # and JSON stays JSON


def test_report_file_is_inert(hostile: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "report.md"
    code, _, err = run(capsys, "report", str(hostile), "-o", str(target))
    assert code == 0, err
    text = target.read_text(encoding="utf-8")
    assert_inert(text)
    assert "Initiative: HumansEvil\\x1b[2J" in text  # the replayed events carry the names too


def test_odds_and_errors_are_inert(hostile: Path, capsys: pytest.CaptureFixture[str]) -> None:
    forces = hostile / "forces"
    code, out, err = run(capsys, "odds", "--attacker", f"{forces / 'humans.toml'}:Tactical Squad{EVIL}",
                         "--target", f"{forces / 'aliens.toml'}:Ripper Swarm{EVIL}", "--action", "ranged",
                         "--fact", "range_band=short")
    assert_inert(out)
    assert_inert(err)
    assert "Evil" in out + err
    # an error message quoting a hostile file name
    bad = hostile.parent / f"bad{EVIL.replace(chr(10), '')}.toml"
    bad.write_text("not = [toml", encoding="utf-8")
    for argv in (("validate", str(bad)), ("cost", str(bad)), ("replay", str(bad)), ("status", str(bad))):
        code, out, err = run(capsys, *argv)
        assert code == 2
        assert_inert(out)
        assert_inert(err)


def test_samples_and_new_are_inert(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "out\x1b]0;pwned\x07"
    code, out, err = run(capsys, "samples", "--out", str(out_dir))
    assert code == 0 and "wrote" in out
    assert_inert(out)
    code, out, err = run(capsys, "new", str(tmp_path / "c"), "--ruleset", "flat-out-war", "--side", f"a={EVIL}",
                         "--side", "b=Bees", "--sample", "a=Human Force", "--sample", "b=Alien Force",
                         "--track", "demo-landing")
    assert code == 2 and "control characters" in err  # a typed name is refused, not stored
    assert_inert(err)
    assert not (tmp_path / "c" / "campaign.toml").exists()
