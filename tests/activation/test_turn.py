"""The card turn's bookkeeping: assignment, order, AP, penalties, PREP, overwatch, rally."""

from fractions import Fraction

import pytest

from campaign.activation.cards.deck import parse_card
from campaign.activation.cards.rules import Step
from campaign.activation.cards.turn import CardRuleError, CardTable, CardTurn


def table(**turn_fields: object) -> CardTable:
    return CardTable(CardTurn(**turn_fields), {})


def dealt(t: CardTable, hands: dict[str, list[str]]) -> None:
    t.begin_turn()
    for side, codes in hands.items():
        t.set_hand(side, [parse_card(c) for c in codes])


EX2 = {"red-alpha": "7H", "red-bravo": "2S", "blue-x": "QH", "blue-y": "AS", "blue-z": "5D", "red-charlie": "KC"}


def ex2_table(order: str = "suit_major") -> CardTable:
    t = table(card_order=order)
    for unit in EX2:
        t.add_unit(unit, unit.split("-")[0], 2)
    dealt(t, {"red": ["7H", "2S", "KC"], "blue": ["QH", "AS", "5D"]})
    t.assign("red", {u: c for u, c in EX2.items() if u.startswith("red")})
    t.assign("blue", {u: c for u, c in EX2.items() if u.startswith("blue")})
    return t


def test_ca_ex_2_suit_major_order_and_in_sequence_group() -> None:
    t = ex2_table()
    assert [t.key(EX2[u.id]) for u in t.order()] == [7, 12, 14, 15, 31, 52]
    assert [u.id for u in t.order()] == ["red-alpha", "blue-x", "blue-y", "red-bravo", "blue-z", "red-charlie"]
    assert [u.id for u in t.next_run()] == ["red-alpha"]
    t.activate(["red-alpha"])
    t.end_activation("red-alpha")
    assert [u.id for u in t.next_run()] == ["blue-x", "blue-y"]


def test_ca_ex_2_rank_major_order_has_no_runs() -> None:
    t = ex2_table("rank_major")
    assert [t.key(EX2[u.id]) for u in t.order()] == [5, 9, 22, 28, 48, 55]
    assert [u.id for u in t.order()] == ["blue-y", "red-bravo", "blue-z", "red-alpha", "blue-x", "red-charlie"]
    seen = []
    while run := t.next_run():
        assert len(run) == 1
        seen.append(run[0].id)
        t.activate([run[0].id])
        t.end_activation(run[0].id)
    assert len(seen) == 6


def test_ca_ex_2_a_destroyed_unit_s_card_is_skipped() -> None:
    t = ex2_table()
    t.activate(["red-alpha"])
    t.eliminate("blue-x")
    t.end_activation("red-alpha")
    assert [u.id for u in t.next_run()] == ["blue-y"]


def test_cards_stay_hidden_until_their_unit_activates() -> None:
    t = ex2_table()
    assert all(u.card is None for u in t.units.values())
    t.activate(["red-alpha"])
    assert t.units["red-alpha"].card == "7H" and t.units["blue-x"].card is None
    assert t.turn.revealed_order == ["red-alpha"]


def test_ca_ex_1a_assignment_discards_the_surplus() -> None:
    t = table()
    for i in range(8):
        t.add_unit(f"r{i}", "red", 2)
    for i in range(5):
        t.add_unit(f"b{i}", "blue", 2)
    plan = t.plan({"red": 1, "blue": 2})
    assert plan.counts == {"red": 9, "blue": 8}
    red = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"]
    blue = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S"]
    dealt(t, {"red": red, "blue": blue})
    assert t.assign("red", {f"r{i}": red[i] for i in range(8)}) == ["9H"]
    assert t.assign("blue", {f"b{i}": blue[i + 3] for i in range(5)}) == ["AS", "2S", "3S"]
    assert t.turn.phase == "activations"
    assert all(t.card_of(u) for u in t.units)


