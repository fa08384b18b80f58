"""`muster replay BATTLE.toml [--json]` on battle files written through saves/battle_file.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import campaign.rulesets as registry
from campaign.engine import AutoDice, Battle
from campaign.rulesets.base import Ruleset
from engine_play import play
from saves.battle_file import BattleHeader, BattleResult, BattleSide, append_log, create_battle_file, write_result
from saves.force_file import save_force
from toy_rules import ToyRules, toy_setup
from tui.cli import main


class ToyRuleset(Ruleset):
    id = "toy"
    name = "Toy"

    def battle_rules(self) -> ToyRules:
        return ToyRules(self.options, self)


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    registry._load_builtins()
    monkeypatch.setitem(registry._REGISTRY, "toy", ToyRuleset)


def write_battle(folder: Path, *, finish: bool = True, tamper: str = "", refs: bool = False) -> Path:
    setup = toy_setup(rounds=5, seed=31)
    battle = play(Battle.start(setup), seed=6)
    sides = []
    for side in setup.sides:
        if refs:
            save_force(folder / "forces" / f"{side.id}.toml", side.force)
            sides.append(BattleSide(side.id, side.name, force_ref=f"forces/{side.id}.toml"))
        else:
            sides.append(BattleSide(side.id, side.name, force=side.force))
    header = BattleHeader("toy", tuple(sides), scenario=setup.scenario, seed=31)
    path = folder / "battles" / "01-toy.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    create_battle_file(path, header)
    log = battle.log_dicts()
    if tamper == "faces":
        last = next(e for e in reversed(log) if e["rolls"])
        last["rolls"][0]["faces"] = [7] * len(last["rolls"][0]["faces"])
    for entry in log:
        append_log(path, entry)
    if finish:
        digest = "0" * 64 if tamper == "digest" else battle.digest()
        write_result(path, BattleResult(digest=digest, winner=battle.outcome().winner() or ""))
    return path


def test_replay_prints_events_digest_and_result(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_battle(tmp_path)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "   0  Round 1 begins"
    assert any("activates" in line for line in out)
    digest_line = next(line for line in out if line.startswith("digest: "))
    assert f"recorded digest: {digest_line[8:]} (matches)" in out
    assert out[-1].startswith(("winner: ", "result: a draw"))


def test_replay_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_battle(tmp_path)
    assert main(["replay", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["matches"] is True and doc["over"] is True
    assert doc["digest"] == doc["recorded_digest"]
    assert doc["events"][0] == {"seq": 0, "kind": "round_start", "text": "Round 1 begins", "data": {"round": 1}}
    assert set(doc["outcome"]["vps"]) == {"reds", "blues"}


def test_replay_reads_forces_by_reference(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "campaign.toml").write_text("")
    path = write_battle(tmp_path, refs=True)
    assert main(["replay", str(path)]) == 0


def test_a_different_recorded_digest_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_battle(tmp_path, tamper="digest")
    assert main(["replay", str(path)]) == 1
    assert "(DIFFERS)" in capsys.readouterr().out


def test_a_log_that_no_longer_replays_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_battle(tmp_path, tamper="faces")
    assert main(["replay", str(path)]) == 1
    assert "the log does not replay: log entry" in capsys.readouterr().err


def test_an_unfinished_battle_replays_to_its_pending_step(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_battle(tmp_path, finish=False)
    assert main(["replay", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["matches"] is None and doc["recorded_digest"] == ""


@pytest.mark.parametrize("content", [None, "format = 'muster/1'\nkind = [", 'format = "muster/9"\nkind = "battle"\n'])
def test_unreadable_files_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None) -> None:
    path = tmp_path / "battle.toml"
    if content is not None:
        path.write_text(content)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("muster replay: ") and str(path) in err and "Traceback" not in err


def test_a_missing_force_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "campaign.toml").write_text("")
    path = write_battle(tmp_path, refs=True)
    (tmp_path / "forces" / "reds.toml").unlink()
    assert main(["replay", str(path), "--json"]) == 2
    assert "reds.toml" in json.loads(capsys.readouterr().out)["error"]


def test_a_battle_ended_by_the_players_replays_as_over(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The players end a battle early: the engine still waits, the file records the winner."""
    setup = toy_setup(rounds=5, seed=31)
    battle = play(Battle.start(setup), seed=6, max_steps=3)
    assert not battle.is_over
    header = BattleHeader("toy", tuple(BattleSide(s.id, s.name, force=s.force) for s in setup.sides),
                          scenario=setup.scenario, seed=31)  # fmt: skip
    (tmp_path / "battles").mkdir()
    path = create_battle_file(tmp_path / "battles" / "01-toy.toml", header)
    for entry in battle.log_dicts():
        append_log(path, entry)
    outcome = battle.outcome()
    write_result(path, BattleResult(digest=battle.digest(), winner="blues", vps=outcome.vps(), outcome=outcome))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "not over" not in "\n".join(out)
    assert out[-2] == "over: the players ended the battle; the file records the result"
    assert out[-1].startswith("winner: Blues (Reds ")  # the recorded winner, not the engine's
    assert main(["replay", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["over"] is True and doc["ended_by_agreement"] is True and doc["pending"] == ""
    assert doc["outcome"]["winner"] == "blues"
