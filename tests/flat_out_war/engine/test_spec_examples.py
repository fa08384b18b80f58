"""The worked examples of the rules spec that concern play, one test each."""

from fractions import Fraction

from campaign.rulesets.flat_out_war.engine.casting import summon_die
from campaign.rulesets.flat_out_war.engine.declare import NoAttack, weapon_problem
from campaign.rulesets.flat_out_war.engine.morale import threshold
from campaign.rulesets.flat_out_war.engine.movement import inches_in_terrain
from campaign.rulesets.flat_out_war.engine.recovery import recovery_plan, resolve_recovery
from campaign.rulesets.flat_out_war.engine.attack import Hit
from campaign.rulesets.flat_out_war.engine.rolls import p_success, succeeds
from campaign.rulesets.flat_out_war.engine.situation import Situation
from campaign.rulesets.flat_out_war.engine.victory import unit_vp
from campaign.rulesets.flat_out_war.editions import SO

from .helpers import arm, fighter


def test_s2_d4_with_a_penalty_never_succeeds_and_d20_minus_two_needs_six() -> None:
    assert p_success(4, -1) == 0
    assert [f for f in range(1, 21) if succeeds(f, -2)][0] == 6


def test_s6_2_terrain_worked_examples() -> None:
    assert inches_in_terrain(Fraction(4), "light") == 2  # 1 point of allowance left over
    assert inches_in_terrain(Fraction(10), "heavy") == 3


def test_s11_range_bands_r12() -> None:
    rifle = arm("rifle", "ranged", 6, 12)
    assert weapon_problem(rifle, Situation(range_band="long")) is None
    assert weapon_problem(rifle, Situation(range_band="out")) == 'target is out of range (long range is 24")'


def test_s14_summon_table() -> None:
    assert [summon_die(t) for t in (6, 8, 10, 12, 14)] == [6, 8, 10, 12, 20]


def test_s15_quarters_of_a_ten_element_unit() -> None:
    assert [threshold(k, 10) for k in (1, 2, 3, 4)] == [3, 5, 8, 10]


def test_s18_a_200_point_unit_is_worth_50_vp() -> None:
    assert unit_vp(200) == 50


def test_s20_resilient_d8_d6_d4() -> None:
    dice = []
    golem = fighter(die=8, attrs=("Resilient",))
    for _ in range(3):
        r = resolve_recovery(golem, recovery_plan(golem, Hit(6), SO), [1])
        dice.append(r.new_die)
        if r.new_die:
            golem = fighter(die=r.new_die, attrs=("Resilient",))
    assert dice == [6, 4, None]  # a d4 that fails is removed


def test_no_attack_is_a_plain_error() -> None:
    assert issubclass(NoAttack, ValueError)
