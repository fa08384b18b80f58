"""The Battle object driven with scripted (table) dice through the toy ruleset."""

from __future__ import annotations

import pytest
import tomli_w
import tomllib

from campaign.engine import (
    Activate,
    AutoDice,
    Battle,
    BattleRules,
    Choose,
    CommandSpec,
    Decision,
    EndActivation,
    IllegalCommand,
    KeepRoll,
    Pass,
    ReplayError,
    Reroll,
    RollRequest,
    TableDice,
    UndoRefused,
)
from engine_play import play
from toy_rules import RANGE, Attack, ToyRules, toy_setup


def table_battle(**kw) -> Battle:
    return Battle.start(toy_setup(**kw), TableDice(), rules=ToyRules())


def reds_first(battle: Battle) -> Battle:
    battle.roll([5])
    battle.roll([2])
    return battle


def to_hit_roll(battle: Battle, faces: list[int]) -> Battle:
    """Reds' Red 1 attacks Blue 1 at short range, Blues stand, and the to-hit dice are `faces`."""
    battle.apply(Activate("red-1"))
    battle.apply(Attack("red-1", "blue-1", {"range_band": "short"}))
    battle.apply(Choose("stand"))
    battle.roll(faces)
    return battle


def test_start_waits_for_initiative_dice_of_each_side_in_table_mode() -> None:
    battle = table_battle()
    assert battle.pending == RollRequest(6, 1, "1 x d6 initiative, Reds", "reds")
    battle.roll([2])
    assert battle.pending == RollRequest(6, 1, "1 x d6 initiative, Blues", "blues")
    battle.roll([6])
    assert isinstance(battle.pending, Decision) and battle.pending.side == "blues"
    assert battle.state.scheme["order"] == ["blues", "reds"]
    assert [e.text for e in battle.events][-2:] == ["Initiative: Reds 2, Blues 6", "Turn order for round 1: Blues, Reds"]
    assert battle.log_dicts()[0]["rolls"] == [
        {"die": 6, "faces": [2], "purpose": "1 x d6 initiative, Reds"},
        {"die": 6, "faces": [6], "purpose": "1 x d6 initiative, Blues"},
    ]


def test_only_tied_sides_reroll_to_order_themselves() -> None:
    battle = Battle.start(toy_setup(((1,), (1,), (1,))), TableDice(), rules=ToyRules())
    for face in (4, 4, 6):  # reds and blues tie below greens
        battle.roll([face])
    assert battle.pending == RollRequest(6, 1, "1 x d6 initiative, Reds", "reds")
    battle.roll([3])
    assert battle.pending.purpose == "1 x d6 initiative, Blues"
    battle.roll([3])  # tied again: re-roll again, still only the two of them
    battle.roll([1])
    battle.roll([5])
    assert battle.state.scheme["order"] == ["greens", "blues", "reds"]
    assert any(e.text == "Reds and Blues tie on 4 and re-roll" for e in battle.events)
    assert sum(len(r.faces) for r in battle.log[0].rolls) == 7


def test_dice_are_refused_while_a_decision_is_pending_and_commands_while_dice_are() -> None:
    battle = table_battle()
    with pytest.raises(IllegalCommand, match="waiting for dice first: 1 x d6 initiative, Reds"):
        battle.apply(Pass())
    reds_first(battle)
    with pytest.raises(IllegalCommand, match="no dice are wanted now"):
        battle.roll([3])


def test_faces_outside_the_die_leave_the_battle_unchanged() -> None:
    battle = reds_first(table_battle())
    battle.apply(Activate("red-1"))
    battle.apply(Attack("red-1", "blue-1", {"range_band": "short"}))
    battle.apply(Choose("stand"))
    before = (battle.digest(), battle.log_dicts(), battle.pending)
    with pytest.raises(IllegalCommand, match="a d6 has faces 1 to 6; 9 is not one of them"):
        battle.roll([4, 9, 1])
    with pytest.raises(IllegalCommand, match="needs 3 face"):
        battle.roll([4, 4])
    assert (battle.digest(), battle.log_dicts(), battle.pending) == before


