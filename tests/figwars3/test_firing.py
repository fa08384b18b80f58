"""Ways of firing (firing.py) offered in battle, with scripted dice: the Plasma Pistol's
overcharged shot and the Plasma Rifle's second shot (17.7), the optional out-of-ammo
roll (11.22, PR-58), two ranged weapons at one or two targets (11.24) and burst fire
split among models (11.16, PR-56)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from campaign.engine.battle import Battle
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import Decision, RollRequest
from campaign.rulesets.figwars3.commands import Shoot
from campaign.rulesets.figwars3.play import FigWarsRules
from campaign.rulesets.figwars3.ranged import ranged_attack
from tests.figwars3.test_battle import setup
from tests.figwars3.test_interrupts import run

ELITE, JACKAL, GRUNT = "elite-lance/elite", "jackal-pack/jackal", "grunt-lance/grunt"
GUARD, GUARD2, SHOCK = "guard-squad/guardsman", "guard-squad/guardsman-2", "shock-troops/shock-trooper"


def _battle(**options: Any) -> Battle:
    battle = Battle.start(setup(a="Gothic Imperium Battle Group", b="Revenant Host"), rules=FigWarsRules(options))
    for unit in battle.state.units:
        for el in unit.alive:
            el.data["actions"] = 2
    return battle


def _shot(model: str, weapon: str, target: str = GUARD, **facts: Any) -> Shoot:
    return Shoot(unit=model.split("/")[0], model=model, target=target.split("/")[0], target_model=target, weapon=weapon,
                 facts={"range_band": "short", **facts})


def _rolls(seen: list[Any]) -> list[RollRequest]:
    return [r for r in seen if isinstance(r, RollRequest)]


def _profile_with(battle: Battle, model: str, **changes: Any) -> None:
    battle.rules._profiles[model] = attrs.evolve(battle.rules.profile(model), **changes)


def test_an_overcharged_plasma_pistol_takes_two_actions_rolls_4d_atk_and_must_reload() -> None:
    battle = _battle()
    rules, state = battle.rules, battle.state
    jackal = state.element(JACKAL)
    plain = rules.shot(state, _shot(JACKAL, "Plasma Pistol"))[0]
    hot = rules.shot(state, _shot(JACKAL, "Plasma Pistol", overcharge=True))[0]
    assert hot.attacker.pool == plain.attacker.pool + 3  # ATK 1d -> 4d
    spec = next(s for s in rules._model_specs(state, state.unit("jackal-pack"), jackal) if s.type == "shoot")
    assert "overcharge" in {f.name for f in spec.facts}
    seen = run(rules._shoot(state, jackal, _shot(JACKAL, "Plasma Pistol", overcharge=True), battle.ctx), [])
    assert _rolls(seen)[0].count == hot.attacker.dice
    assert jackal.data["actions"] == 0 and jackal.data["unloaded"] == ["Plasma Pistol"]
    # an ordinary shot leaves it loaded (R* only after the overcharge)
    battle = _battle()
    jackal = battle.state.element(JACKAL)
    run(battle.rules._shoot(battle.state, jackal, _shot(JACKAL, "Plasma Pistol"), battle.ctx), [])
    assert jackal.data["actions"] == 1 and jackal.data["unloaded"] == []
    with pytest.raises(IllegalCommand, match="cannot be overcharged"):
        battle.rules.shot(battle.state, _shot(ELITE, "Plasma Rifle", overcharge=True))


def test_the_plasma_rifle_is_emptied_by_its_second_shot_in_a_turn() -> None:
    battle = _battle()
    elite = battle.state.element(ELITE)
    run(battle.rules._shoot(battle.state, elite, _shot(ELITE, "Plasma Rifle"), battle.ctx), [])
    assert elite.data["unloaded"] == []
    run(battle.rules._shoot(battle.state, elite, _shot(ELITE, "Plasma Rifle"), battle.ctx), [])
    assert elite.data["unloaded"] == ["Plasma Rifle"]


@pytest.mark.parametrize(("option", "face", "empty"), [(True, 3, True), (True, 4, False), (False, None, False)])
def test_out_of_ammo_after_a_roll_without_success(option: bool, face: int | None, empty: bool) -> None:
    battle = _battle(out_of_ammo=option)
    guard = battle.state.element(GUARD)
    command = _shot(GUARD, "Laser Gun", target=JACKAL)
    pool = battle.rules.shot(battle.state, command)[0]
    faces = [[1] * pool.attacker.dice, [1] * pool.defender.dice] + ([[face]] if face else [])
    seen = run(battle.rules._shoot(battle.state, guard, command, battle.ctx), [], faces)
    assert [r.die for r in _rolls(seen)][-1] == (8 if option else 6)
    assert (guard.data["unloaded"] == ["Laser Gun"]) == empty


def test_out_of_ammo_is_not_rolled_after_a_success_or_for_a_reload_weapon() -> None:
    battle = _battle(out_of_ammo=True)
    command = _shot(GUARD, "Laser Gun", target=JACKAL)
    pool = battle.rules.shot(battle.state, command)[0]
    seen = run(battle.rules._shoot(battle.state, battle.state.element(GUARD), command, battle.ctx), [],
               [[3] + [1] * (pool.attacker.dice - 1), [1] * pool.defender.dice])
    assert all(r.die == 6 for r in _rolls(seen))
    seen = run(battle.rules._shoot(battle.state, battle.state.element(ELITE), _shot(ELITE, "Plasma Rifle"), battle.ctx), [])
    assert all(r.die == 6 for r in _rolls(seen))  # R* counts as a reload weapon (PR-58): no roll


def test_two_weapons_at_one_target_add_both_atks_tq_once_less_one_die() -> None:
    battle = _battle()
    rules, state = battle.rules, battle.state
    pistol = rules.profile(JACKAL).ranged[0]
    _profile_with(battle, JACKAL, ranged=(pistol, pistol))
    single = rules.shot(state, _shot(JACKAL, "Plasma Pistol"))[0]
    pair = rules.shot(state, _shot(JACKAL, "Plasma Pistol", second_weapon="Plasma Pistol"))[0]
    assert pair.attacker.pool == single.attacker.pool + pistol.atk - 1
    spec = next(s for s in rules._model_specs(state, state.unit("jackal-pack"), state.element(JACKAL)) if s.type == "shoot")
    assert {f.name: f.choices for f in spec.facts}["second_weapon"] == ("", "Plasma Pistol")
    p = rules.profile(JACKAL)
    _profile_with(battle, JACKAL, abilities=p.abilities | {"Gunslinger"})
    assert rules.shot(state, _shot(JACKAL, "Plasma Pistol", second_weapon="Plasma Pistol"))[0].attacker.pool == single.attacker.pool + pistol.atk
    with pytest.raises(IllegalCommand, match="template or placed"):
        rules.shot(state, _shot(GRUNT, "Plasma Pistol", second_weapon="Plasma Grenade"))
    with pytest.raises(IllegalCommand, match="no second"):
        rules.shot(state, _shot(GRUNT, "Plasma Pistol", second_weapon="Plasma Pistol"))


def test_two_weapons_at_two_targets_roll_twice_at_minus_two_with_rerolls_on_the_first_only() -> None:
    battle = _battle()
    rules, state = battle.rules, battle.state
    pistol = rules.profile(JACKAL).ranged[0]
    _profile_with(battle, JACKAL, ranged=(pistol, pistol), hero=True)  # a hero re-roll to place
    command = _shot(JACKAL, "Plasma Pistol", second_weapon="Plasma Pistol", second_target_model=SHOCK)
    first = rules.shot(state, command)[0]
    alone = rules.shot(state, _shot(JACKAL, "Plasma Pistol"))[0]
    assert first.attacker.pool == alone.attacker.pool - 2 and first.attacker.rerolls
    other = ranged_attack(rules.profile(JACKAL), pistol, rules.profile(SHOCK), {"range_band": "short"})
    seen = run(rules._shoot(state, state.element(JACKAL), command, battle.ctx), [], [])
    counts = [r.count for r in _rolls(seen)]
    # both pools of the first roll and its hero re-roll (all 1s); the second roll has none
    assert counts == [first.attacker.dice, first.defender.dice, 1, other.attacker.dice - 2, other.defender.dice]
    shots = [e.data["target"] for e in battle.events if e.kind == "shot"]
    assert shots[-2:] == [GUARD, SHOCK] and state.element(JACKAL).data["actions"] == 1


def test_burst_fire_splits_the_pool_paying_for_gaps() -> None:
    battle = _battle()
    rules, state = battle.rules, battle.state
    whole = rules.shot(state, _shot(ELITE, "Plasma Rifle"))[0].attacker.pool  # TQ 3 + ATK 3 = 6, A1
    burst = [{"model": GUARD2, "dice": 2, "gap": 3, "cover": "partial_soft"}]
    command = _shot(ELITE, "Plasma Rifle", burst=burst)
    first = rules.shot(state, command)[0]
    assert first.attacker.pool == whole - 2 - 1  # one die lost to the 3" gap (A1 x one full 2")
    seen = run(rules._shoot(state, state.element(ELITE), command, battle.ctx), [])
    second_def = ranged_attack(rules.profile(ELITE), rules.profile(ELITE).ranged[0], rules.profile(GUARD2),
                               {"range_band": "short", "cover": "partial_soft"}).defender.dice
    assert [r.count for r in _rolls(seen)] == [first.attacker.dice, first.defender.dice, 2, second_def]
    assert [e.data["target"] for e in battle.events if e.kind == "shot"][-2:] == [GUARD, GUARD2]
    spec = next(s for s in rules._model_specs(state, state.unit("elite-lance"), state.element(ELITE)) if s.type == "shoot")
    assert "burst" in {f.name for f in spec.facts}
    typed = rules.shot(state, _shot(ELITE, "Plasma Rifle", burst=[f"{GUARD2}:2:3:partial_soft"]))[0]
    assert typed.attacker.pool == first.attacker.pool  # the same burst typed as text
    for bad, why in (([{"model": GUARD2, "dice": 0}], "at least A1"), ([{"model": GUARD2, "dice": 6}], "fewer than A1"),
                     ([f"{GUARD2}"], "model:dice")):
        with pytest.raises(IllegalCommand, match=why):
            rules.shot(state, _shot(ELITE, "Plasma Rifle", burst=bad))
    with pytest.raises(IllegalCommand, match="only an autofire"):
        rules.shot(state, _shot(JACKAL, "Plasma Pistol", burst=[{"model": GUARD2, "dice": 1}]))


def test_a_burst_at_a_hero_cannot_be_handed_on() -> None:
    battle = _battle()
    command = _shot(ELITE, "Plasma Rifle", target="marine-captain/captain", burst=[{"model": GUARD2, "dice": 1}])
    seen = run(battle.rules._shoot(battle.state, battle.state.element(ELITE), command, battle.ctx), [])
    assert not any(isinstance(r, Decision) for r in seen)



def test_a_burst_skips_no_model_in_the_arc_between_its_targets() -> None:
    battle = _battle()
    rules, state = battle.rules, battle.state
    guard3, friend = "guard-squad/guardsman-3", "elite-lance/elite-2"
    burst = [{"model": GUARD2, "dice": 1}]
    ok = _shot(ELITE, "Plasma Rifle", burst=burst, burst_arc=[GUARD, GUARD2])  # both targets: nothing skipped
    assert rules.shot(state, ok)[0].attacker.pool == rules.shot(state, _shot(ELITE, "Plasma Rifle", burst=burst))[0].attacker.pool
    for arc, named in (([GUARD2, guard3], "guardsman-3"), ([friend], "elite-2")):  # a friend in the arc counts too
        with pytest.raises(IllegalCommand, match=f"cannot skip .*{named}.*11.16"):
            rules.shot(state, _shot(ELITE, "Plasma Rifle", burst=burst, burst_arc=arc))
    spec = next(s for s in rules._model_specs(state, state.unit("elite-lance"), state.element(ELITE)) if s.type == "shoot")
    assert spec.fact("burst_arc") is not None and spec.fact("burst_arc").picks == "elements"  # type: ignore[union-attr]
