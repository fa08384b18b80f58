"""Arcane powers (16, PR-68-PR-73): points, every power at every level, with scripted dice
and odds that equal every way the dice can go."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from campaign.rulesets.figwars3 import arcane as ar
from campaign.rulesets.figwars3.attack import drive, resolve
from tests.figwars3.helpers import odds_summary, summary_from_enumeration, trooper

CASTER = trooper("Seer", 2, 2, 2)
HERO = trooper("Archmage", 3, 3, 2, attributes=("Hero",))
GRUNT = trooper("Grunt", 1, 2)


def test_points_actions_once_a_turn_and_pr68_regain() -> None:
    pool = ar.new_pool(3)
    assert (ar.action_cost(1), ar.action_cost(2), ar.action_cost(3), ar.action_cost(4)) == (1, 1, 2, 2)
    pool = pool.spend("assault", 2)
    assert pool.points == 1
    with pytest.raises(ar.ArcaneError, match="already used"):
        pool.spend("assault", 1)
    with pytest.raises(ar.ArcaneError, match="left"):
        pool.spend("barrier", 2)
    pool = pool.spend("barrier", 1).turn_end()
    assert pool.points == 0 and pool.used == ()  # spent this turn: no regain
    pool = pool.turn_end().turn_end().turn_end().turn_end()
    assert pool.points == 3  # one a turn, never above the rating
    busy = ar.ArcanePool(3, 3, entity=True)
    with pytest.raises(ar.ArcaneError, match="entity"):
        busy.spend("assault", 1)
    with pytest.raises(ar.ArcaneError):
        ar.new_pool(5)


def test_force_weapon_spending_is_blocked_by_an_entity() -> None:
    with pytest.raises(ar.ArcaneError, match="entity"):
        ar.ArcanePool(3, 3, entity=True).spend("force_weapon", 1)
    assert ar.force_weapon_atk(1, 3) == 4 and ar.force_weapon_atk(1, 3, 2) == 6


@pytest.mark.parametrize("level", ar.LEVELS)
@pytest.mark.parametrize("option", list(ar.ASSAULT))
def test_assault_pools_at_every_level(option: str, level: int) -> None:
    opposed = ar.arcane_attack(CASTER, "assault", option, level, GRUNT)
    listed = ar.ASSAULT[option][level - 1]
    if 2 + listed <= 0:
        assert opposed is None  # PR-69: nobody is attacked
        return
    assert opposed is not None and opposed.attacker.pool == 2 + listed and opposed.defender.pool == 2
    assert not any(t.label in ("long", "extreme") for t in opposed.attacker.terms)  # no range modifiers


@pytest.mark.parametrize("level", ar.LEVELS)
@pytest.mark.parametrize("option", list(ar.BLAST))
def test_blast_pools_and_cover_one_lower(option: str, level: int) -> None:
    opposed = ar.arcane_attack(HERO, "blast", option, level, GRUNT, {"cover": "full_hard"})
    listed = ar.BLAST[option][level - 1]
    if 3 + listed <= 0:
        assert opposed is None
        return
    assert opposed is not None and opposed.attacker.pool == 3 + listed
    assert [t.label for t in opposed.defender.terms] == ["DEF", "partial hard cover"]
    assert opposed.attacker.rerolls  # the hero's re-roll


def test_assault_with_scripted_dice_against_barrier_and_concealment() -> None:
    opposed = ar.arcane_attack(CASTER, "assault", "single_6in", 2, GRUNT, {"barrier": 2, "concealment": 1})
    assert opposed is not None and opposed.attacker.pool == 7 and opposed.defender.pool == 2 + 2 + 1
    # 7 dice [6,6,5,4,3,1,1] = 7 v 5 dice [1,1,1,1,2] = 0, concealment re-rolls a 1 into a 6: 2 -> margin 5
    out = drive(resolve(opposed), [[6, 6, 5, 4, 3, 1, 1], [1, 1, 1, 1, 2], [6]])
    assert out.judgement.margin == 5 and out.dp == 2 and out.judgement.pinned
    small = ar.arcane_attack(CASTER, "assault", "large_blast_6in", 2, GRUNT, {"concealment": 1})
    assert small is not None and (small.attacker.pool, small.defender.pool) == (3, 3)
    assert summary_from_enumeration(small) == odds_summary(small)


def test_spirit_strike_highest_die_ignores_def() -> None:
    assert drive(ar.spirit_strike(3), [[2, 6, 3], [4]]) == (6, 4, 2)
    assert drive(ar.spirit_strike(1), [[3], [5]]) == (3, 5, 0)
    assert drive(ar.spirit_strike(2, target_caster=True), [[5, 1], [2, 4]]) == (5, 4, 1)
    assert drive(ar.spirit_strike(2, hero=True), [[2, 5], [6], [1]]) == (6, 1, 5)


@pytest.mark.parametrize(("level", "caster", "hero"), [(1, False, False), (2, True, False), (3, False, True), (4, False, True), (2, True, True)])
def test_spirit_odds_equal_the_dice(level: int, caster: bool, hero: bool) -> None:
    walked: dict[int, Fraction] = {}
    target = 2 if caster else 1
    for mine in product(range(1, 7), repeat=level):
        for rr in (range(1, 7) if hero else [None]):
            for theirs in product(range(1, 7), repeat=target):
                script = [list(mine)] + ([[rr]] if hero else []) + [list(theirs)]
                dp = drive(ar.spirit_strike(level, caster, hero), script)[2]
                p = Fraction(1, 6 ** (level + target + (1 if hero else 0)))
                walked[dp] = walked.get(dp, Fraction(0)) + p
    assert {k: v for k, v in sorted(walked.items())} == ar.spirit_odds(level, caster, hero)


@pytest.mark.parametrize("level", ar.LEVELS)
def test_barrier_and_concealment_at_every_level(level: int) -> None:
    assert ar.ward("barrier", level, "caster") == 2 * level
    assert ar.ward("barrier", level, "small_blast") == level
    assert ar.ward("concealment", level, "caster") == level
    if level == 1:
        with pytest.raises(ar.ArcaneError):
            ar.ward("barrier", 1, "large_blast")
        with pytest.raises(ar.ArcaneError):
            ar.ward("concealment", 1, "small_blast")
    else:
        assert ar.ward("barrier", level, "large_blast") == level - 1
    assert drive(ar.upkeep(3), [[3, 3, 1]]) is False
    assert drive(ar.upkeep(3), [[6, 3, 1]]) is True
    assert ar.p_upkeep(1) == 0 and ar.p_upkeep(2) == Fraction(1, 36) + 2 * Fraction(1, 6) * Fraction(1, 2)


@pytest.mark.parametrize("level", ar.LEVELS)
def test_conveyance_and_teleport_at_every_level(level: int) -> None:
    assert ar.conveyance_inches(level) == 12 * level
    assert ar.teleport_dice(level, False) == level
    if level == 1:
        with pytest.raises(ar.ArcaneError):
            ar.teleport_dice(1, True)
    else:
        assert ar.teleport_dice(level, True) == level - 1
    odds = ar.teleport_odds(level)
    assert odds["killed"] == Fraction(1, 6**level)
    assert odds["arrived"] == 1 - Fraction(1, 2**level)


def test_teleport_with_scripted_dice() -> None:
    assert drive(ar.teleport(1), [[1]]).result == "killed"
    assert drive(ar.teleport(3), [[1, 2, 4]]).result == "arrived"
    t = drive(ar.teleport(2), [[2, 3], [5], [7]])
    assert (t.result, t.direction, t.inches) == ("deviated", 5, 7)
    assert drive(ar.teleport(2, anywhere=True, hero=True), [[1], [4]]).result == "arrived"
    walked: dict[str, Fraction] = {}

    # walk every face of every die the generator asks for
    def walk(script: list[list[int]], p: Fraction) -> None:
        gen = ar.teleport(2, hero=True)
        try:
            request = next(gen)
            for answer in script:
                request = gen.send(answer)
        except StopIteration as stop:
            walked[stop.value.result] = walked.get(stop.value.result, Fraction(0)) + p
            return
        for faces in product(range(1, request.die + 1), repeat=request.count):
            walk(script + [list(faces)], p * Fraction(1, request.die**request.count))

    walk([], Fraction(1))
    assert walked == ar.teleport_odds(2, hero=True)


def test_entities() -> None:
    brute = ar.EntityDesign(mov=1, defence=2, atk=2)
    assert brute.cp == 6 and brute.values() == {"mov": 4, "def": 2, "atk": 3, "dp": 1}
    ar.check_entities((brute,), 2)
    with pytest.raises(ar.ArcaneError, match="CP"):
        ar.check_entities((brute, ar.EntityDesign()), 2)
    with pytest.raises(ar.ArcaneError, match="maximum"):
        ar.check_entities((ar.EntityDesign(defence=6),), 4)
    roamer = ar.EntityDesign(roam=True)
    assert roamer.cp == 6
    p = ar.entity_profile(brute, caster_tq=0)
    assert (p.tq, p.defence, p.melee[0].atk, p.has("Fearless")) == (0, 2, 3, True)
    assert drive(ar.loose_entity(), [[3]]) is True and drive(ar.loose_entity(), [[2]]) is False
