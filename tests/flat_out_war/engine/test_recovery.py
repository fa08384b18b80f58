from campaign.rulesets.flat_out_war.editions import SO, V17
from campaign.rulesets.flat_out_war.engine.attack import Hit, heavy_armour_blocks, melee_die
from campaign.rulesets.flat_out_war.engine.recovery import (
    recovery_plan,
    resolve_crash,
    resolve_misfire,
    resolve_recovery,
)

from .helpers import arm, fighter

HIT6 = Hit(attack_die=6)


def outcome(tgt, faces, hit=HIT6, edition=SO):
    return resolve_recovery(tgt, recovery_plan(tgt, hit, edition), faces)


def test_single_weapon_rolls_base_die_four_plus_survives() -> None:
    t = fighter(die=8)
    plan = recovery_plan(t, HIT6, V17)
    assert plan.dice == (8,) and plan.modifier == 0
    assert outcome(t, [4]).outcome == "survived"
    assert outcome(t, [3]).outcome == "removed"


def test_no_weapon_rolls_base_die() -> None:
    t = fighter(die=10, weapons=())
    assert recovery_plan(t, HIT6, SO).dice == (10,)


def test_tough_unfeeling_frail_penetrator_zap() -> None:
    assert recovery_plan(fighter(attrs=("Tough",)), HIT6, V17).modifier == 1
    assert recovery_plan(fighter(attrs=("Tough", "Unfeeling")), HIT6, V17).modifier == 2
    assert recovery_plan(fighter(attrs=("Frail",)), HIT6, V17).modifier == -1
    assert recovery_plan(fighter(), Hit(6, penetrator=True), V17).modifier == -1
    assert recovery_plan(fighter(), Hit(6, penetrator=True), SO).modifier == 0  # Penetrator is v1.7 only
    assert recovery_plan(fighter(), Hit(6, zap=True), SO).modifier == -2
    assert outcome(fighter(attrs=("Tough",)), [3]).outcome == "survived"
    assert outcome(fighter(attrs=("Frail",)), [4]).outcome == "removed"


def test_adaptive_armor_steps_up_against_smaller_attacking_die() -> None:
    t = fighter(die=8, attrs=("Adaptive Armor",))
    assert recovery_plan(t, Hit(6), SO).dice == (10,)
    assert recovery_plan(t, Hit(8), SO).dice == (8,)
    assert recovery_plan(t, Hit(6), V17).dice == (8,)  # SO attribute
    big = fighter(die=20, attrs=("Adaptive Armor",))
    assert recovery_plan(big, Hit(6), SO).dice == (20,)  # a d20 stays a d20


def test_multi_weapon_rolls_each_weapon_and_loses_failed_ones() -> None:
    tank = fighter(die=12, weapons=(arm("cannon", "ranged", 12, 24), arm("mg", "ranged", 8, 12, mount="extra", index=1)))
    plan = recovery_plan(tank, HIT6, V17)
    assert plan.dice == (12, 8) and plan.weapons == (0, 1) and plan.labels == ("cannon", "mg")
    r = resolve_recovery(tank, plan, [5, 2])
    assert r.outcome == "weapons_lost" and r.lost_weapons == (1,)
    assert resolve_recovery(tank, plan, [2, 3]).outcome == "removed"
    assert resolve_recovery(tank, plan, [4, 4]).outcome == "survived"


def test_melee_plus_one_ranged_trooper_is_single_weapon() -> None:
    t = fighter(die=6, weapons=(arm("knife", die=4), arm("rifle", "ranged", 8, 12)))
    assert recovery_plan(t, HIT6, V17).dice == (6,)


def test_replacement_order_hit_points_then_resilient_then_reliant() -> None:
    t = fighter(die=8, attrs=("Hit Points", "Resilient", "Reliant"), hit_points=1)
    r = outcome(t, [1])
    assert r.outcome == "hit_point_lost" and r.hit_points_left == 0
    t2 = fighter(die=8, attrs=("Resilient", "Reliant"))
    r2 = outcome(t2, [2])
    assert r2.outcome == "die_stepped" and r2.new_die == 6
    assert outcome(fighter(die=4, attrs=("Resilient", "Reliant")), [1]).outcome == "down"
    assert outcome(fighter(die=4, attrs=("Resilient",)), [1]).outcome == "removed"
    assert outcome(fighter(die=6, attrs=("Reliant",)), [3]).outcome == "down"