@pytest.mark.parametrize(
    "mapping, rule_text",
    [
        ({"red-alpha": "7H", "red-bravo": "7H", "red-charlie": "KC"}, "one unit only"),
        ({"red-alpha": "7H", "red-bravo": "2S"}, "missing: red-charlie"),
        ({"red-alpha": "7H", "red-bravo": "2S", "red-charlie": "QH"}, "not in red's hand"),
        ({"red-alpha": "7H", "red-bravo": "2S", "red-charlie": "KC", "blue-x": "QH"}, "not units of red"),
        ({"red-alpha": "7H", "red-bravo": "2S", "red-charlie": "ZZ"}, "suit must be"),
    ],
)
def test_bad_assignments_are_refused(mapping: dict[str, str], rule_text: str) -> None:
    t = table()
    for unit in EX2:
        t.add_unit(unit, unit.split("-")[0], 2)
    dealt(t, {"red": ["7H", "2S", "KC"], "blue": ["QH", "AS", "5D"]})
    with pytest.raises(ValueError, match=rule_text):
        t.assign("red", mapping)
    assert "red" not in t.turn.assigned_sides


def test_a_card_cannot_be_dealt_twice() -> None:
    t = table()
    t.add_unit("a", "red", 2)
    t.add_unit("b", "blue", 2)
    t.begin_turn()
    t.set_hand("red", [parse_card("QH")])
    with pytest.raises(CardRuleError, match="dealt twice"):
        t.set_hand("blue", [parse_card("QH")])


def solo(ap_max: int, **unit: object) -> CardTable:
    """One unit of red ready to activate, and a blue target."""
    t = table()
    t.add_unit("gunners", "red", ap_max, weapons=[("rifle", 1, True)], **unit)
    t.add_unit("scouts", "blue", 2)
    dealt(t, {"red": ["AH"], "blue": ["KC"]})
    t.assign("red", {"gunners": "AH"})
    t.assign("blue", {"scouts": "KC"})
    return t


def test_ca_ex_3_ballistic_penalties_and_prep() -> None:
    t = solo(3)
    t.units["scouts"].status = "done"  # scouts activated earlier this turn and moved 14"
    t.units["scouts"].moved_this_turn = Fraction(14)
    t.activate(["gunners"])
    t.check_action("gunners", "move")
    t.record_action("gunners", "move", step=Step("move", Fraction(4)))
    t.check_action("gunners", "ballistic", weapon="rifle")
    assert t.modifier("gunners", "ballistic", "scouts").total == -2
    t.record_action("gunners", "ballistic", weapon="rifle")
    assert t.units["gunners"].prep_remaining["rifle"] == 1
    with pytest.raises(CardRuleError, match="CA-11.2"):
        t.check_action("gunners", "ballistic", weapon="rifle")
    t.check_action("gunners", "prep", weapon="rifle")
    t.record_action("gunners", "prep", weapon="rifle")
    assert t.units["gunners"].prep_remaining["rifle"] == 0
    assert t.units["gunners"].ap_left == 0
    with pytest.raises(CardRuleError, match="no action points"):
        t.check_action("gunners", "move")


def test_ca_ex_3_next_turn_uses_last_turns_movement_of_a_target_not_yet_activated() -> None:
    t = solo(3)
    t.units["scouts"].status = "done"
    t.units["scouts"].moved_this_turn = Fraction(14)
    t.end_turn()
    dealt(t, {"red": ["AH"], "blue": ["KC"]})
    t.assign("red", {"gunners": "AH"})
    t.assign("blue", {"scouts": "KC"})
    t.activate(["gunners"])
    assert t.modifier("gunners", "ballistic", "scouts").total == -1


def test_turn_one_target_not_yet_activated_counts_as_unmoved() -> None:
    t = solo(2)
    t.activate(["gunners"])
    assert t.modifier("gunners", "ballistic", "scouts").total == 0


def test_non_primary_weapons_start_unprepped_and_any_action_option() -> None:
    t = table(prep_counts="any_action")
    t.add_unit("crew", "red", 3, weapons=[("rifle", 0, True), ("mortar", 2, False)])
    t.add_unit("foe", "blue", 2)
    dealt(t, {"red": ["AH"], "blue": ["KC"]})
    t.assign("red", {"crew": "AH"})
    t.assign("blue", {"foe": "KC"})
    t.activate(["crew"])
    with pytest.raises(CardRuleError, match="2 more prep"):
        t.check_action("crew", "ballistic", weapon="mortar")
    t.record_action("crew", "move", step=Step("move", Fraction(3)))
    t.record_action("crew", "ballistic", weapon="rifle")
    assert t.units["crew"].prep_remaining["mortar"] == 0


