"""The rules' derived state (kept lists and views, rules.py and play/) answers as a fresh
computation from the state would, at every step of battles that visit rarer rules: officers
attaching and detaching, losses, spells, the card deck putting held results back."""

from __future__ import annotations

import random
from typing import Any

import attrs

from campaign.engine.battle import Battle
from campaign.engine.dice import TableDice
from campaign.engine.pending import RollRequest
from campaign.rulesets.flat_out_war.engine.autoplay import AutoPlayer
from campaign.rulesets.flat_out_war.samples import ALIEN, DEMONS, EXAMPLES, HUMAN, ORCS
from tests.activation.play import random_answer

from .battle_helpers import SO, battle as new_battle, el, force, initiative
from .corpus import _enlarged, _random_fields, _setup


def fresh_activatable(state: Any, side: str) -> list[Any]:
    return [u for u in state.units if u.side == side and not u.eliminated and not u.data.get("attached_to")]


def check_derived(b: Battle) -> None:
    """Every kept answer equals the one worked out afresh from the state."""
    rules, state = b.rules, b.state
    for side in state.side_ids():
        assert rules.activatable(state, side) == fresh_activatable(state, side)
        assert rules._side_standing(state, side) == state.units_of(side)
    # the owner-turn clocks look only at the elements new_state listed: every element with a
    # clock is one of them
    listed = {(unit_id, i) for places in rules._clock_places.values() for _, unit_id, idx in places for i in idx}
    for unit in state.units:
        for i, es in enumerate(unit.elements):
            if es.alive and (es.data.get("lockout") or es.data.get("reload")):
                assert (unit.id, i) in listed, es.id
    # only a unit created Entrenched can be hidden in its position
    assert {u.id for u in state.units if u.markers.get("entrenched")} <= rules._entrench_units


def play_checked(b: Battle, seed: int, limit: int = 1500) -> int:
    """Random legal play (as the corpus' random player), checking the derived state after
    every step; returns the steps taken."""
    rng = random.Random(seed)
    fallback = AutoPlayer(seed)
    steps = 0
    while b.pending is not None and steps < limit:
        steps += 1
        pending = b.pending
        if isinstance(pending, RollRequest):
            b.roll([rng.randint(1, pending.die) for _ in range(pending.count)])
        elif not random_answer(b, pending, rng, _random_fields):
            b.apply(fallback.answer(b))
        check_derived(b)
    return steps


def test_derived_state_under_initiative_with_1_7_examples() -> None:
    s = _setup(EXAMPLES, EXAMPLES, 300, dice="table")
    b = Battle.start(s, TableDice())
    assert play_checked(b, 300) > 100


def test_derived_state_under_the_card_deck() -> None:
    # the deck holds results back and puts whole unit records back (cards/results.py)
    s = _setup(_enlarged("Horde", ORCS, HUMAN), _enlarged("Host", DEMONS, ALIEN), 201, activation="cards", rounds=3)
    b = Battle.start(s)
    assert play_checked(b, 201) > 100


def test_derived_state_after_undo_and_a_new_state() -> None:
    s = _setup(HUMAN, ALIEN, 7, dice="table")
    b = Battle.start(s, TableDice())
    play_checked(b, 7, limit=120)
    b.undo()
    check_derived(b)
    again = Battle.replay(s, b.log_dicts())  # new_state again on a fresh rules object
    check_derived(again)
    assert again.digest() == b.digest()


def test_activatable_follows_attach_detach_and_elimination() -> None:
    a = force("Red", ("Captain", (el("Captain", "d8", attributes=("Command",)),)), ("Reds", (el("A", count=2),)),
              edition=SO)
    bt = new_battle(a, force("Blue", ("Blues", (el("B"),)), edition=SO), edition=SO)
    initiative(bt, "red")
    state, rules = bt.state, bt.rules
    kept = rules.activatable(state, "red")
    assert [u.id for u in kept] == ["captain", "reds"]
    assert rules.activatable(state, "red") is kept  # kept while nothing changes
    bt.apply({"type": "activate", "unit": "captain"})
    bt.apply({"type": "attach", "unit": "captain", "target": "reds"})
    assert [u.id for u in rules.activatable(state, "red")] == ["reds"]
    state.unit("reds").data["officer"] = ""
    state.unit("captain").data["attached_to"] = ""  # detached: it activates again
    assert [u.id for u in rules.activatable(state, "red")] == ["captain", "reds"]
    for es in state.unit("reds").elements:
        es.alive = False
    assert [u.id for u in rules.activatable(state, "red")] == ["captain"]
    assert [u.id for u in rules._side_standing(state, "blue")] == ["blues"]


def test_a_new_state_forgets_the_clock_units_of_the_last() -> None:
    from campaign.force import Weapon

    gun = Weapon("Gun", "ranged", "d8", 12, traits=("Reload: 1",))
    one = new_battle(force("Red", ("Reds", (el("A", weapons=(gun,)),)), edition=SO),
                     force("Blue", ("Blues", (el("B"),)), edition=SO), edition=SO)
    rules = one.rules
    assert rules._clock_places  # the gunner's unit carries a Reload clock
    plain = attrs.evolve(one.setup, sides=tuple(
        attrs.evolve(side, force=force(side.name, (f"{side.name}s", (el("P"),)), edition=SO)) for side in one.setup.sides))
    rules.new_state(plain)
    assert rules._clock_places == {} and rules._entrench_units == frozenset()
