"""Weapon letters and riders with scripted dice (A#, sp/SP, two weapons, Storm Hammer,
entangling), and odds against auto dice within 3 sigma for a dozen kinds of attack."""

import math
import random
from fractions import Fraction

import pytest

from campaign.engine.errors import IllegalCommand
from campaign.rulesets.figwars3.attack import OpposedRoll, drive, exact_odds, resolve
from campaign.rulesets.figwars3.melee import melee_attack
from campaign.rulesets.figwars3.firing import BurstShare, pair_problem, pair_roll, share_of, split_burst
from campaign.rulesets.figwars3.ranged import ranged_attack, spray_in_melee
from campaign.rulesets.figwars3.weapons import RANGED
from tests.figwars3.helpers import odds_summary, summary_from_enumeration, trooper

GRUNT = trooper("Grunt", 1, 2)
MARINE = trooper("Marine", 1, 2, armour="light combat armor", ranged=("Assault Rifle", "Magnum Pistol"))


def test_burst_fire_shares_and_gap_cost() -> None:
    # the initial target keeps what the further shares and the gaps leave (PR-56)
    assert split_burst(6, 1, [BurstShare("b", 1, 1), BurstShare("c", 1, 3)]) == 3  # 1" gap free, 3" costs 1 x 1 die
    assert split_burst(8, 2, [BurstShare("b", 2, 4)]) == 2  # 8 - 2 x 2 for the 4" walk - 2 = 2
    assert split_burst(7, 1, [BurstShare("b", 2), BurstShare("c", 2)]) == 3
    with pytest.raises(IllegalCommand, match="at least A2"):
        split_burst(8, 2, [BurstShare("b", 1)])
    with pytest.raises(IllegalCommand, match="leave 0 for the first target"):
        split_burst(5, 1, [BurstShare("b", 4, 2)])
    with pytest.raises(IllegalCommand, match="autofire"):
        split_burst(5, 0, [])


def test_burst_share_rolls_against_its_own_target() -> None:
    shot = ranged_attack(trooper("Hero", 1, 2, attributes=("Hero",)), RANGED["Assault Rifle"], GRUNT)
    first, second = share_of(shot, 3, True), share_of(shot, 1, False)
    assert first.attacker.pool == 3 and first.attacker.rerolls and not second.attacker.rerolls
    out = drive(resolve(second), [[6], [1, 2]])
    assert out.judgement.margin == 2 and out.dp == 1


def test_two_weapons_one_target_and_two_targets() -> None:
    gunman = trooper("Gunman", 2, 2, attributes=("Hero",), ranged=("pistol", "sub machine gun"))
    pistol = ranged_attack(gunman, RANGED["pistol"], GRUNT)
    smg = ranged_attack(gunman, RANGED["sub machine gun"], GRUNT)
    pair = pair_roll(pistol, False, second_atk=RANGED["sub machine gun"].atk)
    assert pair.attacker.pool == pistol.attacker.pool + 2 - 1 and pair.attacker.rerolls == pistol.attacker.rerolls
    assert pair_roll(pistol, True, second_atk=2).attacker.pool == pistol.attacker.pool + 2  # Gunslinger: no -1d
    one, two = pair_roll(pistol, False), pair_roll(smg, False, first=False)
    assert (one.attacker.pool, two.attacker.pool) == (pistol.attacker.pool - 2, smg.attacker.pool - 2)
    assert one.attacker.rerolls and not two.attacker.rerolls  # re-rolls go with the first roll only
    assert pair_roll(smg, True, first=False).attacker.pool == smg.attacker.pool - 1  # Gunslinger -1d
    weak = ranged_attack(trooper("Weak", 0, 2, ranged=("pistol",)), RANGED["pistol"], GRUNT)
    with pytest.raises(IllegalCommand, match="2.2"):
        pair_roll(weak, False)
    assert "heavy or sniper" in pair_problem(RANGED["pistol"], RANGED["light machine gun"])
    assert pair_problem(RANGED["pistol"], RANGED["sub machine gun"]) == ""


def test_spray_in_melee_attacks_twice_tq_once() -> None:
    flamer = trooper("Flamer", 2, 2, ranged=("hand flame unit",))
    first, second = spray_in_melee(flamer, RANGED["hand flame unit"], GRUNT)
    assert first.attacker.pool == 2 + 1 and second.attacker.pool == 1  # a pistol flamer: no melee penalty
    heavy = trooper("Burner", 2, 2, ranged=('"classic" flamethrower',))
    a, b = spray_in_melee(heavy, RANGED['"classic" flamethrower'], GRUNT)
    assert (a.attacker.pool, b.attacker.pool) == (2 + 1 - 2, 1 - 2)


def test_spray_and_blast_victims_count_cover_one_level_lower() -> None:
    flamer = trooper("Flamer", 2, 2, ranged=("modern flame unit",))
    hit = ranged_attack(flamer, RANGED["modern flame unit"], GRUNT, {"role": "spray", "cover": "full_hard"})
    assert hit.defender.pool == 2 + 2  # full hard -> partial hard
    hit = ranged_attack(flamer, RANGED["modern flame unit"], GRUNT, {"role": "spray", "cover": "partial_soft"})
    assert hit.defender.pool == 2


