"""The winner of a melee spends its margin (2.7): the packages of the source's list,
the default (PR-2) first; forcing back with the table's facts (10.9, PR-4) and disarming
(PR-3), with picking the weapon up again (7.1). Scripted dice."""

from __future__ import annotations

from typing import Any

import attrs

from campaign.engine.commands import Choose
from campaign.engine.pending import Decision
from campaign.rulesets.figwars3.commands import Report, Strike
from tests.figwars3.test_interrupts import _battle, run

MARINE, GRUNT = "marine-squad/imperial-marine", "grunt-lance/grunt"
NO_FOCUS = Choose(option="no")


def _strike(**facts: Any) -> Strike:
    return Strike(unit="marine-squad", model=MARINE, target="grunt-lance", target_model=GRUNT, facts=facts)


def _margin_faces(battle, successes: int) -> list[list[int]]:
    """Attacker faces scoring `successes` (3s), the defender's all blanks."""
    opposed = battle.rules.strike(battle.state, _strike())[0]
    assert opposed.attacker.dice >= successes
    return [[3] * successes + [1] * (opposed.attacker.dice - successes), [1] * opposed.defender.dice]


def _decisions(seen: list[Any]) -> list[Decision]:
    return [r for r in seen if isinstance(r, Decision)]


def test_the_winner_picks_a_package_default_first_and_a_push_against_a_wall_pins() -> None:
    battle = _battle()
    rules, state = battle.rules, battle.state
    grunt = state.element(GRUNT)
    grunt.data["dp"] = 5
    answers = [NO_FOCUS, Choose(option="push+1 DP"), Report(facts={"against_solid": True})]
    seen = run(rules._strike(state, state.element(MARINE), _strike(), battle.ctx), answers, _margin_faces(battle, 3))
    pick = _decisions(seen)[1]
    assert pick.side == "a" and "by 3" in pick.prompt
    assert [s.params["option"] for s in pick.legal] == ["pin+1 DP", "pin+push+follow", "push+1 DP"]
    assert pick.legal[0].label.endswith("(default)")
    # 1 DP and Strong's rider, then the wall's pin (PR-4)
    assert grunt.data["dp"] == 5 - 2 and grunt.data["pins"] == 1
    assert [e.kind for e in battle.events if e.kind in ("push", "stumble")] == ["push"]


def test_forced_back_into_rough_ground_the_loser_must_pass_an_easy_check() -> None:
    battle = _battle()
    rules, state = battle.rules, battle.state
    grunt = state.element(GRUNT)
    grunt.data["dp"] = 5
    answers = [NO_FOCUS, Choose(option="push"), Report(facts={"into_difficult": True})]
    faces = _margin_faces(battle, 1) + [[1]]  # TQ 1: the Easy check fails on a blank
    run(rules._strike(state, state.element(MARINE), _strike(), battle.ctx), answers, faces)
    assert grunt.data["dp"] == 5 and grunt.data["pins"] == 1
    assert "stumble" in [e.kind for e in battle.events]


def test_a_disarm_takes_the_weapon_the_winner_names_until_it_is_picked_up() -> None:
    battle = _battle()
    rules, state = battle.rules, battle.state
    grunt = state.element(GRUNT)
    grunt.data["dp"] = 5
    answers = [NO_FOCUS, Choose(option="disarm"), Choose(option="Plasma Pistol")]
    seen = run(rules._strike(state, state.element(MARINE), _strike(), battle.ctx), answers, _margin_faces(battle, 4))
    which = _decisions(seen)[2]
    assert [s.params["option"] for s in which.legal] == ["Plasma Pistol", "Plasma Grenade"]
    assert grunt.data["disarmed"] == ["Plasma Pistol"] and grunt.data["dp"] == 5
    specs = rules._model_specs(state, state.unit("grunt-lance"), grunt)
    assert not [s for s in specs if s.type == "shoot" and s.params["weapon"] == "Plasma Pistol"]
    retrieve = next(s for s in specs if s.type == "retrieve")
    run(rules.resolve(state, battle.command(retrieve), battle.ctx), [])
    assert grunt.data["disarmed"] == [] and grunt.data["actions"] == 1


def test_a_winning_counter_attack_is_spent_by_the_defender() -> None:
    battle = _battle()
    rules, state = battle.rules, battle.state
    marine = state.element(MARINE)
    marine.data["dp"] = 5
    opposed = rules.strike(state, _strike())[0]
    faces = [[1] * opposed.attacker.dice, [6] + [1] * (opposed.defender.dice - 1)]  # 2 - 0 - 1 for the counter
    seen = run(rules._strike(state, marine, _strike(), battle.ctx), [NO_FOCUS, Choose(option="push"), Report(facts={})], faces)
    pick = _decisions(seen)[1]
    assert pick.side == "b" and pick.prompt.startswith("Grunt wins the melee by 1")
    assert [e.data["model"] for e in battle.events if e.kind == "push"] == [MARINE]


def _with_whip(battle, model: str) -> None:
    from campaign.rulesets.figwars3.weapons import MeleeWeapon

    p = battle.rules.profile(model)
    battle.rules._profiles[model] = attrs.evolve(p, melee=(MeleeWeapon("whip", 3, entangling=True),))


