from fractions import Fraction

import pytest

from campaign.rulesets.flat_out_war.engine.rolls import die_sides, p_success, step, step_capped, succeeds


def test_four_or_more_succeeds() -> None:
    assert succeeds(4, 0) and not succeeds(3, 0)
    assert succeeds(3, 1) and not succeeds(5, -2)


def test_d4_with_any_penalty_cannot_succeed_but_may_roll() -> None:
    assert p_success(4, -1) == 0
    assert not any(succeeds(f, -1) for f in range(1, 5))
    assert p_success(4, 0) == Fraction(1, 4)


def test_d20_with_minus_two_succeeds_on_six_plus() -> None:
    assert not succeeds(5, -2) and succeeds(6, -2)
    assert p_success(20, -2) == Fraction(15, 20)


def test_p_success_matches_counting_faces() -> None:
    for sides in (4, 6, 8, 10, 12, 20):
        for mod in range(-6, 7):
            count = sum(1 for f in range(1, sides + 1) if succeeds(f, mod))
            assert p_success(sides, mod) == Fraction(count, sides)


def test_ladder_steps() -> None:
    assert step(8, -1) == 6 and step(4, -1) is None and step(20, 1) is None
    assert step_capped(20, 1) == 20 and step(12, 1) == 20
    assert die_sides("D10") == 10
    with pytest.raises(ValueError):
        die_sides("d7")
