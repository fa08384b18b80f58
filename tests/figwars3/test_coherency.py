"""Coherency (9, PR-34, PR-36): before a unit's first action its owner may report models
out of coherency; each checks alone (its TQ, one success) and a failure sends its next
action back into coherency. Scripted dice."""

from __future__ import annotations

import pytest

from campaign.engine.errors import IllegalCommand
from campaign.rulesets.figwars3.commands import Walk
from tests.figwars3.test_battle import setup, start
from tests.figwars3.test_interrupts import _battle, run

GUARD, GUARD2 = "guard-squad/guardsman", "guard-squad/guardsman-2"


def test_the_report_is_offered_before_the_first_action_only() -> None:
    battle = start(setup())
    battle.apply(battle.command(battle.pending.legal[0]))
    unit_id = battle.pending.legal[0].params["unit"]
    spec = next(s for s in battle.pending.legal if s.type == "coherency")
    assert spec.facts[0].picks == "unit_elements"
    model = battle.state.unit(unit_id).elements[0].id
    battle.apply({"type": "walk", "unit": unit_id, "model": model, "facts": {"inches": 1}})
    assert "coherency" not in {s.type for s in battle.pending.legal}


def test_a_model_that_fails_alone_must_move_back_first() -> None:
    battle = _battle()
    rules, state = battle.rules, battle.state
    unit = state.unit("guard-squad")  # TQ 1: one die, one success needed
    seen = run(rules._coherency(state, unit, [GUARD, GUARD2], battle.ctx), [], [[1], [3]])
    assert [r.count for r in seen] == [1, 1]
    assert state.element(GUARD).data["regroup"] and not state.element(GUARD2).data["regroup"]
    specs = rules._model_specs(state, unit, state.element(GUARD))
    assert {s.type for s in specs} == {"walk", "run"}
    run(rules._move(state, state.element(GUARD), Walk(unit="guard-squad", model=GUARD, facts={"inches": 2}), battle.ctx), [])
    assert "shoot" in {s.type for s in rules._model_specs(state, unit, state.element(GUARD))}
    with pytest.raises(IllegalCommand, match="FW3 9"):
        run(rules._coherency(state, unit, ["grunt-lance/grunt"], battle.ctx), [])


def test_a_tq0_model_may_focus_for_its_coherency_check() -> None:
    import attrs

    from campaign.engine.commands import Choose
    from campaign.engine.pending import Decision

    battle = _battle()
    rules, state = battle.rules, battle.state
    unit = state.unit("guard-squad")
    for model in (GUARD, GUARD2):
        rules._profiles[model] = attrs.evolve(rules.profile(model), tq=0)
    seen = run(rules._coherency(state, unit, [GUARD, GUARD2], battle.ctx),
               [Choose(option="focus"), Choose(option="no")], [[4]])  # PR-34: the Focus is its only die
    asks = [r for r in seen if isinstance(r, Decision)]
    assert len(asks) == 2 and "Focus" in asks[0].prompt
    assert [r.count for r in seen if not isinstance(r, Decision)] == [1]  # without Focus: no die to roll, a failure
    assert not state.element(GUARD).data["regroup"] and state.element(GUARD).data["actions"] == 1
    assert state.element(GUARD2).data["regroup"] and state.element(GUARD2).data["actions"] == 2
