"""Actions under the card scheme, over the toy host: overwatch at each window, both
charges, PREP, rally pass/fail/at the edge, multi-turn casting."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.engine.battle import Battle
from campaign.engine.dice import TableDice
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import Decision
from tests.activation.toy import ToyRules, setup


def duel(red: tuple[str, int], blue: tuple[str, int], red_card: str = "AH", blue_card: str = "KC", **options: Any) -> Battle:
    """One unit a side, table dice, cards typed: Red's card first by default."""
    b = Battle.start(setup([red], [blue], dice="table", **options), TableDice(), rules=ToyRules())
    b.apply({"type": "deal_cards", "cards": [red_card]})
    b.apply({"type": "deal_cards", "cards": [blue_card]})
    red_id, blue_id = b.state.units[0].id, b.state.units[1].id
    b.apply({"type": "assign_cards", "cards": {red_id: red_card}})
    b.apply({"type": "assign_cards", "cards": {blue_id: blue_card}})
    return b


def texts(b: Battle) -> list[str]:
    return [e.text for e in b.events]


def kinds(b: Battle) -> list[str]:
    return [e.kind for e in b.events]


def act(b: Battle, **command: Any) -> None:
    b.apply(command)


def move(unit: str, inches: int, straight: bool = True, contact: bool = False) -> dict[str, Any]:
    return {"type": "move", "unit": unit, "facts": {"inches": inches, "straight": straight, "contact": contact}}


def sentry_on_overwatch(first_action: bool = False) -> Battle:
    b = duel(("Sentry", 2), ("Raider", 2))
    if first_action:
        b.apply(move("sentry", 2, straight=False))
    act(b, type="card_overwatch", unit="sentry")
    assert "Sentry goes on overwatch, holding one action" in texts(b)
    return b


def test_overwatch_interrupts_before_an_enemy_action() -> None:
    b = sentry_on_overwatch()
    b.apply(move("raider", 5))
    window = b.pending
    assert isinstance(window, Decision) and window.side == "red"
    assert {(s.params.get("unit"), s.params.get("window")) for s in window.legal} == {
        ("sentry", "before"),
        ("sentry", "during"),
        (None, None),
    }
    act(b, type="card_interrupt", unit="sentry", window="before")
    held = b.pending
    assert held.side == "red" and held.data == {"held": "sentry"}
    act(b, type="shoot", unit="sentry", target="raider")
    b.roll([6, 6])
    assert "Raider: 2 hit(s)" in texts(b)
    assert "Raider moves" not in texts(b)  # destroyed before its move resolved
    assert b.is_over


def test_overwatch_interrupts_during_a_move() -> None:
    b = sentry_on_overwatch()
    b.apply(move("raider", 5))
    act(b, type="card_interrupt", unit="sentry", window="during")
    act(b, type="shoot", unit="sentry", target="raider")
    b.roll([1, 6])  # one hit; the Raider is halved: morale
    b.roll([5])  # holds
    assert "Sentry interrupts during" in texts(b)
    assert texts(b).index("Raider: 1 hit(s)") < texts(b).index("Raider moves")


def test_overwatch_interrupts_after_an_enemy_action_with_its_earlier_penalty() -> None:
    b = sentry_on_overwatch(first_action=True)  # one action before going on overwatch
    b.apply(move("raider", 5))
    act(b, type="pass")  # not before
    after = b.pending
    assert after.side == "red" and after.data["window"] == "after"
    act(b, type="card_interrupt", unit="sentry", window="after")
    act(b, type="shoot", unit="sentry", target="raider")
    assert "Sentry: card modifiers -1 (1 previous action(s) -1)" in texts(b)
    b.roll([5, 4])  # 5-1 hits, 4-1 misses
    b.roll([6])
    assert "Raider: 1 hit(s)" in texts(b)
    # the held action is spent: no more windows for the Sentry this turn
    act(b, type="end_activation", unit="raider")
    assert b.pending.legal[0].type == "deal_cards"


