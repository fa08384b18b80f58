"""Seed 001 arithmetic: card counts (CA-EX-1), overwatch minimum, target movement, charges."""

from fractions import Fraction

import pytest

from campaign.activation.cards import rules
from campaign.activation.cards.rules import Step, cards_for, classify_charge, plan_deal


def test_ca_ex_1a_leadership_bonus_on_both_sides() -> None:
    plan = plan_deal({"red": 8, "blue": 5}, {"red": 1, "blue": 2})
    assert plan.counts == {"red": 9, "blue": 8}  # blue: max(5, ceil 6.0) + 2
    assert not plan.use_chits


@pytest.mark.parametrize("rounding, blue", [("ceil", 8), ("floor", 7)])
def test_ca_ex_1b_three_quarter_rounding(rounding: str, blue: int) -> None:
    plan = plan_deal({"red": 10, "blue": 5}, {}, rounding)
    assert plan.counts == {"red": 10, "blue": blue}


def test_ca_ex_1c_equal_sides_do_not_use_the_three_quarter_rule() -> None:
    assert plan_deal({"red": 6, "blue": 6}, {}).counts == {"red": 6, "blue": 6}


def test_ca_ex_1d_more_than_a_deck_switches_to_chits() -> None:
    plan = plan_deal({"red": 30, "blue": 25}, {})
    assert plan.counts == {"red": 30, "blue": 25}
    assert plan.use_chits and plan.deck_size == 55


def test_jokers_enlarge_the_deck_before_chits_are_needed() -> None:
    assert not plan_deal({"red": 27, "blue": 27}, {}, jokers=2).use_chits
    assert plan_deal({"red": 27, "blue": 27}, {}, jokers=1).use_chits


def test_three_sides_compare_with_the_largest_opponent() -> None:
    # AMB-4: green (4) measures against red (8): ceil(6) = 6
    assert plan_deal({"red": 8, "blue": 7, "green": 4}, {}).counts == {"red": 8, "blue": 7, "green": 6}


def test_three_quarter_rule_never_lowers_the_count() -> None:
    assert cards_for(5, 6) == 5  # ceil(4.5) = 5 is not more than 5
    assert cards_for(2, 12) == 9


@pytest.mark.parametrize("ap_max, need", [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3)])
def test_overwatch_minimum_table(ap_max: int, need: int) -> None:
    assert rules.overwatch_minimum(ap_max) == need


@pytest.mark.parametrize(
    "moved, penalty",
    [(0, 0), (6, 0), ("11.5", 0), (12, -1), ("17.9", -1), (18, -2), (24, -3)],
)
def test_ca_ex_3_target_move_penalty_table(moved: object, penalty: int) -> None:
    assert rules.target_move_penalty(moved) == penalty


def test_inches_refuses_nonsense() -> None:
    assert rules.inches("11.5") == Fraction(23, 2)
    for bad in ("-1", "far", True):
        with pytest.raises(ValueError):
            rules.inches(bad)


def move(inches: int, straight: bool = True, contact: bool = False, uninterrupted: bool = True) -> Step:
    return Step("move", Fraction(inches), straight, contact, uninterrupted)


def test_ca_ex_4a_two_straight_moves_of_nine_inches_are_both_kinds() -> None:
    charge = classify_charge([move(5), move(4, contact=True)])
    assert charge.by_two_moves and charge.by_distance and charge.kind == "both"
    assert charge.bonus == 1 and charge.free_melee


def test_ca_ex_4b_one_long_move_is_a_distance_charge_without_free_melee() -> None:
    charge = classify_charge([move(9, contact=True)])
    assert charge.kind == "distance" and charge.bonus == 1 and not charge.free_melee


def test_two_short_straight_moves_are_a_two_move_charge() -> None:
    charge = classify_charge([move(3), move(3, contact=True)])
    assert charge.kind == "two_moves" and charge.free_melee


@pytest.mark.parametrize(
    "steps",
    [
        [move(5), move(4)],  # no contact
        [move(7, contact=True)],  # short and single
        [move(5, straight=False), move(4, contact=True)],  # first move not straight
        [move(5), Step("ballistic"), move(4, contact=True)],  # not consecutive
        [move(9, straight=False, contact=True)],
    ],
)
def test_not_a_charge(steps: list[Step]) -> None:
    assert classify_charge(steps).bonus == 0


def test_an_interrupted_path_does_not_count_toward_eight_inches() -> None:
    charge = classify_charge([move(6), move(4, contact=True, uninterrupted=False)])
    assert not charge.by_distance and charge.by_two_moves


def test_flat_modifier_itemises_its_total() -> None:
    mod = rules.FlatModifier(previous_actions=2, charge=1, target_movement=-1, aim=1)
    assert mod.total == -1
    assert mod.lines() == [("2 previous action(s)", -2), ("charge", 1), ("target movement", -1), ("aim", 1)]


def test_casting_pays_over_several_turns_and_resets_on_a_switch() -> None:
    progress = None
    for _ in range(4):
        progress = rules.pay_cast(progress, "hand-o-god", 5)
    assert progress.paid == 4 and not progress.complete
    assert rules.pay_cast(progress, "hand-o-god", 5).complete
    assert rules.pay_cast(progress, "zap", 2).paid == 1
