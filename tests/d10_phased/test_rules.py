"""The d10 BattleRules: state from the forces, digest, odds, outcome."""

import pytest

from campaign.campaigns.scenario import Scenario
from campaign.engine.canonical import digest
from campaign.engine.errors import IllegalCommand
from campaign.engine.setup import BattleSetup, SideSetup
from campaign.rulesets.d10_phased.commands import Declare
from campaign.rulesets.d10_phased.forces import army_to_force
from campaign.rulesets.d10_phased.rules import D10Rules
from campaign.rulesets.d10_phased.samples import GNASHER_HORDE, IRON_LEGION
from tests.d10_phased.harness import battle


def setup(victory: str = "sudden-death", rounds: int | None = None) -> BattleSetup:
    return BattleSetup(
        ruleset="d10-phased",
        sides=(SideSetup("red", "Red", army_to_force(IRON_LEGION)), SideSetup("blue", "Blue", army_to_force(GNASHER_HORDE))),
        scenario=Scenario(id="s", name="S", victory=victory, rounds=rounds),
    )


def test_models_take_the_core_element_ids() -> None:
    rules = D10Rules()
    state = rules.new_state(setup())
    game = rules.game(state)
    core_ids = {e.id for u in state.units for e in u.elements}
    assert set(game.roster.models) == core_ids
    assert game.victory == "sudden-death" and game.started == {"red": 10, "blue": 23}
    assert digest(state) == digest(rules.new_state(setup()))


def test_turn_limit_from_the_scenario() -> None:
    rules = D10Rules()
    assert rules.game(rules.new_state(setup("position", 6))).turn_limit == 6
    assert rules.game(rules.new_state(setup("position"))).turn_limit == 8


def test_odds_and_outcome_after_a_battle() -> None:
    rules = D10Rules()
    state = rules.new_state(setup())
    game = rules.game(state)
    walker = next(m for m in game.roster.models if "walker" in m)
    target = next(m for m in game.roster.models if "slinger" in m)
    odds = rules.odds(state, Declare(target=target, attackers=[walker]))
    assert odds.dice == 3 and 0 < odds.p_removed < 1
    with pytest.raises(IllegalCommand):
        rules.odds(state, Declare(target=target, attackers=[]))
    battle(rules.play, game, seed=4, max_turns=30)
    rules.sync(state)
    assert rules.is_over(state) and rules.end_reason(state)
    out = rules.outcome(state)
    assert out.strategic_winner == game.verdict.winner
    lost = sum(c.lost for s in out.sides for c in s.casualties)
    assert lost == sum(game.lost().values())
    assert sum(not e.alive for u in state.units for e in u.elements) == lost
