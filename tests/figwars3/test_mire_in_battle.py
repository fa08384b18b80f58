"""Mire tests (8.10, PR-33) in a battle when the scenario turns the option on."""

from __future__ import annotations

from campaign.engine.battle import Battle
from campaign.rulesets.figwars3 import machine_play
from campaign.rulesets.figwars3.attack import drive
from campaign.rulesets.figwars3.commands import Walk
from campaign.rulesets.figwars3.play import FigWarsRules
from tests.figwars3.test_battle import setup


class Ctx:
    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []

    def emit(self, kind: str, text: str, **data: object) -> None:
        self.events.append((kind, text))


def test_a_tracked_vehicle_mires_and_breaks_free() -> None:
    rules = FigWarsRules({"mire_tests": True})
    battle = Battle.start(setup(a="Imperial Armour", b="Mecha Lance", seed=2, rounds=2), rules=rules)
    state = battle.state
    tank = state.unit("battle-tank").elements[0]
    tank.data["actions"] = 6
    machine = rules.machine(tank.id)
    assert machine is not None and machine.locomotion == "tracked"
    ctx = Ctx()
    drive(rules.resolve(state, Walk("battle-tank", tank.id, {"inches": 3, "difficult_terrain": True}), ctx), [[2]])
    assert machine_play.mire_state(tank).mired and machine_play.allowance(machine, tank, state.round) == 0
    assert "mired (1 failed test(s))" in ", ".join(machine_play.describe(machine, tank))
    # its next activation: 1d8 - 1; a 4 frees it with MOV halved for the turn
    tank.data["spent"] = 0
    drive(rules._start_model(state, tank, ctx), [[4]])
    assert not machine_play.mire_state(tank).mired and machine_play.allowance(machine, tank, state.round) == 3
    # without the option there is no test and no extra fact
    plain = FigWarsRules()
    Battle.start(setup(a="Imperial Armour", b="Mecha Lance", seed=2, rounds=2), rules=plain)
    assert machine_play.move_facts(machine, False) == ()
    assert [f.name for f in machine_play.move_facts(machine, True)] == ["difficult_terrain"]


def test_a_carrier_pushes_a_mired_tank_for_plus_one_on_its_next_test() -> None:
    import pytest

    from campaign.engine.errors import IllegalCommand
    from campaign.rulesets.figwars3.commands import Push

    rules = FigWarsRules({"mire_tests": True})
    battle = Battle.start(setup(a="Imperial Armour", b="Mecha Lance", seed=2, rounds=2), rules=rules)
    state = battle.state
    tank = state.unit("battle-tank").elements[0]
    carrier = state.unit("armoured-carrier").elements[0]
    tank.data["actions"] = carrier.data["actions"] = 6
    ctx = Ctx()
    with pytest.raises(IllegalCommand, match="not a mired vehicle"):
        drive(rules.resolve(state, Push("armoured-carrier", carrier.id, tank.id), ctx), [])
    drive(rules.resolve(state, Walk("battle-tank", tank.id, {"inches": 3, "difficult_terrain": True}), ctx), [[1]])
    assert machine_play.mire_state(tank).mired
    specs = machine_play.machine_specs(rules, state, carrier, [], {"unit": "armoured-carrier", "model": carrier.id}, "c")
    assert any(s.type == "push" and s.params["vehicle"] == tank.id for s in specs)
    drive(rules.resolve(state, Push("armoured-carrier", carrier.id, tank.id), ctx), [])  # SIZ 10 against 10: +1
    assert carrier.data["moved"] == 3 and carrier.data["actions"] == 5 and tank.data["mire_push"] == 1
    tank.data["spent"] = 0
    drive(rules._start_model(state, tank, ctx), [[3]])  # 3 - 1 failure + 1 push = 3: free
    assert not machine_play.mire_state(tank).mired and "mire_push" not in tank.data