def test_illegal_commands_name_the_rule_and_leave_no_trace() -> None:
    battle = reds_first(table_battle())
    before = (battle.digest(), len(battle.log), len(battle.events))
    with pytest.raises(IllegalCommand, match=r"activate \(unit: Blue 1\) is not allowed now .*legal commands"):
        battle.apply(Activate("blue-1"))
    battle.apply(Activate("red-1"))
    with pytest.raises(IllegalCommand, match=r"range_band must be one of short, long, not 'medium' \(facts\)"):
        battle.apply(Attack("red-1", "blue-1", {"range_band": "medium"}))
    with pytest.raises(IllegalCommand, match="attack takes no fact 'cover'"):
        battle.apply(Attack("red-1", "blue-1", {"cover": "heavy"}))
    with pytest.raises(IllegalCommand, match="unknown command 'dance'"):
        battle.apply({"type": "dance"})
    battle.state.unit("red-1").elements[0].markers["short_ranged"] = True  # a rules-level check
    with pytest.raises(IllegalCommand, match=r"out of range .*\(Toy 3 Short ranged\)"):
        battle.apply(Attack("red-1", "blue-1", {"range_band": "long"}))
    battle.undo()
    assert (battle.digest(), len(battle.log), len(battle.events)) == before


def test_the_target_side_decides_mid_resolution() -> None:
    battle = reds_first(table_battle())
    battle.apply(Activate("red-1"))
    battle.apply(Attack("red-1", "blue-1", {"range_band": "short"}))
    assert isinstance(battle.pending, Decision)
    assert battle.pending.side == "blues"
    assert [s.params["option"] for s in battle.legal_commands()] == ["brace", "stand"]
    with pytest.raises(IllegalCommand):
        battle.apply(KeepRoll())
    battle.apply(Choose("brace"))
    assert battle.pending == RollRequest(6, 3, "3 x d6 to hit, Red 1 attacking Blue 1", "reds")
    assert battle.log[-1].side == "blues"


def test_hits_and_recovery_follow_the_scripted_faces() -> None:
    battle = to_hit_roll(reds_first(table_battle()), [4, 6, 1])
    battle.apply(KeepRoll())
    assert battle.pending == RollRequest(6, 2, "2 x d6 recovery, Blue 1", "blues")
    events = battle.roll([5, 2])
    assert [e.text for e in events][:1] == ["Blue 1 loses 1"]
    assert [e.alive for e in battle.state.unit("blue-1").elements] == [True, False, True]  # 5 saves, 2 fails
    assert battle.pending.side == "blues"  # Red 1 had nothing left to do; Blues' turn
    hits = [e for e in battle.events if e.kind == "hits"][0]
    assert hits.data == {"hits": 2, "faces": [4, 6, 1]} and hits.seq == 4  # emitted under "keep"


def test_a_reroll_is_an_explicit_logged_command_with_its_own_faces() -> None:
    battle = to_hit_roll(reds_first(table_battle()), [1, 1, 1])
    battle.apply(Reroll("once per battle"))
    assert battle.pending.purpose == "3 x d6 to hit (re-roll), Red 1"
    battle.roll([6, 6, 2])
    assert battle.log[-1].command == {"type": "reroll", "reason": "once per battle"}
    assert battle.log[-1].rolls[0].faces == (6, 6, 2)
    assert battle.state.side("reds").data["rerolls"] == 0
    assert battle.pending == RollRequest(6, 2, "2 x d6 recovery, Blue 1", "blues")


def test_undo_goes_back_one_decision_at_a_time_but_never_past_a_roll() -> None:
    battle = reds_first(table_battle())
    at_turn = battle.digest()
    battle.apply(Activate("red-1"))
    battle.apply(Attack("red-1", "blue-1", {"range_band": "short"}))
    battle.apply(Choose("stand"))
    assert isinstance(battle.pending, RollRequest)
    undone = battle.undo()  # the choice has no dice yet: it goes
    assert undone.command == {"type": "choose", "option": "stand"}
    assert battle.pending.side == "blues" and isinstance(battle.pending, Decision)
    battle.undo()
    battle.undo()  # the attack, then the activation
    assert battle.digest() == at_turn and len(battle.log) == 1
    assert battle.pending.prompt == "Reds: activate a unit or pass"


def test_undo_is_refused_once_dice_are_rolled() -> None:
    battle = to_hit_roll(reds_first(table_battle()), [4, 6, 1])
    assert not battle.can_undo
    with pytest.raises(UndoRefused, match=r"cannot undo choose \(option: stand\): its dice are rolled \(3 x d6 to hit"):
        battle.undo()
    battle.apply(KeepRoll())
    assert battle.can_undo  # the recovery dice it asked for are not rolled yet
    battle.undo()  # keeping is a decision with no dice
    assert [s.type for s in battle.legal_commands()] == ["reroll", "keep"]