def test_held_action_can_be_kept_and_lapses_at_turn_end() -> None:
    b = sentry_on_overwatch()
    b.apply(move("raider", 5))
    act(b, type="card_interrupt", unit="sentry", window="before")
    act(b, type="pass")  # changes its mind: done with this window
    assert "Sentry keeps its held action" in texts(b)
    assert b.state.scheme["cards"].units["sentry"].held_actions == 1
    assert b.pending.data == {"window": "after", "acting": "raider", "kind": "move"}
    act(b, type="pass")  # not after
    act(b, type="end_activation", unit="raider")
    assert b.state.scheme["cards"].units["sentry"].held_actions == 0
    assert "Turn 1 ends: held actions lapse" in texts(b)


def test_overwatch_needs_half_the_action_points() -> None:
    b = duel(("Sentry", 2), ("Raider", 2), ap_max=3)
    b.apply(move("sentry", 2, straight=False))
    b.apply(move("sentry", 2, straight=False))
    assert not any(s.type == "card_overwatch" for s in b.legal_commands())
    with pytest.raises(IllegalCommand):
        act(b, type="card_overwatch", unit="sentry")


def test_non_active_side_is_asked_first() -> None:
    b = Battle.start(
        setup([("Sentry", 2), ("Gunner", 2)], [("Watcher", 2), ("Raider", 2)], dice="table"), TableDice(), rules=ToyRules()
    )
    b.apply({"type": "deal_cards", "cards": ["AH", "3H"]})
    b.apply({"type": "deal_cards", "cards": ["2H", "KC"]})
    b.apply({"type": "assign_cards", "cards": {"sentry": "AH", "gunner": "3H"}})
    b.apply({"type": "assign_cards", "cards": {"watcher": "2H", "raider": "KC"}})
    act(b, type="card_overwatch", unit="sentry")
    act(b, type="card_overwatch", unit="watcher")
    # Gunner (red) acts: Blue, the non-active side, is asked first, then Red
    b.apply(move("gunner", 3))
    assert b.pending.side == "blue"
    act(b, type="pass")
    assert b.pending.side == "red"
    assert [s.params.get("unit") for s in b.legal_commands()] == ["sentry", "sentry", None]


def test_ca_ex_4a_two_move_charge_free_melee_and_melee_again() -> None:
    b = duel(("Orc Mob", 3), ("Militia", 6), ap_max=3)
    b.apply(move("orc-mob", 5))
    b.apply(move("orc-mob", 4, contact=True))
    assert "Orc Mob charges: +1 in melee this activation and a free melee action" in texts(b)
    labels = [s.label for s in b.legal_commands() if s.type == "melee"]
    assert labels and all("free charge melee" in label for label in labels)
    act(b, type="melee", unit="orc-mob", target="militia")
    assert texts(b)[-1] == "Orc Mob: card modifiers -1 (2 previous action(s) -2, charge +1)"
    b.roll([5, 4, 6])
    assert "Militia: 2 hit(s)" in texts(b)
    assert b.state.scheme["cards"].units["orc-mob"].ap_left == 1
    act(b, type="melee", unit="orc-mob", target="militia")
    assert texts(b)[-1] == "Orc Mob: card modifiers -2 (3 previous action(s) -3, charge +1)"
    b.roll([6, 3, 5])
    b.roll([5])  # militia now at half strength: morale, holds
    assert "Militia: 1 hit(s)" in texts(b)
    assert b.state.scheme["cards"].units["orc-mob"].status == "done"  # 0 AP: the activation ended


def test_ca_ex_4b_distance_charge_gives_plus_one_and_no_free_melee() -> None:
    b = duel(("Riders", 2), ("Militia", 6), ap_max=2)
    b.apply(move("riders", 9, contact=True))
    assert "Riders charges: +1 in melee this activation" in texts(b)
    assert not any("free charge melee" in s.label for s in b.legal_commands())
    act(b, type="melee", unit="riders", target="militia")
    assert texts(b)[-1] == "Riders: card modifiers +0 (1 previous action(s) -1, charge +1)"


