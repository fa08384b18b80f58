"""Troops aboard vehicles in a battle (4.4, 13, PR-27, PR-28, PR-41): embarking and
disembarking, outside riders, firing from open tops, those aboard when the vehicle is
hit or destroyed, and a crew member taking the dead driver's place. Scripted dice."""

from __future__ import annotations

from fractions import Fraction

import attrs
import pytest

from campaign.engine.battle import Battle
from campaign.engine.errors import IllegalCommand
from campaign.rulesets.figwars3 import machine_play, passengers
from campaign.rulesets.figwars3.attack import drive
from campaign.rulesets.figwars3.commands import Disembark, Embark, Shoot, Walk
from campaign.rulesets.figwars3.play import FigWarsRules
from tests.figwars3.test_battle import setup


class Ctx:
    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []

    def emit(self, kind: str, text: str, **data: object) -> None:
        self.events.append((kind, text))


def patrol() -> tuple[FigWarsRules, Battle]:
    rules = FigWarsRules()
    battle = Battle.start(setup(a="USC Hedgehog Patrol", b="Revenant Host", seed=3), rules=rules)
    for unit in battle.state.units:
        for el in unit.elements:
            el.data["actions"] = 2
    return rules, battle


def board(rules: FigWarsRules, battle: Battle, n: int, outside: bool = False) -> list:  # type: ignore[type-arg]
    marines = battle.state.unit("marine-fireteam").elements
    for m in marines[:n]:
        drive(rules.resolve(battle.state, Embark("marine-fireteam", m.id, "hedgehog/hedgehog", {"outside": outside}), Ctx()), [])
    return marines[:n]


def test_embark_fills_cap_then_riders_cling_on_outside() -> None:
    rules, battle = patrol()
    state = battle.state
    hedgehog = state.element("hedgehog/hedgehog")
    machine = rules.machine(hedgehog.id)
    assert machine is not None and (machine.cap, machine.crew, machine.siz) == (4, 1, 8)
    inside = board(rules, battle, 3)
    assert machine_play.record(hedgehog).occupants == ("crew 1", *(m.id for m in inside))
    assert all(m.data["actions"] == 1 and m.data["aboard"] == hedgehog.id for m in inside)  # 1 action (PR-28)
    fourth = state.unit("marine-fireteam").elements[3]
    with pytest.raises(IllegalCommand, match="full"):
        drive(rules.resolve(state, Embark("marine-fireteam", fourth.id, hedgehog.id), Ctx()), [])
    drive(rules.resolve(state, Embark("marine-fireteam", fourth.id, hedgehog.id, {"outside": True}), Ctx()), [])
    assert hedgehog.data["riders"] == [fourth.id] and fourth.data["outside"]
    view = rules.describe_unit(state, "hedgehog").elements[0]
    assert "aboard: driver, crew 1, marine, marine-2, marine-3" in view and "riders: " in view
    assert "aboard Hedgehog" in rules.describe_unit(state, "marine-fireteam").elements[0]


def test_an_outside_rider_refused_while_there_is_room_inside() -> None:
    rules, battle = patrol()
    marine = battle.state.unit("marine-fireteam").elements[0]
    with pytest.raises(IllegalCommand, match="room inside"):
        drive(rules.resolve(battle.state, Embark("marine-fireteam", marine.id, "hedgehog/hedgehog", {"outside": True}), Ctx()), [])


def test_passengers_inside_cannot_be_targeted_and_riders_lose_their_armour() -> None:
    rules, battle = patrol()
    state = battle.state
    inside = board(rules, battle, 3)
    rider = state.unit("marine-fireteam").elements[3]
    before = rules._defender(rider).defence
    drive(rules.resolve(state, Embark("marine-fireteam", rider.id, "hedgehog/hedgehog", {"outside": True}), Ctx()), [])
    grunt = state.unit("grunt-lance").elements[0]
    with pytest.raises(IllegalCommand, match="can be attacked"):
        rules.shot(state, Shoot("grunt-lance", grunt.id, "marine-fireteam", inside[0].id, "", {}))
    _, _, target, _ = rules.shot(state, Shoot("grunt-lance", grunt.id, "marine-fireteam", "", "", {}))
    assert target.id == rider.id  # the only model left to shoot at
    assert rules._defender(rider).defence == before - rules._armour[rider.id] < before