def test_undo_of_the_start_is_refused() -> None:
    battle = table_battle()
    assert not battle.can_undo
    with pytest.raises(UndoRefused, match="nothing to undo"):
        battle.undo()


def test_undo_in_auto_mode_restores_the_dice_position() -> None:
    setup = toy_setup()
    battle = Battle.start(setup, AutoDice(11), rules=ToyRules())
    side = battle.pending.side
    unit = battle.state.units_of(side)[0].id
    battle.apply(Activate(unit))
    battle.undo()
    battle.apply(Activate(unit))
    play(battle, seed=4)
    fresh = Battle.start(setup, AutoDice(11), rules=ToyRules())
    fresh.apply(Activate(unit))
    play(fresh, seed=4)
    assert battle.digest() == fresh.digest()
    assert battle.log_dicts() == fresh.log_dicts()


class Faulty(ToyRules):
    """Resolution that fails after its dice are rolled: the battle must roll itself back."""

    def resolve(self, state, command, ctx):
        state.unit(command.unit).data["attacked"] = True
        yield RollRequest(6, 2, "2 x d6 doomed")
        state.units[0].elements[0].alive = False
        raise IllegalCommand("Toy 9", "the facts do not add up")


def test_a_resolution_that_fails_halfway_leaves_no_trace() -> None:
    battle = Battle.start(toy_setup(), AutoDice(2), rules=Faulty())
    battle.apply(Activate(battle.state.units_of(battle.pending.side)[0].id))
    before = (battle.digest(), battle.log_dicts(), len(battle.events), battle.dice.draws)
    unit = battle.state.scheme["active_unit"]
    target = next(u.id for u in battle.state.units if u.side != battle.pending.side)
    with pytest.raises(IllegalCommand, match="the facts do not add up"):
        battle.apply(Attack(unit, target, {"range_band": "short"}))
    assert (battle.digest(), battle.log_dicts(), len(battle.events), battle.dice.draws) == before


def test_round_limit_ends_the_battle_and_outcome_carries_the_digest() -> None:
    battle = Battle.start(toy_setup(rounds=2), AutoDice(1), rules=ToyRules())
    while not battle.is_over:
        battle.apply(Pass())
    assert battle.state.round == 2 and battle.state.end_reason == "round limit (2) reached"
    assert battle.outcome().digest == battle.digest()
    with pytest.raises(IllegalCommand, match="the battle is over"):
        battle.apply(Pass())


def test_one_activation_per_round_gives_each_side_one_turn() -> None:
    battle = Battle.start(toy_setup(rounds=1), AutoDice(1), rules=ToyRules())
    sides = []
    while not battle.is_over:
        sides.append(battle.pending.side)
        battle.apply(Pass())
    assert sorted(sides) == ["blues", "reds"]
    assert battle.state.turn == 2


def test_alternating_until_all_pass_activates_each_unit_once_a_round() -> None:
    setup = toy_setup(((2, 2), (2,)), rounds=1, activation_options={"turn_structure": "alternate_until_all_pass"})
    battle = Battle.start(setup, AutoDice(3), rules=ToyRules())
    first = battle.pending.side
    activated: list[str] = []
    while not battle.is_over:
        pending = battle.pending
        if [s for s in battle.legal_commands() if s.type == "activate"]:
            unit = battle.legal_commands()[0].params["unit"]
            activated.append(unit)
            battle.apply(Activate(unit))
            battle.apply(EndActivation(unit))
        else:
            battle.apply(Pass())
        assert pending is not battle.pending
    assert sorted(activated) == ["blue-1", "red-1", "red-2"]
    forced = [e for e in battle.events if e.kind == "pass" and e.data.get("forced")]
    assert len(forced) >= 1 and first in battle.state.scheme["order"]


def test_unknown_scheme_option_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown option"):
        Battle.start(toy_setup(activation_options={"speed": 2}), rules=ToyRules())
    with pytest.raises(ValueError, match="must be one of"):
        Battle.start(toy_setup(activation_options={"turn_structure": "chaos"}), rules=ToyRules())


