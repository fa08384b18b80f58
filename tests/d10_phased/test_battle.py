"""Whole battles between sample armies through the hooks (auto dice, the autoplayer)."""

from campaign.rulesets.d10_phased.play import D10Play, new_game
from campaign.rulesets.d10_phased.samples import GHOST_ENGINES, GNASHER_HORDE, IRON_LEGION
from campaign.rulesets.d10_phased.state import roster_of
from campaign.rulesets.d10_phased.victory import SUDDEN_DEATH
from tests.d10_phased.harness import battle


def test_a_sudden_death_battle_ends_and_is_the_same_for_the_same_seed() -> None:
    results = []
    for _ in range(2):
        game = new_game(roster_of({"red": IRON_LEGION, "blue": GNASHER_HORDE}), ["red", "blue"], SUDDEN_DEATH)
        digest, events = battle(D10Play(), game, seed=4, max_turns=30)
        results.append(digest)
        assert game.verdict is not None, "the battle should end by Sudden Death"
        kinds = {k for k, _ in events}
        assert {"initiative", "hits", "morale", "victory"} <= kinds
    assert results[0] == results[1]


def test_other_seeds_and_armies_differ() -> None:
    game = new_game(roster_of({"red": GHOST_ENGINES, "blue": GNASHER_HORDE}), ["red", "blue"], SUDDEN_DEATH)
    one, _ = battle(D10Play(), game, seed=5, max_turns=6)
    game = new_game(roster_of({"red": GHOST_ENGINES, "blue": GNASHER_HORDE}), ["red", "blue"], SUDDEN_DEATH)
    two, _ = battle(D10Play(), game, seed=6, max_turns=6)
    assert one != two
