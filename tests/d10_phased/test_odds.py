"""Exact odds of a declaration agree with hand sums and with rolling (3 sigma)."""

import math
import random
from fractions import Fraction

import attrs
import pytest

from campaign.rulesets.d10_phased.attack import Contribution, Declaration, hits_from_faces
from campaign.rulesets.d10_phased.damage import apply_unsaved, removed_by, saves_from_faces
from campaign.rulesets.d10_phased.odds import declaration_odds
from campaign.rulesets.d10_phased.state import ModelState

HALF = Fraction(1, 2)


def target(save: int = 1, hits: int = 1, hits_left: int | None = None) -> ModelState:
    return ModelState("t", "Target", "u", "blue", 6, {"close": 2}, save, hits, hits if hits_left is None else hits_left)


def test_one_die_at_a_one_hit_model_by_hand() -> None:
    odds = declaration_odds(Declaration("t", (Contribution("a", 1),)), target(save=1))
    assert odds.expected_hits == Fraction(6, 10)
    # hit (6/10) and the one save fails (4/10)
    assert odds.p_removed == Fraction(24, 100)
    assert odds.expected_unsaved == Fraction(24, 100)


def test_no_save_dice_and_the_cap() -> None:
    decl = Declaration("t", (Contribution("a", 2, modifiers=(3, 1)),))  # +4 capped to +2
    odds = declaration_odds(decl, target(save=0))
    assert odds.modifiers == (2, 2)
    assert odds.p_removed == 1 - Fraction(2, 10) ** 2


def test_pending_hits_count_towards_the_one_save_roll() -> None:
    decl = Declaration("t", (Contribution("a", 1, modifiers=(-9,)),))  # only a natural 10 hits
    odds = declaration_odds(decl, target(save=0, hits=2), pending_hits=1)
    assert odds.p_removed == Fraction(1, 10)
    assert odds.hits == {1: Fraction(9, 10), 2: Fraction(1, 10)}


def test_contact_fire_odds_read_the_targets_share_only() -> None:
    decl = Declaration("t", (Contribution("a", 7),), contact=("x", "y"))
    assert declaration_odds(decl, target()).dice == 3


def test_critical_chance_only_for_big_models_that_survive() -> None:
    decl = Declaration("t", (Contribution("a", 1),))
    assert declaration_odds(decl, target(hits=2)).p_critical == 0
    big = declaration_odds(decl, target(save=0, hits=3))
    assert big.p_critical == Fraction(1, 10) and big.p_removed == 0
    assert big.expected_absorbed == big.expected_unsaved


def simulate(decl: Declaration, model: ModelState, trials: int, seed: int) -> tuple[float, float, float]:
    rng = random.Random(seed)
    d10 = lambda: int(rng.random() * 10) + 1  # noqa: E731
    removed = unsaved_sum = hits_sum = 0
    for _ in range(trials):
        faces = [d10() for _ in decl.deal()]
        hits = hits_from_faces(decl, faces).get(model.id)
        h = hits.hits if hits else 0
        saves = saves_from_faces(tuple(d10() for _ in range(model.save))) if h else 0
        u = max(0, h - saves)
        copy = attrs.evolve(model, attack=dict(model.attack))
        gone = apply_unsaved(copy, u)
        assert gone == removed_by(u, model.hits_left)
        removed += gone
        unsaved_sum += u
        hits_sum += h
    return hits_sum / trials, unsaved_sum / trials, removed / trials


CASES = [
    (Declaration("t", (Contribution("a", 2), Contribution("b", 2))), target(save=1)),
    (Declaration("t", (Contribution("a", 3, modifiers=(1, 1, 1)),)), target(save=2, hits=2)),
    (Declaration("t", (Contribution("a", 2, modifiers=(-2,)),)), target(save=0)),
    (Declaration("t", (Contribution("a", 3, (HALF, HALF)), Contribution("b", 1, (HALF,), (-1,)))), target(save=0)),
    (Declaration("t", (Contribution("a", 6),), contact=("x",)), target(save=1, hits=4)),
    (Declaration("t", (Contribution("a", 4, (2,)), Contribution("b", 2, modifiers=(-3,)))), target(save=3, hits=4)),
    (Declaration("t", (Contribution("a", 5, modifiers=(2, -1)),)), target(save=2, hits=2, hits_left=1)),
    (Declaration("t", (Contribution("a", 1), Contribution("b", 1), Contribution("c", 1))), target(save=2, hits=3)),
    (Declaration("t", (Contribution("a", 3, (HALF,)), Contribution("b", 3, (HALF,)))), target(save=1, hits=2)),
]


@pytest.mark.parametrize(("decl", "model"), CASES)
def test_odds_agree_with_rolling_within_three_sigma(decl: Declaration, model: ModelState) -> None:
    trials = 3000
    odds = declaration_odds(decl, model)
    hits, unsaved, removed = simulate(decl, model, trials, seed=16)
    p = float(odds.p_removed)
    assert abs(removed - p) <= 3 * math.sqrt(p * (1 - p) / trials) + 1e-9
    for got, dist in ((hits, odds.hits), (unsaved, odds.unsaved)):
        mu = sum(k * float(q) for k, q in dist.items())
        var = sum((k - mu) ** 2 * float(q) for k, q in dist.items())
        assert abs(got - mu) <= 3 * math.sqrt(var / trials) + 1e-9
