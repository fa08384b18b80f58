"""The turn (6.2-6.4, PR-21, PR-23) and morale (14): worked examples 4 and 5."""

import pytest

from campaign.rulesets.figwars3 import morale, turn
from campaign.rulesets.figwars3.attack import drive
from tests.figwars3.helpers import enumerate_results


def test_example_5_initiative_tie_rerolled_among_tied_sides() -> None:
    order = drive(turn.initiative(["A", "B"]), [[3, 3], [7, 2]])
    assert order == ["A", "B"]


def test_initiative_three_sides_only_the_tied_reroll() -> None:
    order = drive(turn.initiative(["A", "B", "C"]), [[5, 8, 5], [1, 4]])
    assert order == ["B", "C", "A"]


def test_example_5_extra_actions() -> None:
    a_units = 6 - 1  # one retreating squad is not counted
    assert turn.extra_action_total(6, a_units, heroes=1) == 9
    assert turn.extra_actions(9) == 2
    assert turn.extra_actions(turn.extra_action_total(4, 2, 0)) == 0
    pools = drive(turn.extra_action_rolls(["A", "B"], {"A": 5, "B": 2}, {"A": 1}), [[6], [4]])
    assert pools == {"A": 2, "B": 0}


def test_extra_action_table_edges_and_appendix_vector() -> None:
    assert [turn.extra_actions(t) for t in (1, 4, 5, 7, 8, 9, 10, 11, 12, 20)] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert [turn.unit_bonus(n) for n in (1, 2, 3, 4, 5, 6, 7, 8, 9, 30)] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert turn.extra_actions(turn.extra_action_total(3, 9, 2)) == 2  # 3 + 4 + 2 = 9


def test_example_5_activation_order() -> None:
    units = {
        "A": [("squad 1", "normal"), ("squad 2", "normal"), ("squad 3", "retreating"), ("squad 4", "normal"),
              ("hero", "normal"), ("vehicle", "normal")],
        "B": [("squad 1", "normal"), ("squad 2", "normal")],
    }
    seq = turn.activation_sequence(["A", "B"], units)
    assert seq[0] == ("A", "squad 3")
    assert [s for s, _ in seq] == ["A", "B", "A", "B", "A", "A", "A", "A"]


def test_forced_priority_retreating_then_falling_back() -> None:
    assert turn.must_activate_first({"x": "normal", "y": "falling_back", "z": "retreating"}) == ["z"]
    assert turn.must_activate_first({"x": "normal", "y": "falling_back"}) == ["y"]
    assert turn.must_activate_first({"x": "normal", "w": "normal"}) == ["x", "w"]


def test_recon_units_are_placed_last_and_the_first_player_places_his_last() -> None:
    units = {
        "A": [("a1", "normal"), ("a-recon", "recon"), ("a2", "normal"), ("a-amb", "ambush")],
        "B": [("b1", "normal"), ("b-drop", "drop"), ("b-recon", "recon")],
    }
    # PR-22: B won turn 1's initiative, so with both sides fielding Recon, B places its recon last
    assert turn.placement_sequence(["A", "B"], units, first_player="B") == [
        ("A", "a1"), ("B", "b1"), ("A", "a2"), ("A", "a-recon"), ("B", "b-recon")]
    assert turn.placement_sequence(["A", "B"], units, first_player="A")[-2:] == [("B", "b-recon"), ("A", "a-recon")]
    only_a = {"A": units["A"], "B": [("b1", "normal")]}
    assert turn.placement_sequence(["B", "A"], only_a, "A") == [("B", "b1"), ("A", "a1"), ("A", "a2"), ("A", "a-recon")]


def test_deployment_order_most_units_first_ties_rolled() -> None:
    assert drive(turn.deployment_order({"A": 3, "B": 5}), []) == ["B", "A"]
    assert drive(turn.deployment_order({"A": 4, "B": 4}), [[2, 6]]) == ["B", "A"]


def test_action_costs() -> None:
    assert turn.ACTION_COSTS["run"] == 2 and turn.ACTION_COSTS["draw"] == 0
    assert turn.shoot_cost(slow=True) == 2 and turn.MAX_ACTIONS == 3


def test_example_4_morale_failure_falling_back_then_rally() -> None:
    guard = morale.MoraleSituation(highest_tq=1, models=5, inspired=True)
    pl = morale.PanicLevel().add(1).add(1).add(1)
    assert pl == morale.PanicLevel(3, True)
    assert guard.pool() == 2
    passed, _ = drive(morale.morale_roll(guard, pl.value), [[2, 6]])
    assert not passed
    status = morale.after_failed_check("normal")
    assert status == "falling_back"
    assert morale.morale_phase_action(marker=False, status=status) == "rally"
    rallied, _ = drive(morale.morale_roll(guard, 0, rally=True), [[3, 4]])
    assert rallied and morale.after_rally(status) == "normal"
    # branch: one more casualty means a compulsory check, and failing it means retreating
    assert morale.morale_phase_action(marker=True, status=status) == "check"
    assert morale.after_failed_check(status) == "retreating"


def test_status_machine() -> None:
    assert morale.after_failed_check("normal", cowardly=True) == "retreating"
    assert morale.after_rally("retreating") == "falling_back"
    assert morale.after_rally("normal") == "normal"
    assert morale.WITHDRAWAL_MOVE == {"falling_back": "walk", "retreating": "run"}


@pytest.mark.parametrize("models, bonus", [(1, 0), (5, 0), (6, 1), (10, 1), (11, 2), (15, 2), (16, 3), (20, 3)])
def test_size_bonus(models: int, bonus: int) -> None:
    assert morale.size_bonus(models) == bonus


def test_morale_modifiers_and_grizzled_reroll() -> None:
    vets = morale.MoraleSituation(highest_tq=2, models=12, mounted=True, brave=True, grizzled=True,
                                  out_of_coherency=True)
    assert vets.pool() == 2 + 2 + 1 + 1 - 1
    assert vets.pool(rally=True) == 6
    passed, faces = drive(morale.morale_roll(vets, 6), [[1, 3, 3, 3, 6], [6]])
    assert faces == (6, 3, 3, 3, 6) and passed
    supported = morale.MoraleSituation(highest_tq=1, models=3, supporting_hero_tq=3)
    assert supported.pool() == 3 and supported.rerolls() == ["hero"]
    assert morale.never_checks({"Fearless"}) and morale.never_checks(set(), hero=True)
    assert not morale.never_checks({"Brave"})


def test_morale_odds_match_enumeration() -> None:
    for situation, pl in (
        (morale.MoraleSituation(highest_tq=1, models=5, inspired=True, grizzled=True), 2),
        (morale.MoraleSituation(highest_tq=2, models=7, supporting_hero_tq=3, grizzled=True), 4),
    ):
        dist = enumerate_results(lambda: morale.morale_roll(situation, pl), lambda r: r[0])
        assert dist[True] == morale.p_pass(situation, pl)
        assert 0 < dist[True] < 1
