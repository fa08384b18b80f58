"""Held-back results reuse their copies of units (results.py `before`): a copy is used again
only while the live unit still equals it, and a battle replays exactly as with fresh copies.
While the scheme's Watch stays, the copies are trusted without a look (only the last actor's
is compared): VERIFY (on for every test here, see conftest.py) checks that trust, and fails
when a change went by unseen."""

from __future__ import annotations

import copy
import json
import random

import pytest

from campaign.activation.cards.results import VERIFY, HeldResults, MissedChange, Shadows, Watch
from campaign.engine.battle import Battle
from campaign.engine.setup import BattleSetup
from campaign.engine.state import BattleState, ElementState, UnitState
from campaign.rulesets.flat_out_war.samples import DEMONS, HUMAN
from tests.activation.play import random_play
from tests.activation.toy import ToyRules, setup
from tests.flat_out_war.engine.corpus import DATA, _setup, battles, fingerprint


def _state() -> BattleState:
    units = [
        UnitState(f"u{i}", f"Unit {i}", "a" if i < 2 else "b",
                  [ElementState(f"u{i}/m{k}", "Model", f"u{i}", data={"die": 6, "reload": {}}) for k in range(3)])
        for i in range(4)
    ]
    return BattleState(sides=[], units=units)


def test_a_copy_is_used_again_only_while_the_unit_equals_it() -> None:
    state = _state()
    shadows = Shadows()
    first = HeldResults(shadows=shadows).before(state, "u0")
    assert set(first) == {"u1", "u2", "u3"}
    assert all(first[u.id] == u and first[u.id] is not u for u in state.units[1:])

    # changed in place, the way rules change units: element data, a model lost, a marker
    state.units[2].elements[1].data["reload"]["0"] = 2
    state.units[3].elements[0].alive = False
    state.units[1].markers["pinned"] = True
    shadows.watch.touch()  # (the scheme touches its Watch after every call that may change units)
    again = HeldResults(shadows=shadows).before(state, "u1")
    for unit in state.units:
        if unit.id != "u1":
            assert again[unit.id] == unit and again[unit.id] is not unit
    assert again["u0"] is shadows.copies["u0"]  # new: copied now
    assert first["u2"] is not again["u2"] and first["u2"].elements[1].data["reload"] == {}
    assert first["u3"].elements[0].alive  # an earlier copy is never changed
    # a changed unit's new copy shares the copies of its unchanged models, never the live ones
    assert again["u2"].elements[0] is first["u2"].elements[0]
    assert again["u2"].elements[1] is not first["u2"].elements[1]
    assert again["u2"].elements[1].data is not state.units[2].elements[1].data
    assert again["u2"].elements[1].data["reload"] is not state.units[2].elements[1].data["reload"]
    # an unchanged unit keeps its copy (the point of the cache)
    state.units[0].data["x"] = 1
    shadows.watch.touch()
    third = HeldResults(shadows=shadows).before(state, "u0")
    assert third["u2"] is again["u2"] and third["u3"] is again["u3"]


def test_while_the_watch_stays_only_the_last_actors_copy_is_compared() -> None:
    state = _state()
    shadows = Shadows()
    first = HeldResults(shadows=shadows).before(state, "u0")
    state.units[0].elements[0].data["die"] = 4  # the actor's own change stays live
    second = HeldResults(shadows=shadows).before(state, "u1")  # no touch: only u0 is looked at
    assert second["u0"] == state.units[0] and second["u0"] is not first.get("u0")
    assert second["u2"] is first["u2"] and second["u3"] is first["u3"]
    # a change behind the Watch's back is trusted away (VERIFY would refuse it)
    VERIFY[0] = False
    state.units[3].elements[2].alive = False
    third = HeldResults(shadows=shadows).before(state, "u1")
    assert third["u3"] is first["u3"] and third["u3"] != state.units[3]


def test_verify_catches_a_change_the_watch_missed() -> None:
    state = _state()
    shadows = Shadows()
    HeldResults(shadows=shadows).before(state, "u0")
    state.units[0].markers["moved"] = True  # the actor's own: expected, compared
    HeldResults(shadows=shadows).before(state, "u1")
    state.units[2].elements[0].data["reload"]["0"] = 1  # another unit, and no touch
    with pytest.raises(MissedChange, match="u2"):
        HeldResults(shadows=shadows).before(state, "u1")
    shadows.watch.touch()  # said: looked at again, no complaint
    assert HeldResults(shadows=shadows).before(state, "u1")["u2"] == state.units[2]


def test_a_new_state_or_units_list_is_never_trusted() -> None:
    state = _state()
    shadows = Shadows()
    HeldResults(shadows=shadows).before(state, "u0")
    other = copy.deepcopy(state)
    other.units[2].markers["pinned"] = True
    assert HeldResults(shadows=shadows).before(other, "u0")["u2"] == other.units[2]
    state.units = copy.deepcopy(state.units)
    state.units[3].markers["pinned"] = True
    assert HeldResults(shadows=shadows).before(state, "u0")["u3"] == state.units[3]


