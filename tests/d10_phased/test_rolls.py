"""DP-1 (the d10 test), DP-15.1 (the +2 cap), DP-15.2 (multiplier limits)."""

from fractions import Fraction

import pytest

from campaign.rulesets.d10_phased.rolls import effective_dice, net_modifier, p_success, success


@pytest.mark.parametrize(
    ("face", "mod", "ok"),
    [(5, 0, True), (4, 0, False), (4, 1, True), (1, 9, False), (10, -9, True), (9, -5, False), (3, 2, True)],
)
def test_success_needs_a_modified_five_with_natural_one_and_ten(face: int, mod: int, ok: bool) -> None:
    assert success(face, mod) is ok


def test_p_success_counts_the_natural_faces() -> None:
    assert p_success(0) == Fraction(6, 10)
    assert p_success(5) == Fraction(9, 10)  # a natural 1 still fails
    assert p_success(-20) == Fraction(1, 10)  # a natural 10 still succeeds
    assert p_success(1) == Fraction(7, 10)


def test_net_modifier_caps_the_positive_sum_only() -> None:
    assert net_modifier([1, 1, 1, -1]) == 1  # DP-EX-2
    assert net_modifier([1, 1, 1, -1, -1]) == 0  # R1, out of command
    assert net_modifier([1, 1, 1, -1, -2]) == -1  # DP-EX-2 b
    assert net_modifier([-3, -2]) == -5
    assert net_modifier([]) == 0


def test_multipliers_are_clamped_to_a_quarter_and_double_the_base() -> None:
    half = Fraction(1, 2)
    assert effective_dice(3, [half, half]) == Fraction(3, 4)  # DP-EX-2 c R4
    assert effective_dice(1, [half]) == half  # R5
    assert effective_dice(2, [2, 2]) == 4  # DP-EX-2 d: 8 clamped to 4
    assert effective_dice(1, [half, half, half]) == Fraction(1, 4)  # DP-EX-2 e
    assert effective_dice(0, [2]) == 0
    assert effective_dice(4, []) == 4
