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