def test_storm_hammer_stuns_on_a_tie() -> None:
    hammer = trooper("Terminator", 3, 7, attributes=("Strong",), melee=("Storm Hammer",))
    strike = melee_attack(hammer, GRUNT)
    tie = drive(resolve(strike), [[3] * 4 + [1] * 7, [6, 6]])
    assert tie.winner == "" and tie.judgement.target_stunned
    lose = drive(resolve(strike), [[1] * 11, [3, 1]])
    assert lose.winner == "defender" and not lose.judgement.target_stunned
    assert 0 < exact_odds(strike).p_stunned < 1


def test_entangling_counter_never_deals_dp() -> None:
    whip = trooper("Slaver", 2, 2, melee=("whip",))
    strike = melee_attack(GRUNT, whip)
    out = drive(resolve(strike), [[1, 1], [6, 6, 6]])
    assert out.winner == "defender" and out.judgement.margin == 5
    assert out.dp == 0 and out.judgement.pinned
    assert exact_odds(strike).expected_counter_dp == 0


def test_riders_odds_equal_resolution() -> None:
    hammer = trooper("Terminator", 1, 1, melee=("Storm Hammer",))
    for opposed in (melee_attack(hammer, GRUNT), melee_attack(GRUNT, trooper("Slaver", 1, 1, melee=("whip",)))):
        assert odds_summary(opposed) == summary_from_enumeration(opposed)


STAT_CASES = [
    ("rifle short", lambda: ranged_attack(MARINE, RANGED["Assault Rifle"], GRUNT)),
    ("rifle long in cover", lambda: ranged_attack(MARINE, RANGED["Assault Rifle"], GRUNT,
                                                   {"range_band": "long", "cover": "partial_hard", "aim": True})),
    ("pistol point blank", lambda: ranged_attack(MARINE, RANGED["Magnum Pistol"], GRUNT, {"range_band": "point_blank"})),
    ("stealth target", lambda: ranged_attack(MARINE, RANGED["Assault Rifle"], trooper("Hunter", 3, 4, attributes=("Stealth",)))),
    ("marksman hero", lambda: ranged_attack(trooper("Ace", 3, 4, attributes=("Hero", "Marksman")),
                                            RANGED["sniper rifle"], GRUNT, {"range_band": "long"})),
    ("blast victim", lambda: ranged_attack(MARINE, RANGED["Rocket Launcher"], GRUNT, {"role": "blast_victim"})),
    ("melee counter", lambda: melee_attack(GRUNT, trooper("Bug", 2, 4, melee=("fangs & claws: medium",)))),
    ("melee mighty", lambda: melee_attack(trooper("Ogre", 2, 3, attributes=("Strong", "Mighty Blow")), GRUNT)),
    ("melee shield", lambda: melee_attack(GRUNT, trooper("Hoplite", 1, 2, shield="normal shield", melee=("spear",)))),
    ("melee pair", lambda: melee_attack(trooper("Duelist", 2, 2, melee=("Chain Sword", "Power Weapon")), MARINE,
                                        attacker_weapons=("Chain Sword", "Power Weapon"))),
    ("melee charge polearm", lambda: melee_attack(trooper("Pikeman", 1, 2, melee=("pike",)), GRUNT,
                                                  {"charged": True, "reach": "2in"})),
    ("melee third attacker", lambda: melee_attack(GRUNT, MARINE, {"prior_attackers": 2, "attacker_focus": True})),
]


def _sample(opposed: OpposedRoll, rng: random.Random) -> tuple[int, int]:
    gen = resolve(opposed)
    try:
        request = next(gen)
        while True:
            request = gen.send([int(rng.random() * request.die) + 1 for _ in range(request.count)])
    except StopIteration as stop:
        out = stop.value
    return (out.dp if out.winner == "attacker" else 0), (out.dp if out.winner == "defender" else 0)


@pytest.mark.parametrize("name, build", STAT_CASES, ids=[c[0] for c in STAT_CASES])
def test_odds_agree_with_auto_dice_within_three_sigma(name: str, build) -> None:  # type: ignore[no-untyped-def]
    opposed = build()
    odds = exact_odds(opposed)
    rng = random.Random(1234)
    n = 1500
    samples = [_sample(opposed, rng) for _ in range(n)]
    for index, dist in ((0, odds.dp), (1, odds.counter_dp)):
        mean = sum((k * p for k, p in dist.items()), Fraction(0))
        var = sum((k * k * p for k, p in dist.items()), Fraction(0)) - mean * mean
        observed = sum(s[index] for s in samples) / n
        sigma = math.sqrt(float(var) / n)
        assert abs(observed - float(mean)) <= 3 * sigma + 1e-9, (name, index, observed, float(mean))
