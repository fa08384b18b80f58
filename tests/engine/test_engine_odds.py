"""Exact odds helpers, and auto dice agreeing with them (fixed seeds, 3 sigma)."""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.engine import Activate, AutoDice, Battle, Choose, Decision, KeepRoll, Pass
from campaign.engine.odds import (
    attack_odds,
    at_least,
    bernoulli_sum,
    binomial,
    compose,
    convolve,
    die_dist,
    mean,
    odds,
    p_at_least,
    p_faces,
    thin,
)
from campaign.engine.stats import assert_matches, mismatches, sample
from toy_rules import Attack, ToyRules, toy_setup


@pytest.mark.parametrize(
    ("die", "target", "mod", "p"),
    [(6, 4, 0, F(1, 2)), (6, 4, -1, F(1, 3)), (8, 4, 0, F(5, 8)), (4, 4, -1, F(0)), (20, 4, -2, F(15, 20)),
     (6, 4, 5, F(1)), (4, 4, 0, F(1, 4)), (12, 4, 2, F(11, 12))],
)  # fmt: skip
def test_one_die_reaching_a_target(die: int, target: int, mod: int, p: F) -> None:
    assert p_at_least(die, target, mod) == p


def test_natural_faces_and_face_values() -> None:
    assert p_faces(20, lambda f: f == 1) == F(1, 20)
    assert die_dist(6, lambda f: 0 if f <= 2 else 1 if f <= 5 else 2) == {0: F(1, 3), 1: F(1, 2), 2: F(1, 6)}


def test_bernoulli_sum_matches_brute_force_enumeration() -> None:
    ps = [F(1, 2), F(5, 8), F(1, 3), F(3, 4)]
    brute: dict[int, F] = {}
    for outcome in itertools.product((0, 1), repeat=len(ps)):
        weight = F(1)
        for hit, p in zip(outcome, ps):
            weight *= p if hit else 1 - p
        brute[sum(outcome)] = brute.get(sum(outcome), F(0)) + weight
    assert bernoulli_sum(ps) == brute


@settings(max_examples=100, derandomize=True, deadline=None)  # a busy machine must not fail it on time
@given(st.lists(st.fractions(min_value=0, max_value=1, max_denominator=20), max_size=8))
def test_bernoulli_sum_is_a_distribution_with_the_right_mean(ps: list[F]) -> None:
    dist = bernoulli_sum(ps)
    assert sum(dist.values()) == 1
    assert mean(dist) == sum(ps, F(0))


def test_binomial_and_convolution_agree() -> None:
    assert binomial(3, F(1, 2)) == {0: F(1, 8), 1: F(3, 8), 2: F(3, 8), 3: F(1, 8)}
    assert convolve(binomial(2, F(1, 3)), binomial(1, F(1, 3))) == binomial(3, F(1, 3))


def test_thinning_hits_into_casualties_equals_per_attack_products() -> None:
    # Three attacks hit on 1/2 each, and each hit becomes a casualty on 2/3: thinning the
    # hit count must give the same as three attacks at 1/3 each.
    assert thin(binomial(3, F(1, 2)), F(2, 3)) == bernoulli_sum([F(1, 3)] * 3)
    mixture = compose({0: F(1, 2), 1: F(1, 2)}, lambda k: {k * 2: F(1)})
    assert mixture == {0: F(1, 2), 2: F(1, 2)}
    assert at_least(binomial(3, F(1, 2)), 2) == F(1, 2)


def test_attack_odds_for_different_dice() -> None:
    result = attack_odds([F(1, 2), F(5, 8)], [F(1, 2), F(1, 4)], notes=["long range -1"])
    assert result.p_casualty == (F(1, 4), F(5, 32))
    assert result.expected_casualties == F(1, 4) + F(5, 32)
    assert result.casualties == {0: F(3, 4) * F(27, 32), 1: F(1, 4) * F(27, 32) + F(3, 4) * F(5, 32), 2: F(5, 128)}
    assert result.to_json()["casualties"]["2"] == pytest.approx(5 / 128)
    with pytest.raises(ValueError):
        attack_odds([F(1, 2)], [])


@functools.cache
def toy_counts(range_band: str, braced: bool) -> Counter[int]:
    return sample(toy_trial(range_band, braced), range(1500))


def toy_trial(range_band: str, braced: bool):
    """One attack by Red 1 (3 elements) on Blue 1 with AutoDice(seed): its casualties."""

    def trial(seed: int) -> int:
        battle = Battle.start(toy_setup(((3,), (3,))), AutoDice(seed), rules=ToyRules())
        battle.state.side("reds").data["rerolls"] = 0  # no re-roll offer: pure odds
        if battle.pending.side == "blues":
            battle.apply(Pass())
        battle.apply(Activate("red-1"))
        battle.apply(Attack("red-1", "blue-1", {"range_band": range_band}))
        battle.apply(Choose("brace" if braced else "stand"))
        return sum(1 for e in battle.state.unit("blue-1").elements if not e.alive)

    return trial


@pytest.mark.parametrize(("range_band", "braced"), [("short", False), ("long", False), ("short", True), ("long", True)])
def test_auto_dice_give_the_odds_the_rules_predict(range_band: str, braced: bool) -> None:
    battle = Battle.start(toy_setup(((3,), (3,))), AutoDice(0), rules=ToyRules())
    cmd = Attack("red-1", "blue-1", {"range_band": range_band, "braced": braced})
    predicted = odds(battle, cmd)
    counts = toy_counts(range_band, braced)
    assert_matches(counts, predicted.casualties)


def test_the_statistical_check_catches_wrong_odds() -> None:
    counts = toy_counts("short", False)
    wrong = attack_odds([F(1, 2)] * 3, [F(1, 2)] * 3).casualties  # recovery on 4+ instead of 5+
    assert mismatches(counts, wrong)
    with pytest.raises(AssertionError, match="do not match"):
        assert_matches(counts, wrong)
    assert "outcome 5: seen 1 times, predicted impossible" in mismatches(Counter({5: 1, 0: 9}), {0: F(1)})