def test_prep_blocks_a_second_shot_until_a_prep_action() -> None:
    b = duel(("Gunners", 2), ("Scouts", 6), ap_max=3)
    act(b, type="shoot", unit="gunners", target="scouts")
    b.roll([1, 1])
    with pytest.raises(IllegalCommand, match="needs 1 more prep action"):
        act(b, type="shoot", unit="gunners", target="scouts")
    assert any(s.type == "card_prep" for s in b.legal_commands())
    act(b, type="card_prep", unit="gunners", weapon="gun")
    assert "Gunners preps gun" in texts(b)
    assert b.state.scheme["cards"].units["gunners"].prep_remaining["gun"] == 0
    assert b.state.scheme["cards"].units["gunners"].ap_left == 1


def routed_militia() -> Battle:
    """Orcs (AH) rout the Militia (QH); the Reserve (KC) acts after the Militia."""
    b = Battle.start(setup([("Orcs", 2), ("Reserve", 2)], [("Militia", 2)], dice="table"), TableDice(), rules=ToyRules())
    b.apply({"type": "deal_cards", "cards": ["AH", "KC"]})
    b.apply({"type": "deal_cards", "cards": ["QH", "2D"]})
    b.apply({"type": "assign_cards", "cards": {"orcs": "AH", "reserve": "KC"}})
    b.apply({"type": "assign_cards", "cards": {"militia": "QH"}})
    act(b, type="shoot", unit="orcs", target="militia")
    b.roll([6, 1])
    b.roll([2])  # morale fails: routed
    assert "Militia routs: a free move of 12\" away from the enemy" in texts(b)
    act(b, type="end_activation", unit="orcs")
    return b


def test_rally_is_the_forced_first_action() -> None:
    b = routed_militia()
    assert [s.type for s in b.legal_commands()] == ["card_rally"]
    with pytest.raises(IllegalCommand):
        b.apply(move("militia", 3))


def test_rally_pass_goes_on_overwatch_and_can_interrupt() -> None:
    b = routed_militia()
    act(b, type="card_rally", unit="militia", facts={"at_edge": False})
    b.roll([5])
    assert "Militia rallies, may turn to face the fight, and goes on overwatch" in texts(b)
    unit = b.state.scheme["cards"].units["militia"]
    assert (unit.routed, unit.held_actions, unit.ap_left, unit.status) == (False, 1, 0, "done")
    assert "routed" not in b.state.unit("militia").markers
    b.apply(move("reserve", 3))
    assert b.pending.side == "blue" and b.pending.data["window"] == "before"


def test_rally_fail_routs_and_forfeits() -> None:
    b = routed_militia()
    act(b, type="card_rally", unit="militia", facts={"at_edge": False})
    b.roll([3])
    assert any(t.startswith("Militia fails to rally and routs 12\"") for t in texts(b))
    unit = b.state.scheme["cards"].units["militia"]
    assert unit.routed and unit.status == "done" and unit.held_actions == 0
    assert b.state.scheme["cards"].active == ["reserve"]


def test_rally_fail_at_the_own_edge_eliminates() -> None:
    b = routed_militia()
    act(b, type="card_rally", unit="militia", facts={"at_edge": True})
    b.roll([3])
    assert "Militia fails to rally at its own board edge and is eliminated" in texts(b)
    assert b.is_over


def test_casting_a_five_action_power_over_three_turns() -> None:
    b = duel(("Wizard", 1), ("Scouts", 1))
    for turn, cards in enumerate((("AH", "KC"), ("AS", "KD"), ("AD", "KC"))):
        if turn:
            b.apply({"type": "deal_cards", "cards": [cards[0]]})
            b.apply({"type": "deal_cards", "cards": [cards[1]]})
            b.apply({"type": "assign_cards", "cards": {"wizard": cards[0]}})
            b.apply({"type": "assign_cards", "cards": {"scouts": cards[1]}})
        act(b, type="cast", unit="wizard")
        if turn < 2:
            act(b, type="cast", unit="wizard")
        else:
            break
        act(b, type="end_activation", unit="scouts")
    paid = [e.data["paid"] for e in b.events if e.kind == "casting"]
    assert paid == [1, 2, 3, 4]
    assert texts(b)[-1] == "Wizard casts hand-o-god"


