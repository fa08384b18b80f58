"""The d10 BattleRules: state from the forces, digest, odds, outcome."""

from fractions import Fraction

import pytest

from campaign.campaigns.scenario import Scenario
from campaign.engine.canonical import digest
from campaign.engine.errors import IllegalCommand
from campaign.engine.setup import BattleSetup, SideSetup
from campaign.rulesets.d10_phased.attack import Hits
from campaign.rulesets.d10_phased.commands import Declare
from campaign.rulesets.d10_phased.forces import army_to_force
from campaign.rulesets.d10_phased.rules import D10Rules
from campaign.rulesets.d10_phased.samples import GNASHER_HORDE, IRON_LEGION
from tests.d10_phased.phasedplay import play_out


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
    import attrs

    from campaign.engine.battle import Battle

    played = play_out(Battle.start(attrs.evolve(setup(), activation="phased", seed=4)))
    rules, state = played.rules, played.state  # type: ignore[assignment]
    game = rules.game(state)
    assert rules.is_over(state) and rules.end_reason(state)
    out = rules.outcome(state)
    assert out.strategic_winner == game.verdict.winner
    lost = sum(c.lost for s in out.sides for c in s.casualties)
    assert lost == sum(game.lost().values())
    assert sum(not e.alive for u in state.units for e in u.elements) == lost


def test_odds_query_builds_the_declaration_muster_odds_asks_about() -> None:
    rules = D10Rules()
    state = rules.new_state(setup())
    game = rules.game(state)
    command = rules.odds_query(
        state, "legionaries", "slingers", "fire", {"modifiers": ["1", "1", "1", "-1"], "out_of_command": True}
    )
    assert command.target == "slingers/slinger" and len(command.attackers) == 8
    odds = rules.odds(state, command)
    # 8 rifles x 2 dice, each at +1 -1 (out of command) = 0: 60% a die; slingers have no saves
    assert odds.dice == 16 and set(odds.modifiers) == {0}
    assert odds.p_removed == 1 - (Fraction(4, 10) ** 16)
    pinned = rules.odds_query(rules.new_state(setup()), "legionaries", "slingers", "close", {"attacker_state": "pinned"})
    assert pinned.close and game is not None
    for bad in ({"attacker_state": "brave"}, {"modifiers": ["x"]}, {"out_of_command": 1}, {"contact": -1}):
        with pytest.raises(IllegalCommand):
            rules.odds_query(rules.new_state(setup()), "legionaries", "slingers", "fire", bad)
    with pytest.raises(IllegalCommand, match="fire or close"):
        rules.odds_query(state, "legionaries", "slingers", "melee", {})


def test_muster_odds_reports_hits_saves_and_models_removed(tmp_path, capsys) -> None:
    import json

    from tui.cli import main

    assert main(["samples", "--ruleset", "d10-phased", "--out", str(tmp_path)]) == 0
    red = tmp_path / "d10-phased" / "iron-legion.toml"
    blue = tmp_path / "d10-phased" / "gnasher-horde.toml"
    capsys.readouterr()
    args = ["odds", "--attacker", f"{red}:Walker", "--target", f"{blue}:Old Tusker", "--action", "fire"]
    assert main([*args, "--json", "--exact"]) == 0
    out = json.loads(capsys.readouterr().out)
    # 3 dice at 60%, then the Tusker's one save die (60%) against 3 hits left
    assert out["expected_hits"] == "9/5" and out["p_removed"] == "54/625"
    assert out["expected_unsaved"] == "774/625"
    assert [o["name"] for o in out["outcomes"]] == ["removed", "hits", "unsaved", "absorbed", "critical"]
    assert main([*args, "--fact", "modifiers=1,1,1,-1", "--fact", "attacker_state=pinned"]) == 0
    text = capsys.readouterr().out
    assert "3 x 50% (-1)" in text  # +3 capped to +2, -1, -2 pinned
    assert main([*args, "--fact", "attacker_state=brave"]) == 2
    assert main([*args[:-1], "melee"]) == 2


def test_describe_unit_shows_dice_markers_and_pending_hits() -> None:
    rules = D10Rules()
    state = rules.new_state(setup())
    game = rules.game(state)
    sergeant = game.roster.model("legionaries/legion-sergeant")
    sergeant.marker = "pinned"
    game.ledger.add({sergeant.id: Hits(2, 2)})
    view = rules.describe_unit(state, "legionaries")
    assert view.status == ("average",)
    assert view.elements[0] == "Legion Sergeant: Rifle 2, close 2; save 1; hits 1/1; leader; pinned; 2 hit(s) pending"


def test_a_line_with_news_names_which_namesake_it_is() -> None:
    rules = D10Rules()
    state = rules.new_state(setup())
    game = rules.game(state)
    third = game.roster.members("legionaries")[3]
    third.out_of_command = True
    lines = rules.describe_unit(state, "legionaries").elements
    assert any(line.startswith(f"{third.label}: ") and line.endswith("out of command") for line in lines)
    assert third.label == "Legionary 3"
    assert sum(line.startswith("Legionary: ") for line in lines) == 6  # the plain ones fold on screen
