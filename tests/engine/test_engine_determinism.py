"""Replay determinism across processes, and the canonical digest."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from campaign.engine.canonical import canonical_json, digest
from campaign.engine.state import BattleState, SideState

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

SCRIPT = """
import json, os, sys
from campaign.engine import AutoDice, Battle, BattleSetup, SideSetup
from campaign.campaigns.scenario import Scenario
from engine_play import play
from toy_rules import ToyRules, toy_setup
if os.environ["GAME"] == "toy":
    setup, rules = toy_setup(((4, 3, 2), (5, 3)), rounds=8), ToyRules()
else:  # Flat Out War through the registry, two of its sample forces
    from campaign.rulesets import get_ruleset
    forces = get_ruleset("flat-out-war").sample_forces()[:2]
    sides = tuple(SideSetup(f"side-{i}", f.name, f) for i, f in enumerate(forces))
    setup = BattleSetup("flat-out-war", sides, edition=forces[0].edition, scenario=Scenario("s", "S", rounds=8))
    rules = None
if len(sys.argv) > 1:
    log = json.load(open(sys.argv[1]))
    battle = Battle.replay(setup, log, rules=rules)
else:
    battle = play(Battle.start(setup, AutoDice(2024), rules=rules), seed=99)
print(json.dumps({"digest": battle.digest(), "log": battle.log_dicts(), "events": [e.text for e in battle.events]}))
"""


def _run(hash_seed: str, *args: str, python: str = sys.executable, game: str = "toy") -> dict:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": os.pathsep.join([str(ROOT), str(HERE)]), "GAME": game}
    out = subprocess.run([python, "-c", SCRIPT, *args], capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    return json.loads(out.stdout)


@pytest.mark.parametrize("game", ["toy", "flat-out-war"])
def test_two_processes_with_different_hash_seeds_play_and_replay_the_same_battle(tmp_path: Path, game: str) -> None:
    first = _run("1", game=game)
    second = _run("4242", game=game)
    assert len(first["log"]) > 20
    assert first["digest"] == second["digest"]
    assert first["log"] == second["log"]
    log_file = tmp_path / "log.json"
    log_file.write_text(json.dumps(first["log"]))
    replayed = _run("777", str(log_file), game=game)
    assert replayed["digest"] == first["digest"]
    assert replayed["events"] == first["events"]


OTHER_PYTHON = os.environ.get("MUSTER_OTHER_PYTHON", "")


@pytest.mark.skipif(not OTHER_PYTHON, reason="set MUSTER_OTHER_PYTHON to an interpreter of another version with attrs and cattrs")
@pytest.mark.parametrize("game", ["toy", "flat-out-war"])
def test_another_python_version_plays_and_replays_the_same_battle(tmp_path: Path, game: str) -> None:
    here = _run("3", game=game)
    other = _run("5", python=OTHER_PYTHON, game=game)
    assert other["digest"] == here["digest"] and other["log"] == here["log"]
    log_file = tmp_path / "log.json"
    log_file.write_text(json.dumps(here["log"]))
    assert _run("9", str(log_file), python=OTHER_PYTHON, game=game)["digest"] == here["digest"]


def test_digest_ignores_dict_insertion_order_but_not_values() -> None:
    a = BattleState(sides=[SideState("x", "X", {"a": 1, "b": Fraction(1, 4)})], units=[])
    b = BattleState(sides=[SideState("x", "X", {"b": Fraction(1, 4), "a": 1})], units=[])
    c = BattleState(sides=[SideState("x", "X", {"b": Fraction(1, 3), "a": 1})], units=[])
    assert digest(a) == digest(b) != digest(c)
    assert '"b":"1/4"' in canonical_json(a)


def test_digest_refuses_floats_and_naming_the_path() -> None:
    state = BattleState(sides=[SideState("x", "X", {"vp": 2.5})], units=[])
    with pytest.raises(TypeError, match=r"state.sides\[0\].data.vp is a float"):
        digest(state)


def test_digest_refuses_objects_it_cannot_write() -> None:
    state = BattleState(sides=[SideState("x", "X", {"thing": object()})], units=[])
    with pytest.raises(TypeError, match="cannot hold"):
        digest(state)
