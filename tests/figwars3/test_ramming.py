"""Vehicles and mecha in melee (10.10-10.12) and every ram case (10.11, PR-46, PR-47)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from campaign.force import Element, Weapon
from campaign.rulesets.figwars3 import ramming as rm
from campaign.rulesets.figwars3.attack import drive, exact_odds, resolve
from campaign.rulesets.figwars3.vehicles import machine_of
from tests.figwars3.helpers import enumerate_results, trooper
from tests.figwars3.test_vehicles import HEDGEHOG

HEDGE = machine_of(Element("Hedgehog", kind="vehicle", stats=HEDGEHOG))
TANK = machine_of(Element("Tank", kind="vehicle", stats={"siz": 10, "tq": 2, "locomotion": "tracked", "armour": "heavy battle armor", "role": "battle vehicle"}))
MECH = machine_of(Element("Mech", kind="vehicle", stats={"build": "stocky", "siz": 5, "tq": 2, "armour": "light battle armor"}))
HERO_MECH = machine_of(Element("Ace", kind="vehicle", stats={"build": "normal", "siz": 4, "tq": 3, "armour": "none"}, attributes=("Hero",)))
GRUNT = trooper("Grunt", 1, 2)
MARINE = trooper("Marine", 2, 5, 2, melee=("Power Weapon",), attributes=("Strong",))


def test_troops_strike_a_vehicle_def_only_no_counter() -> None:
    opposed = rm.strike_machine(MARINE, HEDGE)
    assert opposed.attacker.pool == 9 and [t.label for t in opposed.defender.terms] == ["DEF"] and opposed.defender.pool == 5
    assert not opposed.counter
    out = drive(resolve(opposed), [[1, 1, 1, 1, 1, 1, 1, 1, 1], [6, 6, 6, 6, 6]])
    assert out.winner == "defender" and out.dp == 0  # it only negates
    assert exact_odds(opposed).expected_counter_dp == 0


def test_mecha_attacked_by_troops_rolls_pilot_tq_and_def() -> None:
    opposed = rm.strike_machine(MARINE, MECH)
    assert opposed.defender.pool == 2 + 5 and not opposed.counter


def test_mecha_strikes_with_pilot_tq_and_both_mecha_may_win() -> None:
    opposed = rm.mecha_strikes_trooper(MECH, GRUNT)
    assert [(t.label, t.dice) for t in opposed.attacker.terms] == [("pilot TQ", 2), ("DEF", 5), ("ATK", 3)]
    assert opposed.counter and opposed.defender.pool == 2  # the grunt's DEF + unarmed ATK 0
    duel = rm.strike_machine(HERO_MECH.profile(), MECH, mecha_attacker=HERO_MECH)
    assert duel.counter and duel.attacker.pool == 3 + 1 + 2 and duel.defender.pool == 2 + 5 + 3
    out = drive(resolve(duel), [[1] * 6, [6] * 10, [1]])  # the hero re-rolls a 1 into a 1; the defender wins big
    assert out.winner == "defender" and out.dp > 0


def test_vehicle_against_vehicle() -> None:
    r = rm.ram(HEDGE, TANK, moved=6)
    assert (r.rammer.dice, r.rammer.fixed, r.target.dice, r.target.fixed) == (6, 7, 11, 7)
    # 6 dice -> 4 + RAM 7 = 11 against 0 + 7: margin 4 -> 2 DP; the winner takes half, rounded up
    res = drive(rm.resolve_ram(r), [[6, 6, 1, 1, 1, 1], [1] * 11])
    assert (res.winner, res.target_dp, res.rammer_dp) == ("rammer", 2, 1)
    res = drive(rm.resolve_ram(r), [[1] * 6, [6, 3] + [1] * 9])  # 7 v 10: the rammed tank wins
    assert (res.winner, res.target_dp, res.rammer_dp) == ("target", 1, 1)
    res = drive(rm.resolve_ram(r), [[3] + [1] * 5, [3] + [1] * 10])  # 8 v 8
    assert (res.winner, res.target_dp, res.rammer_dp) == ("tie", 1, 1)
    fast = rm.ram(HEDGE, TANK, moved=12)
    res = drive(rm.resolve_ram(fast), [[6, 6, 6, 6, 1, 1], [1] * 11, [8]])  # 15 v 7: 4 DP + 1d4 4 = 8, self 4
    assert (res.target_dp, res.rammer_dp) == (8, 4)


def test_vehicle_runs_troops_over() -> None:
    r = rm.ram(HEDGE, GRUNT, moved=9)
    assert (r.rammer.dice, r.rammer.fixed, r.target.dice, r.target.extra_die, r.rammer.rerolls) == (1, 7, 2, 8, ())
    res = drive(rm.resolve_ram(r), [[1], [1, 1], [8]])  # 7 v 0 + 8: avoided, displaced
    assert res.winner == "target" and res.displaced and res.target_dp == 0
    res = drive(rm.resolve_ram(r), [[3], [1, 1], [8], [5]])  # 8 v 8: struck, 1d4 = 3
    assert res.winner == "tie" and res.target_dp == 3
    res = drive(rm.resolve_ram(rm.ram(HEDGE, GRUNT, moved=10)), [[3], [1, 1], [2], [1], [8]])
    assert res.target_dp == 1 + 4
    assert drive(rm.driver_check_after_run_over(1), [[2]]) is False


def test_vehicle_rams_a_mecha() -> None:
    r = rm.ram(HEDGE, MECH, moved=0)
    assert (r.target.dice, r.target.extra_die) == (2 + 5, 4)
    res = drive(rm.resolve_ram(r), [[6], [1] * 7, [1]])  # 9 v 1: 4 DP on the mecha, 2 on the vehicle
    assert (res.winner, res.target_dp, res.rammer_dp) == ("rammer", 4, 2)
    res = drive(rm.resolve_ram(r), [[1], [6, 1, 1, 1, 1, 1, 1], [8]])  # 7 v 6: margin 1 -> 0 DP
    assert (res.winner, res.target_dp, res.rammer_dp) == ("rammer", 0, 0)
    res = drive(rm.resolve_ram(r), [[1], [6, 6, 1, 1, 1, 1, 1], [8]])  # 7 v 8: displaced
    assert res.displaced and res.target_dp == 0


def test_only_vehicles_ram() -> None:
    with pytest.raises(Exception, match="cannot ram"):
        rm.ram(MECH, GRUNT, 0)


@pytest.mark.parametrize(
    "r",
    [
        rm.ram(HEDGE, machine_of(Element("Car", kind="vehicle", stats={"siz": 3, "tq": 0})), 12),
        rm.ram(machine_of(Element("Car", kind="vehicle", stats={"siz": 3, "tq": 1})), GRUNT, 10),
        rm.ram(machine_of(Element("Car", kind="vehicle", stats={"siz": 3, "tq": 2})), HERO_MECH, 3),
        rm.ram(machine_of(Element("Car", kind="vehicle", stats={"siz": 3, "tq": 1})), trooper("Hero", 2, 3, attributes=("Hero",)), 0),
    ],
)
def test_ram_odds_equal_every_way_the_ram_can_go(r: rm.Ram) -> None:
    walked = enumerate_results(lambda: rm.resolve_ram(r), lambda res: (res.winner, res.target_dp, res.rammer_dp))
    odds = rm.ram_odds(r)
    for name, dist in (("winner", 0), ("target", 1), ("rammer", 2)):
        got: dict = {}
        for key, p in walked.items():
            got[key[dist]] = got.get(key[dist], Fraction(0)) + p
        want = {"winner": odds.winner, "target": odds.target_dp, "rammer": odds.rammer_dp}[name]
        assert {k: v for k, v in got.items() if v} == want, name
