"""Ranged and melee attacks: the worked examples of section 20 with scripted dice, every
modifier, and odds equal to resolution (exhaustive enumeration of resolve's dice)."""

from fractions import Fraction

import pytest

from campaign.engine.errors import IllegalCommand
from campaign.rulesets.figwars3.attack import drive, exact_odds, resolve
from campaign.rulesets.figwars3.melee import melee_attack
from campaign.rulesets.figwars3.ranged import ranged_attack
from campaign.rulesets.figwars3.weapons import RANGED
from tests.figwars3.helpers import odds_summary, summary_from_enumeration, trooper

ODST = trooper("ODST", 2, 4, armour="full combat armor", ranged=("Assault Rifle", "Rocket Launcher"))
GRUNT = trooper("Grunt", 1, 2)
GUARDSMAN = trooper("Guardsman", 1, 2, armour="flak armor", melee=("fixed bayonet",))
XENO = trooper("Xenomorph Bug", 2, 4, dp=2, natural="full carapace", attributes=("Climbing", "Leap"),
               melee=("fangs & claws: medium",))


def test_example_1_aimed_shot_criticals_and_ladder() -> None:
    rifle = ODST.ranged_weapon("Assault Rifle")
    assert rifle.band(10) == "short"
    shot = ranged_attack(ODST, rifle, GRUNT, {"range_band": "short", "aim": True})
    assert shot.attacker.pool == 5 and shot.defender.pool == 2
    out = drive(resolve(shot), [[6, 5, 3, 2, 6], [4, 1]])
    assert (out.attacker_successes, out.defender_successes) == (6, 1)
    assert out.winner == "attacker" and out.judgement.margin == 5
    assert out.judgement.pinned and out.dp == 2  # Grunt DP 1 - 2 = -1: removed


def test_example_2_second_attacker_and_counter_with_minus_one() -> None:
    strike = melee_attack(GUARDSMAN, XENO, {"prior_attackers": 1})
    assert strike.attacker.pool == 4 and strike.defender.pool == 6
    out = drive(resolve(strike), [[2, 3, 1, 1], [5, 6, 1, 3, 2, 4]])
    assert (out.attacker_successes, out.defender_successes) == (1, 5)
    assert out.winner == "defender" and out.judgement.margin == 3
    assert out.judgement.package.label() == "pin+1 DP" and out.dp == 1


def test_example_3_rocket_blast_initial_target_and_victim() -> None:
    rocket = ODST.ranged_weapon("Rocket Launcher")
    assert rocket.band(30) == "long"
    shot = ranged_attack(ODST, rocket, GRUNT, {"range_band": "long"})
    assert shot.attacker.pool == 5
    first = drive(resolve(shot), [[1, 3, 2, 1, 2], [5, 1]])
    assert first.attacker_successes == 1  # >= 1: lands on Grunt A, no deviation
    assert first.winner == "" and first.dp == 0  # 1 vs 1: tie, no damage
    victim = ranged_attack(ODST, rocket, GRUNT, {"range_band": "long", "role": "blast_victim"})
    assert victim.attacker.pool == 1  # blast ATK only, no TQ
    second = drive(resolve(victim), [[6], [2, 2]])
    assert second.judgement.margin == 2 and second.dp == 1 and not second.judgement.pinned


def test_ranged_modifiers_cover_and_point_blank() -> None:
    rifle = RANGED["rifle"]
    shooter = trooper("Rifleman", 1, 1, ranged=("rifle",))
    with pytest.raises(IllegalCommand, match="2.2"):
        ranged_attack(shooter, rifle, GRUNT, {"range_band": "extreme"})  # 1 + 1 - 2 = 0 dice
    near = ranged_attack(shooter, rifle, GRUNT, {"range_band": "point_blank", "cover": "full_hard"})
    assert near.attacker.pool == 3 and near.defender.pool == 2  # cover never at point blank
    covered = ranged_attack(shooter, rifle, GRUNT, {"range_band": "long", "cover": "full_hard", "aim": True})
    assert covered.attacker.pool == 2 and covered.defender.pool == 5
    with pytest.raises(IllegalCommand, match="obscuring hard"):
        ranged_attack(shooter, rifle, GRUNT, {"cover": "obscuring_hard"})
    blind = ranged_attack(shooter, rifle, GRUNT, {"shooter_cover": "full_soft", "aim": True, "range_band": "point_blank"})
    assert [t.label for t in blind.attacker.terms] == ["TQ", "ATK", "point blank", "Aim", "shooting blind"]
    with pytest.raises(IllegalCommand, match="hard cover"):
        ranged_attack(shooter, rifle, GRUNT, {"shooter_cover": "full_hard"})