def test_resilient_steps_base_die_not_weapon_dice() -> None:
    t = fighter(die=8, attrs=("Resilient",), weapons=(arm("claw", die=10),))
    assert outcome(t, [3]).new_die == 6


def test_flying_crash_on_natural_one_only() -> None:
    flyer = fighter(die=6, attrs=("Flying", "Tough", "Tough"), airborne=True)
    plan = recovery_plan(flyer, HIT6, SO)
    r = resolve_recovery(flyer, plan, [1])  # 1 + 1 = 2 would fail anyway; natural 1 crashes
    assert r.outcome == "crash"
    assert resolve_crash(plan, [1], 3).outcome == "landed"  # 3 + 1 (Tough) = 4
    assert resolve_crash(plan, [1], 2).outcome == "removed"
    assert resolve_recovery(flyer, plan, [2]).outcome == "removed"  # 2-3 remove normally
    grounded = fighter(die=6, attrs=("Flying",))
    assert outcome(grounded, [1]).outcome == "removed"


def test_hit_points_do_not_save_a_crash() -> None:
    flyer = fighter(die=8, attrs=("Flying", "Hit Points"), airborne=True, hit_points=2)
    plan = recovery_plan(flyer, HIT6, SO)
    assert resolve_recovery(flyer, plan, [1]).outcome == "crash"
    assert resolve_recovery(flyer, plan, [2]).outcome == "hit_point_lost"


def test_misfire_table_with_recovery_modifiers() -> None:
    c = fighter(die=6)
    assert resolve_misfire(c, 4, SO).lockout == 0 and not resolve_misfire(c, 4, SO).killed
    assert resolve_misfire(c, 3, SO).lockout == 1
    assert resolve_misfire(c, 2, SO).lockout == 2
    assert resolve_misfire(c, 1, SO).killed
    tough = fighter(die=6, attrs=("Tough",))
    assert resolve_misfire(tough, 1, SO).lockout == 2
    frail = fighter(die=6, attrs=("Frail",))
    assert resolve_misfire(frail, 2, SO).killed


def test_melee_die_per_edition() -> None:
    sword_d8 = fighter(die=6, weapons=(arm("sword", die=8),))
    assert melee_die(sword_d8, V17) == 6
    assert melee_die(sword_d8, SO) == 8
    gunner = fighter(die=6, weapons=(arm("rifle", "ranged", 10, 12),))
    assert melee_die(gunner, SO) == 6
    assert melee_die(fighter(weapons=()), SO) is None


def test_heavy_armour_gate() -> None:
    tank = fighter(die=12, attrs=("Heavy Armour",))
    d8 = fighter(die=8)
    assert heavy_armour_blocks(d8, "melee", 8, tank, V17)
    assert not heavy_armour_blocks(fighter(die=8, attrs=("Heavy Melee Weapon",)), "melee", 8, tank, V17)
    assert heavy_armour_blocks(fighter(die=8, attrs=("Heavy Melee Weapon",)), "ranged", 8, tank, V17)
    assert not heavy_armour_blocks(fighter(die=10), "melee", 10, tank, V17)
    # [1.7] the base die counts; [SO] the die actually rolled
    gunner = fighter(die=6, weapons=(arm("lascannon", "ranged", 12, 24),))
    assert heavy_armour_blocks(gunner, "ranged", 12, tank, V17)
    assert not heavy_armour_blocks(gunner, "ranged", 12, tank, SO)
    assert not heavy_armour_blocks(d8, "melee", 8, fighter(die=12), SO)
    hrw = arm("lascannon", "ranged", 8, 24, traits=("Heavy Ranged Weapon",))
    assert not heavy_armour_blocks(fighter(die=6, weapons=(hrw,)), "ranged", 8, tank, SO, weapon=hrw)
    assert heavy_armour_blocks(fighter(die=8), "spell", 8, tank, SO)
