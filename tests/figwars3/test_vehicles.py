"""Vehicle and mecha design (4.4, 4.5, 17.2, PR-13, PR-14) and damage (13, PR-48, PR-63-66)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from campaign.force import Element, Weapon
from campaign.rulesets.figwars3 import machine_damage as md
from campaign.rulesets.figwars3.attack import drive
from campaign.rulesets.figwars3.profile import ProfileError
from campaign.rulesets.figwars3.vehicle_weapons import VEHICLE_RANGED
from campaign.rulesets.figwars3.vehicles import free_mount_cost, machine_of, ram_rating
from tests.figwars3.helpers import enumerate_results

HEDGEHOG = {
    "siz": 8, "tq": 1, "locomotion": "wheeled", "armour": "light battle armor", "role": "battle vehicle",
    "open_topped": 1, "crew": 1, "mov": 9, "def": 5, "ram": 7, "cap": 4, "dp": 8,
}


def vehicle(stats: dict, weapons: tuple[Weapon, ...] = (), attributes: tuple[str, ...] = ()) -> Element:
    return Element("V", kind="vehicle", stats=stats, weapons=weapons, attributes=attributes)


def test_hedgehog_matches_its_printed_profile() -> None:
    m = machine_of(vehicle(HEDGEHOG, (Weapon("Anti-Aircraft Gun", "ranged", mount="turret"),)))
    assert (m.siz, m.mov, m.defence, m.ram, m.cap, m.dp) == (8, 9, 5, 7, 4, 8)  # 17.6; the turret is free
    assert m.open_topped and m.role == "battle vehicle" and m.findings == ()
    assert m.weapons[0].arc == 360


def test_appendix_troop_carrier_and_ram_terms() -> None:
    m = machine_of(vehicle({"siz": 10, "locomotion": "tracked"}))
    assert (m.dp, m.cap, m.ram) == (7, 10, 7)
    # the MOV term is 2, 3, 3, 4, 6 for 6", 8", 9", 12", 18"
    assert [ram_rating(0, mov) for mov in (6, 8, 9, 12, 18)] == [2, 3, 3, 4, 6]


def test_trades_mounts_and_their_costs() -> None:
    # carrier SIZ 8: 6 DP, 8 CAP; +1 DP for -1 CAP; a sponson (2) paid 1 DP + 1 CAP
    m = machine_of(vehicle({"siz": 8, "trade": 1, "mount_cap": 1}, (Weapon("light autocannon", "ranged", mount="sponson"),)))
    assert (m.dp, m.cap) == (6, 6)
    # battle vehicle: a pair of restricted sponsons is its free mount
    assert free_mount_cost("battle vehicle", ("restricted sponson",) * 2) == 2
    assert free_mount_cost("troop carrier", ("turret",)) == 0
    # a pintle mount is free and needs no allowance
    m = machine_of(vehicle({"siz": 4, "role": "battle vehicle"}, (Weapon("heavy machine gun", "ranged", traits=("pintle",)),)))
    assert (m.dp, m.cap) == (4, 2) and m.weapons[0].mount == "pintle"


def test_design_findings() -> None:
    two_turrets = tuple(Weapon("light autocannon", "ranged", mount="turret") for _ in range(2))
    m = machine_of(vehicle({"siz": 10, "role": "battle vehicle"}, two_turrets))
    texts = " ".join(f.message for f in m.findings)
    assert "2 turrets" in texts
    # PR-13: heavy weapons cost 2 of the DP allowance
    heavy = tuple(Weapon("light autocannon", "ranged") for _ in range(3))
    m = machine_of(vehicle({"siz": 4, "role": "battle vehicle"}, heavy))
    assert any(f.rule == "PR-13" for f in m.findings)
    # CAP above SIZ, printed values that disagree
    m = machine_of(vehicle({"siz": 4, "role": "battle vehicle", "trade": 3, "ram": 9}))
    rules = sorted(f.message for f in m.findings)
    assert any("CAP 5 is more than SIZ 4" in r for r in rules) and any("printed RAM 9" in r for r in rules)


@pytest.mark.parametrize(
    ("stats", "message"),
    [
        ({"siz": 0}, "SIZ must be at least 1"),
        ({"siz": 5, "locomotion": "legs"}, "stats.locomotion 'legs'"),
        ({"siz": 5, "tq": 4}, "crew TQ runs from 0 to 3"),
        ({"siz": 5, "wings": 2}, "unknown vehicle stat 'wings'"),
        ({"siz": 5, "armour_mod": 2}, "armour_mod"),
    ],
)
def test_bad_vehicle_entries_are_named(stats: dict, message: str) -> None:
    with pytest.raises(ProfileError, match=message):
        machine_of(vehicle(stats))


def test_mecha_design_appendix_vector() -> None:
    m = machine_of(vehicle({"build": "stocky", "siz": 5, "tq": 2}))
    assert (m.siz, m.mov, m.dp, m.melee[0].atk) == (5, 6, 6, 3)  # PR-14
    m = machine_of(vehicle({"build": "slender", "siz": 8, "tq": 3, "armour": "medium battle armor", "shield": 1,
                            "second_mode": "hover", "jump_jets": 1}, attributes=("Hero",)))
    assert (m.dp, m.defence, m.second_mov, m.hero_pilot) == (7, 9, 12, True)
    assert m.profile().hero and m.profile().dp == 7 and m.profile().defence == 9  # PR-16: no hero bonuses
    small = machine_of(vehicle({"build": "normal", "siz": 3, "tq": 1}))
    assert any("armoured troops" in f.message for f in small.findings)


def test_vehicle_weapons_of_17_2() -> None:
    cannon = VEHICLE_RANGED["heavy cannon"]
    assert (cannon.short, cannon.long, cannon.extreme, cannon.slow, cannon.heavy) == (50, 100, 200, True, "H2")
    rounds = {r.name: (r.atk, r.blast_atk, r.blast) for r in cannon.ammo}
    assert rounds["armor piercing dart (APD)"] == (9, None, "")
    assert rounds["high explosive (HE)"] == (7, 3, "B")
    ap = VEHICLE_RANGED["heavy autocannon"].ammo[1]
    assert (ap.autofire, ap.atk, ap.blast_atk) == (2, 5, 1)


# --- damage -----------------------------------------------------------------------------

def hedgehog_state(**kw: object) -> md.MachineState:
    base = dict(kind="vehicle", dp=8, max_dp=8, open_topped=True, weapons=("Anti-Aircraft Gun",), occupants=("gunner", "p1", "p2"))
    base.update(kw)
    return md.MachineState(**base)  # type: ignore[arg-type]


def test_each_location_with_scripted_dice() -> None:
    s = hedgehog_state()
    after, rep = drive(md.take_damage(s, 2), [[1], [3]])
    assert rep.result == "weapon hit" and after.weapons == () and after.weapons_out == ("Anti-Aircraft Gun",) and after.dp == 6
    after, rep = drive(md.take_damage(s, 1), [[2], [6]])
    assert after.controls_out and after.out_of_action
    after, rep = drive(md.take_damage(s, 1), [[3]])
    assert after.mov(9) == 4 and after.ram(7) == 4 and rep.result == "movement hit: MOV halved"
    after, rep = drive(md.take_damage(after, 1), [[4]])
    assert after.immobilised and after.mov(9) == 0
    # open-topped: one casualty per DP; die 1-6 another occupant (then which), 7-8 the driver
    after, rep = drive(md.take_damage(s, 2, turn=3), [[5], [8], [2], [1]])
    assert rep.killed == ("driver", "gunner") and not after.driver_alive and after.occupants == ("p1", "p2")
    assert not after.can_move(4)
    after, rep = drive(md.take_damage(s, 1), [[7], [5]])
    assert rep.extra_dp == 3 and after.dp == 4 and after.severe


def test_closed_vehicle_crew_hit_appendix_vector() -> None:
    assert md.casualties_for(3, open_topped=False) == 2
    assert md.casualties_for(3, open_topped=True) == 3


def test_destroyed_vehicle_crew_fates() -> None:
    s = hedgehog_state(dp=2)
    _, rep = drive(md.take_damage(s, 2), [[3]])
    assert rep.result == "destroyed: no further casualties" and rep.killed == ()
    after, rep = drive(md.take_damage(s, 3), [[6], [3], [1], [1], [7]])  # 1d4 = 2: gunner, then the driver
    assert rep.killed == ("gunner", "driver")
    after, rep = drive(md.take_damage(s, 2), [[8]])
    assert set(rep.killed) == {"driver", "gunner", "p1", "p2"} and after.occupants == ()
    # a structural hit can finish it
    after, rep = drive(md.take_damage(hedgehog_state(dp=3), 1), [[8], [8], [1]])
    assert after.destroyed and rep.extra_dp == 4


def test_mecha_cockpit_and_collapse() -> None:
    s = md.MachineState(kind="mecha", dp=6, max_dp=6)
    after, rep = drive(md.take_damage(s, 1), [[5], [7]])
    assert rep.result == "cockpit hit: pilot survives" and not after.pilot_dead
    after, rep = drive(md.take_damage(s, 1, hero_pilot=True), [[6], [2], [8]])  # the hero re-rolls the d8
    assert not after.pilot_dead
    after, rep = drive(md.take_damage(s, 1), [[6], [6], [1]])
    assert after.pilot_dead and after.collapsed and after.out_of_action and rep.killed == ("pilot",)
    after, rep = drive(md.take_damage(attrs_evolve(s, movement_hits=1), 1), [[4], [3]])
    assert after.immobilised and not after.collapsed
    _, rep = drive(md.take_damage(s, 6), [])
    assert rep.result == "destroyed: pilot killed"


def attrs_evolve(state: md.MachineState, **kw: object) -> md.MachineState:
    import attrs

    return attrs.evolve(state, **kw)


def test_pin_only_with_damage_breakdown_and_repair() -> None:
    assert md.hit_pin(0, True) is False and md.hit_pin(1, True) is True
    s = hedgehog_state(dp=4)
    assert drive(md.breakdown(s), [[1]]).broken_down
    assert not drive(md.breakdown(s), [[2]]).broken_down
    assert drive(md.breakdown(hedgehog_state()), []) == hedgehog_state()  # not severe: no roll
    broken = hedgehog_state(weapons=(), weapons_out=("Anti-Aircraft Gun",))
    after, ok = drive(md.repair(broken, 1, "Anti-Aircraft Gun"), [[4]])
    assert not ok and after.repair_bonus == 1
    after, ok = drive(md.repair(after, 1, "Anti-Aircraft Gun"), [[6]])  # 2 + 1 bonus = 3
    assert ok and after.weapons == ("Anti-Aircraft Gun",) and after.repair_bonus == 0


@pytest.mark.parametrize(
    ("state", "dp", "hero"),
    [
        (hedgehog_state(), 1, False),
        (hedgehog_state(), 2, False),
        (hedgehog_state(open_topped=False, movement_hits=1), 3, False),
        (hedgehog_state(dp=3, occupants=("gunner",)), 1, False),
        (hedgehog_state(dp=2, occupants=("gunner",)), 2, False),
        (md.MachineState(kind="mecha", dp=4, max_dp=6), 1, True),
        (md.MachineState(kind="mecha", dp=3, max_dp=6, movement_hits=1), 1, False),
    ],
)
def test_damage_odds_equal_every_way_the_tables_can_go(state: md.MachineState, dp: int, hero: bool) -> None:
    walked = enumerate_results(lambda: md.take_damage(state, dp, hero), lambda r: r[1].result)
    assert walked == md.damage_odds(state, dp, hero)
    assert sum(walked.values()) == 1


def test_mixed_damage_odds_weighs_by_dp() -> None:
    odds = md.mixed_damage_odds(hedgehog_state(), {0: Fraction(1, 2), 1: Fraction(1, 2)})
    assert odds["no damage"] == Fraction(1, 2) and odds["crew hit: 1 casualty"] == Fraction(1, 8)