def test_shooting_in_melee_by_weapon_class() -> None:
    shooter = trooper("Trooper", 2, 2, ranged=("pistol", "rifle", "light machine gun"))
    pools = [ranged_attack(shooter, RANGED[w], GRUNT, {"in_melee": True}).attacker.pool
             for w in ("pistol", "rifle", "light machine gun")]
    assert pools == [2 + 1 + 1, 2 + 1 + 0, 2 + 3 - 1]


def test_stealth_target_and_marksman_hero_shooter() -> None:
    hunter = trooper("Hunter", 3, 4, dp=2, attributes=("Stealth", "Targeter", "Climbing", "Scanner"))
    hero = trooper("Captain", 2, 3, attributes=("Hero", "Marksman"), ranged=("Assault Rifle",))
    shot = ranged_attack(hero, RANGED["Assault Rifle"], hunter)
    assert shot.stealth and shot.defender.pool == 4 + 1
    assert [r.source for r in shot.attacker.rerolls] == ["hero", "Marksman"]
    # scripted: attack [1, 3], hero re-rolls the 1 -> 6, Marksman the 3 -> 2 (kept 3), stealth the 6 -> 1
    out = drive(resolve(shot), [[1, 3, 4, 5], [1, 1, 1, 1, 1], [6], [2], [1]])
    assert out.attacker_faces == (1, 3, 4, 5)
    assert out.attacker_successes == 3 and out.winner == "attacker"
    in_melee = ranged_attack(hero, RANGED["Assault Rifle"], hunter, {"in_melee": True})
    assert not in_melee.stealth and in_melee.defender.pool == 4  # stealth does not help in melee


def test_sniper_option_and_targeter_exclusions() -> None:
    sniper = trooper("Sniper", 2, 2, attributes=("Trained Sniper", "Targeter"), ranged=("Sniper Rifle",))
    dice = ranged_attack(sniper, RANGED["Sniper Rifle"], GRUNT, {"sniper_option": "dice"})
    assert [t.label for t in dice.attacker.terms] == ["TQ", "ATK", "sniper"]  # no targeter on Sn
    reroll = ranged_attack(sniper, RANGED["Sniper Rifle"], GRUNT, {"sniper_option": "reroll"})
    assert [r.source for r in reroll.attacker.rerolls] == ["sniper"]
    untrained = trooper("Rookie", 1, 1, ranged=("Sniper Rifle",))
    assert ranged_attack(untrained, RANGED["Sniper Rifle"], GRUNT).attacker.pool == 3


def test_scatter_bonus_only_at_point_blank() -> None:
    gun = RANGED["combat shotgun"]
    shooter = trooper("Shotgunner", 1, 1, ranged=("combat shotgun",))
    assert ranged_attack(shooter, gun, GRUNT, {"range_band": "point_blank"}).attacker.pool == 1 + 2 + 1 + 1
    assert ranged_attack(shooter, gun, GRUNT, {"range_band": "short"}).attacker.pool == 3


def test_unknown_facts_are_refused_plainly() -> None:
    with pytest.raises(IllegalCommand, match="unknown fact"):
        ranged_attack(ODST, RANGED["Assault Rifle"], GRUNT, {"rnage": "short"})
    with pytest.raises(IllegalCommand, match="must be one of"):
        ranged_attack(ODST, RANGED["Assault Rifle"], GRUNT, {"cover": "lots"})
    with pytest.raises(IllegalCommand, match="must be one of"):
        melee_attack(GUARDSMAN, XENO, {"charged": "yes"})


def test_melee_modifiers() -> None:
    spear = trooper("Spearman", 1, 1, melee=("spear",))
    charge = melee_attack(spear, GUARDSMAN, {"charged": True, "attacker_focus": True, "prior_attackers": 2})
    assert [t.label for t in charge.attacker.terms] == ["DEF", "ATK", "Focus", "multiple attackers", "polearm charge"]
    assert charge.attacker.pool == 1 + 2 + 1 + 2 + 1
    # the bayonet (a short polearm) receiving a charge gets +1d unless already engaged
    assert charge.defender.pool == 2 + 1 + 1
    engaged = melee_attack(spear, GUARDSMAN, {"charged": True, "defender_engaged": True})
    assert engaged.defender.pool == 3
    stunned = melee_attack(GUARDSMAN, spear, {"defender_state": "stunned"})
    assert stunned.defender.pool == 1 and not stunned.counter
    pinned = melee_attack(GUARDSMAN, spear, {"defender_state": "pinned"})
    assert pinned.defender.pool == 3 and not pinned.counter
    reach = melee_attack(spear, GUARDSMAN, {"reach": "1in"})
    assert not reach.counter  # PR-42: the bayonet is shorter than the spear
    with pytest.raises(IllegalCommand, match="10.1"):
        melee_attack(GUARDSMAN, spear, {"reach": "1in"})
    unarmed = trooper("Civilian", 0, 0)
    assert melee_attack(unarmed, GRUNT).attacker.pool == 0  # must Focus first (10.3)


