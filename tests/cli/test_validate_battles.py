"""`muster validate` replays battle logs and leaves a leftover journal alone (issue 10, problem 5)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import attrs
import pytest
import tomli_w

from saves.force_file import dump_force
from saves.campaign_file import CAMPAIGN_FILE, JOURNAL, dump_campaign, load_campaign
from scenarios import builtin_scenarios
from scenarios.demo import write_demo
from tests.saves.test_battle_file_endings import finish, play, writer
from tui.cli import main


def played(tmp_path: Path, steps: int = 8, *, over: bool = False) -> tuple[Path, Path]:
    """A demo campaign with a battle in progress (or finished): (folder, battle file)."""
    folder = write_demo(tmp_path / "demo", seed=11)
    session = writer(folder)
    play(session, steps)
    if over:
        finish(session)
    session.lease.release()
    return folder, session.path


def validate(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, dict]:
    code = main(["validate", "--json", str(path)])
    report = json.loads(capsys.readouterr().out)
    return code, {Path(f["file"]).name: f for f in report["files"]}


def findings(report: dict, name: str) -> list[str]:
    return [f["message"] for f in report[name]["findings"]]


def test_a_played_battle_validates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder, battle = played(tmp_path, over=True)
    code, report = validate(capsys, folder)
    assert code == 0, report
    assert report[battle.name]["status"] == "ok" and findings(report, battle.name) == []


def test_a_doubled_log_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder, battle = played(tmp_path)
    text = battle.read_text()
    entries = re.findall(r"\n\[\[log\]\]\n.*?# end of entry\n", text, flags=re.S)
    assert len(entries) > 4
    battle.write_text(text + "".join(entries[-2:]))  # two writers appended the same two entries
    code, report = validate(capsys, folder)
    assert code == 1
    assert report[battle.name]["status"] == "errors"
    [message] = findings(report, battle.name)
    assert message.startswith(f"the log does not replay: entry {len(entries) + 1} ")
    assert report[battle.name]["findings"][0]["path"] == f"log[{len(entries)}]"
    assert main(["replay", str(battle)]) == 1  # the same verdict as `muster replay`


def test_a_hand_edited_entry_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder, battle = played(tmp_path)
    text = battle.read_text()
    moved = 'type = "move", unit = "ripper-swarm"'
    assert moved in text
    battle.write_text(text.replace(moved, 'type = "move", unit = "nobody"', 1))
    code, report = validate(capsys, folder)
    assert code == 1
    assert any("does not replay" in m for m in findings(report, battle.name))


def test_a_recorded_digest_that_differs_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder, battle = played(tmp_path, over=True)
    text = battle.read_text()
    recorded = re.search(r'^digest = "([0-9a-f]+)"$', text, flags=re.M)
    assert recorded is not None
    battle.write_text(text.replace(recorded.group(0), 'digest = "0123abcd"'))
    code, report = validate(capsys, folder)
    assert code == 1
    assert any("recorded digest 0123abcd differs" in m for m in findings(report, battle.name))


def test_validate_leaves_a_leftover_journal_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder, battle = played(tmp_path)
    state = load_campaign(folder, builtin_scenarios())
    pending = {CAMPAIGN_FILE: dump_campaign(attrs.evolve(state.campaign, note="after"))}
    pending["forces/humans.toml"] = dump_force(attrs.evolve(state.forces["humans"], note="after"))
    (folder / JOURNAL).write_text(tomli_w.dumps({"files": [{"path": k, "text": v} for k, v in pending.items()]}))
    before = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    for argv in (["validate", str(folder)], ["status", str(folder)], ["report", str(folder)], ["replay", str(battle)]):
        main(argv)
        out = capsys.readouterr()
        assert {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()} == before, argv
        assert "a save was interrupted" in out.out + out.err, argv
    code, report = validate(capsys, folder)
    assert any("a save was interrupted" in m for m in findings(report, CAMPAIGN_FILE)), report
    assert (folder / JOURNAL).exists() and "note" not in (folder / CAMPAIGN_FILE).read_text()
    assert code == 0 and load_campaign(folder).campaign.note == "after"  # read through the journal
    assert load_campaign(folder, write=True).campaign.note == "after"  # a writer finishes it
    assert not (folder / JOURNAL).exists() and 'note = "after"' in (folder / "forces/humans.toml").read_text()
    del out