def test_holding_back_and_releasing_leave_the_copies_as_they_were() -> None:
    state = _state()
    results = HeldResults()
    before = results.before(state, "u0")
    kept = copy.deepcopy(before)
    state.units[2].elements[0].alive = False  # the action's casualty, on another unit
    state.units[2].elements[1].data["die"] = 4
    assert results.hold_back(state, before) == ["u2"]
    assert state.units[2] == before["u2"] and state.units[2] is not before["u2"]
    state.units[2].elements[2].alive = False  # an interrupt meanwhile (applies at once)
    assert results.release(state) == ["u2"]
    assert [e.alive for e in state.units[2].elements] == [False, True, False]
    assert state.units[2].elements[1].data["die"] == 4
    assert before == kept


def _fresh_before(self: HeldResults, state: BattleState, actor: str) -> dict[str, UnitState]:
    """The reference: a deep copy of every unit but the actor, for every action."""
    return {u.id: copy.deepcopy(u) for u in state.units if u.id != actor}


def _toy(seed: int) -> tuple[BattleSetup, Battle]:
    s = setup([("A", 3), ("B", 2), ("C", 2)], [("X", 3), ("Y", 2), ("Z", 2)], seed=seed, rounds=5, ap_max=3)
    b = Battle.start(s, rules=ToyRules())
    random_play(b, random.Random(seed))
    return s, b


def _fow(seed: int) -> tuple[BattleSetup, Battle]:
    s = _setup(HUMAN, DEMONS, 40 + seed, activation="cards", rounds=4)
    b = Battle.start(s)
    random_play(b, random.Random(seed))
    return s, b


@pytest.mark.parametrize("game,seed", [("toy", 1), ("toy", 2), ("toy", 3), ("fow", 1), ("fow", 2)])
def test_reused_copies_replay_as_fresh_copies(game: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    s, played = (_toy if game == "toy" else _fow)(seed)
    rules = ToyRules if game == "toy" else None
    calls = []
    reusing = HeldResults.before

    def counted(self: HeldResults, state: BattleState, actor: str) -> dict[str, UnitState]:
        calls.append(actor)
        return reusing(self, state, actor)

    monkeypatch.setattr(HeldResults, "before", counted)
    again = Battle.replay(s, played.log_dicts(), rules=rules() if rules else None)
    assert calls, "no combined activation held results back: the test would prove nothing"
    monkeypatch.setattr(HeldResults, "before", _fresh_before)
    fresh = Battle.replay(s, played.log_dicts(), rules=rules() if rules else None)
    assert again.digest() == fresh.digest() == played.digest()
    assert [e.text for e in again.events] == [e.text for e in fresh.events]


@pytest.mark.parametrize("game,seed", [("toy", 5), ("toy", 8), ("fow", 1), ("fow", 4)])
def test_nothing_trusted_while_the_watch_stays_had_changed(game: str, seed: int) -> None:
    """Replayed with VERIFY on, every copy and host answer the scheme trusted is checked
    against the live units: a call into the rules that changes units without touching the
    Watch raises MissedChange. The battles hold combined activations, interrupts and routs."""
    s, played = (_toy if game == "toy" else _fow)(seed)
    rules = ToyRules if game == "toy" else None
    kinds = {e.kind for e in played.events}
    assert "results_applied" in kinds, "no held results: the test would prove little"
    again = Battle.replay(s, played.log_dicts(), rules=rules() if rules else None)
    assert again.digest() == played.digest()


def test_verify_fails_a_battle_whose_changes_go_unseen(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: with the Watch never moving, a card battle's replay stops
    at the first unit the scheme trusted although the rules had changed it."""
    s, played = _fow(1)
    monkeypatch.setattr(Watch, "touch", lambda self: None)
    with pytest.raises(MissedChange):
        Battle.replay(s, played.log_dicts())


CARD_CORPUS = {name: play for name, play in battles() if name.startswith("random cards")}


@pytest.mark.parametrize("name", sorted(CARD_CORPUS))
def test_the_card_corpus_plays_to_its_recorded_digests_under_verify(name: str) -> None:
    """The corpus's card battles (recorded before the Watch) play to the same log, events and
    digest with every trusted copy and answer checked (VERIFY, see conftest.py)."""
    recorded = json.loads(DATA.read_text())[name]
    _, battle = CARD_CORPUS[name]()
    assert any(e.kind == "results_applied" for e in battle.events)
    assert fingerprint(battle) == recorded


def test_same_unit_answers_what_attrs_eq_answers() -> None:
    from campaign.activation.cards.results import same_unit

    base = _state().units[0]
    variants = [copy.deepcopy(base) for _ in range(10)]
    variants[1].name = "Other"
    variants[2].elements[1].alive = False
    variants[3].elements[2].data["die"] = 8
    variants[4].elements[0].markers["prone"] = True
    variants[5].elements = variants[5].elements[:2]
    variants[6].markers["removed"] = True
    variants[7].data["morale"] = "shaken"
    variants[8].elements[0].entry = 1
    variants[9].side = "b"
    for a in [base, *variants]:
        for b in [base, *variants]:
            assert same_unit(a, b) is (a == b)
    assert same_unit(base, base) and same_unit(base, copy.deepcopy(base))
    assert not same_unit(base, variants[2])
