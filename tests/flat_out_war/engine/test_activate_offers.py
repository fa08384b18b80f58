"""The initiative turn's activate specs (InitiativeTurn.commands keeps each side's offer
while the rules' `activatable` answers the same list) equal the ones made afresh from the
state, at every step of random Flat Out War battles, under both turn structures and undo."""

from __future__ import annotations

from typing import Any

import attrs

from campaign.activation.phased.initiative import ALTERNATE_UNTIL_ALL_PASS, ActivateMenu, InitiativeTurn
from campaign.engine.battle import Battle
from campaign.engine.commands import Activate, EndActivation, Pass
from campaign.engine.dice import TableDice
from campaign.engine.lazy_specs import first_match
from campaign.engine.pending import CommandSpec, Decision, first_matching
from campaign.rulesets.flat_out_war.samples import ALIEN, DEMONS, EXAMPLES, HUMAN, ORCS

from .battle_helpers import SO, battle as new_battle, el, force, initiative
from .corpus import _enlarged, _setup, random_play


def fresh_offer(b: Battle, side: str) -> list[CommandSpec]:
    """The activate specs of `side`, from the state alone."""
    state, sched = b.state, b.state.scheme
    once = b.setup.activation_options.get("turn_structure") == ALTERNATE_UNTIL_ALL_PASS
    return [
        CommandSpec("activate", {"unit": u.id}, label=f"Activate {u.name}")
        for u in state.units
        if u.side == side and not u.eliminated and not u.data.get("attached_to")
        and not (once and u.id in sched.get("activated", ()))
    ]


def check_offers(b: Battle) -> None:
    host = b.scheme.host(b.ctx)
    assert isinstance(host, InitiativeTurn)
    for side in b.state.side_ids():
        assert host.commands(b.state, None, side) == fresh_offer(b, side)  # type: ignore[arg-type]
    pending = b.pending
    if isinstance(pending, Decision) and pending.legal and pending.legal[0].type == "activate":
        assert [s for s in pending.legal if s.type == "activate"] == fresh_offer(b, pending.side)
        # the engine's check finds the spec a scan of the menu finds (ActivateMenu's index)
        units = [u.id for u in b.state.units]
        for command in (*(Activate(unit=u) for u in units), Activate(unit="nobody"), Pass(), EndActivation(unit=units[0])):
            assert first_match(pending.legal, command) is first_matching(tuple(pending.legal), command)


def play_checked(b: Battle, seed: int, limit: int = 1200) -> int:
    return random_play(b, seed, limit, lambda battle, _steps: check_offers(battle))


def test_offers_follow_losses_and_attachments_in_random_battles() -> None:
    s = _setup(_enlarged("Horde", ORCS, HUMAN), _enlarged("Host", DEMONS, ALIEN), 9, dice="table", rounds=20)
    b = Battle.start(s, TableDice())
    assert play_checked(b, 9) > 300
    # the standing lists did change: units fell, an officer attached
    assert sum(u.eliminated for u in b.state.units) >= 2 and any(e.kind == "attach" for e in b.events)
    while not b.can_undo:  # back to a decision, then take it back: a state made anew
        b.roll([1] * b.pending.count)  # type: ignore[union-attr]
    b.undo()
    check_offers(b)


def test_offers_until_all_pass_leave_out_the_units_done() -> None:
    s = attrs.evolve(_setup(EXAMPLES, EXAMPLES, 12, dice="table", rounds=8),
                     activation_options={"turn_structure": ALTERNATE_UNTIL_ALL_PASS})
    b = Battle.start(s, TableDice())
    assert play_checked(b, 12, limit=600) > 150
    # (the activations of a round are one turn each: a side's later turns offer fewer units)
    assert sum(e.kind == "activation" for e in b.events) > 2 * b.state.round


def test_the_same_list_gives_the_same_offer_and_a_fall_a_new_one() -> None:
    a = force("Red", ("Reds", (el("A"),)), ("Others", (el("O"),)), edition=SO)
    bt = new_battle(a, force("Blue", ("Blues", (el("B"),)), edition=SO), edition=SO)
    initiative(bt, "red")
    host: Any = bt.scheme.host(bt.ctx)
    first = host.commands(bt.state, None, "red")
    assert host.commands(bt.state, None, "red") is first  # kept while activatable's list stays
    assert [s.params["unit"] for s in first] == ["reds", "others"]
    for es in bt.state.unit("others").elements:
        es.alive = False
    assert [s.params["unit"] for s in host.commands(bt.state, None, "red")] == ["reds"]


def test_the_menu_is_kept_with_the_offer_and_indexed_by_unit() -> None:
    a = force("Red", ("Reds", (el("A"),)), ("Others", (el("O"),)), edition=SO)
    bt = new_battle(a, force("Blue", ("Blues", (el("B"),)), edition=SO), edition=SO)
    initiative(bt, "red")
    host: Any = bt.scheme.host(bt.ctx)
    menu = bt.pending.legal  # type: ignore[union-attr]
    assert isinstance(menu, ActivateMenu) and [s.type for s in menu] == ["activate", "activate", "pass"]
    offer = host.commands(bt.state, None, "red")
    assert host.menu(bt.state, None, "red", offer, True) is menu  # the same offer: the same menu
    assert list(host.menu(bt.state, None, "red", offer, False)) == list(menu)[:2]
    assert first_match(menu, Activate(unit="others")) is menu[1]
    # a spec with other params leaves the menu unindexed: the scan decides
    odd = ActivateMenu((CommandSpec("activate", {"unit": "x", "mode": "fast"}), menu[0]))
    assert first_match(odd, Activate(unit="reds")) is menu[0]
    assert first_match(odd, Activate(unit="x")) is None


def test_rules_answering_a_new_list_each_turn_get_a_fresh_offer() -> None:
    class Fresh:  # activatable builds its list anew each call (the BattleRules default)
        def __init__(self) -> None:
            self.units: list[Any] = []

        def activatable(self, state: Any, side: str) -> list[Any]:
            return list(self.units)

    from campaign.engine.state import UnitState

    rules = Fresh()
    host = InitiativeTurn(rules)
    rules.units = [UnitState("x", "X", "a"), UnitState("y", "Y", "a")]
    assert [s.label for s in host.commands(None, None, "a")] == ["Activate X", "Activate Y"]  # type: ignore[arg-type]
    rules.units = rules.units[1:]
    assert [s.label for s in host.commands(None, None, "a")] == ["Activate Y"]  # type: ignore[arg-type]
