"""Mindless and Soulless units (4.3 #22, #26, PR-39): the controller named in the unit's
`controller` field, TQ = the controller's - 1, acting uncontrolled when the controller
cannot see the unit, and what the controller's fall does to each kind."""

from __future__ import annotations

import attrs
import pytest

from campaign.engine.battle import Battle
from campaign.engine.commands import Choose
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import Decision, RollRequest
from campaign.force import Force
from campaign.rulesets.figwars3 import control
from campaign.rulesets.figwars3.commands import Walk
from campaign.rulesets.figwars3.play import FigWarsRules
from campaign.rulesets.figwars3.validation import validate
from tests.figwars3.test_battle import sample, setup
from tests.figwars3.test_interrupts import run


def _controlled(kind: str, controller: str = "Elite Lance") -> Force:
    force = sample("Revenant Host")
    units = tuple(
        attrs.evolve(u, stats={**u.stats, "controller": controller},
                     elements=tuple(attrs.evolve(e, attributes=(*e.attributes, kind)) for e in u.elements))
        if u.name == "Grunt Lance" else u
        for u in force.units
    )
    return attrs.evolve(force, units=units)


def _battle(kind: str) -> Battle:
    s = setup()
    a, b = s.sides
    return Battle.start(attrs.evolve(s, sides=(a, attrs.evolve(b, force=_controlled(kind)))), rules=FigWarsRules())


def test_a_controlled_unit_names_its_controller() -> None:
    assert control.kind_of({"Soulless", "Mindless"}) == "Soulless" and control.controlled_tq(0) == 0
    assert not [f for f in validate(_controlled("Mindless")) if "controller" in f.message]
    missing = [f.message for f in validate(_controlled("Mindless", controller=""))]
    assert any("needs a controller" in m for m in missing)
    wrong = [f for f in validate(_controlled("Soulless", controller="Nobody")) if f.severity == "error"]
    assert wrong and "not another unit" in wrong[0].message


def test_tq_comes_from_the_controller() -> None:
    battle = _battle("Mindless")
    rules, state = battle.rules, battle.state
    grunts = state.unit("grunt-lance")
    assert grunts.data["controller"] == "elite-lance"
    assert {rules.profile(e.id).tq for e in grunts.elements} == {2}  # the elites' best TQ 3 - 1
    assert "controller" not in state.unit("jackal-pack").data


def test_an_uncontrolled_activation_offers_only_fighting_shooting_and_a_stagger() -> None:
    battle = _battle("Mindless")
    rules, state = battle.rules, battle.state
    gen = rules.activation(state, "grunt-lance", battle.ctx)
    ask = next(gen)
    while not (isinstance(ask, Decision) and "controller" in ask.prompt):
        ask = gen.send(Choose(option="hold"))
    ask = gen.send(Choose(option="no"))  # the elites cannot see it: uncontrolled this activation
    assert isinstance(ask, Decision)
    kinds = {s.type for s in ask.legal}
    assert kinds <= {*control.UNCONTROLLED, "share", "coherency"} and "aim" not in kinds and "run" not in kinds
    assert "walk" in kinds
    grunt = state.element("grunt-lance/grunt")
    with pytest.raises(IllegalCommand, match="staggers 1"):
        run(rules._move(state, grunt, Walk(unit="grunt-lance", model=grunt.id, facts={"inches": 2}), battle.ctx), [])
    seen = run(rules._move(state, grunt, Walk(unit="grunt-lance", model=grunt.id, facts={"inches": 1}), battle.ctx), [], [[6]])
    assert [(r.count, r.die) for r in seen if isinstance(r, RollRequest)] == [(1, 8)]
    assert [e for e in battle.events if e.kind == "stagger"][-1].data["direction"] == 6


def test_the_controller_falls_soulless_collapse_mindless_panic() -> None:
    for kind in ("Soulless", "Mindless"):
        battle = _battle(kind)
        rules, state = battle.rules, battle.state
        grunts = state.unit("grunt-lance")
        for el in list(state.unit("elite-lance").alive):
            rules._remove(state, el, battle.ctx)
        if kind == "Soulless":
            assert grunts.eliminated and any(e.kind == "collapse" for e in battle.events)
        else:
            assert not grunts.eliminated and grunts.data["uncontrolled"] and grunts.data["pl"] == 2 and grunts.data["marker"]
            grunts.data.update(marker=False, status="falling_back")
            seen = run(rules.on_round_end(state, battle.ctx), [], [])
            assert not any(isinstance(r, RollRequest) and "rally" in r.purpose for r in seen)  # no rally without a controller
            assert grunts.data["status"] == "falling_back"


# --- revision 2: the controller is a model, and PR-39's sequence ------------------------

def _battle2(kind: str) -> Battle:
    s = setup()
    a, b = s.sides
    return Battle.start(attrs.evolve(s, sides=(a, attrs.evolve(b, force=_controlled(kind)))),
                        rules=FigWarsRules({"rules_revision": 2}))


def _drive(battle: Battle, gen, pick=lambda d: d.legal[0], face: int = 6) -> list:  # type: ignore[no-untyped-def]
    """Run a rules generator: every roll shows `face`, every decision takes `pick`."""
    seen, answer = [], None
    try:
        while True:
            request = gen.send(answer)
            seen.append(request)
            answer = battle.command(pick(request)) if isinstance(request, Decision) else [face] * request.count
    except StopIteration:
        return seen


def _types(battle: Battle, unit: str) -> set[str]:
    models = battle.rules.model_actions()
    return {s.type for e in battle.state.unit(unit).alive for s in models.commands(battle.state, e.id)}


