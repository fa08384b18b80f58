"""Table facts into multipliers and modifiers (DP-14), and refusals naming the rule."""

from fractions import Fraction

import pytest

from campaign.rulesets.d10_phased.attack import Contribution, Declaration
from campaign.rulesets.d10_phased.situation import IllegalShot, read_fire


def test_ex2c_out_of_a_stream_through_trees_pools_with_a_half() -> None:
    r4 = read_fire({"attacker_in_stream": True, "through_trees": True})
    r5 = read_fire({"through_trees": True})
    assert r4.multipliers == (Fraction(1, 2), Fraction(1, 2)) and r5.multipliers == (Fraction(1, 2),)
    decl = Declaration("t", (Contribution("r4", 3, r4.multipliers), Contribution("r5", 1, r5.multipliers)))
    assert decl.dice == 1


def test_stream_target_doubles_and_touching_cover_removes_the_half() -> None:
    assert read_fire({"target_in_stream": True}).multipliers == (2,)
    assert read_fire({"target_in_stream": True, "attacker_in_stream": True}).multipliers == (Fraction(1, 2),)
    assert read_fire({"through_wall": True, "touches_cover": True}).multipliers == ()
    assert read_fire({"contour_edge": True, "bonus": 3, "penalty": 1}).modifiers == (3, -1, -1)
    with pytest.raises(IllegalShot, match="bonus"):
        read_fire({"bonus": -1})


@pytest.mark.parametrize(
    ("facts", "rule"),
    [({"through_rock": True}, "DP-14.6"), ({"gap_under_1in": True}, "DP-14.1"), ({"through_friend": True}, "DP-14.2"), ({"range": 3}, "DP-14")],
)
def test_refusals(facts: dict, rule: str) -> None:
    with pytest.raises(IllegalShot) as err:
        read_fire(facts)
    assert err.value.rule == rule


def test_close_attacks_ignore_fire_multipliers_but_not_trees_in_the_way() -> None:
    assert read_fire({"target_in_stream": True}, close=True).multipliers == ()
    with pytest.raises(IllegalShot):
        read_fire({"through_trees": True}, close=True)
    assert read_fire({"through_friend": True}, fire_through_friends=True).multipliers == ()


def test_dp_14_5_fire_between_levels_over_an_obstruction() -> None:
    over = {"over_obstruction": True, "attacker_edge_inches": 6}
    with pytest.raises(IllegalShot, match="DP-14.5"):
        read_fire({**over, "target_edge_inches": 2})  # under half of 6
    assert read_fire({**over, "target_edge_inches": 3}) == read_fire({})  # exactly half: allowed, no effect
    assert read_fire({**over, "target_edge_inches": 1, "both_above_obstruction": True}) == read_fire({})
    assert read_fire({**over, "attacker_edge_inches": "5", "target_edge_inches": "2.5"}) == read_fire({})  # typed text
    with pytest.raises(IllegalShot, match="DP-14.5"):
        read_fire({**over, "target_edge_inches": -1})
    assert read_fire({"attacker_edge_inches": 6, "target_edge_inches": 1}) == read_fire({})  # not between levels


def test_plunging_fire_and_jump_path_levels() -> None:
    from campaign.rulesets.d10_phased.situation import jump_path_level, plunging_fire

    assert plunging_fire(Fraction(2), Fraction(1)) and plunging_fire(Fraction(3, 2), Fraction(1))
    assert not plunging_fire(Fraction(3, 2), Fraction(5, 4))  # not half an inch smaller
    assert not plunging_fire(Fraction(5, 4), Fraction(1, 2))  # base under 1.5 inches
    assert jump_path_level("none") == 1 and jump_path_level("trees") == 4 and jump_path_level("wall") == 2
