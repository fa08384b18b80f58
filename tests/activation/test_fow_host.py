"""Flat Out War under the card scheme (spec 7.3), through the Python API."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from typing import Any

import pytest
import tomli_w

from campaign.activation.cards import card_odds, card_view
from campaign.campaigns.scenario import Scenario
from campaign.engine.battle import Battle
from campaign.engine.dice import TableDice
from campaign.engine.errors import IllegalCommand
from campaign.engine.odds import odds
from campaign.engine.pending import RollRequest
from campaign.engine.setup import BattleSetup, SideSetup
from campaign.force import Element, Force, Unit, Weapon
from tests.activation.play import autoplay

QUIET = {"ask_witnesses": False, "lucky_prompt": False, "stand_prompt": False}


def el(name: str, die: str = "d6", count: int = 1, move: int = 4, weapons: tuple[Weapon, ...] = (), attributes: tuple[str, ...] = ()) -> Element:
    return Element(name, count=count, die=die, move=move, weapons=weapons or (Weapon("Sword", "melee", die),), attributes=attributes)


BOW = Weapon("Bow", "ranged", "d6", range=12, traits=("Reload: 1",))


def fow_setup(red: tuple[Unit, ...], blue: tuple[Unit, ...], dice: str = "table", seed: int = 0, rounds: int | None = None, **card_options: Any) -> BattleSetup:
    return BattleSetup(
        ruleset="flat-out-war",
        edition="1.7",
        sides=(
            SideSetup("red", "Red", Force("Red", "flat-out-war", "1.7", red)),
            SideSetup("blue", "Blue", Force("Blue", "flat-out-war", "1.7", blue)),
        ),
        scenario=Scenario(id="t", name="T", rounds=rounds),
        options=dict(QUIET),
        activation="cards",
        activation_options=card_options,
        seed=seed,
        dice=dice,
    )


def start(red: tuple[Unit, ...], blue: tuple[Unit, ...], **card_options: Any) -> Battle:
    return Battle.start(fow_setup(red, blue, **card_options), TableDice())


def first_turn(b: Battle, red: dict[str, str], blue: dict[str, str], red_extra: tuple[str, ...] = (), blue_extra: tuple[str, ...] = ()) -> None:
    b.apply({"type": "deal_cards", "cards": [*red.values(), *red_extra]})
    b.apply({"type": "deal_cards", "cards": [*blue.values(), *blue_extra]})
    b.apply({"type": "assign_cards", "cards": red})
    b.apply({"type": "assign_cards", "cards": blue})


def roll(b: Battle, faces: list[int], contains: str = "") -> RollRequest:
    req = b.pending
    assert isinstance(req, RollRequest), f"expected dice, engine waits for {req}"
    assert contains in req.purpose, req.purpose
    b.roll(faces)
    return req


def texts(b: Battle) -> list[str]:
    return [e.text for e in b.events]


ORCS = Unit("Orcs", (el("Orc", count=3),))
MILITIA = Unit("Militia", (el("Man", count=4),))


def test_command_officer_is_the_field_commander() -> None:
    boss = Unit("Boss", (el("Boss", "d8", attributes=("Command",)),))
    b = start((ORCS, boss), (MILITIA,))
    assert b.pending.data["count"] == 3  # Red: 2 units + leadership bonus 1
    b.apply({"type": "deal_cards", "cards": ["AH", "2H", "3H"]})
    assert b.pending.data["count"] == 2  # Blue: max(1, ceil(1.5)), no officer


def test_card_modifier_joins_fow_modifiers_and_one_other_action() -> None:
    b = start((ORCS,), (MILITIA,))
    first_turn(b, {"orcs": "AH"}, {"militia": "KC"})
    b.apply({"type": "move", "unit": "orcs", "facts": {"distance": 4, "straight": True}})
    b.apply({"type": "move", "unit": "orcs", "facts": {"distance": 4, "straight": True, "contact": ["militia"]}})
    assert "Orcs charges: +1 in melee this activation and a free melee action" in texts(b)
    b.apply({"type": "melee", "unit": "orcs", "target": "militia", "facts": {"aspect": "flank"}})
    req = roll(b, [3, 1, 1], "to hit")  # 3 + 1 (flank) - 1 (card: 2 actions, +1 charge) = 3: no hit
    assert "flank +1" in req.purpose and "card activation -1" in req.purpose
    assert "Orcs rolls [3, 1, 1] in melee Militia: 0 hit(s)" in texts(b)
    assert b.state.scheme["cards"].units["orcs"].status == "done"  # 0 AP and its one Other Action used
    assert b.state.scheme["cards"].active == ["militia"]


def test_deny_charge_cancels_the_card_plus_one_but_not_the_free_melee() -> None:
    pikes = Unit("Pikes", (el("Pike", count=3, attributes=("Deny Charge",)),))
    b = start((ORCS,), (pikes,))
    first_turn(b, {"orcs": "AH"}, {"pikes": "KC"})
    b.apply({"type": "move", "unit": "orcs", "facts": {"distance": 4, "straight": True}})
    b.apply({"type": "move", "unit": "orcs", "facts": {"distance": 4, "straight": True, "contact": ["pikes"]}})
    b.apply({"type": "melee", "unit": "orcs", "target": "pikes"})  # the free melee is still there
    assert "Pikes denies the charge: no card +1" in texts(b)
    assert "card activation -2" in roll(b, [1, 1, 1], "to hit").purpose


def test_one_other_action_per_activation_by_default() -> None:
    b = start((ORCS,), (MILITIA,))
    first_turn(b, {"orcs": "AH"}, {"militia": "KC"})
    b.apply({"type": "melee", "unit": "orcs", "target": "militia"})
    roll(b, [1, 1, 1], "to hit")
    assert not any(s.type == "melee" for s in b.legal_commands())
    with pytest.raises(IllegalCommand):
        b.apply({"type": "melee", "unit": "orcs", "target": "militia"})


def test_card_odds_include_the_card_modifier() -> None:
    b = start((ORCS,), (MILITIA,))
    first_turn(b, {"orcs": "AH"}, {"militia": "KC"})
    b.apply({"type": "move", "unit": "orcs", "facts": {"distance": 4, "straight": False}})
    b.apply({"type": "move", "unit": "orcs", "facts": {"distance": 4, "straight": False, "contact": ["militia"]}})
    melee = {"type": "melee", "unit": "orcs", "target": "militia"}
    digest = b.digest()
    plain, carded = odds(b, melee), card_odds(b, melee)
    assert b.digest() == digest
    assert all(p == Fraction(1, 2) for p in plain.p_hit)  # d6, 4+
    assert all(p == Fraction(1, 6) for p in carded.p_hit)  # two previous actions: 6 needed
    assert any("card activation -2" in note for note in carded.notes)


def test_fow_run_is_replaced_by_two_moves() -> None:
    b = start((ORCS,), (MILITIA,))
    first_turn(b, {"orcs": "AH"}, {"militia": "KC"})
    with pytest.raises(IllegalCommand, match="two Move actions"):
        b.apply({"type": "move", "unit": "orcs", "facts": {"run": True}})
    b.apply({"type": "move", "unit": "orcs", "facts": {"distance": 4}})
    assert any(s.type == "move" for s in b.legal_commands())  # a second Move is legal


def test_one_other_action_can_be_switched_off() -> None:
    b = start((ORCS,), (MILITIA,), fow_enforce_one_other_action=False)
    first_turn(b, {"orcs": "AH"}, {"militia": "KC"})
    b.apply({"type": "melee", "unit": "orcs", "target": "militia"})
    roll(b, [1, 1, 1], "to hit")
    b.apply({"type": "melee", "unit": "orcs", "target": "militia"})
    assert "card activation -1" in roll(b, [1, 1, 1], "to hit").purpose


def test_reload_is_prep_spent_as_actions() -> None:
    archers = Unit("Archers", (el("Archer", count=1, weapons=(BOW,)),))
    b = start((archers,), (MILITIA,))
    first_turn(b, {"archers": "AH"}, {"militia": "KC"})
    b.apply({"type": "shoot", "unit": "archers", "target": "militia"})
    roll(b, [1], "to hit")
    assert card_view(b.state, "red").units[0].prep == {"Bow": 1}
    b.apply({"type": "end_activation", "unit": "archers"})
    b.apply({"type": "end_activation", "unit": "militia"})
    # turn 2: the turn end did not reload the bow; a prep action does
    first_turn(b, {"archers": "AS"}, {"militia": "KD"})
    with pytest.raises(IllegalCommand, match="reloading|prep"):
        b.apply({"type": "shoot", "unit": "archers", "target": "militia"})
    b.apply({"type": "card_prep", "unit": "archers", "weapon": "Bow"})
    assert card_view(b.state, "red").units[0].prep == {}
    b.apply({"type": "shoot", "unit": "archers", "target": "militia"})
    assert "card activation -1" in roll(b, [1], "to hit").purpose  # the prep was an earlier action


def test_rout_and_forced_rally_use_fow_morale() -> None:
    b = start((Unit("Orcs", (el("Orc", count=4),)),), (Unit("Men", (el("Man", "d8", count=4),)),))
    first_turn(b, {"orcs": "AH"}, {"men": "KC"})
    b.apply({"type": "melee", "unit": "orcs", "target": "men"})
    roll(b, [6, 1, 1, 1], "to hit")
    roll(b, [1], "recovery")  # a Man falls: 25% lost
    roll(b, [2], "morale")  # 2 - 1 fails: broken
    assert any(t.startswith("Men routs: a free move of 8") for t in texts(b))
    b.apply({"type": "end_activation", "unit": "orcs"})
    # the Men's card comes up: Rally is forced, a FOW rally roll with Frightened -2
    assert [s.type for s in b.legal_commands()] == ["card_rally"]
    b.apply({"type": "card_rally", "unit": "men", "facts": {"at_edge": False}})
    req = roll(b, [8], "rally")  # 8 - 1 - 2 = 5 passes
    assert "Frightened -2" in req.purpose
    assert "Men rallies, may turn to face the fight, and goes on overwatch" in texts(b)
    assert b.state.unit("men").data["morale"] == "steady"


SCRIPT_RED = (Unit("Orcs", (el("Orc", count=3),)), Unit("Archers", (el("Archer", count=2, weapons=(BOW,)),)))
SCRIPT_BLUE = (
    Unit("Militia", (el("Man", count=4),)),
    Unit("Rangers", (el("Ranger", "d8", weapons=(Weapon("Longbow", "ranged", "d8", range=18),)),)),
)
SCRIPT: list[Any] = [
 {"type": "deal_cards", "cards": ["AH", "5D"]},
 {"type": "deal_cards", "cards": ["3H", "KC"]},
 {"type": "assign_cards", "cards": {"orcs": "AH", "archers": "5D"}},
 {"type": "assign_cards", "cards": {"militia": "3H", "rangers": "KC"}},
 {"type": "move", "unit": "orcs", "facts": {"distance": 4, "straight": True}},
 {"type": "move", "unit": "orcs", "facts": {"distance": 4, "straight": True, "contact": ["militia"]}},
 {"type": "melee", "unit": "orcs", "target": "militia"},
 [6, 5, 2], [1], [5], [4],
 {"type": "card_rally", "unit": "militia", "facts": {"at_edge": False}},
 [6],
 {"type": "shoot", "unit": "archers", "target": "militia"},
 [5, 2], [2], [3],
 {"type": "card_prep", "unit": "archers", "weapon": "Bow"},
 {"type": "shoot", "unit": "rangers", "target": "orcs"},
 [8], [1], [5],
 {"type": "end_activation", "unit": "rangers"},
 {"type": "deal_cards", "cards": ["2C", "9S"]},
 {"type": "deal_cards", "cards": ["AS", "QD"]},
 {"type": "assign_cards", "cards": {"orcs": "9S", "archers": "2C"}},
 {"type": "assign_cards", "cards": {"militia": "QD", "rangers": "AS"}},
 {"type": "card_overwatch", "unit": "rangers"},
 {"type": "melee", "unit": "orcs", "target": "militia"},
 {"type": "card_interrupt", "unit": "rangers", "window": "before"},
 {"type": "shoot", "unit": "rangers", "target": "orcs"},
 [7], [6],
 [3, 3],
 {"type": "end_activation", "unit": "orcs"},
 {"type": "card_rally", "unit": "militia", "facts": {"at_edge": True}},
 [6],
 {"type": "shoot", "unit": "archers", "target": "rangers"},
 [6, 6], [1],
]


def test_a_scripted_fow_card_battle_with_typed_cards_and_table_dice() -> None:
    """Two card turns: a two-move charge with its free melee, a failed rally, target
    movement, Reload as PREP, an overwatch interrupt, elimination at the edge."""
    b = start(SCRIPT_RED, SCRIPT_BLUE)
    for step in SCRIPT:
        if isinstance(step, list):
            b.roll(step)
        else:
            b.apply(step)
    assert b.is_over and b.state.end_reason == "only Red has units left"
    lines = texts(b)
    for expected in (
        "Orcs: card modifiers -1 (2 previous action(s) -2, charge +1)",
        "Militia fails to rally and routs 8\"; its remaining actions are forfeited",
        "Archers: card modifiers -1 (target movement -1)",  # the Militia routed 16" this turn
        "Archers preps Bow",
        "Rangers interrupts before",
        "Militia fails to rally at its own board edge and is eliminated",
    ):
        assert expected in lines
    turn2 = lines[lines.index("Turn 2 begins: the cards are collected and shuffled"):]
    assert turn2.index("Orc recovers (6 +0)") < turn2.index("Orcs attacks Militia in melee")  # interrupt first
    # the log survives TOML and replays to the same state
    text = tomli_w.dumps({"log": b.log_dicts()})
    again = Battle.replay(b.setup, tomllib.loads(text)["log"])
    assert again.digest() == b.digest()
    assert again.outcome().digest == b.digest()


def test_a_full_fow_battle_with_the_card_scheme_replays_to_the_same_digest() -> None:
    red = (
        Unit("Orcs", (el("Orc", count=3),)),
        Unit("Archers", (el("Archer", count=2, weapons=(BOW,)),)),
        Unit("Boss", (el("Boss", "d8", attributes=("Command",)),)),
    )
    blue = (
        Unit("Elves", (el("Elf", count=3),)),
        Unit("Rangers", (el("Ranger", count=2, weapons=(Weapon("Longbow", "ranged", "d8", range=18),)),)),
    )
    setup = fow_setup(red, blue, dice="auto", seed=9, rounds=4)
    b = Battle.start(setup)
    autoplay(b)
    assert b.is_over
    kinds = {e.kind for e in b.events}
    assert {"deal", "cards_placed", "card_up", "attack_roll"} <= kinds
    again = Battle.replay(setup, b.log_dicts())
    assert again.digest() == b.digest()
    assert b.outcome().digest == b.digest()


def test_ca8_charge_reads_the_inches_of_a_path_as_fow_does() -> None:
    """Issue 12 item 2: a Move given as a `path` (what the battle form sends) is as far as the
    same Move given as a `distance`: the 8" straight charge is earned either way."""
    runners = Unit("Orcs", (el("Orc", count=3, move=8),))
    b = start((runners,), (MILITIA,))
    first_turn(b, {"orcs": "AH"}, {"militia": "KC"})
    b.apply({"type": "move", "unit": "orcs", "facts": {"path": "open 8", "straight": True, "contact": ["militia"]}})
    assert "Orcs charges: +1 in melee this activation" in texts(b)


def test_ca11_3_target_movement_penalty_reads_a_path() -> None:
    archers = Unit("Archers", (el("Archer", weapons=(Weapon("Bow", "ranged", "d6", range=24),)),))
    b = start((archers,), (Unit("Orcs", (el("Orc", count=3, move=8),)),))
    first_turn(b, {"archers": "KC"}, {"orcs": "AH"})  # the orcs act first
    b.apply({"type": "move", "unit": "orcs", "facts": {"path": "open 8"}})
    b.apply({"type": "move", "unit": "orcs", "facts": {"path": "open 2, light 2"}})  # 12" moved in all
    carded = card_odds(b, {"type": "shoot", "unit": "archers", "target": "orcs"})
    assert any("card activation -1" in note for note in carded.notes)  # 12": -1 (AMB-16)
