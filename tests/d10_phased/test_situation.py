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