def test_open_top_passengers_may_shoot_a_closed_hull_holds_fire() -> None:
    rules, battle = patrol()
    state = battle.state
    (marine,) = board(rules, battle, 1)
    unit = state.unit("marine-fireteam")
    kinds = {s.type for s in passengers.adjust(rules, state, unit, marine, rules._model_specs(state, unit, marine))}
    assert {"disembark", "shoot"} <= kinds and not kinds & {"walk", "run", "strike", "embark"}
    hedgehog = state.element("hedgehog/hedgehog")
    rules._machines[hedgehog.id] = attrs.evolve(rules._machines[hedgehog.id], open_topped=False)
    kinds = {s.type for s in passengers.adjust(rules, state, unit, marine, rules._model_specs(state, unit, marine))}
    assert "disembark" in kinds and "shoot" not in kinds and "aim" not in kinds


def test_disembark_costs_an_action_and_not_after_the_vehicle_moved_past_its_mov() -> None:
    rules, battle = patrol()
    state = battle.state
    a, b = board(rules, battle, 2)
    drive(rules.resolve(state, Disembark("marine-fireteam", a.id), Ctx()), [])
    assert a.data["actions"] == 0 and not a.data["aboard"]
    assert machine_play.record(state.element("hedgehog/hedgehog")).occupants == ("crew 1", b.id)
    hedgehog = state.element("hedgehog/hedgehog")
    hedgehog.data["moved"] = 10  # MOV 9
    with pytest.raises(IllegalCommand, match="moved more than its MOV"):
        drive(rules.resolve(state, Disembark("marine-fireteam", b.id), Ctx()), [])
    c = state.unit("marine-fireteam").elements[2]
    with pytest.raises(IllegalCommand, match="nobody gets in"):
        drive(rules.resolve(state, Embark("marine-fireteam", c.id, hedgehog.id), Ctx()), [])


def test_a_crew_hit_kills_a_passenger_who_counts_for_his_own_unit() -> None:
    rules, battle = patrol()
    state = battle.state
    inside = board(rules, battle, 3)
    hedgehog = state.element("hedgehog/hedgehog")
    unit = state.unit("marine-fireteam")
    ctx = Ctx()
    # 1 DP; location 5 (crew); open-topped: 1 casualty; d8 3: not the driver; 1d4 of 4 aboard: the 2nd
    drive(rules._hurt(state, hedgehog, 1, False, ctx), [[5], [3], [2]])
    assert not inside[0].alive and unit.data["pl"] == 1 and unit.data["marker"]  # PR-41
    assert machine_play.record(hedgehog).occupants == ("crew 1", inside[1].id, inside[2].id)
    assert ("passenger_killed", "Marine dies aboard Hedgehog") in ctx.events


def test_a_destroyed_vehicle_puts_its_survivors_out_pinned() -> None:
    rules, battle = patrol()
    state = battle.state
    inside = board(rules, battle, 3)
    rider = state.unit("marine-fireteam").elements[3]
    drive(rules.resolve(state, Embark("marine-fireteam", rider.id, "hedgehog/hedgehog", {"outside": True}), Ctx()), [])
    hedgehog = state.element("hedgehog/hedgehog")
    ctx = Ctx()
    drive(rules._hurt(state, hedgehog, 8, False, ctx), [[2]])  # DP 0; crew fate 2: no more casualties
    assert not hedgehog.alive
    for m in (*inside, rider):
        assert m.alive and not m.data["aboard"] and m.data["pins"] == 1  # PR-28
    assert rules._targets(state.unit("marine-fireteam")) == [*inside, rider]


