"""DP-EX-4 f and g, and the objectives count (DP-19)."""

from campaign.rulesets.d10_phased.victory import (
    DRAW,
    battle_of_position,
    objective_placement_problem,
    objectives,
    sudden_death,
)

SIDES = ("red", "blue")


def test_ex4f_sudden_death() -> None:
    verdict = sudden_death({"red": 20, "blue": 16}, {"red": 10, "blue": 7})
    assert verdict is not None and verdict.winner == "blue"
    both = sudden_death({"red": 20, "blue": 16}, {"red": 10, "blue": 8})
    assert both is not None and both.winner == DRAW
    assert sudden_death({"red": 20, "blue": 16}, {"red": 9, "blue": 7}) is None


def test_ex4g_battle_of_position() -> None:
    points = {"Q1": {"red": 120, "blue": 80}, "Q2": {"red": 0, "blue": 50}, "Q3": {"red": 60, "blue": 60}, "Q4": {"red": 30, "blue": 0}}
    verdict = battle_of_position(points, SIDES)
    assert verdict.winner == "red" and verdict.tally == {"red": 2, "blue": 1}
    assert "Q3: nobody" in verdict.reason
    assert battle_of_position({"Q1": {"red": 1}, "Q2": {"blue": 1}}, SIDES).winner == DRAW


def test_objectives_shared_markers_count_for_nobody() -> None:
    verdict = objectives({"1": ["red"], "2": ["red", "blue"], "3": ["blue"], "4": ["red"]}, SIDES)
    assert verdict.winner == "red" and verdict.tally == {"red": 2, "blue": 1}
    assert objectives({"1": ["red"], "2": ["blue"], "3": []}, SIDES).winner == DRAW


def test_objective_placement() -> None:
    assert objective_placement_problem([12, 30], [12], False) is None
    assert "edge" in objective_placement_problem([11.5], [], False)
    assert "apart" in objective_placement_problem([20], [6], False)
    assert "pool" in objective_placement_problem([20], [], True)
