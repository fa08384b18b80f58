"""The card scheme on the engine core, over the toy host: deal, hidden placement, order,
actions, overwatch windows, charges, rally, replay."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.activation.cards import card_view, visible_log
from campaign.engine.battle import Battle
from campaign.engine.dice import TableDice
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import Decision
from campaign.engine.scheme import get_scheme, scheme_names
from tests.activation.play import autoplay
from tests.activation.toy import ToyRules, setup


def table_battle(red: list[tuple[str, int]], blue: list[tuple[str, int]], **options: Any) -> Battle:
    return Battle.start(setup(red, blue, dice="table", **options), TableDice(), rules=ToyRules())


def deal(b: Battle, red: str, blue: str) -> None:
    b.apply({"type": "deal_cards", "cards": red.split()})
    b.apply({"type": "deal_cards", "cards": blue.split()})


def place(b: Battle, cards: dict[str, str]) -> None:
    b.apply({"type": "assign_cards", "cards": cards})


def up_events(b: Battle) -> list[str]:
    return [e.data["unit"] for e in b.events if e.kind == "card_up"]


EX2_RED = [("Red Alpha", 2), ("Red Bravo", 2), ("Red Charlie", 2)]
EX2_BLUE = [("Blue X", 2), ("Blue Y", 2), ("Blue Z", 2)]


def ex2(**options: Any) -> Battle:
    b = table_battle(EX2_RED, EX2_BLUE, **options)
    deal(b, "7H 2S KC", "QH AS 5D")
    place(b, {"red-alpha": "7H", "red-bravo": "2S", "red-charlie": "KC"})
    place(b, {"blue-x": "QH", "blue-y": "AS", "blue-z": "5D"})
    return b


def end(b: Battle, unit: str) -> None:
    b.apply({"type": "end_activation", "unit": unit})


def test_the_scheme_is_registered_with_documented_options() -> None:
    assert "cards" in scheme_names()
    scheme = get_scheme("cards")
    assert scheme.options["card_order"] == "suit_major"
    names = {o.name for o in scheme.option_specs}
    assert {"card_order", "three_quarter_rounding", "prep_counts", "jokers"} <= names
    assert all(o.help for o in scheme.option_specs)
    with pytest.raises(ValueError, match="card_order"):
        get_scheme("cards", card_order="alphabetical")
    with pytest.raises(ValueError, match="unknown"):
        get_scheme("cards", shuffle_twice=True)


def test_ca_ex_2_order_through_the_engine_with_a_combined_activation() -> None:
    b = ex2()
    assert up_events(b) == ["red-alpha"]
    assert b.events[-1].text.startswith("7\u2665: Red Alpha")
    end(b, "red-alpha")
    # Blue X (QH) and Blue Y (AS) are in sequence: Blue may start them together
    decision = b.pending
    assert isinstance(decision, Decision) and decision.side == "blue"
    assert [s.params["units"] for s in decision.legal] == [("blue-x",), ("blue-x", "blue-y")]
    b.apply({"type": "activate_cards", "units": ["blue-x", "blue-y"]})
    assert b.state.scheme["cards"].active == ["blue-x", "blue-y"]
    end(b, "blue-x")
    end(b, "blue-y")
    for unit in ("red-bravo", "blue-z", "red-charlie"):
        end(b, unit)
    assert up_events(b) == ["red-alpha", "blue-x", "blue-y", "red-bravo", "blue-z", "red-charlie"]
    assert b.state.round == 2  # the next turn's deal is waiting
    assert b.pending.legal[0].type == "deal_cards"


def test_ca_ex_2_rank_major_order_through_the_engine() -> None:
    b = ex2(card_order="rank_major")
    for _ in range(6):
        unit = b.state.scheme["cards"].active[0]
        end(b, unit)
    assert up_events(b) == ["blue-y", "red-bravo", "blue-z", "red-alpha", "blue-x", "red-charlie"]


def test_ca_ex_2_a_destroyed_unit_s_card_is_skipped() -> None:
    b = ex2()
    b.apply({"type": "shoot", "unit": "red-alpha", "target": "blue-x"})
    b.roll([6, 6])  # both Blue X elements fall
    end(b, "red-alpha")
    assert [e.kind for e in b.events].count("card_skipped") == 1
    assert b.state.scheme["cards"].active == ["blue-y"]


def test_hidden_hands_each_side_sees_only_its_own() -> None:
    b = table_battle(EX2_RED, EX2_BLUE)
    deal(b, "7H 2S KC", "QH AS 5D")
    red_decision = b.pending
    assert red_decision.side == "red" and red_decision.data["hand"] == ["7H", "2S", "KC"]
    assert red_decision.data["hidden"] is True
    place(b, {"red-alpha": "7H", "red-bravo": "2S", "red-charlie": "KC"})
    blue_decision = b.pending
    assert blue_decision.side == "blue" and blue_decision.data["hand"] == ["QH", "AS", "5D"]
    assert not set(blue_decision.data["hand"]) & {"7H", "2S", "KC"}
    blue_view = card_view(b.state, "blue")
    assert blue_view.hand == ("QH", "AS", "5D")
    assert {u.unit: u.card for u in blue_view.units if u.side == "red"} == {
        "red-alpha": None,
        "red-bravo": None,
        "red-charlie": None,
    }
    red_view = card_view(b.state, "red")
    assert {u.unit: u.card for u in red_view.units if u.side == "red"}["red-bravo"] == "2S"
    assert red_view.hand == ("7H", "2S", "KC") and red_view.placed == ("red",)
    # the public part of the state never holds an unrevealed card
    assert "2S" not in repr(b.state.scheme)


def test_cards_are_revealed_one_by_one_and_the_log_is_masked_until_then() -> None:
    b = ex2()
    view = card_view(b.state, "blue")
    assert view.revealed == (("red-alpha", "7H"),)
    assert {u.unit: u.card for u in view.units if u.side == "red"}["red-alpha"] == "7H"
    masked = visible_log(b.log_dicts(), b.state, "blue")
    red_place = next(e for e in masked if e["command"]["type"] == "assign_cards" and e["side"] == "red")
    assert red_place["command"]["cards"] == {"red-alpha": "7H", "red-bravo": "??", "red-charlie": "??"}
    red_deal = next(e for e in masked if e["command"]["type"] == "deal_cards" and e["side"] == "red")
    assert red_deal["command"]["cards"] == ["??", "??", "??"]
    own = visible_log(b.log_dicts(), b.state, "red")
    assert next(e for e in own if e["command"]["type"] == "assign_cards")["command"]["cards"]["red-bravo"] == "2S"


@pytest.mark.parametrize(
    "red, message",
    [
        ("7H 2S", "3 cards were dealt; 2 typed"),
        ("7H 7H KC", "typed twice"),
        ("7H 2S XX", "suit must be"),
    ],
)
def test_typed_deal_is_checked(red: str, message: str) -> None:
    b = table_battle(EX2_RED, EX2_BLUE)
    with pytest.raises(IllegalCommand, match=message):
        b.apply({"type": "deal_cards", "cards": red.split()})
    assert len(b.log) == 1


def test_typed_deal_refuses_a_card_the_other_side_holds() -> None:
    b = table_battle(EX2_RED, EX2_BLUE)
    b.apply({"type": "deal_cards", "cards": ["7H", "2S", "KC"]})
    with pytest.raises(IllegalCommand, match="already dealt"):
        b.apply({"type": "deal_cards", "cards": ["QH", "AS", "7H"]})


def test_bad_placement_is_refused_and_leaves_no_trace() -> None:
    b = table_battle(EX2_RED, EX2_BLUE)
    deal(b, "7H 2S KC", "QH AS 5D")
    digest = b.digest()
    with pytest.raises(IllegalCommand, match="CA-2.1"):
        place(b, {"red-alpha": "7H", "red-bravo": "QH", "red-charlie": "KC"})
    assert b.digest() == digest
    place(b, {"red-alpha": "7H", "red-bravo": "2S", "red-charlie": "KC"})
    b.undo()  # a placement holds no dice: it can be taken back
    assert b.digest() == digest


def test_unequal_sides_with_leadership_bonus_are_dealt_per_ca_1() -> None:
    # CA-EX-1a: Red 8 units, bonus 0 here; Blue 5 units with a General (bonus 2)
    b = table_battle([(f"R{i}", 1) for i in range(8)], [("General Blue", 1), *[(f"B{i}", 1) for i in range(4)]])
    decision = b.pending
    assert decision.data["count"] == 8 and decision.side == "red"
    b.apply({"type": "deal_cards", "cards": "AH 2H 3H 4H 5H 6H 7H 8H".split()})
    assert b.pending.data["count"] == 8  # Blue: max(5, ceil(8 * 3 / 4) = 6) + 2
    b.apply({"type": "deal_cards", "cards": "AS 2S 3S 4S 5S 6S 7S 8S".split()})
    b.apply({"type": "assign_cards", "cards": {f"r{i}": f"{i + 1}H" if i else "AH" for i in range(8)}})
    blue = {"general-blue": "8S", "b0": "7S", "b1": "6S", "b2": "5S", "b3": "4S"}
    b.apply({"type": "assign_cards", "cards": blue})
    assert card_view(b.state, "blue").discarded == ("AS", "2S", "3S")
    assert "Blue places 5 card(s) face down and discards 3" in [e.text for e in b.events]


def test_auto_deal_uses_one_die_per_card_from_the_battle_dice() -> None:
    b = Battle.start(setup([("A", 1), ("B", 1), ("C", 1)], [("X", 1)], seed=11), rules=ToyRules())
    rolls = b.log[0].rolls
    assert [r.die for r in rolls] == [52, 51, 50, 49, 48, 47]  # Red 3, Blue max(1, ceil 2.25) = 3
    assert all("deal card" in r.purpose for r in rolls)


def test_visible_log_masks_the_dice_that_dealt_the_other_hand() -> None:
    b = Battle.start(setup([("A", 1), ("B", 1)], [("X", 1)], seed=4), rules=ToyRules())
    deal_rolls = lambda entries: [r for e in entries for r in e["rolls"] if r["purpose"].startswith("deal card")]  # noqa: E731
    red = deal_rolls(visible_log(b.log_dicts(), b.state, "red"))
    assert [r["faces"] == ["??"] for r in red] == [False, False, True, True]
    assert all(r["faces"] == ["??"] for r in deal_rolls(visible_log(b.log_dicts(), b.state, None)))
    assert all(isinstance(f, int) for r in deal_rolls(b.log_dicts()) for f in r["faces"])  # the real log is whole


def test_a_full_auto_battle_replays_to_the_same_digest() -> None:
    b = Battle.start(setup([("Alpha", 3), ("Bravo", 3)], [("X", 3), ("Y", 2)], seed=5, rounds=5), rules=ToyRules())
    autoplay(b)
    assert b.is_over
    assert sum(1 for e in b.events if e.kind == "card_up") >= 4
    again = Battle.replay(b.setup, b.log_dicts(), rules=ToyRules())
    assert again.digest() == b.digest()
    assert [e.text for e in again.events] == [e.text for e in b.events]


def test_the_turn_limit_ends_the_battle() -> None:
    b = table_battle([("A", 1)], [("X", 1)], turns=1)
    deal(b, "AH", "KC")
    place(b, {"a": "AH"})
    place(b, {"x": "KC"})
    end(b, "a")
    end(b, "x")
    assert b.is_over and "turn limit (1)" in b.state.end_reason


def test_ca_ex_1d_chits_replace_the_deck_when_it_runs_out() -> None:
    b = Battle.start(setup([(f"R{i}", 1) for i in range(30)], [(f"B{i}", 1) for i in range(25)], seed=2), rules=ToyRules())
    rolls = b.log[0].rolls
    assert [r.die for r in rolls[:2]] == [55, 54] and len(rolls) == 54  # the last chit needs no die
    assert "numbered chits 1-55 replace the deck" in b.events[1].text
    hand = b.pending.data["hand"]
    assert len(hand) == 30 and all(code.isdigit() for code in hand)


def test_jokers_join_the_deck() -> None:
    b = Battle.start(setup([("A", 1)], [("X", 1)], seed=2, jokers=2), rules=ToyRules())
    assert [r.die for r in b.log[0].rolls] == [54, 53]