def test_riders_over_half_the_siz_halve_the_vehicle_and_spend_an_action_each_turn() -> None:
    rules, battle = patrol()
    state = battle.state
    hedgehog = state.element("hedgehog/hedgehog")
    machine = rules.machine(hedgehog.id)
    assert machine is not None
    hedgehog.data["riders"] = ["x"] * 4
    assert machine_play.allowance(machine, hedgehog, 1) == 9
    hedgehog.data["riders"] = ["x"] * 5
    assert machine_play.allowance(machine, hedgehog, 1) == 4
    rider = state.unit("marine-fireteam").elements[0]
    rider.data.update(aboard=hedgehog.id, outside=True, actions=2)
    ctx = Ctx()
    passengers.cling(rider, ctx)
    assert rider.data["actions"] == 1 and ctx.events[0][0] == "cling"


def test_riders_take_the_fast_target_bonus_with_the_vehicle() -> None:
    rules, battle = patrol()
    state = battle.state
    inside = board(rules, battle, 3)
    rider = state.unit("marine-fireteam").elements[3]
    drive(rules.resolve(state, Embark("marine-fireteam", rider.id, "hedgehog/hedgehog", {"outside": True}), Ctx()), [])
    hedgehog = state.element("hedgehog/hedgehog")
    hedgehog.data.update(actions=4, moved=3)
    drive(rules.resolve(state, Walk("hedgehog", hedgehog.id, {"inches": 9}), Ctx()), [])
    assert hedgehog.data["fast"] and rider.data["fast"] and not inside[0].data["fast"]


def test_a_crew_member_takes_over_from_a_dead_driver() -> None:
    rules, battle = patrol()
    state = battle.state
    hedgehog = state.element("hedgehog/hedgehog")
    machine = rules.machine(hedgehog.id)
    assert machine is not None
    ctx = Ctx()
    # 1 DP; location 6 (crew); 1 casualty; d8 8: the driver
    drive(rules._hurt(state, hedgehog, 1, False, ctx), [[6], [8]])
    rec = machine_play.record(hedgehog)
    assert not rec.driver_alive and rec.driverless_turn == state.round
    assert machine_play.actions(machine, hedgehog) == 2  # the crew member's seat only
    drive(passengers.take_over(machine, hedgehog, state.round, ctx, state), [])
    assert not machine_play.record(hedgehog).driver_alive  # not in the same turn
    hedgehog.data["actions"] = 2
    drive(passengers.take_over(machine, hedgehog, state.round + 1, ctx, state), [])
    rec = machine_play.record(hedgehog)
    assert rec.driver_alive and rec.occupants == ()
    assert not rec.can_move(state.round + 1) and rec.can_move(state.round + 2)  # drives from the following activation


def test_vehicles_never_check_morale_so_never_fall_back() -> None:
    rules, battle = patrol()
    state = battle.state
    tank = state.unit("hedgehog")
    tank.data.update(marker=True, pl=3)
    ctx = Ctx()
    ctx.setup = battle.setup  # type: ignore[attr-defined]
    drive(rules.on_round_end(state, ctx), [])  # 14.1: nothing to roll for the vehicle
    assert tank.data["status"] == "normal" and not any(k == "morale" for k, _ in ctx.events)
    assert rules._kind(tank) == "vehicle" and rules._kind(state.unit("marine-fireteam")) == "trooper"
    drive(rules._horrific(state, tank, ctx), [])  # a horror's instant check (PR-38) passes it by
    assert tank.data["pl"] == 3 and not tank.data.get("horrified")


def _answer(gen, option: str):  # type: ignore[no-untyped-def]
    """Run a generator to its one Decision, answer it, and run it out (no dice)."""
    from campaign.engine.commands import Choose

    decision = next(gen)
    assert decision.kind() == "decision"
    try:
        gen.send(Choose(option=option))
    except StopIteration:
        pass
    return decision


