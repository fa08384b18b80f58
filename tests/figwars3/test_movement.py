"""Movement from the reported path (8.1-8.6): terrain costs against the allowance, the
obstacle test, jumps over gaps and down, tall models and falls, with scripted dice."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from campaign.engine.errors import IllegalCommand
from campaign.rulesets.figwars3 import movement
from campaign.rulesets.figwars3.commands import Walk
from campaign.rulesets.figwars3.attack import drive
from tests.figwars3.test_interrupts import _battle, run

GUARD = "guard-squad/guardsman"  # MOV 4


def test_terrain_costs() -> None:
    assert movement.path_cost(6, {"difficult": 2}, climbing=False) == 8
    assert movement.path_cost(4, {"incline": 3}, climbing=False) == 7
    assert movement.path_cost(4, {"incline": 3}, climbing=True) == 4
    assert movement.path_cost(3, {"sheer": 2}, climbing=True) == 5
    with pytest.raises(IllegalCommand, match="impassable"):
        movement.path_cost(3, {"sheer": 2}, climbing=False)
    with pytest.raises(IllegalCommand, match="more rough"):
        movement.path_cost(2, {"difficult": 3}, climbing=False)


@pytest.mark.parametrize(("inches", "legs", "result"), [
    (1, "average", (0, 0)), (2, "average", (0, 1)), (3, "average", (1, 1)), (5, "average", (2, 1)),
    (7, "average", (3, 1)), (9, "average", (4, 2)), (12, "average", (5, 2)), (13, "average", (6, 2)),
    (4, "1-3in", (0, 1)), (9, "3-5in", (2, 1)),
])
def test_fall_table_with_tall_models(inches: int, legs: str, result: tuple[int, int]) -> None:
    assert movement.fall(inches, legs) == result


def test_obstacle_and_jump_tests() -> None:
    assert [movement.obstacle_result(t) for t in (2, 3, 6, 7)] == ["fail", "stop", "stop", "free"]
    assert drive(movement.obstacle_test("low", 1), [[2]]) == "stop"  # +1 for an extra inch
    assert drive(movement.obstacle_test("high", 0), [[7]]) == "stop"  # -1 above chest height
    assert drive(movement.jump_gap(5, 4, "average", False), [[4]])  # 4 + 2 for the run-up beats 5
    assert not drive(movement.jump_gap(5, 4, "average", True), [[4]])  # the far side is higher
    assert drive(movement.jump_down(3, "1-3in"), [[3]]) and not drive(movement.jump_down(3, "average"), [[3]])


def _walk(**facts: Any) -> Walk:
    return Walk(unit="guard-squad", model=GUARD, facts=facts)


def test_a_walk_through_rough_ground_costs_more_of_the_allowance() -> None:
    battle = _battle()
    rules, state = battle.rules, battle.state
    with pytest.raises(IllegalCommand, match="costs 5"):
        run(rules._move(state, state.element(GUARD), _walk(inches=3, difficult=2), battle.ctx), [])
    run(rules._move(state, state.element(GUARD), _walk(inches=2, difficult=2), battle.ctx), [])
    assert state.element(GUARD).data["moved"] == 2 and state.element(GUARD).data["actions"] == 1
    spec = next(s for s in rules._model_specs(state, state.unit("guard-squad"), state.element(GUARD)) if s.type == "walk")
    assert {"difficult", "incline", "sheer", "obstacle", "jump_gap", "jump_down", "legs"} <= {f.name for f in spec.facts}


def test_a_failed_jump_falls_hurts_and_takes_actions_into_the_next_activation() -> None:
    battle = _battle()
    rules, state = battle.rules, battle.state
    guard = state.element(GUARD)
    guard.data["dp"] = 5
    seen = run(rules._move(state, guard, _walk(inches=4, jump_gap=6, run_up=4, fall_depth=10), battle.ctx), [], [[2]])
    assert [r.die for r in seen] == [8]
    # 10" down: 5 DP and 2 actions; the walk left one, the other comes off the next activation
    assert guard.data["dp"] == 0 and guard.data["actions"] == 0 and guard.data["lost"] == 1
    guard.data.update(dp=5, incap=None, spent=0)
    run(rules._start_model(state, guard, battle.ctx), [])
    assert guard.data["actions"] == 1 and guard.data["lost"] == 0


def test_an_obstacle_is_rolled_for_and_a_dodger_cannot_dodge_a_fall() -> None:
    battle = _battle()
    rules, state = battle.rules, battle.state
    guard = state.element(GUARD)
    run(rules._move(state, guard, _walk(inches=3, obstacle="low"), battle.ctx), [], [[1]])
    assert [e.data["result"] for e in battle.events if e.kind == "obstacle"] == ["fail"]
    rules._profiles[GUARD] = attrs.evolve(rules.profile(GUARD), abilities=rules.profile(GUARD).abilities | {"Dodge"})
    guard.data.update(actions=2, dp=5)
    seen = run(rules._move(state, guard, _walk(inches=1, jump_down=4), battle.ctx), [], [[1]])
    assert [r.die for r in seen] == [8] and guard.data["dp"] == 3  # 4" down: 2 DP, no Dodge roll


def _give(battle: Any, model: str, **changes: Any) -> None:
    battle.rules._profiles[model] = attrs.evolve(battle.rules.profile(model), **changes)


def test_special_movers_allowances_and_costs() -> None:
    # (allowance, cost, inches counted against 2 x MOV) for MOV 4
    assert movement.special_move("ground", 8, {"difficult": 3}, False, 4, 0, True, leap=3) == (11, 8, 5)  # leapt over the rough
    assert movement.special_move("fly", 12, {}, False, 4, 6, True) == (12, 12, 12)  # flight doubled by a run
    assert movement.special_move("jump", 12, {}, False, 4, 0, False) == (12, 12, 0)  # the jump alone: not counted (PR-31)
    assert movement.special_move("jump", 15, {"difficult": 1}, False, 4, 0, True) == (16, 16, 3)  # 12" jump + MOV once
    assert movement.special_move("ground", 2, {}, False, 4, 0, False, stand_up=True) == (4, 4, 2)  # standing up costs 2"
    for bad in (dict(mode="ground", leap=5, running=True), dict(mode="ground", leap=2, running=False), dict(mode="fly", leap=0, running=False)):
        with pytest.raises(IllegalCommand, match="Leap|flier"):
            movement.special_move(bad["mode"], 4, {}, False, 4, 0, bad["running"], leap=bad["leap"])  # type: ignore[arg-type]
    with pytest.raises(IllegalCommand, match="jump alone"):
        movement.special_move("jump", 14, {}, False, 4, 0, False)


def test_a_flier_ignores_terrain_and_keeps_to_flight_or_mov_in_a_turn() -> None:
    battle = _battle()
    rules, state = battle.rules, battle.state
    guard = state.element(GUARD)
    _give(battle, GUARD, flight=6, abilities=rules.profile(GUARD).abilities | {"Flight"})
    spec = next(s for s in rules._model_specs(state, state.unit("guard-squad"), guard) if s.type == "walk")
    assert {"fly", "prone"} <= {f.name for f in spec.facts} and "jump" not in {f.name for f in spec.facts}
    # 6" over 6" of sheer face and an obstacle: no cost, no test (8.8)
    seen = run(rules._move(state, guard, _walk(inches=6, sheer=6, obstacle="high", fly=True), battle.ctx), [])
    assert seen == [] and guard.data["moved"] == 6 and guard.data["actions"] == 1
    with pytest.raises(IllegalCommand, match="MOV or its flight"):
        run(rules._move(state, guard, _walk(inches=1), battle.ctx), [])


def test_a_jump_pack_jumps_twelve_inches_and_reads_the_landing_table() -> None:
    battle = _battle()
    rules, state = battle.rules, battle.state
    guard = state.element(GUARD)  # TQ 1: one die on the landing check
    guard.data["dp"] = 4
    _give(battle, GUARD, abilities=rules.profile(GUARD).abilities | {"Jump Pack"})
    seen = run(rules._move(state, guard, _walk(inches=12, jump=True, landing="difficult"), battle.ctx), [], [[1]])
    assert [(r.count, r.die) for r in seen] == [(1, 6)] and guard.data["dp"] == 1  # no success on difficult ground: 3 DP
    assert guard.data["moved"] == 0  # the jump is not part of 2 x MOV (PR-31)
    run(rules._move(state, guard, _walk(inches=12, jump=True), battle.ctx), [], [[4]])
    assert guard.data["pins"] == 1  # one success on normal ground: pinned
    with pytest.raises(IllegalCommand, match="no Jump Pack"):
        run(rules._move(state, state.element("guard-squad/guardsman-2"), _walk(inches=12, jump=True), battle.ctx), [])


def test_leap_and_going_prone() -> None:
    battle = _battle()
    rules, state = battle.rules, battle.state
    guard = state.element(GUARD)
    with pytest.raises(IllegalCommand, match="cannot Leap"):
        run(rules._move(state, guard, Walk(unit="guard-squad", model=GUARD, facts={"inches": 8, "leap": 2}), battle.ctx), [])
    _give(battle, GUARD, abilities=rules.profile(GUARD).abilities | {"Leap"})
    from campaign.rulesets.figwars3.commands import Run

    run_spec = next(s for s in rules._model_specs(state, state.unit("guard-squad"), guard) if s.type == "run")
    assert run_spec.fact("leap") is not None
    run(rules._move(state, guard, Run(unit="guard-squad", model=GUARD, facts={"inches": 11, "difficult": 3, "leap": 3, "prone": True}), battle.ctx), [])
    assert guard.data["moved"] == 8 and guard.data["prone"]  # 11" with 3 of Leap; lies prone at the end
    shooter = state.element("grunt-lance/grunt")
    shot = dict(unit="grunt-lance", model=shooter.id, target="guard-squad", target_model=GUARD, weapon="Plasma Pistol")
    from campaign.rulesets.figwars3.commands import Shoot

    with pytest.raises(IllegalCommand, match="lies prone"):
        rules.shot(state, Shoot(**shot, facts={"range_band": "long"}))  # type: ignore[arg-type]
    assert rules.shot(state, Shoot(**shot, facts={"range_band": "long", "prone": "open_12_plus"}))[0].defender.dice  # type: ignore[arg-type]
    assert "prone" in rules.describe_unit(state, "guard-squad").elements[0]


def test_appendix_movement_vectors() -> None:
    # falling 2.5" with 2" legs: 2.5 - 2 = 0.5" (the players round up to 3", legs 1-3in take 2 off)
    assert movement.fall(3, "1-3in") == (0, 0)
    # a 3.2" gap (4" rounded up) after a 5" run-up, far side level: 1d8 + 2 must beat 4
    assert movement.jump_bonus(5, "average") == 2
    assert not drive(movement.jump_gap(4, 5, "average", False), [[2]])
    assert drive(movement.jump_gap(4, 5, "average", False), [[3]])
    # above chest height, +2" spent, d8 = 4: 4 + 2 - 1 = 5, crosses and the move ends
    assert drive(movement.obstacle_test("high", 2), [[4]]) == "stop"


# --- revision 2: every inch counts for a fast target; an obstacle that stops the move ----

def _rev2() -> Any:
    battle = _battle()
    battle.rules.revision = 2
    return battle


def test_revision_two_adds_jump_and_leap_inches_over_several_moves_for_a_fast_target() -> None:
    for revision, fast in ((1, False), (2, True)):
        battle = _battle()
        battle.rules.revision = revision
        rules, state = battle.rules, battle.state
        guard = state.element(GUARD)
        guard.data["dp"] = 4
        _give(battle, GUARD, abilities=rules.profile(GUARD).abilities | {"Jump Pack"})
        run(rules._move(state, guard, _walk(inches=8, jump=True), battle.ctx), [], [[6]])  # 8" jump, not counted
        assert not guard.data["fast"]
        run(rules._move(state, guard, _walk(inches=4), battle.ctx), [])  # 4" more: 12" in all
        assert guard.data["fast"] is fast, revision


def test_revision_two_counts_leap_inches_of_two_runs() -> None:
    from campaign.rulesets.figwars3.commands import Run

    battle = _rev2()
    rules, state = battle.rules, battle.state
    guard = state.element(GUARD)
    guard.data["actions"] = 4
    _give(battle, GUARD, abilities=rules.profile(GUARD).abilities | {"Leap"})
    for _ in range(2):  # 4" + 2" of Leap, twice: 8" counted, 12" moved
        run(rules._move(state, guard, Run(unit="guard-squad", model=GUARD, facts={"inches": 6, "leap": 2}), battle.ctx), [])
    assert guard.data["moved"] == 8 and guard.data["travelled"] == [state.round, 12] and guard.data["fast"]


def test_revision_two_a_failed_obstacle_test_ends_the_move_where_it_stood() -> None:
    battle = _rev2()
    rules, state = battle.rules, battle.state
    guard = state.element(GUARD)
    spec = next(s for s in rules._model_specs(state, state.unit("guard-squad"), guard) if s.type == "walk")
    assert spec.fact("obstacle_at") is not None
    # a 4" walk meeting a low obstacle after 1": the test fails (1d8 = 2): only 1" moved, the gap never reached
    seen = run(rules._move(state, guard, _walk(inches=4, obstacle="low", obstacle_at=1, jump_gap=3, run_up=1), battle.ctx), [], [[2]])
    assert [r.die for r in seen] == [8]  # no jump roll
    assert guard.data["moved"] == 1 and guard.data["travelled"][1] == 1
    assert [e.data["inches"] for e in battle.events if e.kind == "move_cut"] == [1]
    # 3-6: over, but the move still ends at the obstacle
    guard.data.update(actions=2, moved=0, travelled=[state.round, 0])
    run(rules._move(state, guard, _walk(inches=4, obstacle="low", obstacle_at=2), battle.ctx), [], [[5]])
    assert guard.data["moved"] == 2
    # 7-8: over easily, the whole move stands and the gap is jumped
    guard.data.update(actions=2, moved=0, travelled=[state.round, 0])
    seen = run(rules._move(state, guard, _walk(inches=4, obstacle="low", obstacle_at=2, jump_gap=1, run_up=2), battle.ctx), [], [[8], [8]])
    assert [r.die for r in seen] == [8, 8] and guard.data["moved"] == 4
    with pytest.raises(IllegalCommand, match="along a move"):
        guard.data.update(actions=2)
        run(rules._move(state, guard, _walk(inches=2, obstacle="low", obstacle_at=3), battle.ctx), [], [[8]])


def test_revision_one_keeps_the_whole_reported_move_after_a_failed_test() -> None:
    battle = _battle()
    rules, state = battle.rules, battle.state
    guard = state.element(GUARD)
    assert next(s for s in rules._model_specs(state, state.unit("guard-squad"), guard) if s.type == "walk").fact("obstacle_at") is None
    seen = run(rules._move(state, guard, _walk(inches=4, obstacle="low", jump_gap=3, run_up=1), battle.ctx), [], [[2], [8]])
    assert [r.die for r in seen] == [8, 8] and guard.data["moved"] == 4 and "travelled" not in guard.data


def test_revision_two_climbing_out_of_a_crater_costs_two_inches_and_fliers_may_not_end_on_rough() -> None:
    battle = _rev2()
    rules, state = battle.rules, battle.state
    guard = state.element(GUARD)  # MOV 4
    spec = next(s for s in rules._model_specs(state, state.unit("guard-squad"), guard) if s.type == "walk")
    assert spec.fact("from_crater") is not None and spec.fact("ends_on_rough") is None  # no flier
    with pytest.raises(IllegalCommand, match="costs 5"):
        run(rules._move(state, guard, _walk(inches=3, from_crater=True), battle.ctx), [])
    run(rules._move(state, guard, _walk(inches=2, from_crater=True), battle.ctx), [])
    assert guard.data["moved"] == 2 and guard.data["actions"] == 1
    other = state.element("guard-squad/guardsman-2")
    _give(battle, other.id, flight=6, abilities=rules.profile(other.id).abilities | {"Flight"})
    assert next(s for s in rules._model_specs(state, state.unit("guard-squad"), other) if s.type == "walk").fact("ends_on_rough") is not None
    with pytest.raises(IllegalCommand, match="may not end its move there"):
        run(rules._move(state, other, Walk(unit="guard-squad", model=other.id, facts={"inches": 6, "fly": True, "ends_on_rough": True}), battle.ctx), [])
    run(rules._move(state, other, Walk(unit="guard-squad", model=other.id, facts={"inches": 6, "fly": True, "difficult": 6}), battle.ctx), [])
    assert other.data["moved"] == 6
