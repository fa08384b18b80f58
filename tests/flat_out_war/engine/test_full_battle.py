"""A whole battle between two Special Operations sample forces through the Python API."""

import itertools
from fractions import Fraction
import os
import subprocess
import sys

from campaign.campaigns.scenario import Scenario
from campaign.engine.battle import Battle
from campaign.engine.dice import TableDice
from campaign.engine.pending import RollRequest
from campaign.engine.setup import BattleSetup, SideSetup
from campaign.rulesets.flat_out_war.engine.autoplay import AutoPlayer
from campaign.rulesets.flat_out_war.samples import ALIEN, HUMAN

SETUP = BattleSetup(
    ruleset="flat-out-war", edition="special-ops",
    sides=(SideSetup("humans", "Humans", HUMAN), SideSetup("aliens", "Aliens", ALIEN)),
    scenario=Scenario(id="meeting", name="Meeting engagement", rounds=12), seed=0, dice="table",
)


def scripted_battle() -> Battle:
    """Table dice typed from a fixed cycle of faces; every choice from the seeded autoplayer."""
    battle = Battle.start(SETUP, TableDice())
    player = AutoPlayer(seed=3)
    faces = itertools.cycle([5, 2, 6, 1, 4, 3, 3, 6, 2, 5, 1, 4, 6, 6, 2])
    steps = 0
    while battle.pending is not None and steps < 5000:
        steps += 1
        if isinstance(battle.pending, RollRequest):
            req = battle.pending
            battle.roll([min(next(faces), req.die) if req.die < 6 else next(faces) for _ in range(req.count)])
        else:
            battle.apply(player.answer(battle))
    return battle


def test_full_battle_runs_to_its_end_and_scores_quarters() -> None:
    battle = scripted_battle()
    assert battle.is_over
    state = battle.state
    assert state.over and state.end_reason
    vps = battle.rules.victory_points(state)
    # VPs are exact quarters of the creation cost of each eliminated enemy unit
    for side in ("humans", "aliens"):
        expected = sum((u.data["cost"] / 4 for u in state.units if u.side != side and u.eliminated), start=0)
        assert vps[side] == expected
    outcome = battle.outcome()
    assert outcome.digest == battle.digest()
    kinds = {e.kind for e in battle.events}
    assert {"initiative", "activation", "attack_roll", "hit", "destroyed", "recovered"} <= kinds
    assert sum(1 for e in battle.events if e.kind == "destroyed") >= 3
    # the same scripted faces always give this battle (a regression pin); each charge adds
    # the charged side's A-18 answer to the log
    assert (state.end_reason, state.round, len(battle.log)) == ("only Aliens has units left", 11, 79)
    assert sum(1 for e in battle.events if e.kind in ("face", "hold", "no_turn")) == 8
    assert vps == {"humans": Fraction(201, 2), "aliens": Fraction(249)}
    assert {"flee", "rally_fail", "rally_pass", "reform", "morale_fail"} <= kinds


def test_replay_gives_the_same_digest() -> None:
    battle = scripted_battle()
    again = Battle.replay(SETUP, battle.log_dicts())
    assert again.digest() == battle.digest()
    assert [e.text for e in again.events] == [e.text for e in battle.events]


REPLAY = """
import json, sys
sys.path.insert(0, {root!r})
from tests.flat_out_war.engine.test_full_battle import scripted_battle
print(scripted_battle().digest())
"""


def test_replay_is_the_same_in_processes_with_different_hash_seeds() -> None:
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    digests = set()
    for seed in ("1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", REPLAY.format(root=root)], capture_output=True, text=True,
                             check=True, env=env, cwd=root)
        digests.add(out.stdout.strip())
    assert len(digests) == 1
    assert digests == {scripted_battle().digest()}