def _driverless_with_passengers(rules: FigWarsRules, battle: Battle) -> tuple:  # type: ignore[type-arg]
    """The Hedgehog with two marines aboard, its crew member and then its driver killed."""
    state = battle.state
    inside = board(rules, battle, 2)
    hedgehog = state.element("hedgehog/hedgehog")
    # 1 DP: location 5 (crew), 1 casualty, d8 3 (not the driver), 1d3 of 3 aboard: the 1st (crew 1)
    drive(rules._hurt(state, hedgehog, 1, False, Ctx()), [[5], [3], [1]])
    # 1 DP: location 5, 1 casualty, d8 8: the driver
    drive(rules._hurt(state, hedgehog, 1, False, Ctx()), [[5], [8]])
    rec = machine_play.record(hedgehog)
    assert not rec.driver_alive and rec.occupants == tuple(m.id for m in inside)
    return hedgehog, inside


def test_a_passenger_takes_over_when_no_crew_is_left() -> None:
    rules, battle = patrol()
    state = battle.state
    hedgehog, (a, b) = _driverless_with_passengers(rules, battle)
    machine = rules.machine(hedgehog.id)
    ctx = Ctx()
    drive(passengers.take_over(machine, hedgehog, state.round, ctx, state), [])  # not in the same turn: nothing asked
    decision = _answer(passengers.take_over(machine, hedgehog, state.round + 1, ctx, state), b.id)
    assert [s.params["option"] for s in decision.legal] == [a.id, b.id, "nobody"]
    rec = machine_play.record(hedgehog)
    assert rec.driver_alive and rec.occupants == (a.id,) and hedgehog.data["driver"] == b.id and b.data["driving"]
    assert not rec.can_move(state.round + 1) and rec.can_move(state.round + 2)  # drives from the following activation
    assert machine_play.actions(machine, hedgehog) == 2  # the driver's seat
    unit = state.unit("marine-fireteam")
    kinds = {s.type for s in passengers.adjust(rules, state, unit, b, rules._model_specs(state, unit, b))}
    assert "disembark" in kinds and not kinds & {"shoot", "walk", "embark"}  # it acts only as the driver


def test_a_passenger_may_decline_and_the_driving_passenger_dies_with_the_driver_seat() -> None:
    rules, battle = patrol()
    state = battle.state
    hedgehog, (a, b) = _driverless_with_passengers(rules, battle)
    machine = rules.machine(hedgehog.id)
    _answer(passengers.take_over(machine, hedgehog, state.round + 1, Ctx(), state), "nobody")
    assert not machine_play.record(hedgehog).driver_alive and "driver" not in hedgehog.data
    _answer(passengers.take_over(machine, hedgehog, state.round + 2, Ctx(), state), a.id)
    unit = state.unit("marine-fireteam")
    pl = unit.data["pl"]
    ctx = Ctx()
    # 1 DP: location 6 (crew), 1 casualty, d8 7: the driver -- the marine at the controls
    drive(rules._hurt(state, hedgehog, 1, False, ctx), [[6], [7]])
    assert not a.alive and b.alive and unit.data["pl"] == pl + 1  # a casualty of its own unit (PR-41)
    assert "driver" not in hedgehog.data and not machine_play.record(hedgehog).driver_alive
    assert ("passenger_killed", "Marine dies at the controls of Hedgehog") in ctx.events


def test_a_driving_passenger_survives_the_wreck_pinned_or_leaves_the_seat_empty() -> None:
    rules, battle = patrol()
    state = battle.state
    hedgehog, (a, b) = _driverless_with_passengers(rules, battle)
    machine = rules.machine(hedgehog.id)
    _answer(passengers.take_over(machine, hedgehog, state.round + 1, Ctx(), state), a.id)
    a.data["actions"] = 2
    drive(rules.resolve(state, Disembark("marine-fireteam", a.id), Ctx()), [])  # it gets out: the seat is empty
    rec = machine_play.record(hedgehog)
    assert not a.data["aboard"] and not a.data.get("driving") and not rec.driver_alive and "driver" not in hedgehog.data
    _answer(passengers.take_over(machine, hedgehog, state.round + 1, Ctx(), state), b.id)
    drive(rules._hurt(state, hedgehog, 8, False, Ctx()), [[3]])  # destroyed; crew fate 3: no more casualties
    assert b.alive and not b.data["aboard"] and b.data["pins"] == 1 and not b.data.get("driving")  # PR-28, PR-65