def test_replay_of_a_table_battle_stops_at_the_same_pending_roll() -> None:
    battle = reds_first(table_battle())
    battle.apply(Activate("red-1"))
    battle.apply(Attack("red-1", "blue-1", {"range_band": "long"}))
    battle.apply(Choose("brace"))
    again = Battle.replay(toy_setup(), battle.log_dicts(), TableDice(), rules=ToyRules())
    assert again.pending == battle.pending and again.digest() == battle.digest()
    again.roll([5, 5, 6])  # long range: -1, all still hit
    assert [e.data for e in again.events if e.kind == "hits"] == [{"hits": 3, "faces": [5, 5, 6]}]


def test_the_log_round_trips_through_toml() -> None:
    battle = play(Battle.start(toy_setup(rounds=4), AutoDice(8), rules=ToyRules()), seed=3)
    text = tomli_w.dumps({"log": battle.log_dicts()})
    again = Battle.replay(toy_setup(rounds=4), tomllib.loads(text)["log"], rules=ToyRules())
    assert again.digest() == battle.digest() and again.is_over


@pytest.mark.parametrize(
    ("entry", "change", "message"),
    [
        (1, lambda e: e["command"].update(unit="blue-9"), r"entry 1: activate \(unit: blue-9\) is not allowed now"),
        (0, lambda e: e["rolls"][0].update(faces=[7]), "entry 0: a d6 has faces 1 to 6"),
        (0, lambda e: e["rolls"][0].update(die=8), "entry 0: the log has 1 x d8 where the engine asks for"),
        (0, lambda e: e["rolls"].append({"die": 6, "faces": [1]}), r"roll\(s\) more than the start used"),
        (1, lambda e: e.update(side="nobody"), "the log says 'nobody' decided"),
        (1, lambda e: e["command"].update(type="dance"), "unknown command 'dance'"),
        (1, lambda e: e.update(rolls="many"), "rolls must be a list"),
    ],
)
def test_a_tampered_log_is_refused_naming_the_entry(entry, change, message) -> None:
    battle = Battle.start(toy_setup(), AutoDice(5), rules=ToyRules())
    battle.apply(Activate(battle.state.units_of(battle.pending.side)[0].id))
    log = battle.log_dicts()
    change(log[entry])
    with pytest.raises(ReplayError, match=message):
        Battle.replay(toy_setup(), log, rules=ToyRules())


def test_a_log_must_start_with_the_start_entry() -> None:
    with pytest.raises(ReplayError, match="must begin with the start entry"):
        Battle.replay(toy_setup(), [{"seq": 0, "command": {"type": "pass"}}], rules=ToyRules())


def test_rules_without_a_resolution_refuse_it() -> None:
    class Bare(BattleRules):
        def activation_commands(self, state, unit_id):
            return [CommandSpec("attack", {"unit": unit_id}, (RANGE,))]

        def command_types(self):
            return (Attack,)

    battle = Battle.start(toy_setup(), AutoDice(1), rules=Bare())
    battle.apply(Activate(battle.state.units_of(battle.pending.side)[0].id))
    spec = battle.legal_commands()[0]
    with pytest.raises(IllegalCommand, match="attack has no resolution in these rules"):
        battle.apply(battle.command(spec, facts={"range_band": "short"}))


class Picky(ToyRules):
    """The target side names which element takes the first hit; the Decision checks it."""

    def resolve(self, state, command, ctx):
        target = state.unit(command.target)
        alive = {e.id for e in target.alive}

        def check(answer) -> None:
            if answer.option not in alive:
                raise IllegalCommand("Toy 7 Allocation", f"{answer.option} is not a living element of {target.name}")

        answer = yield Decision(target.side, "Who takes the hit?", (CommandSpec("choose", label="Pick an element"),), check)
        state.element(answer.option).alive = False
        ctx.emit("destroyed", f"{answer.option} is removed")
        state.unit(command.unit).data["attacked"] = True


def test_a_decision_can_check_its_answer_in_context() -> None:
    battle = Battle.start(toy_setup(), AutoDice(4), rules=Picky())
    side = battle.pending.side
    unit = battle.state.units_of(side)[0].id
    target = next(u for u in battle.state.units if u.side != side)
    battle.apply(Activate(unit))
    battle.apply(Attack(unit, target.id, {"range_band": "short"}))
    with pytest.raises(IllegalCommand, match=r"nobody is not a living element of .* \(Toy 7 Allocation\)"):
        battle.apply(Choose("nobody"))
    battle.apply(Choose(target.elements[1].id))
    assert [e.alive for e in battle.state.unit(target.id).elements][:2] == [True, False]