def test_combined_activation_goes_in_steps() -> None:
    """AMB-19: each unit of the group takes one action before any takes its next."""
    b = Battle.start(setup([("A", 2), ("B", 2)], [("X", 2)], dice="table"), TableDice(), rules=ToyRules())
    b.apply({"type": "deal_cards", "cards": ["AH", "2H"]})
    b.apply({"type": "deal_cards", "cards": ["KC", "QC"]})
    b.apply({"type": "assign_cards", "cards": {"a": "AH", "b": "2H"}})
    b.apply({"type": "assign_cards", "cards": {"x": "KC"}})
    b.apply({"type": "activate_cards", "units": ["a", "b"]})
    b.apply(move("a", 3))
    with pytest.raises(IllegalCommand):
        b.apply(move("a", 3))
    assert not any(s.type == "move" and s.params["unit"] == "a" for s in b.legal_commands())
    b.apply(move("b", 3))
    b.apply(move("a", 3))  # the next step


def test_combined_steps_can_be_switched_off() -> None:
    b = Battle.start(setup([("A", 2), ("B", 2)], [("X", 2)], dice="table", combined_steps=False), TableDice(), rules=ToyRules())
    b.apply({"type": "deal_cards", "cards": ["AH", "2H"]})
    b.apply({"type": "deal_cards", "cards": ["KC", "QC"]})
    b.apply({"type": "assign_cards", "cards": {"a": "AH", "b": "2H"}})
    b.apply({"type": "assign_cards", "cards": {"x": "KC"}})
    b.apply({"type": "activate_cards", "units": ["a", "b"]})
    b.apply(move("a", 3))
    b.apply(move("a", 3))
    assert b.state.scheme["cards"].units["a"].status == "done"


def test_an_interrupt_can_be_answered_but_not_by_itself() -> None:
    """Blue's Watcher interrupts Red's Gunner; Red's held Sentry answers the Watcher;
    the Watcher's own action is spent and is not offered again."""
    b = Battle.start(
        setup([("Sentry", 2), ("Gunner", 2)], [("Watcher", 2), ("Raider", 2)], dice="table"), TableDice(), rules=ToyRules()
    )
    b.apply({"type": "deal_cards", "cards": ["AH", "3H"]})
    b.apply({"type": "deal_cards", "cards": ["2H", "KC"]})
    b.apply({"type": "assign_cards", "cards": {"sentry": "AH", "gunner": "3H"}})
    b.apply({"type": "assign_cards", "cards": {"watcher": "2H", "raider": "KC"}})
    act(b, type="card_overwatch", unit="sentry")
    act(b, type="card_overwatch", unit="watcher")
    b.apply(move("gunner", 3))
    act(b, type="card_interrupt", unit="watcher", window="before")  # blue first
    act(b, type="shoot", unit="watcher", target="gunner")
    window = b.pending  # before the Watcher's shot: Red's Sentry may answer it
    assert window.side == "red" and window.data["acting"] == "watcher"
    act(b, type="card_interrupt", unit="sentry", window="before")
    act(b, type="shoot", unit="sentry", target="watcher")
    assert b.pending.purpose.startswith("2 x d6 shoot, Sentry at Watcher")
    b.roll([1, 1])  # the Sentry misses
    b.roll([1, 1])  # then the Watcher's shot
    # nobody holds an action any more: the Gunner's move goes ahead
    assert texts(b)[-1] == "Gunner moves"
    held = {u: c.held_actions for u, c in b.state.scheme["cards"].units.items()}
    assert held == {"sentry": 0, "gunner": 0, "watcher": 0, "raider": 0}
