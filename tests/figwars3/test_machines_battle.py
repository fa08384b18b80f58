"""Vehicles and mecha in a battle through the core engine: damage tables after hits,
machines' actions (PR-27), strikes against them, the screen's lines, and replay."""

from __future__ import annotations

from campaign.engine.battle import Battle
from campaign.rulesets.figwars3.play import FigWarsRules
from tests.figwars3.test_battle import bot, setup, start


def test_vehicles_against_mecha_play_out_and_replay() -> None:
    s = setup(a="USC Hedgehog Patrol", b="Mecha Lance", seed=3, rounds=4)
    battle = start(s)
    hedgehog = battle.state.unit("hedgehog").elements[0]
    assert hedgehog.data["machine"]["occupants"] == ["crew 1"] and hedgehog.data["dp"] == 8
    view = battle.rules.describe_unit(battle.state, "hedgehog")
    assert "DP 8/8, RAM 7, aboard: driver, crew 1" in view.elements[0]
    bot(battle)
    assert battle.is_over
    kinds = [e.kind for e in battle.events]
    assert "machine_damage" in kinds and "shot" in kinds
    again = Battle.replay(s, battle.log_dicts(), rules=FigWarsRules())
    assert again.digest() == battle.digest()


def test_a_vehicle_has_two_actions_per_seat_and_takes_no_stun() -> None:
    battle = start(setup(a="Imperial Armour", b="Mecha Lance", seed=2, rounds=2))
    rules = battle.rules
    tank = battle.state.unit("battle-tank").elements[0]
    from campaign.rulesets.figwars3 import machine_play

    assert machine_play.actions(rules._machines[tank.id], tank) == 2 * (1 + 2)
    vanguard = battle.state.unit("vanguard").elements[0]
    assert machine_play.actions(rules._machines[vanguard.id], vanguard) == 2
    bot(battle)
    assert not any(e.kind == "stunned" and e.data.get("model") in (tank.id, vanguard.id) for e in battle.events)