def test_paired_weapons_and_pistol_in_melee() -> None:
    duelist = trooper("Duelist", 2, 2, melee=("Power Weapon", "Chain Sword"), ranged=("pistol",))
    pair = melee_attack(duelist, GRUNT, attacker_weapons=("Power Weapon", "Chain Sword"))
    assert pair.attacker.pool == 2 + 6  # 4 + ceil(3 / 2) = 6 (appendix)
    assert [r.source for r in pair.attacker.rerolls] == ["paired weapons"]
    with_pistol = melee_attack(duelist, GRUNT, attacker_weapons=("Chain Sword", "pistol"))
    assert with_pistol.attacker.pool == 2 + 3 + 1


def test_strong_and_mighty_blow_riders() -> None:
    marine = trooper("Imperial Marine", 2, 5, dp=2, attributes=("Strong", "Mighty Blow"), melee=("Chain Sword",))
    strike = melee_attack(marine, GRUNT)
    assert strike.attacker.pool == 8
    out = drive(resolve(strike), [[6] * 8, [1, 1], [5]])
    assert out.judgement.package.dp == 8 and out.dp == 8 + 1 + 3  # d8 5 -> d4 3
    miss = drive(resolve(strike), [[1] * 8, [1, 1]])
    assert miss.dp == 0  # riders only on a roll that inflicts DP


def test_aggressive_ignores_pins() -> None:
    berserk = trooper("Berserker", 1, 1, attributes=("Aggressive",))
    shot = ranged_attack(ODST, RANGED["Assault Rifle"], berserk)
    out = drive(resolve(shot), [[6, 6, 1, 1], [1]])
    assert out.judgement.margin == 4 and out.dp == 2
    out = drive(resolve(shot), [[6, 3, 1, 1], [1]])
    assert out.judgement.margin == 3 and not out.judgement.pinned and out.dp == 1


def test_shield_reroll_used_when_behind_and_forfeits_effects() -> None:
    shielded = trooper("Hoplite", 1, 2, shield="normal shield", melee=("spear",))
    strike = melee_attack(GUARDSMAN, shielded)
    # attacker [3,3,1] = 2 successes; defender [1,1,1,3,1] = 1 -> behind: shield re-roll 1 -> 6
    out = drive(resolve(strike), [[3, 3, 1], [1, 1, 3, 1], [6]])
    assert out.defender_successes == 3 and out.winner == "defender"
    assert out.judgement.shielded and out.dp == 0 and not out.judgement.pinned


ODDS_CASES = [
    ("aimed rifle", lambda: ranged_attack(ODST, RANGED["Assault Rifle"], GRUNT, {"aim": True})),
    ("stealth hero", lambda: ranged_attack(
        trooper("Captain", 1, 2, attributes=("Hero", "Marksman")), RANGED["pistol"],
        trooper("Hunter", 1, 1, attributes=("Stealth",)), {"range_band": "long", "aim": True})),
    ("counter", lambda: melee_attack(GUARDSMAN, XENO, {"prior_attackers": 1})),
    ("shield", lambda: melee_attack(trooper("Hero", 1, 1, attributes=("Hero",)),
                                    trooper("Hoplite", 1, 1, shield="normal shield", melee=("light weapon",)))),
    ("mighty", lambda: melee_attack(trooper("Ogre", 1, 2, attributes=("Strong", "Mighty Blow", "Master Warrior")),
                                    trooper("Grunt", 1, 2, attributes=("Aggressive",)))),
]


@pytest.mark.parametrize("name, build", ODDS_CASES, ids=[c[0] for c in ODDS_CASES])
def test_odds_equal_resolution_exactly(name: str, build) -> None:  # type: ignore[no-untyped-def]
    opposed = build()
    assert odds_summary(opposed) == summary_from_enumeration(opposed)
    assert sum(exact_odds(opposed).margins.values()) == 1
    assert sum(exact_odds(opposed).dp.values()) == 1


def test_example_odds_values() -> None:
    odds = exact_odds(ranged_attack(ODST, RANGED["Assault Rifle"], GRUNT))
    assert Fraction(0) < odds.p_pinned < odds.p_success < 1
    assert odds.expected_counter_dp == 0  # a shot is never countered
