"""Skill checks, Dodge, medics, landing, firing into melee, deviation (2.4-2.5, 4.3, 11),
and the damage/pin/stun bookkeeping of one model (12, PR-10, PR-62)."""

from fractions import Fraction

import pytest

from campaign.rulesets.figwars3 import checks
from campaign.rulesets.figwars3.attack import drive
from campaign.rulesets.figwars3.rerolls import ReRoll
from campaign.rulesets.figwars3.statuses import ModelState
from tests.figwars3.helpers import enumerate_results


def test_skill_check_with_focus_and_hero_reroll() -> None:
    assert checks.check_pool(0) == 0 and checks.check_pool(0, focus=True) == 1
    passed, got = drive(checks.skill_check(2, 3, "Hard check", (ReRoll("hero"),)), [[6, 1], [3]])
    assert passed and got == 3
    passed, got = drive(checks.skill_check(0, 1, "no dice"), [])
    assert not passed and got == 0


def test_check_odds_match_the_rolls() -> None:
    rr = (ReRoll("hero"),)
    dist = enumerate_results(lambda: checks.skill_check(2, 2, "check", rr), lambda r: r[0])
    assert dist[True] == checks.p_check(2, 2, rr)


def test_dodge_is_never_rerolled_and_harder_against_explosives() -> None:
    assert drive(checks.dodge(2, explosive=False), [[3, 4]])
    assert not drive(checks.dodge(2, explosive=True), [[3, 4]])
    assert checks.p_check(2, 3) < checks.p_check(2, 2)


@pytest.mark.parametrize("succ, healed", [(0, 0), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3)])
def test_medic_heals_one_dp_per_two_successes_rounded_up(succ: int, healed: int) -> None:
    assert checks.medic_heal(succ) == (healed, False)


def test_medic_three_successes_split_on_a_stun() -> None:
    assert checks.medic_heal(3, stunned=True, clear_stun=True) == (1, True)  # appendix vector


def test_landing_table() -> None:
    assert [checks.landing(s, "normal") for s in range(5)] == ["1 DP", "pinned", "no effect", "no effect", "no effect"]
    assert [checks.landing(s, "difficult") for s in range(4)] == ["3 DP", "1 DP", "pinned", "no effect"]


def test_firing_into_melee_table() -> None:
    assert [checks.into_melee_target(f, "side_view") for f in (4, 5)] == ["first", "second"]
    assert [checks.into_melee_target(f, "partly_hidden") for f in (6, 7)] == ["first", "second"]
    assert [checks.into_melee_target(f, "fully_hidden") for f in (7, 8)] == ["first", "second"]
    assert checks.into_melee_target(7, "partly_hidden", nearer_much_larger=True) == "first"
    assert checks.into_melee_target(8, "partly_hidden", nearer_much_larger=True) == "second"
    assert checks.into_melee_target(8, "fully_hidden", nearer_much_larger=True) == "first"


def test_deviation_and_d4() -> None:
    assert drive(checks.deviation("long"), [[5]]) == (5, 4)  # example 3's counter-test: 4"
    assert drive(checks.deviation("extreme"), [[1]]) == (1, 6)
    assert [drive(checks.d4(), [[f]]) for f in range(1, 9)] == [1, 1, 2, 2, 3, 3, 4, 4]
    assert checks.flight_lift_off(7) and not checks.flight_lift_off(6)


def test_damage_removal_and_the_medic_window() -> None:
    grunt = ModelState(dp=1)
    assert grunt.hit(2, pin=True, turn=1).removed  # example 1: below 0 is beyond help
    assert grunt.hit(1, pin=False, turn=1).removed  # no medic: 0 DP is taken out
    down = grunt.hit(1, pin=True, turn=3, medic_on_table=True)
    assert not down.removed and down.incapacitated_turn == 3 and down.casualty
    assert not down.turn_end(3).removed and down.turn_end(4).removed
    saved = down.heal(1, start_dp=1)
    assert saved.dp == 1 and saved.pins == 1 and saved.turn_end(4) == saved
    assert ModelState(dp=2).hit(1, pin=True, turn=1, aggressive=True).pins == 0


def test_stun_before_pins() -> None:
    both = ModelState(dp=1, pins=1).stun()
    state, left, done = both.clearing(2)
    assert (state.stunned, state.pins, left, done) == (False, 1, 0, ["stun cleared"])
    state, left, done = both.clearing(3)  # an extra action clears the pin too
    assert (state.pins, left) == (0, 0)
    state, left, done = ModelState(dp=1, pins=1).clearing(2)
    assert (state.pins, left) == (0, 1)
    state, left, _ = ModelState(dp=1).stun().clearing(1)
    assert state.stunned and left == 0
