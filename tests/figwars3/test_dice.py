"""Pool reading (2.1-2.2), re-rolls in their order (2.6) and what margins buy (2.7)."""

from fractions import Fraction

import pytest

from campaign.rulesets.figwars3 import margins
from campaign.rulesets.figwars3.pool import Counts, p_at_least, pool_counts, successes, totals, value
from campaign.rulesets.figwars3.rerolls import ReRoll, apply_dist, apply_face, ordered, pick_index


def test_face_reading() -> None:
    assert [value(f) for f in range(1, 7)] == [0, 0, 1, 1, 1, 2]
    assert successes([6, 5, 3, 2, 6]) == 6  # worked example 1
    assert successes([5, 6, 1, 3, 2, 4]) == 5  # worked example 2


def test_pool_distribution_sums_to_one_and_matches_one_die() -> None:
    assert totals(pool_counts(1)) == {0: Fraction(1, 3), 1: Fraction(1, 2), 2: Fraction(1, 6)}
    for n in range(0, 8):
        assert sum(pool_counts(n).values()) == 1
    assert pool_counts(-2) == {Counts(0, 0, 0): 1}  # PR-1: no dice, no successes


def test_skill_check_odds() -> None:
    assert p_at_least(1, 1) == Fraction(2, 3)
    assert p_at_least(2, 2) == Fraction(1, 4) + 2 * Fraction(1, 3) * Fraction(1, 6) + Fraction(1, 6) ** 2 + 2 * Fraction(1, 2) * Fraction(1, 6)
    assert p_at_least(0, 1) == 0


def test_favourable_reroll_takes_the_worst_die_and_keeps_the_better() -> None:
    hero = ReRoll("hero")
    faces = [5, 2, 6]
    assert pick_index(faces, hero) == 1
    assert apply_face(faces, 1, 6, hero) == [5, 6, 6]
    assert apply_face(faces, 1, 1, hero) == [5, 2, 6]  # 1 is no better than 2: kept
    assert pick_index([6, 6], hero) is None  # nothing to gain


def test_stealth_forces_the_best_die_and_keeps_the_worse() -> None:
    stealth = ReRoll("Stealth", "stealth")
    faces = [3, 6, 1]
    assert pick_index(faces, stealth) == 1
    assert apply_face(faces, 1, 4, stealth) == [3, 4, 1]
    assert apply_face([3, 6, 1], 1, 6, stealth) == [3, 6, 1]
    assert pick_index([1, 2], stealth) is None


def test_reroll_order_is_favourable_then_shield_then_stealth() -> None:
    rolls = [ReRoll("Stealth", "stealth"), ReRoll("shield", "shield"), ReRoll("hero"), ReRoll("Marksman")]
    assert [r.source for r in ordered(rolls)] == ["hero", "Marksman", "shield", "Stealth"]


def test_reroll_distribution_on_one_die() -> None:
    one = pool_counts(1)
    after = totals(apply_dist(one, ReRoll("hero")))
    # P(0) = 1/3 * 1/3; P(2) = 1/6 + 1/3*1/6 + 1/2*1/6
    assert after[0] == Fraction(1, 9)
    assert after[2] == Fraction(1, 6) + Fraction(1, 18) + Fraction(1, 12)
    worse = totals(apply_dist(one, ReRoll("Stealth", "stealth")))
    assert worse[2] == Fraction(1, 36)
    assert sum(worse.values()) == 1


@pytest.mark.parametrize(
    "margin, expected",
    [(1, (1, 0)), (2, (0, 1)), (3, (1, 1)), (4, (0, 2)), (5, (1, 2)), (6, (0, 3)), (0, (0, 0))],
)
def test_ranged_ladder(margin: int, expected: tuple[int, int]) -> None:
    p = margins.ranged_effects(margin)
    assert (p.pin, p.dp) == expected  # the appendix's ranged margins 1..6


def test_melee_packages_match_the_source_lists() -> None:
    listed = {
        1: {"pin", "push"},
        2: {"push+follow", "1 DP", "pin+push"},
        3: {"pin+push+follow", "pin+1 DP", "push+1 DP"},
        4: {"disarm", "pin+push+1 DP", "push+follow+1 DP", "2 DP"},
        5: {"pin+push+follow+1 DP", "pin+2 DP", "push+2 DP", "pin+disarm", "push+disarm"},
    }
    for margin, labels in listed.items():
        assert {p.label() for p in margins.legal_packages(margin)} == labels


def test_package_checks() -> None:
    assert margins.check_package(margins.Package(dp=1, pin=1), 3) is None
    assert "costs 4" in margins.check_package(margins.Package(dp=2), 3)
    assert "one pinned" in margins.check_package(margins.Package(pin=2), 5)
    assert "PR-3" in margins.check_package(margins.Package(disarm=2), 9)
    assert margins.default_melee(3) == margins.Package(pin=1, dp=1)  # example 2's default