def test_an_entangling_weapon_may_entangle_instead_of_dp_until_the_victim_works_free() -> None:
    battle = _battle()
    rules, state = battle.rules, battle.state
    _with_whip(battle, MARINE)
    grunt = state.element(GRUNT)
    grunt.data["dp"] = 5
    seen = run(rules._strike(state, state.element(MARINE), _strike(), battle.ctx), [NO_FOCUS, Choose(option="entangle")],
               _margin_faces(battle, 5))
    pick = _decisions(seen)[1]
    assert pick.legal[-1].label == "entangle (2 action(s) to break free) + pin"
    assert grunt.data["dp"] == 5 and grunt.data["pins"] == 1
    assert grunt.data["entangled"] == {"by": MARINE, "actions": 2}
    # entangled: -1 to its DEF in melee and as a target
    assert "entangled" in {t.label for t in rules.strike(state, _strike())[0].defender.terms}
    specs = rules._model_specs(state, state.unit("grunt-lance"), grunt)
    free = next(s for s in specs if s.type == "break_free")
    grunt.data["actions"] = 2
    run(rules.resolve(state, battle.command(free), battle.ctx), [])
    assert grunt.data["entangled"] == {"by": MARINE, "actions": 1}
    run(rules.resolve(state, battle.command(free), battle.ctx), [])
    assert grunt.data["entangled"] is None


def test_the_entangler_lets_go_by_releasing_or_dying() -> None:
    battle = _battle()
    rules, state = battle.rules, battle.state
    grunt, marine = state.element(GRUNT), state.element(MARINE)
    grunt.data["entangled"] = {"by": MARINE, "actions": 3}
    release = next(s for s in rules._model_specs(state, state.unit("marine-squad"), marine) if s.type == "release")
    run(rules.resolve(state, battle.command(release), battle.ctx), [])
    assert grunt.data["entangled"] is None and marine.data["actions"] == 1
    grunt.data["entangled"] = {"by": MARINE, "actions": 3}
    run(rules._hurt(state, marine, 10, False, battle.ctx), [])
    assert not marine.alive and grunt.data["entangled"] is None


def test_a_long_polearm_can_be_swapped_for_another_weapon_from_the_next_activation() -> None:
    from campaign.rulesets.figwars3.weapons import MeleeWeapon

    battle = _battle()
    rules, state = battle.rules, battle.state
    pike, sword = MeleeWeapon("pike", 3, polearm="long"), MeleeWeapon("sword", 2)
    rules._profiles[MARINE] = attrs.evolve(rules.profile(MARINE), melee=(pike, sword))
    marine = state.element(MARINE)
    before = rules.strike(state, _strike())[0]
    assert "long polearm in contact" in {t.label for t in before.attacker.terms}
    switch = next(s for s in rules._model_specs(state, state.unit("marine-squad"), marine) if s.type == "switch")
    assert switch.params["weapon"] == "sword"
    run(rules.resolve(state, battle.command(switch), battle.ctx), [])
    assert marine.data["actions"] == 2  # free, but not yet
    assert rules.strike(state, _strike())[0] == before
    run(rules._start_model(state, marine, battle.ctx), [])
    after = rules.strike(state, _strike())[0]
    assert "long polearm in contact" not in {t.label for t in after.attacker.terms}
    assert after.attacker.pool == before.attacker.pool - 3 + 2 + 1


def test_an_entangled_victim_may_drag_its_entangler_at_three_inches_each() -> None:
    import pytest

    from campaign.engine.errors import IllegalCommand
    from campaign.rulesets.figwars3.commands import Walk

    battle = _battle()
    rules, state = battle.rules, battle.state
    grunt = state.element(GRUNT)  # MOV 3
    walk = next(s for s in rules._model_specs(state, state.unit("grunt-lance"), grunt) if s.type == "walk")
    assert walk.fact("drag") is None  # free models have nothing to drag
    with pytest.raises(IllegalCommand, match="not entangled"):
        run(rules._move(state, grunt, Walk(unit="grunt-lance", model=GRUNT, facts={"inches": 1, "drag": 1}), battle.ctx), [])
    grunt.data["entangled"] = {"by": MARINE, "actions": 2}
    walk = next(s for s in rules._model_specs(state, state.unit("grunt-lance"), grunt) if s.type == "walk")
    assert walk.fact("drag") is not None
    with pytest.raises(IllegalCommand, match="costs 6"):  # 2" dragged: 3" each (10.6)
        run(rules._move(state, grunt, Walk(unit="grunt-lance", model=GRUNT, facts={"inches": 2, "drag": 2}), battle.ctx), [])
    run(rules._move(state, grunt, Walk(unit="grunt-lance", model=GRUNT, facts={"inches": 1, "drag": 1}), battle.ctx), [])
    drag = [e for e in battle.events if e.kind == "drag"][-1]
    assert drag.data == {"model": GRUNT, "by": MARINE, "inches": 1} and grunt.data["entangled"]["by"] == MARINE
