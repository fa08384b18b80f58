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


def test_revision_two_offers_the_spring_before_each_enemy_action() -> None:
    from campaign.engine.pending import Decision
    from campaign.rulesets.figwars3 import interrupts

    battle = _battle(rules_revision=2)
    rules, state = battle.rules, battle.state
    scouts = state.unit("scout-squad")
    grunt = "grunt-lance/grunt"
    seen = run(rules.interrupts(state, interrupts.BEFORE_ACTION, battle.ctx, actor=grunt, action="walk"), [Choose(option="stay")])
    assert isinstance(seen[0], Decision) and seen[0].side == scouts.side
    assert seen[0].prompt == "Grunt is about to walk: spring Scout Squad's ambush now?" and scouts.data["hidden"]
    run(rules.interrupts(state, interrupts.BEFORE_ACTION, battle.ctx, actor=grunt, action="shoot"), [Choose(option="go")])
    assert not scouts.data["hidden"] and rules._targets(scouts)
    assert [e.kind for e in battle.events][-1] == "revealed"
    # once sprung, or before its own side's actions, nothing is asked
    assert run(rules.interrupts(state, interrupts.BEFORE_ACTION, battle.ctx, actor=grunt, action="walk"), []) == []
    scouts.data["hidden"] = True
    assert run(rules.interrupts(state, interrupts.BEFORE_ACTION, battle.ctx, actor="guard-squad/guardsman", action="walk"), []) == []


def test_revision_one_springs_only_as_a_unit_activates() -> None:
    from campaign.rulesets.figwars3 import interrupts

    battle = _battle()
    state = battle.state
    assert run(battle.rules.interrupts(state, interrupts.BEFORE_ACTION, battle.ctx, actor="grunt-lance/grunt", action="walk"), []) == []
    assert state.unit("scout-squad").data["hidden"]


def test_an_ambush_sprung_mid_activation_in_a_whole_battle() -> None:
    """Through the engine: placement, then the spring taken before an enemy model's first action."""
    from campaign.engine.pending import Decision
    from tests.figwars3.test_battle import bot

    battle = _battle(rules_revision=2)
    sprung = False
    steps = 0
    while battle.pending is not None and not sprung:
        steps += 1
        assert steps < 500
        pending = battle.pending
        assert isinstance(pending, Decision)
        if "is about to" in pending.prompt and "spring" in pending.prompt:
            battle.apply(Choose(option="go"))
            sprung = True
            break
        spec = next((s for s in pending.legal if s.type == "walk"), None) or next(
            (s for s in pending.legal if s.params.get("option") == "stay"), None) or pending.legal[0]
        if spec.type == "walk":
            battle.apply(battle.command(spec, facts={"inches": 1}))
        else:
            battle.apply(battle.command(spec))
    assert sprung and not battle.state.unit("scout-squad").data["hidden"]
    bot(battle)
    again = Battle.replay(battle.setup, battle.log_dicts(), rules=FigWarsRules({"rules_revision": 2}))
    assert again.digest() == battle.digest()
