"""A card-activated d10 battle through the Battle API (card-activation.md 7.4)."""

import json
import subprocess
import sys

from campaign.campaigns.scenario import Scenario
from campaign.engine.battle import Battle
from campaign.engine.setup import BattleSetup, SideSetup
from campaign.rulesets.d10_phased.forces import army_to_force
from campaign.rulesets.d10_phased.samples import GNASHER_HORDE, IRON_LEGION
from tests.d10_phased.cardplay import play_out


def setup(seed: int = 3, victory: str = "sudden-death") -> BattleSetup:
    return BattleSetup(
        ruleset="d10-phased",
        sides=(SideSetup("red", "Red", army_to_force(IRON_LEGION)), SideSetup("blue", "Blue", army_to_force(GNASHER_HORDE))),
        scenario=Scenario(id="sudden-death", name="Sudden Death", victory=victory),
        activation="cards",
        seed=seed,
    )


def test_a_card_battle_between_samples_ends_and_replays_to_the_same_digest() -> None:
    battle = Battle.start(setup())
    play_out(battle)
    kinds = {e.kind for e in battle.events}
    assert {"hits", "morale"} <= kinds
    assert Battle.replay(setup(), battle.log).digest() == battle.digest()
    game = battle.rules.game(battle.state)
    assert battle.state.end_reason
    out = battle.outcome()
    lost = sum(c.lost for s in out.sides for c in s.casualties)
    assert lost == sum(game.lost().values())


def test_the_replay_in_a_fresh_process_gives_the_same_digest() -> None:
    battle = Battle.start(setup(seed=8))
    play_out(battle)
    code = (
        "import json,sys\n"
        "from campaign.engine.battle import Battle\n"
        "from tests.d10_phased.test_cards import setup\n"
        "log = json.loads(sys.stdin.read())\n"
        "print(Battle.replay(setup(seed=8), log).digest())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], input=json.dumps(battle.log_dicts()), capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == battle.digest()


def test_the_three_built_in_scenarios_play_to_their_verdict() -> None:
    from scenarios.loader import builtin_scenarios

    library = builtin_scenarios()
    for sid, reason in (("battle-of-position", "Q1"), ("four-markers", "markers held"), ("sudden-death", "half")):
        scenario = library[sid]
        assert "d10-phased" in scenario.rulesets
        s = BattleSetup(
            ruleset="d10-phased",
            sides=(SideSetup("red", "Red", army_to_force(IRON_LEGION)), SideSetup("blue", "Blue", army_to_force(GNASHER_HORDE))),
            scenario=scenario,
            activation="cards",
            seed=11,
        )
        battle = Battle.start(s)
        game = battle.rules.game(battle.state)
        assert game.victory == scenario.victory and game.turn_limit == (scenario.rounds or 8)
        play_out(battle)
        if game.verdict is not None:
            assert reason in game.verdict.reason, (sid, game.verdict)
        else:  # the armies may break each other before the last turn in Sudden Death only
            raise AssertionError(f"{sid} ended without a verdict: {battle.state.end_reason}")
