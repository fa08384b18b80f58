"""The core's phased turn (campaign.activation.phased): phase kinds, alternating picks with
passes, effects held to a phase's end, interjections by the other side, turns that drop
phases, junk refused with nothing changed, replay to the same digest. Driven with table
dice (every face typed) through the Battle API."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import attrs
import pytest

from campaign.activation.phased import (
    ALTERNATE,
    ENGINE,
    FINAL,
    ONE_SIDE,
    Phase,
    PhasedHost,
    TurnPlan,
    UnitTurns,
    held,
    host_for,
    phase_view,
)
from campaign.campaigns.scenario import Scenario
from campaign.engine import Battle, BattleRules, BattleSetup, Command, CommandSpec, Decision, IllegalCommand, SideSetup
from campaign.engine.commands import Choose, Pass
from campaign.engine.dice import roll
from campaign.engine.display import generic_unit_view
from campaign.engine.scheme import scheme_names
from campaign.force import Element, Force, Unit
from campaign.rulesets import get_ruleset, register, unregister
from tests.rulesets.duel import Duel, Strike, Volley


@pytest.fixture
def duel() -> Iterator[None]:
    register(Duel)
    yield
    unregister(Duel)


def duel_setup() -> BattleSetup:
    forces = get_ruleset("duel").sample_forces()
    sides = tuple(SideSetup(f"s{i}", f.name, f) for i, f in enumerate(forces))
    return BattleSetup("duel", sides, activation="phased", dice="table")


def test_the_scheme_is_registered() -> None:
    assert "phased" in scheme_names()


def test_alternating_picks_hold_effects_to_the_phase_end_and_route_interjections(duel: None) -> None:
    b = Battle.start(duel_setup())
    b.roll([8])
    b.roll([1])  # initiative d8: s0 8, s1 1 -> s0 opens each phase
    view = phase_view(b.state)
    assert view is not None and view.phases == ("Volley phase", "Strike phase") and view.first == "s0"
    assert (view.phase, view.kind, view.picking) == ("Volley phase", "alternate", "s0")
    assert [s.type for s in b.legal_commands()][-1] == "pass"
    b.apply(Pass())  # s0 passes ...
    assert phase_view(b.state).picking == "s1" and phase_view(b.state).passes == 1  # type: ignore[union-attr]
    red, blue = b.state.units
    b.apply(Volley(unit=blue.id, target=red.elements[0].id))  # ... s1 picks: no longer two in a row
    b.roll([6])
    # the hit target's side interjects inside s1's resolution
    assert isinstance(b.pending, Decision) and b.pending.side == "s0" and "dodge" in b.pending.prompt
    b.apply(Choose(option="take"))
    assert red.elements[0].alive, "held until the phase ends"
    assert held(b.state, red.elements[0].id) and "pending: removed by Blue Shields's volley" in generic_unit_view(b.state, red.id).elements[0]
    b.apply(Volley(unit=red.id, target=blue.elements[1].id))  # a model with a hit pending still volleys
    b.roll([6])  # blue has volleyed: no dodge offered
    assert phase_view(b.state).phase == "Strike phase"  # type: ignore[union-attr]
    assert not red.elements[0].alive and not blue.elements[1].alive and not held(b.state)
    texts = [e.text for e in b.events]
    assert "Shields has nothing left to pick in Volley phase" in texts and "Blades passes" in texts

    # each side in turn: s0 strikes, then ends its part; then s1
    assert phase_view(b.state).picking == "s0" and b.legal_commands()[-1].type == "end_phase"  # type: ignore[union-attr]
    before, entries = b.digest(), len(b.log)
    for junk in (
        {"type": "strike", "unit": red.id, "target": "nobody"},
        {"type": "volley", "unit": red.id, "target": blue.elements[0].id},
        {"type": "strike", "unit": blue.id, "target": red.id},
        {"type": "end_phase", "unit": red.id},
        {"type": "pass"},
    ):
        with pytest.raises(IllegalCommand):
            b.apply(junk)
        assert b.digest() == before and len(b.log) == entries
    b.apply(Strike(unit=red.id, target=blue.id))
    b.roll([6, 1])
    assert phase_view(b.state).picking == "s1"  # type: ignore[union-attr]  # red struck: nothing left
    b.apply({"type": "end_phase"})
    # turn 2 begins with initiative
    assert b.pending is not None and b.pending.kind() == "roll" and b.state.round == 2
    again = Battle.replay(duel_setup(), b.log_dicts())
    assert again.digest() == b.digest()
    assert [e.text for e in again.events] == [e.text for e in b.events]


# --- a stub host: one side acts, an engine phase that rolls and asks, a turn that drops a phase --


@attrs.define(frozen=True)
class Step(Command):
    type: ClassVar[str] = "step"
    model: str = ""


class Stub(PhasedHost):
    def turn_start(self, state: Any, ctx: Any) -> Any:
        (face,) = yield from roll(6, 1, "who moves", "a")
        first = "a" if face >= 4 else "b"
        if state.round == 2:  # this turn's template drops the movement phase
            return TurnPlan((Phase("morale", "Morale", ENGINE),), first, "no movement")
        return TurnPlan((Phase("move", "Move", ONE_SIDE, (first,)), Phase("morale", "Morale", ENGINE)), first)

    def commands(self, state: Any, phase: Phase, side: str) -> list[CommandSpec]:
        return [CommandSpec("step", {"model": e.id}, label=f"Step {e.name}")
                for u in state.units_of(side) for e in u.alive if not e.markers.get("stepped")]

    def resolve(self, state: Any, phase: Phase, side: str, command: Any, ctx: Any) -> Any:
        element = state.element(command.model)
        if element.name == "Lame":
            raise Exception("refused inside the resolution")  # an error mid-way leaves no trace
        element.markers["stepped"] = True
        ctx.emit("step", f"{element.name} steps")
        return
        yield

    def engine_phase(self, state: Any, phase: Phase, ctx: Any) -> Any:
        (face,) = yield from roll(6, 1, "morale", "b")
        answer = yield Decision("b", "hold or flee?", (CommandSpec("choose", {"option": "hold"}), CommandSpec("choose", {"option": "flee"})))
        state.data.setdefault("morale", []).append([face, answer.option])

    def turn_end(self, state: Any, ctx: Any) -> Any:
        state.data["turns"] = state.round
        return
        yield


class StubRules(BattleRules):
    def command_types(self) -> Any:
        return (Step,)

    def scheme_host(self, scheme: str, options: dict[str, Any]) -> Any:
        return Stub(self, options) if scheme == "phased" else None

    def is_over(self, state: Any) -> bool:
        return state.data.get("turns") == 2


def stub_setup() -> BattleSetup:
    def force(name: str, *models: str) -> Force:
        return Force(name, "stub", units=(Unit(name, tuple(Element(m, 1) for m in models)),))

    return BattleSetup("stub", (SideSetup("a", "A", force("Ants", "Quick", "Lame")), SideSetup("b", "B", force("Bees", "Buzz"))),
                       activation="phased", dice="table", scenario=Scenario("s", "S", rounds=5))


def test_one_side_acts_model_by_model_an_engine_phase_asks_and_a_turn_drops_a_phase() -> None:
    b = Battle.start(stub_setup(), rules=StubRules())
    b.roll([5])  # a moves first
    assert isinstance(b.pending, Decision) and b.pending.side == "a"
    assert [s.type for s in b.legal_commands()] == ["step", "step", "end_phase"]
    before = b.digest()
    with pytest.raises(Exception, match="refused inside"):
        b.apply(Step(model="ants/lame"))
    assert b.digest() == before and len(b.log) == 1
    b.apply(Step(model="ants/quick"))
    assert [s.params.get("model") for s in b.legal_commands()] == ["ants/lame", None]
    b.apply({"type": "end_phase"})
    b.roll([2])  # the engine phase rolls ...
    assert isinstance(b.pending, Decision) and b.pending.side == "b"  # ... and asks
    assert phase_view(b.state).kind == ENGINE and phase_view(b.state).picking == ""  # type: ignore[union-attr]
    b.apply(Choose(option="hold"))
    b.roll([1])  # turn 2: only the engine phase
    view = phase_view(b.state)
    assert view is not None and view.phases == ("Morale",) and view.note == "no movement"
    b.roll([3])
    b.apply(Choose(option="flee"))
    assert b.is_over and b.state.data["morale"] == [[2, "hold"], [3, "flee"]]
    assert Battle.replay(stub_setup(), b.log_dicts(), rules=StubRules()).digest() == b.digest()


def test_a_plan_is_checked() -> None:
    with pytest.raises(ValueError, match="one side acts"):
        Phase("x", "X", ONE_SIDE, ("a", "b"))
    with pytest.raises(ValueError, match="kind must be"):
        Phase("x", "X", "sideways")
    with pytest.raises(ValueError, match="nobody picks"):
        Phase("x", "X", ENGINE, ("a",))


class Picks(Stub):
    """One ALTERNATE phase where a pass is final and a side makes at most two picks."""

    def turn_start(self, state: Any, ctx: Any) -> Any:
        return TurnPlan((Phase("picks", "Picks", ALTERNATE, ("a", "b"), passing=FINAL, picks=2),), "a")
        yield

    def resolve(self, state: Any, phase: Phase, side: str, command: Any, ctx: Any) -> Any:
        state.element(command.model).markers["stepped"] = True
        return
        yield

    def pick_start(self, state: Any, phase: Phase, side: str, ctx: Any) -> Any:
        state.data.setdefault("turns_of", []).append(side)
        return
        yield

    def pick_end(self, state: Any, phase: Phase, side: str, picked: bool, ctx: Any) -> Any:
        state.data.setdefault("picked", []).append(picked)
        return
        yield

    def turn_end(self, state: Any, ctx: Any) -> Any:
        state.data["turns"] = 2
        return
        yield


class PicksRules(StubRules):
    def scheme_host(self, scheme: str, options: dict[str, Any]) -> Any:
        return Picks(self, options)


def test_a_final_pass_takes_a_side_out_and_picks_are_limited() -> None:
    b = Battle.start(stub_setup(), rules=PicksRules())
    assert [s.type for s in b.legal_commands()] == ["step", "step", "pass"]
    b.apply(Step(model="ants/quick"))  # a: 1st pick
    b.apply(Pass())  # b passes: out of the phase for good
    b.apply(Step(model="ants/lame"))  # a: 2nd pick, its last -> the phase ends
    assert b.is_over
    assert b.state.data["turns_of"] == ["a", "b", "a"] and b.state.data["picked"] == [True, False, True]
    with pytest.raises(ValueError, match="passing must be"):
        Phase("x", "X", ALTERNATE, ("a",), passing="never")
    with pytest.raises(ValueError, match="belong to an alternate phase"):
        Phase("x", "X", ONE_SIDE, ("a",), picks=1)


def test_the_initiative_and_card_turns_keep_no_phased_bookkeeping_in_the_state() -> None:
    """Both run on the phased loop with book_key None: their state holds only their own
    keys, as before they did (what keeps recorded battles replaying to their digests)."""
    from campaign.activation.cards import CardScheme
    from campaign.activation.phased import InitiativeScheme, PhasedScheme
    from tests.flat_out_war.engine.corpus import battles

    assert issubclass(InitiativeScheme, PhasedScheme) and issubclass(CardScheme, PhasedScheme)
    plays = dict(battles())
    _, initiative = plays["random initiative 1.7 examples seed 300"]()
    assert sorted(initiative.state.scheme) == ["activated", "active_unit", "current", "order", "owner_turns", "passed"]
    _, cards = plays["random cards 1.7 examples seed 300"]()
    assert sorted(cards.state.scheme) == ["active_unit", "cards", "current"]
    assert phase_view(initiative.state) is None and phase_view(cards.state) is None


def test_rules_without_a_host_get_unit_turns() -> None:
    assert isinstance(host_for(BattleRules()), UnitTurns)
    assert isinstance(host_for(StubRules()), Stub)


def test_any_ruleset_plays_phased_turns_of_unit_activations() -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
    from engine_play import play

    from campaign.engine import AutoDice

    ruleset = get_ruleset("flat-out-war")
    forces = ruleset.sample_forces()[:2]
    setup = BattleSetup(ruleset.id, tuple(SideSetup(f"s{i}", f.name, f) for i, f in enumerate(forces)),
                        scenario=Scenario("s", "S", rounds=2), activation="phased")
    battle = play(Battle.start(setup, AutoDice(7)), seed=3)
    assert battle.is_over and battle.state.round == 2
    assert any(e.kind == "activation" for e in battle.events)
    assert Battle.replay(setup, battle.log_dicts()).digest() == battle.digest()


def test_a_phased_battle_resumes_from_a_turn_boundary_checkpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
    from engine_play import play

    from campaign.engine import AutoDice
    from campaign.engine.snapshot import dumps, loads

    monkeypatch.setattr(Battle, "CHECKPOINT_EVERY", 4)
    ruleset = get_ruleset("flat-out-war")  # rules that keep nothing outside the state
    forces = ruleset.sample_forces()[:2]
    setup = BattleSetup(ruleset.id, tuple(SideSetup(f"s{i}", f.name, f) for i, f in enumerate(forces)),
                        scenario=Scenario("s", "S", rounds=3), activation="phased")
    log = play(Battle.start(setup, AutoDice(7)), seed=3).log_dicts()
    replayed = Battle.replay(setup, log, checkpoints=True)
    snapshot = replayed.snapshot()
    assert snapshot is not None and 0 < snapshot.entry < len(log)
    resumed = Battle.resume(setup, log, loads(dumps(snapshot)))
    assert resumed.digest() == replayed.digest() and resumed.log_dicts() == log
    assert [e.to_dict() for e in resumed.events] == [e.to_dict() for e in replayed.events]
