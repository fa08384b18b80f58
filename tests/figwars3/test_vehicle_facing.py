"""Vehicle, mecha and mount facing in the move command (8.9, PR-15): the players report
the path as segments and the move is costed by direction class and turns."""

from __future__ import annotations

import pytest

from campaign.engine.battle import Battle
from campaign.engine.errors import IllegalCommand
from campaign.rulesets.figwars3.attack import drive
from campaign.rulesets.figwars3.commands import Walk
from campaign.rulesets.figwars3.play import FigWarsRules
from tests.figwars3.test_battle import setup


class Ctx:
    def emit(self, kind: str, text: str, **data: object) -> None:
        pass


def armour() -> tuple[FigWarsRules, Battle]:
    rules = FigWarsRules()
    battle = Battle.start(setup(a="Imperial Armour", b="Mecha Lance", seed=2, rounds=2), rules=rules)
    for unit in battle.state.units:
        for el in unit.elements:
            el.data["actions"] = 6
    return rules, battle


def walk(rules: FigWarsRules, battle: Battle, model: str, facts: dict) -> None:  # type: ignore[type-arg]
    unit = model.split("/")[0]
    drive(rules.resolve(battle.state, Walk(unit, model, facts), Ctx()), [])


def test_a_tank_pays_for_turns_and_backing_up() -> None:
    rules, battle = armour()
    tank = "battle-tank/battle-tank"  # tracked, MOV 6
    walk(rules, battle, tank, {"segments": ["turn 2", "forward 4"]})  # 2" of turning (45 each) + 4"
    assert battle.state.element(tank).data["moved"] == 4
    with pytest.raises(IllegalCommand, match="costs"):
        walk(rules, battle, tank, {"segments": ["backward 3", "forward 1"]})  # 6 + 1 > 6
    walk(rules, battle, tank, {"segments": "backward 2, forward 2"})  # 4 + 2
    assert battle.state.element(tank).data["moved"] == 8


def test_a_tracked_vehicle_cannot_go_sideways_and_turns_once_per_3_inches_moving() -> None:
    rules, battle = armour()
    tank = "battle-tank/battle-tank"
    with pytest.raises(IllegalCommand, match="only hovering"):
        walk(rules, battle, tank, {"segments": ["sideways 2"]})
    with pytest.raises(IllegalCommand, match="once per 3"):
        walk(rules, battle, tank, {"segments": ["forward 2", "turn 1"]})
    walk(rules, battle, tank, {"segments": ["forward 3", "turn 1"]})
    # the turn's moves add up: 3" moved and 1 change so far, so a second change needs 6"
    with pytest.raises(IllegalCommand, match="once per 3"):
        walk(rules, battle, tank, {"segments": ["forward 2", "turn 1"]})


def test_mecha_turn_free_and_troopers_report_inches_only() -> None:
    rules, battle = armour()
    strider = "strider/strider"
    walk(rules, battle, strider, {"segments": ["turn 4", "sideways 3", "turn 2", "forward 4"]})  # PR-15
    assert battle.state.element(strider).data["moved"] == 7
    guard = "guard-squad/guardsman"
    with pytest.raises(IllegalCommand, match="report inches only"):
        walk(rules, battle, guard, {"segments": ["forward 2"]})
    with pytest.raises(IllegalCommand, match="not the 5"):
        walk(rules, battle, "battle-tank/battle-tank", {"segments": ["forward 4"], "inches": 5})
    with pytest.raises(IllegalCommand, match="a segment is"):
        walk(rules, battle, "battle-tank/battle-tank", {"segments": ["left 4"]})


def test_the_segments_fact_is_offered_to_machines_only() -> None:
    rules, battle = armour()
    state = battle.state
    tank = state.element("battle-tank/battle-tank")
    guard = state.element("guard-squad/guardsman")
    tank_walk = next(s for s in rules._model_specs(state, state.unit("battle-tank"), tank) if s.type == "walk")
    guard_walk = next(s for s in rules._model_specs(state, state.unit("guard-squad"), guard) if s.type == "walk")
    assert "segments" in {f.name for f in tank_walk.facts} and "segments" not in {f.name for f in guard_walk.facts}


def test_with_mire_tests_difficult_ground_costs_a_tracked_vehicle_nothing_extra() -> None:
    rules = FigWarsRules({"mire_tests": True})
    battle = Battle.start(setup(a="Imperial Armour", b="Mecha Lance", seed=2, rounds=2), rules=rules)
    tank = battle.state.element("battle-tank/battle-tank")
    tank.data["actions"] = 6
    drive(rules.resolve(battle.state, Walk("battle-tank", tank.id, {"inches": 6, "difficult": 6, "difficult_terrain": True}), Ctx()), [[5]])
    assert tank.data["moved"] == 6
    plain, other = armour()
    with pytest.raises(IllegalCommand, match="costs 12"):
        walk(plain, other, "battle-tank/battle-tank", {"inches": 6, "difficult": 6})


def test_a_weapon_with_a_limited_arc_asks_whether_the_target_lies_in_it() -> None:
    from campaign.rulesets.figwars3.commands import Shoot

    rules, battle = armour()
    state = battle.state

    def facts_of(model: str, weapon: str) -> set[str]:
        el = state.element(model)
        specs = rules._model_specs(state, state.unit(el.unit), el)
        spec = next(s for s in specs if s.type == "shoot" and s.params["weapon"] == weapon)
        return {f.name for f in spec.facts}

    from campaign.rulesets.figwars3 import machine_play

    assert machine_play.arc_fact(rules.machine("battle-tank/battle-tank"), "heavy cannon") == ()  # a turret: 360 degrees
    assert "in_arc" in facts_of("battle-tank/battle-tank", "Laser Cannon")  # a sponson: 180
    assert "in_arc" not in facts_of("armoured-carrier/armoured-carrier", "Storm Slugger")  # a pintle: what it sees
    assert "in_arc" in facts_of("strider/strider", "light autocannon")  # a mecha's body mount: 90 to the front
    target = state.unit("strider").elements[0]
    shot = Shoot("battle-tank", "battle-tank/battle-tank", "strider", target.id, "Laser Cannon", {"range_band": "short", "in_arc": False})
    with pytest.raises(IllegalCommand, match="outside the 180-degree arc"):
        rules.shot(state, shot)
    ok = Shoot("battle-tank", "battle-tank/battle-tank", "strider", target.id, "Laser Cannon", {"range_band": "short", "in_arc": True})
    assert rules.shot(state, ok)[2].id == target.id
    back = Shoot("strider", "strider/strider", "battle-tank", "battle-tank/battle-tank", "light autocannon", {"range_band": "short", "in_arc": False})
    with pytest.raises(IllegalCommand, match="outside the 90-degree arc"):
        rules.shot(state, back)
