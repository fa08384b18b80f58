"""Structures (12.4), vehicle movement and mire tests (8.9, 8.10, PR-33), and the optional
rules of 15 (formations, Hail of Arrows, PR-67)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from campaign.engine.errors import IllegalCommand
from campaign.rulesets.figwars3 import optional_rules as opt
from campaign.rulesets.figwars3 import structures as st
from campaign.rulesets.figwars3 import vehicle_movement as vm
from campaign.rulesets.figwars3.attack import drive, resolve
from campaign.rulesets.figwars3.weapons import MELEE, RANGED
from tests.figwars3.helpers import trooper

MARINE = trooper("Marine", 2, 5, 2, melee=("Power Weapon",), ranged=("Laser Gun",), attributes=("Strong",))
GRUNT = trooper("Grunt", 1, 2)


@pytest.mark.parametrize(("grade", "door", "wall"), [
    ("flimsy", (1, 1), (3, 3)), ("weak", (2, 1), (4, 3)), ("normal", (3, 1), (5, 3)),
    ("reinforced", (4, 2), (6, 4)), ("heavy", (5, 2), (7, 4)),
])
def test_structure_tables(grade: str, door: tuple[int, int], wall: tuple[int, int]) -> None:
    d = st.structure("door", grade)
    w = st.structure("wall", grade, length_inches=5)
    assert (d.defence, d.sections) == (door[0], (door[1],))
    assert (w.defence, w.sections) == (wall[0], (wall[1],) * 3)  # 5" of wall: three 2" sections


def test_breaching_a_wall_section_by_melee_and_by_fire() -> None:
    wall = st.structure("wall", "weak", 4)
    opposed = st.strike_structure(MARINE, wall)
    assert not opposed.counter and opposed.defender.pool == 4 and opposed.attacker.pool == 9
    out = drive(resolve(opposed), [[6, 6, 6, 3, 1, 1, 1, 1, 1], [1, 1, 1, 1]])  # 7 v 0: 3 DP +1 Strong
    wall = wall.hit(1, out.dp)
    assert out.dp == 4 and wall.breached == (1,) and wall.sections == (3, -1)
    shot = st.shoot_structure(MARINE, RANGED["Laser Gun"], wall, {"cover": "full_hard"})
    assert [t.label for t in shot.defender.terms] == ["DEF"]
    with pytest.raises(IllegalCommand):
        wall.hit(5, 1)
    with pytest.raises(IllegalCommand):
        st.structure("door", "steel")
    assert st.destructible(0.25) and not st.destructible(1) and st.destructible(2, small_parts=True)
    assert st.chainfist_bonus("chainfist", 1) == 1 and st.chainfist_bonus("chainfist", 0) == 0


def test_vehicle_and_mount_movement_costs() -> None:
    fwd = vm.Segment("move", "forward", Fraction(6))
    back = vm.Segment("move", "backward", Fraction(2))
    turn90 = vm.Segment("turn", steps=2)
    assert vm.move_cost("vehicle", (turn90, fwd)) == 2 + 6  # stationary turns: 1" per 45
    assert vm.move_cost("mount", (turn90, fwd)) == 1 + 6  # a mount: 1" per 90
    assert vm.move_cost("vehicle", (back,)) == 4  # half speed backwards
    with pytest.raises(IllegalCommand, match="only hovering"):
        vm.move_cost("vehicle", (vm.Segment("move", "sideways", Fraction(1)),))
    assert vm.move_cost("hover_vehicle", (vm.Segment("move", "diagonal", Fraction(3)),)) == 6
    # moving: one facing change per 3" for a vehicle
    with pytest.raises(IllegalCommand, match="once per 3"):
        vm.move_cost("vehicle", (vm.Segment("move", "forward", Fraction(2)), vm.Segment("turn", steps=1)))
    assert vm.move_cost("vehicle", (vm.Segment("move", "forward", Fraction(3)), vm.Segment("turn", steps=1))) == 4
    assert vm.move_cost("mecha", (vm.Segment("turn", steps=4), vm.Segment("move", "sideways", Fraction(5)))) == 5  # PR-15
    assert vm.mover_of("hover", vehicle=True) == "hover_vehicle" and vm.mover_of("tracked", True) == "vehicle"


def test_mire_tests_pr33() -> None:
    assert vm.mires("wheeled", True) and vm.mires("tracked", True)
    assert not vm.mires("walker tall", True) and not vm.mires("hover", True) and not vm.mires("wheeled", False)
    s = drive(vm.mire_test(vm.Mire()), [[2]])
    assert s.mired and s.failures == 1
    s = drive(vm.mire_test(s), [[3]])  # 3 - 1 = 2: still stuck
    assert s.mired and s.failures == 2
    freed = drive(vm.mire_test(s, push=vm.push_bonus(8, 4)), [[3]])  # 3 - 2 + 2 = 3: out, MOV halved this turn
    assert not freed.mired and freed.halved_this_turn
    for _ in range(4):
        s = drive(vm.mire_test(s), [[1]])
    assert s.stuck_for_good and s.failures == 6
    assert drive(vm.mire_test(s), []) == s
    assert vm.push_bonus(3, 8) == 0 and vm.push_bonus(4, 8) == 1
    assert vm.p_mire_pass(0) == Fraction(6, 8) and vm.p_mire_pass(2, push=1) == Fraction(5, 8)


def test_formations() -> None:
    f = opt.Formation((("a", "b", "c", "d"), ("e", "f", "g", "h"), ("i", "j", "k", "l")))
    assert f.fighters({"e": MELEE["spear"], "f": MELEE["light weapon"]}) == ("a", "b", "c", "d", "e")
    assert f.direct_fire_casualties() == ("a", "b", "c", "d", "e", "f", "g", "h")
    assert f.direct_fire_casualties(facing_shooter=2) == ("e", "f", "g", "h", "i", "j", "k", "l")
    assert len(f.shooters(indirect=False)) == 8 and len(f.shooters(indirect=True)) == 12
    with pytest.raises(IllegalCommand, match="4 troopers wide"):
        opt.Formation((("a", "b", "c"),)).check()
    opt.Formation((("a", "b", "c"),), mounted=True).check()


@pytest.mark.parametrize(("arrows", "dist"), [
    (3, {0: Fraction(6, 8), 1: Fraction(2, 8)}),
    (8, {0: Fraction(5, 8), 1: Fraction(2, 8), 2: Fraction(1, 8)}),
    (12, {0: Fraction(4, 8), 1: Fraction(3, 8), 2: Fraction(1, 8)}),
    (20, {0: Fraction(3, 8), 1: Fraction(3, 8), 2: Fraction(1, 8), 3: Fraction(1, 8)}),
])
def test_hail_of_arrows_table(arrows: int, dist: dict[int, Fraction]) -> None:
    assert opt.p_hits(arrows) == dist


def test_hail_of_arrows_resolution_pr67() -> None:
    assert drive(opt.hail_deviation(2.6), [[7], [3]]) == (3, 2)  # 1d4 = 4 - 2
    assert drive(opt.hail_deviation(3), [[1], [5]]) == (5, 0)
    assert drive(opt.hail_hits(3, 20), [[8], [4], [1]]) == (3, 1, 0)
    assert drive(opt.hail_hits(3, 4), [[8], [7], [2]]) == (1, 1, 0)  # 1-5 arrows: 7-8 one hit
    assert drive(opt.hail_hits(2, 1), [[8]]) == (1, 0)  # the single arrow is spent
    roll = opt.hail_damage(RANGED["longbow"], GRUNT, "full_soft")
    assert roll.attacker.pool == 1 and [t.dice for t in roll.defender.terms] == [2, 1]
    with pytest.raises(IllegalCommand):
        opt.hail_damage(RANGED["Laser Gun"], GRUNT)
    with pytest.raises(IllegalCommand):
        opt.check_hail_range(8)
    opt.check_hail_range(30)