def test_prep_only_by_default_moves_do_not_count() -> None:
    t = table()
    t.add_unit("crew", "red", 3, weapons=[("mortar", 1, False)])
    t.add_unit("foe", "blue", 2)
    dealt(t, {"red": ["AH"], "blue": ["KC"]})
    t.assign("red", {"crew": "AH"})
    t.assign("blue", {"foe": "KC"})
    t.activate(["crew"])
    t.record_action("crew", "move", step=Step("move", Fraction(3)))
    assert t.units["crew"].prep_remaining["mortar"] == 1
    with pytest.raises(CardRuleError, match="already prepped"):
        t.check_action("crew", "prep", weapon="rifle")


def orc_mob(ap_max: int = 3) -> CardTable:
    t = table()
    t.add_unit("orcs", "red", ap_max, move=5)
    t.add_unit("militia", "blue", 2, move=6)
    dealt(t, {"red": ["AH"], "blue": ["KC"]})
    t.assign("red", {"orcs": "AH"})
    t.assign("blue", {"militia": "KC"})
    t.activate(["orcs"])
    return t


def test_ca_ex_4a_two_move_charge_free_melee_then_melee_again() -> None:
    t = orc_mob(3)
    t.record_action("orcs", "move", step=Step("move", Fraction(5), straight=True))
    charge = t.record_action("orcs", "move", step=Step("move", Fraction(4), straight=True, contact=True))
    assert charge.kind == "both"
    assert t.check_action("orcs", "melee") is True  # the free melee
    assert t.modifier("orcs", "melee").total == -1
    t.record_action("orcs", "melee", free=True)
    assert t.units["orcs"].ap_left == 1 and t.units["orcs"].actions_taken == 3
    assert t.check_action("orcs", "melee") is False
    assert t.modifier("orcs", "melee").total == -2
    t.record_action("orcs", "melee")
    assert t.units["orcs"].ap_left == 0


def test_ca_ex_4b_distance_charge_has_no_free_action() -> None:
    t = orc_mob(2)
    t.record_action("orcs", "move", step=Step("move", Fraction(9), straight=True, contact=True))
    assert t.check_action("orcs", "melee") is False
    assert t.modifier("orcs", "melee").total == 0


def test_free_melee_lapses_if_not_taken_at_once() -> None:
    t = orc_mob(4)
    t.record_action("orcs", "move", step=Step("move", Fraction(3), straight=True))
    t.record_action("orcs", "move", step=Step("move", Fraction(3), straight=True, contact=True))
    t.record_action("orcs", "special")
    assert t.check_action("orcs", "melee") is False
    assert t.modifier("orcs", "melee").charge == 1  # AMB-14: the +1 lasts the activation


@pytest.mark.parametrize("ap_max, used, allowed", [(3, 1, True), (3, 2, False), (4, 2, True), (2, 1, True), (1, 0, True)])
def test_ca_ex_4c_overwatch_eligibility(ap_max: int, used: int, allowed: bool) -> None:
    t = orc_mob(ap_max)
    for _ in range(used):
        t.record_action("orcs", "special")
    if allowed:
        t.go_overwatch("orcs")
        u = t.units["orcs"]
        assert (u.overwatch, u.held_actions, u.ap_left) == (True, 1, 0)
    else:
        with pytest.raises(CardRuleError, match="CA-7.1"):
            t.go_overwatch("orcs")


def test_ca_ex_4c_held_action_carries_the_penalty_of_earlier_actions() -> None:
    t = orc_mob(3)
    t.record_action("orcs", "special")
    t.go_overwatch("orcs")
    t.end_activation("orcs")
    assert t.units["orcs"].held_actions == 1
    t.check_action("orcs", "ballistic", held=True)
    assert t.modifier("orcs", "ballistic", "militia").total == -1
    t.record_action("orcs", "ballistic", held=True)
    assert t.units["orcs"].held_actions == 0 and t.units["orcs"].overwatch
    with pytest.raises(CardRuleError, match="no held"):
        t.check_action("orcs", "ballistic", held=True)
    t.end_turn()
    assert not t.units["orcs"].overwatch


