"""Deployment specials (5, 4.3, PR-20, PR-29): a Drop Deployment unit waits off the table
until a turn after the first, then arrives on a Hard check (a miss deviates 1d8"); an
Ambush unit hides until sprung or found by an enemy's move. Scripted dice where they roll."""

from __future__ import annotations

import attrs
import pytest

from campaign.engine.battle import Battle
from campaign.engine.commands import Choose
from campaign.engine.errors import IllegalCommand
from campaign.force import Force
from campaign.rulesets.figwars3.commands import Walk
from campaign.rulesets.figwars3.play import FigWarsRules
from tests.figwars3.test_battle import setup
from tests.figwars3.test_interrupts import run


def _with(force: Force, unit_name: str, ability: str) -> Force:
    units = tuple(
        attrs.evolve(u, elements=tuple(attrs.evolve(e, attributes=(*e.attributes, ability)) for e in u.elements))
        if u.name == unit_name else u
        for u in force.units
    )
    return attrs.evolve(force, units=units)


def _battle(**options: object) -> Battle:
    s = setup(a="Gothic Imperium Battle Group", b="Revenant Host")
    a, b = s.sides
    a = attrs.evolve(a, force=_with(a.force, "Scout Squad", "Ambush"))
    b = attrs.evolve(b, force=_with(b.force, "Elite Lance", "Drop Deployment"))
    return Battle.start(attrs.evolve(s, sides=(a, b)), rules=FigWarsRules(dict(options)))


def test_reserves_wait_for_turn_two_and_hidden_units_cannot_be_targeted() -> None:
    battle = _battle()
    rules, state = battle.rules, battle.state
    elites, scouts = state.unit("elite-lance"), state.unit("scout-squad")
    assert elites.data["reserve"] and scouts.data["hidden"]
    assert state.round == 1 and not rules.can_activate(state, "elite-lance")
    assert rules._targets(elites) == [] and rules._targets(scouts) == []
    # no shot at them is offered
    guard = state.element("guard-squad/guardsman")
    guard.data["actions"] = 2
    targets = {s.params["target"] for s in rules._model_specs(state, state.unit("guard-squad"), guard) if s.type == "shoot"}
    assert "elite-lance" not in targets
    state.round = 2
    assert rules.can_activate(state, "elite-lance")


def test_a_whole_battle_with_reserves_and_an_ambush_plays_and_replays() -> None:
    from tests.figwars3.test_battle import bot

    battle = _battle()
    bot(battle)
    kinds = {e.kind for e in battle.events}
    assert {"arrives", "revealed"} <= kinds
    again = Battle.replay(battle.setup, battle.log_dicts(), rules=FigWarsRules())
    assert again.digest() == battle.digest()


def test_a_drop_lands_on_a_hard_check_or_deviates() -> None:
    battle = _battle()
    rules, state = battle.rules, battle.state
    elites = state.unit("elite-lance")  # TQ 3: three dice, three successes for Hard
    seen = run(rules._arrive_or_spring(state, elites, battle.ctx), [Choose(option="go")], [[3, 3, 3]])
    assert [r.count for r in seen[1:]] == [3] and not elites.data["reserve"]
    assert "deviates" not in [e.text for e in battle.events if e.kind == "arrives"][-1]
    elites.data["reserve"] = True
    seen = run(rules._arrive_or_spring(state, elites, battle.ctx), [Choose(option="go")], [[3, 3, 1], [5], [7]])
    arrival = [e for e in battle.events if e.kind == "arrives"][-1]
    assert (arrival.data["direction"], arrival.data["inches"]) == (5, 7)
    elites.data["reserve"] = True
    assert run(rules._arrive_or_spring(state, elites, battle.ctx), [Choose(option="stay")]) and elites.data["reserve"]


def test_an_ambush_is_sprung_or_found_by_a_move() -> None:
    battle = _battle()
    rules, state = battle.rules, battle.state
    scouts = state.unit("scout-squad")
    grunt = state.element("grunt-lance/grunt")
    grunt.data["actions"] = 2
    walk = next(s for s in rules._model_specs(state, state.unit("grunt-lance"), grunt) if s.type == "walk")
    assert "detects" in {f.name for f in walk.facts}
    with pytest.raises(IllegalCommand, match="not a hidden enemy"):
        run(rules._move(state, grunt, Walk(unit="grunt-lance", model=grunt.id, facts={"inches": 2, "detects": ["guard-squad"]}), battle.ctx), [])
    grunt.data.update(actions=2, moved=0)
    run(rules._move(state, grunt, Walk(unit="grunt-lance", model=grunt.id, facts={"inches": 2, "detects": ["scout-squad"]}), battle.ctx), [])
    assert not scouts.data["hidden"] and rules._targets(scouts)


def test_the_option_puts_everyone_on_the_table() -> None:
    battle = _battle(deployment_specials=False)
    assert not battle.state.unit("elite-lance").data.get("reserve") and not battle.state.unit("scout-squad").data.get("hidden")


def test_a_hidden_unit_takes_no_part_until_sprung() -> None:
    from campaign.engine.pending import Decision
    from campaign.rulesets.figwars3.commands import Shoot
    from tests.figwars3.test_interrupts import _give

    battle = _battle()
    rules, state = battle.rules, battle.state
    scouts = state.unit("scout-squad")
    assert scouts.data["hidden"]
    # a hero shot at: no hidden scout steps in front of him (Heroic Deflection)
    grunt = state.element("grunt-lance/grunt")
    grunt.data["actions"] = 2
    shot = Shoot(unit="grunt-lance", model=grunt.id, target="marine-captain", target_model="marine-captain/captain",
                 weapon="Plasma Pistol", facts={"range_band": "long"})
    seen = run(rules._shoot(state, grunt, shot, battle.ctx), [Choose(option="no")])
    ask = next(r for r in seen if isinstance(r, Decision))
    assert not any(str(s.params.get("model", "")).startswith("scout-squad/") for s in ask.legal)
    # a horror cannot frighten a unit it cannot see
    _give(battle, "drone-swarm/drone", "Horrific")
    drone = state.element("drone-swarm/drone")
    drone.data["actions"] = 2
    with pytest.raises(IllegalCommand, match="not an enemy unit on the table"):
        run(rules._move(state, drone, Walk(unit="drone-swarm", model=drone.id, facts={"inches": 1, "horrifies": ["scout-squad"]}), battle.ctx), [])


def test_an_ambush_may_be_sprung_as_an_enemy_unit_activates() -> None:
    from campaign.engine.pending import Decision
    from campaign.rulesets.figwars3 import interrupts

    battle = _battle()
    rules, state = battle.rules, battle.state
    scouts = state.unit("scout-squad")
    seen = run(rules.interrupts(state, interrupts.NOMINATED, battle.ctx, unit="grunt-lance"), [Choose(option="stay")])
    assert isinstance(seen[0], Decision) and seen[0].side == scouts.side and scouts.data["hidden"]
    assert [s.params["option"] for s in seen[0].legal] == ["stay", "go"]
    run(rules.interrupts(state, interrupts.NOMINATED, battle.ctx, unit="grunt-lance"), [Choose(option="go")])
    assert not scouts.data["hidden"] and rules._targets(scouts)
    # its own side's activations offer nothing: it springs at its own activation
    scouts.data["hidden"] = True
    assert run(rules.interrupts(state, interrupts.NOMINATED, battle.ctx, unit="guard-squad"), []) == []
