"""Properties of the d10 rules, over many small cases (fixed examples, derandomized)."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.rulesets.d10_phased.attack import Contribution, Declaration
from campaign.rulesets.d10_phased.morale import UNAFFECTED, individual_result, unit_die
from campaign.rulesets.d10_phased.odds import declaration_odds
from campaign.rulesets.d10_phased.rolls import effective_dice, net_modifier
from campaign.rulesets.d10_phased.state import ModelState

FAST = settings(max_examples=60, derandomize=True, deadline=None)
MULTS = st.lists(st.sampled_from([Fraction(1, 2), Fraction(2), Fraction(1, 4), Fraction(3, 2)]), max_size=4)


@FAST
@given(st.integers(1, 6), st.integers(-1, 1))
def test_the_printed_d6_never_rallies_with_at_most_plus_one(face: int, mod: int) -> None:
    assert individual_result(face, mod, die=6) != UNAFFECTED  # DP-EX-3 d


@FAST
@given(st.lists(st.integers(-4, 4), max_size=6))
def test_net_modifier_never_exceeds_two(mods: list[int]) -> None:
    net = net_modifier(mods)
    assert net <= 2 and net <= sum(mods) + sum(max(0, m) for m in mods)


@FAST
@given(st.integers(0, 8), MULTS)
def test_effective_dice_within_the_limits(base: int, mults: list[Fraction]) -> None:
    eff = effective_dice(base, mults)
    assert Fraction(base, 4) <= eff <= 2 * base


@FAST
@given(st.integers(1, 200))
def test_unit_die_never_exceeds_the_original_models(n: int) -> None:
    die = unit_die(n)
    assert (die is None) == (n == 1) and (die or 0) <= n


@FAST
@given(
    st.lists(st.tuples(st.integers(0, 4), MULTS, st.integers(-3, 3)), min_size=1, max_size=4),
    st.integers(0, 3),
    st.integers(1, 5),
    st.integers(0, 2),
)
def test_odds_are_distributions_and_pooling_never_adds_dice(
    parts: list[tuple[int, list[Fraction], int]], save: int, hits: int, contact: int
) -> None:
    decl = Declaration(
        "t",
        tuple(Contribution(f"a{i}", d, m, (mod,)) for i, (d, m, mod) in enumerate(parts)),
        contact=tuple(f"c{i}" for i in range(contact)),
    )
    total = sum((c.effective for c in decl.contributions), Fraction(0))
    assert decl.dice <= total and sum(decl.shares().values()) == decl.dice
    target = ModelState("t", "T", "u", "blue", 6, {"close": 1}, save, hits, hits)
    odds = declaration_odds(decl, target)
    assert sum(odds.hits.values()) == 1 and sum(odds.unsaved.values()) == 1
    assert 0 <= odds.p_removed <= 1 and odds.expected_unsaved <= odds.expected_hits
    assert odds.dice == decl.shares()["t"]