def test_a_table_log_replayed_with_auto_dice_rolls_the_missing_dice_itself() -> None:
    battle = reds_first(table_battle())
    battle.apply(Activate("red-1"))
    battle.apply(Attack("red-1", "blue-1", {"range_band": "short"}))
    battle.apply(Choose("stand"))
    auto = Battle.replay(toy_setup(), battle.log_dicts(), AutoDice(3), rules=ToyRules())
    assert not isinstance(auto.pending, RollRequest)
    assert auto.log[-1].rolls[0].die == 6 and len(auto.log[-1].rolls[0].faces) == 3
    assert auto.dice.draws == 2 + sum(len(r.faces) for r in auto.log[-1].rolls)


def test_battle_command_builds_from_a_legal_spec() -> None:
    battle = reds_first(table_battle())
    spec = battle.legal_commands()[0]
    assert battle.command(spec) == Activate("red-1")
    assert battle.command("pass") == Pass()
    with pytest.raises(IllegalCommand, match="activate has no field 'colour'"):
        battle.command(spec, colour="red")


def test_table_faces_that_make_resolution_fail_are_taken_back() -> None:
    battle = Battle.start(toy_setup(), TableDice(), rules=Faulty())
    reds_first(battle)
    battle.apply(Activate("red-1"))
    battle.apply(Attack("red-1", "blue-1", {"range_band": "short"}))
    before = (battle.digest(), battle.log_dicts(), battle.pending)
    with pytest.raises(IllegalCommand, match="the facts do not add up"):
        battle.roll([3, 4])
    assert (battle.digest(), battle.log_dicts(), battle.pending) == before
    assert battle.pending == RollRequest(6, 2, "2 x d6 doomed")


def test_in_table_mode_the_engine_rolls_a_request_when_asked_and_logs_it() -> None:
    battle = Battle.start(toy_setup(), TableDice(seed=12), rules=ToyRules())
    battle.roll([5])  # typed by the players
    battle.roll()  # rolled by the engine
    typed, rolled = battle.log[0].rolls
    assert typed.by == "" and rolled.by == "engine"
    assert rolled.faces == AutoDice(12).draw(RollRequest(6, 1, ""))
    assert battle.log_dicts()[0]["rolls"][1]["by"] == "engine" and "by" not in battle.log_dicts()[0]["rolls"][0]
    # A replay keeps who rolled, and the engine's own dice carry on where they were.
    again = Battle.replay(toy_setup(), battle.log_dicts(), TableDice(seed=12), rules=ToyRules())
    assert again.log_dicts() == battle.log_dicts() and again.dice.draws == 1
    battle.apply(Activate(battle.legal_commands()[0].params["unit"]))
    again.apply(Activate(again.legal_commands()[0].params["unit"]))
    spec = battle.legal_commands()[0]
    for b in (battle, again):
        b.apply(b.command(spec, facts={"range_band": "short"}))
        b.apply(Choose("stand"))
        b.roll()
    assert again.log_dicts() == battle.log_dicts()


def test_a_bad_roll_author_in_the_log_is_refused() -> None:
    log = Battle.start(toy_setup(), AutoDice(1), rules=ToyRules()).log_dicts()
    log[0]["rolls"][0]["by"] = "cheater"
    with pytest.raises(ReplayError, match='by must be "engine"'):
        Battle.replay(toy_setup(), log, rules=ToyRules())


def test_a_log_that_goes_on_after_the_end_is_refused() -> None:
    battle = Battle.start(toy_setup(rounds=1), AutoDice(1), rules=ToyRules())
    while not battle.is_over:
        battle.apply(Pass())
    log = battle.log_dicts() + [{"seq": len(battle.log), "side": "reds", "command": {"type": "pass"}, "rolls": []}]
    with pytest.raises(ReplayError, match=f"log entry {len(battle.log)}: the battle was already over"):
        Battle.replay(toy_setup(rounds=1), log, rules=ToyRules())


def test_a_roll_request_needs_a_real_die() -> None:
    with pytest.raises(ValueError, match="2\\+ sides"):
        RollRequest(1, 3, "coin?")
    with pytest.raises(ValueError):
        RollRequest(6, 0, "nothing")