def test_revision_two_names_the_controller_model_and_its_fall_alone_loses_control() -> None:
    assert control.best_model([("a", 2, False), ("b", 3, False), ("c", 3, True), ("d", 3, True)]) == "c"
    for kind in ("Soulless", "Mindless"):
        battle = _battle2(kind)
        rules, state = battle.rules, battle.state
        grunts = state.unit("grunt-lance")
        boss = grunts.data["controller_model"]
        assert boss == "elite-lance/elite" and {rules.profile(e.id).tq for e in grunts.elements} == {2}
        other = next(e for e in state.unit("elite-lance").alive if e.id != boss)
        rules._remove(state, other, battle.ctx)  # another elite falls: still controlled
        assert not grunts.data.get("uncontrolled") and not grunts.eliminated
        rules._remove(state, state.element(boss), battle.ctx)  # the controller falls, its unit stands
        assert not state.unit("elite-lance").eliminated
        if kind == "Soulless":
            assert grunts.eliminated
        else:
            assert grunts.data["uncontrolled"] and grunts.data["pl"] == 2 and grunts.data["lost_round"] == 1


def test_revision_two_a_controller_down_at_zero_dp_controls_nothing() -> None:
    battle = _battle2("Mindless")
    rules, state = battle.rules, battle.state
    state.element("elite-lance/elite").data["incap"] = state.round
    gen = rules.activation(state, "grunt-lance", battle.ctx)
    prompts = [next(gen).prompt]
    for _ in range(10):
        if "acts uncontrolled (PR-39)" in prompts[-1]:
            break
        prompts.append(gen.send(Choose(option="hold")).prompt)  # sentries held
    assert not any("see a model" in p for p in prompts)  # not asked: it cannot control
    assert "acts uncontrolled (PR-39)" in prompts[-1]


def test_pr39_sequence_check_passed_then_an_idle_turn_then_the_random_move_then_the_drives() -> None:
    battle = _battle2("Mindless")
    rules, state, ctx = battle.rules, battle.state, battle.ctx
    grunts = state.unit("grunt-lance")
    rules._remove(state, state.element("elite-lance/elite"), ctx)
    # morale phase: every die a 6, the check holds; the unit idles next turn
    seen = _drive(battle, rules.on_round_end(state, ctx))
    assert any(isinstance(r, RollRequest) for r in seen) and grunts.data["status"] == "normal"
    assert grunts.data["idle_round"] == 2
    # turn 2: it does nothing at all
    state.round = 2
    grunts.data["activated"] = False
    idle = list(_drive(battle, rules.activation(state, "grunt-lance", ctx), pick=lambda d: Choose(option="hold") and d.legal[0]))
    assert not any(isinstance(r, Decision) and "grunt" in str(r.legal[0].params) for r in idle)  # nothing offered to it
    assert all(e.data["actions"] == 0 for e in grunts.alive)
    assert [e.kind for e in battle.events][-1] == "idle"
    # turn 3: the first random move: each model may only stagger 1"
    state.round = 3
    gen = rules.activation(state, "grunt-lance", ctx)
    first = next(gen)
    while not any(s.type == "walk" for s in first.legal):
        first = gen.send(battle.command(next(s for s in first.legal if s.type in ("choose", "share"))))
    assert grunts.data["drive"] == "stagger" and _types(battle, "grunt-lance") <= {"walk", "done"}
    grunt = state.element("grunt-lance/grunt")
    rolled = run(rules._move(state, grunt, Walk(unit="grunt-lance", model=grunt.id, facts={"inches": 1}), ctx), [], [[3]])
    assert [(r.count, r.die) for r in rolled if isinstance(r, RollRequest)] == [(1, 8)]
    # turn 4: the owner reports what is near; an enemy in contact: only strikes
    state.round = 4
    gen = rules.activation(state, "grunt-lance", ctx)
    ask = next(gen)
    while "acts uncontrolled (PR-39)" not in ask.prompt:
        ask = gen.send(battle.command(ask.legal[0]))
    assert [s.params["option"] for s in ask.legal] == ["strike", "shoot", "stagger"]
    gen.send(Choose(option="strike"))
    assert grunts.data["drive"] == "strike" and _types(battle, "grunt-lance") <= {"strike", "done"}
    grunts.data["drive"] = "shoot"
    assert "shoot" in _types(battle, "grunt-lance") and "walk" not in _types(battle, "grunt-lance")


def test_revision_two_a_failed_check_falls_back_and_never_idles() -> None:
    battle = _battle2("Mindless")
    rules, state, ctx = battle.rules, battle.state, battle.ctx
    grunts = state.unit("grunt-lance")
    rules._remove(state, state.element("elite-lance/elite"), ctx)
    _drive(battle, rules.on_round_end(state, ctx), face=1)
    assert grunts.data["status"] != "normal" and "idle_round" not in grunts.data


def test_revision_two_a_controller_dying_untreated_after_the_morale_phase_is_checked_next_turn() -> None:
    battle = _battle2("Mindless")
    rules, state, ctx = battle.rules, battle.state, battle.ctx
    grunts = state.unit("grunt-lance")
    boss = state.element("elite-lance/elite")
    boss.data.update(incap=1, dp=0)
    state.round = 2  # a turn has passed: it dies untreated at this turn's end
    _drive(battle, rules.on_round_end(state, ctx))
    assert not boss.alive and grunts.data["uncontrolled"]
    assert "idle_round" not in grunts.data and grunts.data["lost_round"] == 3 and grunts.data["pl_carry"] == 2
    state.round = 3
    _drive(battle, rules.on_round_start(state, ctx))
    assert grunts.data["pl"] == 2 and grunts.data["marker"] and "pl_carry" not in grunts.data
    _drive(battle, rules.on_round_end(state, ctx))  # every die a 6: it holds, then idles a turn
    assert grunts.data["status"] == "normal" and grunts.data["idle_round"] == 4