def test_heavy_passengers_fill_more_cap_by_the_option() -> None:
    rules, battle = patrol()
    state = battle.state
    hedgehog = state.element("hedgehog/hedgehog")
    marines = state.unit("marine-fireteam").elements
    assert rules.profile(marines[0].id).defence < passengers.HEAVY_DEF
    assert passengers.space_of(rules, marines[0]) == 1.0
    rules.options["heavy_passengers"] = "2"
    assert passengers.space_of(rules, marines[0]) == 1.0  # DEF 2: one space whatever the option
    ctx = Ctx()
    for m in marines[:3]:
        rules._profiles[m.id] = attrs.evolve(rules.profile(m.id), defence=4)  # as if in powered armour
    assert passengers.space_of(rules, marines[0]) == 2.0
    drive(rules.resolve(state, Embark("marine-fireteam", marines[0].id, hedgehog.id), ctx), [])
    assert marines[0].data["half_spaces"] == 4 and passengers.room(4, hedgehog, state) == 1  # crew 1 + 2
    with pytest.raises(IllegalCommand, match="2 spaces, 1 left"):
        drive(rules.resolve(state, Embark("marine-fireteam", marines[1].id, hedgehog.id), ctx), [])
    drive(rules.resolve(state, Embark("marine-fireteam", marines[3].id, hedgehog.id), ctx), [])  # DEF 2 fits
    drive(rules.resolve(state, Disembark("marine-fireteam", marines[0].id), ctx), [])
    assert "half_spaces" not in marines[0].data and passengers.room(4, hedgehog, state) == 2
    rules.options["heavy_passengers"] = "1.5"
    drive(rules.resolve(state, Embark("marine-fireteam", marines[1].id, hedgehog.id), ctx), [])
    assert passengers.room(4, hedgehog, state) == Fraction(1, 2) and marines[1].data["half_spaces"] == 3
    with pytest.raises(IllegalCommand, match="1.5 spaces, 0.5 left"):
        drive(rules.resolve(state, Embark("marine-fireteam", marines[2].id, hedgehog.id), ctx), [])


def test_revision_one_battles_ask_no_passenger_to_drive() -> None:
    rules, battle = patrol()
    state = battle.state
    hedgehog, _ = _driverless_with_passengers(rules, battle)
    state.round += 1
    assert rules.revision == 1
    drive(rules._start_model(state, hedgehog, Ctx()), [])  # no decision: nobody takes over
    assert not machine_play.record(hedgehog).driver_alive
    rules.revision = 2
    state.round += 1
    gen = rules._start_model(state, hedgehog, Ctx())
    assert "no driver" in next(gen).prompt


def test_a_passenger_at_the_controls_rams_with_his_own_tq() -> None:
    from campaign.rulesets.figwars3.commands import Ram

    rules, battle = patrol()
    state = battle.state
    hedgehog, (a, b) = _driverless_with_passengers(rules, battle)
    machine = rules.machine(hedgehog.id)
    _answer(passengers.take_over(machine, hedgehog, state.round + 1, Ctx(), state), b.id)
    rules._profiles[b.id] = attrs.evolve(rules.profile(b.id), tq=3)
    assert machine.tq == 1 and machine_play.driven(rules, hedgehog, machine).tq == 3
    grunt = state.unit("grunt-lance").elements[0]
    report = machine_play.ram_report(rules, state, Ram("hedgehog", hedgehog.id, {"victims": [grunt.id], "inches": 2}))
    assert report.lines[0].startswith("Hedgehog 3d +")  # 10.11: the driver's TQ in dice, RAM as successes
