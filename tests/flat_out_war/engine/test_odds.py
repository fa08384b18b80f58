from fractions import Fraction as F

from campaign.rulesets.flat_out_war.editions import SO, V17
from campaign.rulesets.flat_out_war.engine.attack import Hit
from campaign.rulesets.flat_out_war.engine.declare import UnderTemplate, melee_attacks, ranged_attacks, spell_attack
from campaign.rulesets.flat_out_war.engine.odds import attack_odds, recovery_outcomes
from campaign.rulesets.flat_out_war.engine.situation import Situation

from .helpers import arm, fighter


def test_one_d6_melee_against_d6() -> None:
    odds = attack_odds(melee_attacks([fighter()], [fighter()], Situation(), V17), [fighter()], V17)
    assert odds.p_hit == (F(1, 2),)
    assert odds.p_casualty == (F(1, 4),)  # hit 1/2, then recovery fails 1/2
    assert odds.casualties == {0: F(3, 4), 1: F(1, 4)}
    assert odds.expected_casualties == F(1, 4)


def test_two_attacks_on_two_targets_convolve() -> None:
    att = [fighter("a"), fighter("b")]
    tgt = [fighter("x", 8), fighter("y", 8)]
    odds = attack_odds(melee_attacks(att, tgt, Situation(aspect="rear"), V17), tgt, V17)
    p = F(5, 6) * F(3, 8)  # d6 +2 hits on 2+, a d8 fails recovery on 1-3
    assert odds.p_casualty == (p, p)
    assert odds.casualties == {0: (1 - p) ** 2, 1: 2 * p * (1 - p), 2: p * p}


def test_hit_points_absorb_first_failure() -> None:
    tgt = fighter("ogre", 6, attrs=("Hit Points",), hit_points=1)
    att = [fighter("a"), fighter("b")]
    odds = attack_odds(
        melee_attacks(att, [tgt], Situation(), SO), [tgt], SO
    )
    assert odds.p_casualty == (0, 0)  # each attack alone can only take the Hit Point
    q = F(1, 2) * F(1, 2)  # a hit and a failed recovery
    assert odds.casualties[1] == q * q


def test_heavy_armour_gate_gives_zero() -> None:
    tank = fighter("tank", 12, attrs=("Heavy Armour",))
    odds = attack_odds(melee_attacks([fighter()], [tank], Situation(), V17), [tank], V17)
    assert odds.p_hit == (0,) and odds.casualties == {0: 1}
    assert "A-19" in odds.attacks[0].blocked


def test_multishot_rolls_per_shot_and_long_range() -> None:
    gun = arm("gun", "ranged", 8, 12, traits=("Multi-shot 3x",), shots=3)
    att = fighter(weapons=(gun,))
    odds = attack_odds(ranged_attacks([att], [fighter()], Situation(range_band="long"), SO), [fighter()], SO)
    assert odds.p_hit == (F(4, 8),) * 3  # d8 -1: 5+


def test_flying_crash_outcomes_are_exact() -> None:
    flyer = fighter("bat", 6, airborne=True)
    dist = recovery_outcomes(flyer, Hit(6), SO)
    # faces 4-6 survive (1/2); 2-3 removed (1/3); 1 crash: 1/6 * (1/2 landed, 1/2 removed)
    landed = [s for s in dist if s is not None and not s.airborne]
    assert dist[flyer] == F(1, 2)
    assert dist[None] == F(1, 3) + F(1, 12)
    assert dist[landed[0]] == F(1, 12)


def test_multi_weapon_element_dies_only_when_all_weapons_fail() -> None:
    tank = fighter("tank", 10, weapons=(arm("a", "ranged", 6, 12), arm("b", "ranged", 8, 12, mount="turret", index=1)))
    dist = recovery_outcomes(tank, Hit(6), V17)
    assert dist[None] == F(1, 2) * F(3, 8)
    assert dist[tank] == F(1, 2) * F(5, 8)


def test_zap_spell_odds_exclude_natural_one_and_recovery_minus_two() -> None:
    caster = fighter("mage", 8, attrs=("Magic",))
    tgt = fighter("t", 6)
    odds = attack_odds(spell_attack(caster, "Zap", 0, [tgt], Situation(), SO), [tgt], SO)
    assert odds.p_hit == (F(5, 8),)
    assert odds.p_casualty == (F(5, 8) * F(5, 6),)  # d6 -2 passes on 6 only


