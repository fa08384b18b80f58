"""Interrupts of 6.3 through the windows the rules open (`ctx.window` -> the activation
scheme -> `FigWarsRules.interrupts`): Heroic Deflection and Blind Devotion hand a shot
on (PR-50), a Horrific model forces an instant check (PR-38), a flier lifts off on 7-8
(4.3 Flight); sentries already use the same window (test_battle.py)."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import attrs
import pytest

from campaign.engine.commands import Choose
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import Decision, RollRequest
from campaign.rulesets.figwars3.commands import Deflect, Report, Shoot, Strike
from tests.figwars3.test_battle import setup, start

CAPTAIN, GUARD, GUARD2 = "marine-captain/captain", "guard-squad/guardsman", "guard-squad/guardsman-2"
GRUNT, DRONE = "grunt-lance/grunt", "drone-swarm/drone"


def _battle():
    battle = start(setup(a="Gothic Imperium Battle Group", b="Revenant Host"))
    for unit in battle.state.units:
        for el in unit.alive:
            el.data["actions"] = 2
    return battle


def _give(battle, model: str, ability: str) -> None:
    p = battle.rules.profile(model)
    battle.rules._profiles[model] = attrs.evolve(p, abilities=p.abilities | {ability})


def run(gen: Generator[Any, Any, Any], decisions: list[Any], faces: list[list[int]] | None = None) -> list[Any]:
    """Answer Decisions from `decisions` in order, rolls from `faces` (then all 1s: no
    successes). Returns every request made."""
    decisions, faces = list(decisions), list(faces or [])
    seen: list[Any] = []
    try:
        request = next(gen)
        while True:
            seen.append(request)
            if isinstance(request, Decision):
                answer = decisions.pop(0)
            else:
                answer = faces.pop(0) if faces else [1] * request.count
                assert len(answer) == request.count
            request = gen.send(answer)
    except StopIteration:
        assert not decisions, decisions
        return seen


def _shoot(battle, target_unit: str, target: str, **facts: Any) -> Shoot:
    return Shoot(unit="grunt-lance", model=GRUNT, target=target_unit, target_model=target, weapon="Plasma Pistol",
                 facts={"range_band": "long", **facts})


def test_heroic_deflection_hands_the_shot_to_a_friendly_model_with_its_own_range_and_cover() -> None:
    battle = _battle()
    rules, state, ctx = battle.rules, battle.state, battle.ctx
    shot = _shoot(battle, "marine-captain", CAPTAIN)
    new_facts = {"range_band": "short", "cover": "full_hard"}
    expected = rules.shot(state, attrs.evolve(shot, target="guard-squad", target_model=GUARD, facts={**shot.facts, **new_facts}))[0]
    seen = run(rules._shoot(state, state.element(GRUNT), shot, ctx), [Deflect(model=GUARD, facts=new_facts)])
    ask = seen[0]
    assert isinstance(ask, Decision) and ask.side == "a" and "Heroic Deflection" in ask.prompt
    assert [s.type for s in ask.legal][0] == "choose" and {s.params.get("model") for s in ask.legal[1:]} >= {GUARD, GUARD2}
    assert CAPTAIN not in {s.params.get("model") for s in ask.legal}
    deflect = next(s for s in ask.legal if s.params.get("model") == GUARD)
    assert {f.name: f.default for f in deflect.facts} == {"range_band": "long", "cover": "none"}  # the declared shot's
    rolls = [r for r in seen if isinstance(r, RollRequest)]
    assert [r.count for r in rolls[:2]] == [expected.attacker.dice, expected.defender.dice]
    shot_event = [e for e in battle.events if e.kind == "shot"][-1]
    assert shot_event.data["target"] == GUARD
    assert [e for e in battle.events if e.kind == "deflect"][-1].data == {"model": GUARD, "target": CAPTAIN}


def test_blind_devotion_offers_only_the_devoted_unit_mate_and_may_be_declined() -> None:
    battle = _battle()
    rules, state, ctx = battle.rules, battle.state, battle.ctx
    _give(battle, GUARD, "Blind Devotion")
    seen = run(rules._shoot(state, state.element(GRUNT), _shoot(battle, "guard-squad", GUARD2), ctx), [Choose(option="no")])
    ask = seen[0]
    assert "Blind Devotion" in ask.prompt and [s.params.get("model") for s in ask.legal[1:]] == [GUARD]
    assert [e for e in battle.events if e.kind == "shot"][-1].data["target"] == GUARD2


def test_no_hand_on_from_within_melee_or_for_a_template() -> None:
    battle = _battle()
    rules, state, ctx = battle.rules, battle.state, battle.ctx
    seen = run(rules._shoot(state, state.element(GRUNT), _shoot(battle, "marine-captain", CAPTAIN, in_melee=True, range_band="point_blank"), ctx), [])
    assert not any(isinstance(r, Decision) for r in seen)
    state.element(GRUNT).data["actions"] = 2  # a grenade is slow: two actions
    grenade = attrs.evolve(_shoot(battle, "marine-captain", CAPTAIN), weapon="Plasma Grenade", facts={"range_band": "short"})
    seen = run(rules._shoot(state, state.element(GRUNT), grenade, ctx), [])
    assert not any(isinstance(r, Decision) for r in seen)


def _strike_drone(battle, **facts: Any) -> Strike:
    return Strike(unit="guard-squad", model=GUARD, target="drone-swarm", target_model=DRONE, facts=facts)


def test_a_flier_lifts_off_on_seven_or_eight_and_cannot_be_struck_until_it_activates() -> None:
    battle = _battle()
    rules, state, ctx = battle.rules, battle.state, battle.ctx
    guard = state.element(GUARD)
    seen = run(rules._strike(state, guard, _strike_drone(battle), ctx), [], [[7]])
    assert seen[0].die == 8 and len(seen) == 1  # the lift-off roll, then no blow
    assert state.element(DRONE).data["hovering"] and guard.data["actions"] == 2
    with pytest.raises(IllegalCommand, match="hovers"):
        rules.strike(state, _strike_drone(battle))
    # the foremost drone still on the ground is struck when no model is named
    assert rules.strike(state, attrs.evolve(_strike_drone(battle), target_model=""))[2].id != DRONE
    run(rules._start_model(state, state.element(DRONE), ctx), [])
    assert not state.element(DRONE).data["hovering"]


def test_a_failed_lift_off_is_struck_and_cramped_space_forbids_it() -> None:
    battle = _battle()
    rules, state, ctx = battle.rules, battle.state, battle.ctx
    seen = run(rules._strike(state, state.element(GUARD), _strike_drone(battle), ctx), [Choose(option="no")], [[6]])
    assert seen[0].die == 8 and any(e.kind == "melee" for e in battle.events)
    assert state.element(GUARD).data["actions"] == 1
    battle2 = _battle()
    seen = run(battle2.rules._strike(battle2.state, battle2.state.element(GUARD), _strike_drone(battle2, cramped=True), battle2.ctx),
               [Choose(option="no")])
    assert all(getattr(r, "die", 6) == 6 for r in seen)


def test_horrific_forces_one_instant_check_at_pl_plus_one() -> None:
    battle = _battle()
    rules, state, ctx = battle.rules, battle.state, battle.ctx
    _give(battle, DRONE, "Horrific")
    guards = state.unit("guard-squad")
    guards.data.update(pl=1, horrified=False)
    # TQ 1 + 1d for ten models = 2 dice against PL 2: one success is not enough
    seen = run(rules._strike(state, state.element(GUARD), _strike_drone(battle, cramped=True), ctx),
               [Report(facts={"hero_in_sight": False})], [[3, 1]])
    ask, roll = seen[0], seen[1]
    assert isinstance(ask, Decision) and ask.side == "a" and isinstance(roll, RollRequest) and roll.count == 2
    assert guards.data["pl"] == 2 and guards.data["status"] == "falling_back"
    assert not any(e.kind == "melee" for e in battle.events) and state.element(GUARD).data["actions"] == 2
    # one instant check an activation: the next approach is not checked again
    seen = run(rules._horrific(state, guards, ctx), [])
    assert seen == []


def test_a_move_near_a_horror_checks_and_a_horrific_unit_is_immune() -> None:
    battle = _battle()
    rules, state, ctx = battle.rules, battle.state, battle.ctx
    _give(battle, DRONE, "Horrific")
    unit = state.unit("guard-squad")
    specs = rules._model_specs(state, unit, state.element(GUARD))
    walk = next(s for s in specs if s.type == "walk")
    assert "near_horrific" in {f.name for f in walk.facts}
    from campaign.rulesets.figwars3.commands import Walk

    seen = run(rules._move(state, state.element(GUARD), Walk(unit="guard-squad", model=GUARD, facts={"inches": 3, "near_horrific": True}), ctx),
               [Report(facts={})], [[6, 6]])
    assert unit.data["pl"] == 1 and unit.data["status"] == "normal" and len(seen) == 2
    _give(battle, GUARD2, "Horrific")
    unit.data["horrified"] = False
    assert run(rules._horrific(state, unit, ctx), []) == []


def test_a_horror_that_approaches_a_unit_forces_its_check_in_the_morale_phase() -> None:
    from campaign.rulesets.figwars3.commands import Walk

    battle = _battle()
    rules, state, ctx = battle.rules, battle.state, battle.ctx
    _give(battle, DRONE, "Horrific")
    drones, guards, captain = state.unit("drone-swarm"), state.unit("guard-squad"), state.unit("marine-captain")
    walk = next(s for s in rules._model_specs(state, drones, state.element(DRONE)) if s.type == "walk")
    assert walk.fact("horrifies") is not None and walk.fact("horrifies").picks == "enemy_units"  # type: ignore[union-attr]
    move = Walk(unit="drone-swarm", model=DRONE, facts={"inches": 3, "horrifies": ["guard-squad", "marine-captain"]})
    run(rules._move(state, state.element(DRONE), move, ctx), [])
    assert guards.data["pl"] == 1 and guards.data["marker"]  # PL + 1 and a marker: a compulsory check
    assert captain.data["pl"] == 0 and not captain.data["marker"]  # heroes never check
    run(rules._move(state, state.element(DRONE), move, ctx), [])
    assert guards.data["pl"] == 1  # once a turn (PR-38)
    # the morale phase: TQ 1 + 1d for ten models against PL 1; two blanks fail it
    seen = run(rules.on_round_end(state, ctx), [Report(facts={})] * 1, [[1, 2]])
    assert [r.count for r in seen if isinstance(r, RollRequest)][:1] == [2]
    assert guards.data["status"] == "falling_back"
    with pytest.raises(IllegalCommand, match="Horrific"):
        run(rules._move(state, state.element(GUARD), Walk(unit="guard-squad", model=GUARD, facts={"horrifies": ["drone-swarm"]}), ctx), [])
