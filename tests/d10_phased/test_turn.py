"""DP-EX-1: initiative, the catch-up bonus, Super Initiative and the eight templates."""

import pytest

from campaign.rulesets.d10_phased.turn import (
    BY_NUMBER,
    MORALE_1,
    MORALE_2,
    MOVE_FIRST,
    MOVE_SECOND,
    MOVING_ATTACK,
    NORMAL_H_FIRST,
    PANIC,
    PHASES,
    SPECIALS,
    STATIONARY_ATTACK,
    SUPER_FAILED,
    initiative_totals,
    plan_turn,
    roll_initiative,
    super_succeeds,
    updated_streaks,
)
from tests.d10_phased.scripted import drive

SIDES = ("red", "blue")
STREAKS = {"red": 2, "blue": 0}


def test_ex1_catch_up_bonus_gives_red_initiative() -> None:
    assert initiative_totals({"red": 3, "blue": 6}, STREAKS) == {"red": 7, "blue": 6}
    winner, asked = drive(roll_initiative(SIDES, STREAKS), [3], [6])
    assert winner == "red" and [r.die for r in asked] == [10, 10]


def test_ex1a_no_super_attempt() -> None:
    plan = plan_turn(SIDES, "red", NORMAL_H_FIRST)
    assert (plan.holder, plan.first, plan.template.phases) == ("red", "red", PHASES)
    assert updated_streaks(STREAKS, plan.holder) == {"red": 0, "blue": 1}


def test_ex1b_mad_minute() -> None:
    assert super_succeeds(5)
    plan = plan_turn(SIDES, "red", BY_NUMBER[2])
    assert plan.template.phases == (SPECIALS, STATIONARY_ATTACK, MORALE_1, MORALE_2)
    assert plan.template.all_stationary and not plan.template.op_fire
    assert plan.first is None and plan.opens_attacks == "red"
    assert updated_streaks(STREAKS, plan.holder) == {"red": 0, "blue": 1}


def test_ex1c_failed_super_hands_initiative_over() -> None:
    assert not super_succeeds(4)
    plan = plan_turn(SIDES, "red", SUPER_FAILED, choice="blue")
    assert (plan.holder, plan.chooser, plan.first, plan.template.phases) == ("blue", "blue", "blue", PHASES)
    assert updated_streaks(STREAKS, plan.holder) == {"red": 3, "blue": 0}


def test_ex1d_hurry_up_and_wait_runs_nothing_but_counts() -> None:
    plan = plan_turn(SIDES, "red", BY_NUMBER[5])
    assert plan.template.phases == ()
    assert updated_streaks(STREAKS, plan.holder) == {"red": 0, "blue": 1}


def test_ex1e_ties_re_roll_with_the_same_bonuses() -> None:
    winner, asked = drive(roll_initiative(SIDES, {"red": 0, "blue": 0}), [5], [5], [2], [8])
    assert winner == "blue" and len(asked) == 4


def test_natural_faces_do_not_decide_initiative() -> None:
    # a natural 1 with +10 beats a natural 10 (AMB-37: only pass/fail tests have naturals)
    winner, _ = drive(roll_initiative(SIDES, {"red": 5, "blue": 0}), [1], [10])
    assert winner == "red"


@pytest.mark.parametrize(
    ("number", "phases", "first", "flags"),
    [
        (1, PHASES, "blue", ()),
        (2, (SPECIALS, STATIONARY_ATTACK, MORALE_1, MORALE_2), None, ("all_stationary",)),
        (3, (MOVE_FIRST, MOVE_SECOND, SPECIALS, MORALE_1, MORALE_2), "blue", ()),
        (4, (MOVE_FIRST, MOVE_SECOND, SPECIALS, STATIONARY_ATTACK, MOVING_ATTACK), "red", ()),
        (5, (), None, ()),
        (6, PHASES, "blue", ("mindless",)),
        (7, (PANIC,), None, ("all_test",)),
        (8, PHASES, "red", ()),
    ],
)
def test_each_super_template_keeps_its_phases(number: int, phases: tuple, first: str | None, flags: tuple) -> None:
    template = BY_NUMBER[number]
    plan = plan_turn(SIDES, "red", template, choice="blue")
    assert template.phases == phases
    assert plan.first == first
    for flag in ("all_stationary", "mindless", "all_test"):
        assert getattr(template, flag) is (flag in flags)
    assert template.op_fire is (number not in (2, 3))
    # whatever a template drops, the order of the rest stays as printed
    kept = [p for p in PHASES if p in template.phases]
    assert kept == [p for p in template.phases if p in PHASES]


def test_a_choice_must_name_a_side() -> None:
    with pytest.raises(ValueError):
        plan_turn(SIDES, "red", BY_NUMBER[3], choice="green")