def routed_militia() -> CardTable:
    t = table()
    t.add_unit("militia", "blue", 2, move=6)
    t.add_unit("orcs", "red", 2)
    t.units["militia"].routed = True
    dealt(t, {"red": ["KC"], "blue": ["AH"]})
    t.assign("red", {"orcs": "KC"})
    t.assign("blue", {"militia": "AH"})
    t.activate(["militia"])
    return t


def test_ca_ex_4d_rally_is_forced_first() -> None:
    t = routed_militia()
    for kind in ("move", "melee", "ballistic"):
        with pytest.raises(CardRuleError, match="must be Rally"):
            t.check_action("militia", kind)
    with pytest.raises(CardRuleError, match="CA-6.1"):
        t.go_overwatch("militia")
    t.check_action("militia", "rally")


def test_ca_ex_4d_rally_fail_at_the_edge_eliminates() -> None:
    t = routed_militia()
    assert t.rally_result("militia", passed=False, at_edge=True) == "eliminated"
    assert t.units["militia"].eliminated


def test_ca_ex_4d_rally_fail_routs_twice_the_move_and_forfeits() -> None:
    t = routed_militia()
    assert t.rally_result("militia", passed=False) == "routed"
    u = t.units["militia"]
    assert u.routed and u.ap_left == 0 and u.moved_this_turn == 12 and u.actions_taken == 1


def test_ca_ex_4d_rally_pass_goes_on_overwatch() -> None:
    t = routed_militia()
    assert t.rally_result("militia", passed=True) == "rallied"
    u = t.units["militia"]
    assert (u.routed, u.overwatch, u.held_actions, u.ap_left) == (False, True, 1, 0)


def test_rally_is_refused_for_a_steady_unit() -> None:
    t = orc_mob()
    with pytest.raises(CardRuleError, match="routed unit only"):
        t.check_action("orcs", "rally")


def test_casting_progress_survives_the_turn_and_resets_on_rout() -> None:
    t = orc_mob(2)
    assert not t.pay_cast("orcs", "hand-o-god", 5).complete
    assert t.pay_cast("orcs", "hand-o-god", 5).paid == 2
    t.end_activation("orcs")
    t.end_turn()
    assert t.units["orcs"].casting_paid == 2
    t.rout("orcs")
    assert t.units["orcs"].casting_power is None and t.units["orcs"].moved_this_turn == 10


def test_aim_adds_one_and_is_not_a_previous_action() -> None:
    t = orc_mob(3)
    t.record_action("orcs", "aim")
    mod = t.modifier("orcs", "ballistic", "militia")
    assert (mod.aim, mod.previous_actions, mod.total) == (1, 0, 1)
    t.record_action("orcs", "ballistic")
    assert t.modifier("orcs", "ballistic", "militia").aim == 0


def test_combined_activation_must_be_the_next_in_sequence_cards() -> None:
    t = ex2_table()
    with pytest.raises(CardRuleError, match="CA-4.5"):
        t.activate(["blue-x"])
    t.activate(["red-alpha"])
    t.end_activation("red-alpha")
    with pytest.raises(CardRuleError, match="CA-4.5"):
        t.activate(["blue-x", "blue-z"])
    t.activate(["blue-x", "blue-y"])
    assert t.turn.active == ["blue-x", "blue-y"]


def test_held_units_offer_the_non_active_side_first() -> None:
    t = ex2_table()
    for unit in ("red-bravo", "blue-z", "red-charlie"):
        t.units[unit].held_actions = 1
    assert t.interrupt_sides("red") == ["blue", "red"]
    assert [u.id for u in t.held_units()] == ["red-bravo", "blue-z", "red-charlie"]


def test_in_step_rule_names_amb_19() -> None:
    t = ex2_table()
    t.activate(["red-alpha"])
    t.end_activation("red-alpha")
    t.activate(["blue-x", "blue-y"])
    t.record_action("blue-x", "move", step=Step("move", Fraction(3)))
    with pytest.raises(CardRuleError, match="AMB-19"):
        t.check_action("blue-x", "move")
    t.record_action("blue-y", "move", step=Step("move", Fraction(3)))
    t.check_action("blue-x", "move")
    t.end_activation("blue-y")  # a unit that has finished no longer holds the group back
    t.record_action("blue-x", "move", step=Step("move", Fraction(3)))
    assert t.units["blue-x"].ap_left == 0
