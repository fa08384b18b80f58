import attrs

from campaign.rulesets.flat_out_war.editions import SO, V17
from campaign.rulesets.flat_out_war.engine.modifiers import melee_modifiers, ranged_modifiers, spell_modifiers
from campaign.rulesets.flat_out_war.engine.rolls import total_of
from campaign.rulesets.flat_out_war.engine.situation import Situation

from .helpers import arm, fighter

GUN = arm("rifle", "ranged", 6, 12)


def melee(att, tgt, **facts):
    return total_of(melee_modifiers(att, tgt, Situation(**facts), V17))


def test_melee_aspect_flank_plus_one_rear_plus_two() -> None:
    a, t = fighter(), fighter()
    assert melee(a, t) == 0
    assert melee(a, t, aspect="flank") == 1
    assert melee(a, t, aspect="rear") == 2


def test_melee_aggressive_charge_deny_charge_prone_ran() -> None:
    a = fighter(attrs=("Aggressive", "Charge"))
    assert melee(a, fighter()) == 1  # Aggressive only: not charging
    assert melee(a, fighter(), charging=True) == 2
    assert melee(a, fighter(attrs=("Deny Charge",)), charging=True) == 1
    assert melee(fighter(), fighter(), target_prone=True) == 1
    assert melee(fighter(), fighter(), ran=True) == -1


def test_spell_effects_on_attack_rolls() -> None:
    a, t = fighter(), fighter()
    assert melee(a, t, attacker_effects=frozenset({"Strengthen"})) == 2
    assert melee(a, t, attacker_effects=frozenset({"Weaken"})) == -2
    assert melee(a, t, target_effects=frozenset({"Shield"})) == -2
    # different effects add up
    assert melee(a, t, attacker_effects=frozenset({"Strengthen", "Weaken"}), target_effects=frozenset({"Shield"})) == -2


def ranged(att, tgt, edition=V17, weapon=GUN, **facts):
    return total_of(ranged_modifiers(att, weapon, tgt, Situation(**facts), edition))


def test_ranged_band_los_aspect_prone_ran() -> None:
    a, t = fighter(weapons=(GUN,)), fighter()
    assert ranged(a, t) == 0
    assert ranged(a, t, range_band="long") == -1
    assert ranged(a, t, los="partial") == -1
    assert ranged(a, t, aspect="rear", target_prone=True) == 1
    assert ranged(a, t, ran=True, range_band="long", los="partial") == -3


def test_sharpshooter_only_if_not_moved_and_17_heavy_ranged_exclusion() -> None:
    sharp = fighter(attrs=("Sharpshooter",), weapons=(GUN,))
    assert ranged(sharp, fighter()) == 1
    assert ranged(sharp, fighter(), moved=True) == 0
    heavy = fighter(attrs=("Sharpshooter", "Heavy Ranged Weapon"), weapons=(GUN,))
    assert ranged(heavy, fighter(), edition=V17) == 0
    assert ranged(heavy, fighter(), edition=SO) == 1


def test_anti_flyer_is_special_ops_only() -> None:
    a = fighter(attrs=("Anti-flyer",), weapons=(GUN,))
    flyer = fighter(airborne=True)
    assert ranged(a, flyer, edition=SO) == 1
    assert ranged(a, fighter(), edition=SO, target_flying=True) == 1
    assert ranged(a, fighter(), edition=SO) == 0
    assert ranged(a, flyer, edition=V17) == 0


def test_arcing_artillery_ignores_partial_los() -> None:
    mortar = arm("mortar", "ranged", 10, 24, traits=("Arcing Artillery",))
    assert ranged(fighter(weapons=(mortar,)), fighter(), weapon=mortar, los="partial") == 0


def test_spell_difficulty_is_a_penalty_and_fireball_uses_short_range() -> None:
    c = fighter(attrs=("Magic",))
    assert total_of(spell_modifiers(c, 3, Situation(), V17)) == -3
    assert total_of(spell_modifiers(c, -3, Situation(), V17)) == -3
    assert total_of(spell_modifiers(c, 0, Situation(ran=True), V17)) == -1
    sit = Situation(range_band="long", los="partial", ran=True, aspect="flank")
    # Fireball: -2, partial -1, ran -1, flank +1; long range ignored
    assert total_of(spell_modifiers(c, 2, sit, V17, target=fighter(), ranged_attack=True)) == -3
    assert total_of(spell_modifiers(c, 2, attrs.evolve(sit, los="open"), V17, target=fighter(), ranged_attack=True)) == -2
