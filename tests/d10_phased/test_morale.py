"""DP-EX-3 and every morale result with scripted dice (DP-18)."""

import pytest

from campaign.rulesets.d10_phased.morale import (
    UNAFFECTED,
    MoraleFacts,
    individual_result,
    leader_needs_replacing,
    morale_phase,
    name_leader,
    owes_unit_check,
    unit_die,
    unit_passes,
)
from campaign.rulesets.d10_phased.profile import Model, Unit
from campaign.rulesets.d10_phased.state import PINNED, ROUTED, Roster, add_unit
from tests.d10_phased.scripted import drive


def spearmen(grade: str = "average", count: int = 9, lost: int = 4) -> Roster:
    roster = Roster()
    unit = add_unit(roster, Unit("Spearmen", (Model("Spearman", 6, 1, close=1, count=count),), grade=grade), "blue")
    for mid in unit.models[count - lost :]:
        roster.model(mid).alive = False
    return roster


@pytest.mark.parametrize(
    ("models", "die"), [(1, None), (2, 2), (3, 3), (4, 4), (5, 4), (6, 6), (7, 6), (8, 8), (9, 8), (10, 10), (11, 10), (12, 12), (19, 12), (20, 20), (45, 20)]
)
def test_unit_die_never_exceeds_the_original_count(models: int, die: int | None) -> None:
    assert unit_die(models) == die


def test_ex3_unit_fails_and_each_member_rolls_the_table() -> None:
    roster = spearmen()
    unit = roster.units["spearmen"]
    m1, m2, m3, m4, m5 = (m.id for m in roster.members("spearmen"))
    unit.hit_since_morale = True
    assert owes_unit_check(unit, roster)  # hit taken, and floor(0.5 x 9) = 4 <= 4
    roster.model(m3).out_of_command = True
    facts = MoraleFacts(touching_leader=frozenset({m2}), leaves_table=frozenset({m3}))
    checks, asked = drive(
        morale_phase(roster, ["red", "blue"], first_phase=True, facts=facts), [6], [2], [8], [3], [10], [1]
    )
    assert asked[0].die == 8
    assert [(c.model, c.result) for c in checks] == [
        ("", "fail"),
        (m1, PINNED),
        (m2, UNAFFECTED),
        (m3, ROUTED),
        (m4, UNAFFECTED),
        (m5, ROUTED),
    ]
    assert roster.model(m3).gone == "routed off" and roster.model(m5).alive
    assert leader_needs_replacing(unit, roster)
    name_leader(unit, roster, m2)
    assert not leader_needs_replacing(unit, roster)
    with pytest.raises(ValueError):
        name_leader(unit, roster, m3)
    # MORALE_2: the unit has checked; M1 and M5 hold markers only and have checked
    checks, asked = drive(morale_phase(roster, ["blue"], first_phase=False))
    assert checks == [] and asked == []
    # next turn's MORALE_1: the threshold still stands, so the unit checks (and passes,
    # 2 < 4 left); the marker holders roll because they begin it marked
    unit.checked_this_turn = False
    for m in roster.members("spearmen"):
        m.indiv_checked = False
    checks, _ = drive(morale_phase(roster, ["blue"], first_phase=True), [2], [9], [4])
    assert [(c.model, c.result) for c in checks] == [("", "pass"), (m1, UNAFFECTED), (m5, PINNED)]
    assert roster.model(m1).marker == ""  # rallied


def test_ex3_equal_fails_and_below_passes() -> None:
    assert not unit_passes(5, 5) and not unit_passes(6, 5) and unit_passes(4, 5)
    roster = spearmen()
    roster.units["spearmen"].hit_since_morale = True
    checks, asked = drive(morale_phase(roster, ["blue"], first_phase=True), [4])
    assert [c.result for c in checks] == ["pass"] and len(asked) == 1


def test_ex3b_cowardly_threshold_and_ex3c_fearless() -> None:
    roster = Roster()
    unit = add_unit(roster, Unit("C", (Model("C", 6, 1, count=7),), grade="cowardly"), "blue")
    assert not owes_unit_check(unit, roster)
    for mid in unit.models[:2]:
        roster.model(mid).alive = False
    assert owes_unit_check(unit, roster)  # floor(0.3 x 7) = 2 <= 2
    assert owes_unit_check(add_unit(roster, Unit("D", (Model("D", 6, 1),), grade="cowardly"), "blue"), roster, enemy_within_6=True)
    brave = spearmen("fearless", lost=8)
    brave.units["spearmen"].hit_since_morale = True
    assert not owes_unit_check(brave.units["spearmen"], brave)


def test_and_reading_needs_both_the_event_and_the_threshold() -> None:
    roster = spearmen(lost=0)
    unit = roster.units["spearmen"]
    unit.hit_since_morale = True
    assert owes_unit_check(unit, roster) and not owes_unit_check(unit, roster, mode="and")


def test_ex3d_the_literal_d6_never_reaches_unaffected() -> None:
    assert individual_result(2, 1, die=6) == PINNED
    assert all(individual_result(f, m, 6) != UNAFFECTED for f in range(1, 7) for m in (-1, 0, 1))
    assert individual_result(1, 9, 10) == ROUTED and individual_result(10, -9, 10) == UNAFFECTED
    assert individual_result(1, 9, 6) == UNAFFECTED  # the d6 has no natural faces


def test_an_immobile_model_that_routs_is_destroyed() -> None:
    roster = Roster()
    add_unit(roster, Unit("Gun", (Model("Gun", 0, 1, count=2),)), "red")
    roster.units["gun"].hit_since_morale = True
    gun = roster.model("gun/gun-1")
    checks, _ = drive(morale_phase(roster, ["red"], first_phase=True), [2], [1], [9])
    assert checks[1].result == ROUTED and gun.gone == "destroyed"


def test_characters_check_on_their_own_triggers() -> None:
    roster = Roster()
    hero = add_unit(roster, Unit("Hero", (Model("Hero", 6, 2),), character=True), "red")
    model = roster.model("hero/hero-1")
    model.attacked_by = 2
    assert drive(morale_phase(roster, ["red"], first_phase=True)) == ([], [])
    model.attacked_by = 3  # more dice than its 2 save dice
    checks, asked = drive(morale_phase(roster, ["red"], first_phase=True), [5])
    assert asked[0].die == 10 and checks[0].result == PINNED  # 5 + 1 as its own leader
    assert model.attacked_by == 0 and hero.leader == model.id


def test_wide_spread_panic_tests_everyone_even_the_fearless_and_mindless() -> None:
    roster = Roster()
    add_unit(roster, Unit("Husks", (Model("Husk", 5, 2, specials=("Mindless",), count=3),), grade="fearless"), "blue")
    add_unit(roster, Unit("Hero", (Model("Hero", 6, 2),), grade="fearless", character=True), "red")
    checks, asked = drive(morale_phase(roster, ["red", "blue"], first_phase=True, all_test=True), [3], [9], [9], [9], [9])
    # unit checks first, then the individual rolls in order (first mover's models first)
    assert [(c.unit, c.model != "") for c in checks] == [("husks", False), ("hero", True), *[("husks", True)] * 3]
    # a normal phase: neither the fearless unit nor its mindless models check
    roster.units["husks"].checked_this_turn = False
    roster.units["husks"].hit_since_morale = True
    assert drive(morale_phase(roster, ["blue"], first_phase=True)) == ([], [])
