from fractions import Fraction

import pytest

from campaign.rulesets.flat_out_war.editions import SO, V17
from campaign.rulesets.flat_out_war.engine.movement import (
    IllegalMove,
    Segment,
    allowance,
    can_go_prone,
    can_run,
    check_path,
    inches_in_terrain,
)

from .helpers import fighter


def test_worked_examples_whole_inches_in_terrain() -> None:
    assert inches_in_terrain(Fraction(4), "light") == 2
    assert inches_in_terrain(Fraction(10), "heavy") == 3


def test_allowance_order_a10() -> None:
    assert allowance(4, running=True) == 8
    assert allowance(4, fast=True, running=True) == 12  # flat first, then x2
    assert allowance(4, flying_so=True) == 12
    assert allowance(4, submerged=True) == 2
    assert allowance(6, formation_change=True) == 3
    assert allowance(6, formation_change=True, stand_up=True) == 1
    assert allowance(2, slow=True, stand_up=True) == 0


def test_check_path_costs_and_refusals() -> None:
    f = fighter()
    assert check_path([Segment("open", Fraction(2)), Segment("light", Fraction(1))], Fraction(4), f, V17) == Fraction(7, 2)
    with pytest.raises(IllegalMove, match="only 4"):
        check_path([Segment("heavy", Fraction(2))], Fraction(4), f, V17)
    with pytest.raises(IllegalMove, match="impassable"):
        check_path([Segment("impassable", Fraction(1))], Fraction(10), f, V17)
    with pytest.raises(IllegalMove, match="whole inches"):
        check_path([Segment("light", Fraction(1, 2))], Fraction(10), f, V17)
    with pytest.raises(IllegalMove, match="no running through heavy"):
        check_path([Segment("heavy", Fraction(1))], Fraction(8), f, V17, running=True)


def test_terrain_exemptions() -> None:
    heavy3 = [Segment("heavy", Fraction(3))]
    assert check_path(heavy3, Fraction(9), fighter(), V17) == 9
    assert check_path(heavy3, Fraction(9), fighter(attrs=("Walker",)), V17) == Fraction(9, 2)
    assert check_path([Segment("light", Fraction(2))], Fraction(2), fighter(attrs=("Tracked",)), V17) == 2
    assert check_path([Segment("light", Fraction(2))], Fraction(3), fighter(attrs=("Tracked",)), SO) == 3
    water = [Segment("heavy", Fraction(2), water=True)]
    assert check_path(water, Fraction(2), fighter(attrs=("Amphibious",)), SO) == 2
    ground = [Segment("light", Fraction(2), ground_level=True)]
    assert check_path(ground, Fraction(2), fighter(attrs=("Skimmer",)), SO) == 2
    assert check_path([Segment("impassable", Fraction(4))], Fraction(4), fighter(), SO, airborne=True) == 4


def test_who_may_run_and_go_prone() -> None:
    assert can_run([fighter()], V17) is None
    assert "A-15" in can_run([fighter(kind="vehicle")], V17)
    assert can_run([fighter(kind="vehicle")], SO) is None
    assert "Unfeeling" in can_run([fighter(attrs=("Unfeeling",))], SO)
    assert can_go_prone(fighter(), SO) is None
    assert can_go_prone(fighter(mounted=True), V17)
    assert can_go_prone(fighter(large=True), SO) and can_go_prone(fighter(large=True), V17) is None


def test_turning_limits() -> None:
    from campaign.rulesets.flat_out_war.engine.movement import turning_problem

    loose = [fighter(attrs=('Loose Cohesion 4"',))]
    assert turning_problem(loose, tight_line=False, pivot_start=90, pivot_end=90) is None
    assert "90" in turning_problem(loose, tight_line=False, pivot_start=120)
    assert "45" in turning_problem([fighter(attrs=("Cumbersome",))], tight_line=False, pivot_end=60)
    assert turning_problem([fighter(attrs=("Tracked",))], tight_line=False, pivot_start=270) is None
    assert turning_problem([fighter(attrs=("Turn",))], tight_line=False, turns_during=2) is None
    assert turning_problem([fighter()], tight_line=False, turns_during=1)
    assert turning_problem([fighter(attrs=("Agile",))], tight_line=True, pivot_start=180) is None
    assert turning_problem([fighter()], tight_line=True, line_move="wheel", about_face=True) is None
    assert turning_problem([fighter()], tight_line=True, pivot_start=45)


def test_a_move_declaring_no_turn_is_never_refused_for_turning() -> None:
    # _check_move builds no combat views for such a move: turning_problem must agree
    from campaign.rulesets.flat_out_war.engine.movement import LINE_MOVES, declares_turns, turning_problem

    kinds = [[fighter()], [fighter(attrs=("Cumbersome",))], [fighter(), fighter(kind="vehicle")], []]
    for line_move in LINE_MOVES:
        assert not declares_turns(0, 0, 0, line_move)
        for elements in kinds:
            for tight in (True, False):
                assert turning_problem(elements, tight_line=tight, line_move=line_move, about_face=True) is None
    assert declares_turns(0, 0, 0, "sideways") and declares_turns(45, 0, 0, "straight")
    assert declares_turns(0, -45, 0, "wheel") and declares_turns(0, 0, 1, "oblique")
    assert turning_problem([fighter()], tight_line=True, line_move="sideways")


def test_move_text_writes_inches_as_a_float_g_would() -> None:
    from fractions import Fraction

    from campaign.rulesets.flat_out_war.engine.play.movement import _shown

    for value in (Fraction(2), Fraction(5, 2), Fraction(1, 3), Fraction(-4), Fraction(999_999), Fraction(10**6),
                  Fraction(10**7 + 1, 2), Fraction(0)):
        assert _shown(value) == f"{float(value):g}"
