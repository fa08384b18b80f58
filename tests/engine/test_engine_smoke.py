from campaign.engine import AutoDice, Battle
from engine_play import play
from toy_rules import ToyRules, toy_setup


def test_a_toy_battle_plays_to_the_end_and_replays_to_the_same_digest() -> None:
    battle = play(Battle.start(toy_setup(rounds=6), AutoDice(3), rules=ToyRules()), seed=1)
    assert battle.is_over
    again = Battle.replay(toy_setup(rounds=6), battle.log_dicts(), rules=ToyRules())
    assert again.digest() == battle.digest()
    assert [e.text for e in again.events] == [e.text for e in battle.events]