def test_fireball_hits_every_covered_element_on_one_roll() -> None:
    caster = fighter("mage", 10, attrs=("Magic",))
    tgts = [fighter("a", 6), fighter("b", 6), fighter("c", 6)]
    odds = attack_odds(spell_attack(caster, "Fireball", -2, tgts, Situation(), SO, covers=2), tgts, SO)
    p = F(5, 10)  # d10 -2: 6+ ; the natural 1 fails anyway
    assert odds.p_hit == (p,)
    assert odds.casualties == {0: 1 - p + p * F(1, 4), 1: p * F(1, 2), 2: p * F(1, 4)}


def test_extra_attacks_go_to_the_next_living_element() -> None:
    """Three shots at two d6 elements: the third goes to the first target, or to the
    second if the first is already gone (the engine's allocation rule)."""
    gun = arm("gun", "ranged", 6, 12, shots=3)
    att = fighter(weapons=(gun,))
    tgts = [fighter("a"), fighter("b")]
    odds = attack_odds(ranged_attacks([att], tgts, Situation(), V17), tgts, V17)
    q = F(1, 4)  # a shot removes a d6 element: hit 1/2, failed recovery 1/2
    # both gone: (a by shot 1 and b by shot 2 or 3) or (a survives shot 1, b by 2, a by 3)
    both = q * (q + (1 - q) * q) + (1 - q) * q * q
    assert odds.casualties[2] == both
    assert sum(odds.casualties.values()) == 1


def test_engine_odds_hook_for_a_declared_command() -> None:
    from campaign.engine.odds import odds

    from .battle_helpers import Weapon, battle, el, force, initiative

    a = force("Red", ("Gunners", (el("Gunner", "d8", count=2, weapons=(Weapon("Rifle", "ranged", "d8", 12),)),)))
    b = force("Blue", ("Elves", (el("Elf", count=2, attributes=("Tough",)),)))
    bt = battle(a, b)
    initiative(bt, "red")
    bt.apply({"type": "activate", "unit": "gunners"})
    result = odds(bt, {"type": "shoot", "unit": "gunners", "target": "elves", "facts": {"aspect": "flank"}})
    assert result.p_hit == (F(6, 8), F(6, 8))  # d8 +1: 3+
    assert result.p_casualty == (F(6, 8) * F(2, 6),) * 2  # Tough d6 fails on 1-2
    assert result.hits == {0: F(1, 16), 1: F(6, 16), 2: F(9, 16)}
    assert "flank +1" in result.notes[0]


def test_burst_template_odds_aim_once_then_each_covered_element() -> None:
    gun = arm("howitzer", "ranged", 12, 24, traits=('Template: 2"',))
    att = fighter("gun", 12, weapons=(gun,))
    tgts = [fighter("a", key="u/a"), fighter("b", key="u/b"), fighter("c", key="u/c")]
    under = [UnderTemplate(tgts[1], "u", False)]  # the players report b under it too
    p = F(9, 12)  # d12: 4+
    odds = attack_odds(ranged_attacks([att], tgts, Situation(), V17, covered=under, target_unit="u"), tgts, V17)
    assert odds.p_hit == (p,)
    q = F(1, 2)  # a d6 fails recovery
    # aimed element hit outright; the second covered element rolled for with the same p
    assert odds.casualties[2] == p * q * (p * q)
    assert odds.casualties[0] == (1 - p) + p * (1 - q) * (1 - p * q)
    auto = attack_odds(ranged_attacks([att], tgts, Situation(), V17, covered=under, target_unit="u",
                                      template_mode="auto_hit"), tgts, V17)
    assert auto.casualties[2] == p * q * q


def test_flame_template_rolls_once_per_covered_element() -> None:
    flamer = arm("flamer", "ranged", 8, 6, traits=("Template: Flame",))
    att = fighter("f", 8, weapons=(flamer,))
    tgts = [fighter("a"), fighter("b"), fighter("c")]
    odds = attack_odds(ranged_attacks([att], tgts, Situation(), V17, covers=3), tgts, V17)
    assert odds.p_hit == (F(5, 8),) * 3
