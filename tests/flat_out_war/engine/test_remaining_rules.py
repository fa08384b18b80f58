"""Scripted-dice tests for four rules the audit listed as untested: detaching an officer
(A-06), Capture (A-63), a Waterborne element running aground, and Lucky per edition (A-67)."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.campaigns.scenario import Scenario
from campaign.engine.battle import Battle
from campaign.engine.dice import TableDice
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import Decision, RollRequest
from campaign.engine.setup import BattleSetup, SideSetup
from campaign.rulesets.flat_out_war.engine.rules import FlatOutWarRules

from .battle_helpers import SO, V17, Weapon, battle, decision, el, expect_roll, force, initiative, texts

LASSO = Weapon("Lasso", "ranged", "d8", 8, traits=("Capture",))
GUN = Weapon("Gun", "ranged", "d8", 12)


def duel(red: list, blue: list, edition: str = SO, turns: str = "", **opts: Any) -> Battle:
    """Red goes first in round 1. `turns`: the initiative scheme's turn structure (A-04)."""
    a = force("Red", *red, edition=edition)
    b = force("Blue", *blue, edition=edition)
    if not turns:
        bt = battle(a, b, edition=edition, **opts)
    else:
        opts.setdefault("ask_witnesses", False)
        opts.setdefault("lucky_prompt", False)
        setup = BattleSetup(ruleset="flat-out-war", edition=edition,
                            sides=(SideSetup("red", "Red", a), SideSetup("blue", "Blue", b)),
                            scenario=Scenario(id="test", name="Test"), options=dict(opts), dice="table",
                            activation_options={"turn_structure": turns})
        bt = Battle.start(setup, TableDice(), rules=FlatOutWarRules(dict(opts), edition=edition))
    initiative(bt, "red")
    return bt


def legal(b: Battle) -> set[str]:
    return {s.type for s in decision(b).legal}


def activatable(b: Battle) -> set[str]:
    return {s.params["unit"] for s in decision(b).legal if s.type == "activate"}


def morale_of(b: Battle, unit: str) -> tuple[int, int]:
    roll, _ = b.rules._morale_roll(b.state, b.state.unit(unit), rally=False)
    return roll.die, roll.modifier


def end(b: Battle, unit: str) -> None:
    b.apply({"type": "end_activation", "unit": unit})


def no_lucky_offer(b: Battle) -> None:
    """The engine does not stop to offer a Lucky re-roll now."""
    assert not (isinstance(b.pending, Decision) and "Lucky" in b.pending.prompt), b.pending


# --- 1. Detaching an officer (FOW 20 Command, A-06) ---------------------------------------

OFFICER_FORCE = [("Captain", (el("Captain", "d10", attributes=("Command",)),)), ("Reds", (el("A", count=2),))]


def attached(turns: str = "") -> Battle:
    """Round 1: the captain attaches to Reds in its own activation; Blue passes."""
    b = duel(OFFICER_FORCE, [("Blues", (el("B"),))], turns=turns)
    b.apply({"type": "activate", "unit": "captain"})
    b.apply({"type": "attach", "unit": "captain", "target": "reds"})
    end(b, "captain")
    b.apply({"type": "pass"})
    if not turns:
        initiative(b, "red")
    return b


def test_detach_is_declared_in_the_units_activation_which_then_goes_on() -> None:
    b = attached()
    assert activatable(b) == {"reds"}  # attached: the officer activates only with its unit
    b.apply({"type": "activate", "unit": "reds"})
    assert morale_of(b, "reds") == (10, 2)  # the officer's d10, +2 for the attached officer
    b.apply({"type": "detach", "unit": "reds"})
    assert b.state.unit("captain").data["attached_to"] == ""
    assert b.state.unit("reds").data["officer"] == ""
    assert any(t == "Captain detaches from Reds" for t in texts(b))
    assert morale_of(b, "reds") == (6, 0)  # the +2 and the officer's die leave with it
    # the unit finishes its activation: it may still move and attack
    assert {"move", "melee"} <= legal(b) and "detach" not in legal(b)
    b.apply({"type": "melee", "unit": "reds", "target": "blues"})
    expect_roll(b, 6, 2, "to hit")  # only the unit's two elements: the officer no longer fights with it
    b.roll([1, 1])
    end(b, "reds")


def test_detached_officer_waits_for_its_sides_next_turn() -> None:
    # one activation per side per round: the next red turn is next round's
    b = attached()
    b.apply({"type": "activate", "unit": "reds"})
    b.apply({"type": "detach", "unit": "reds"})
    end(b, "reds")
    b.apply({"type": "pass"})  # Blue's turn
    initiative(b, "red")
    assert activatable(b) == {"captain", "reds"}
    b.apply({"type": "activate", "unit": "captain"})
    assert {"move", "melee", "attach"} <= legal(b)


def test_detached_officer_may_act_in_the_same_round_when_sides_alternate() -> None:
    b = attached(turns="alternate_until_all_pass")
    b.apply({"type": "pass"})  # Red passes too: the round ends
    initiative(b, "red")  # round 2
    b.apply({"type": "activate", "unit": "reds"})
    b.apply({"type": "detach", "unit": "reds"})
    end(b, "reds")
    assert decision(b).side == "blue"  # the detaching turn is over: no second activation in it
    b.apply({"type": "pass"})
    assert activatable(b) == {"captain"}  # red's next turn; Reds already activated this round
    b.apply({"type": "activate", "unit": "captain"})
    assert "attach" in legal(b)


def test_detach_needs_an_attached_officer() -> None:
    b = attached()
    b.apply({"type": "activate", "unit": "reds"})
    b.apply({"type": "detach", "unit": "reds"})
    with pytest.raises(IllegalCommand):
        b.apply({"type": "detach", "unit": "reds"})


# --- 2. Capture (FOW 20 Capture, A-63) ---------------------------------------------------------

def captured(target_die: str) -> Battle:
    b = duel([("Catchers", (el("Catcher", "d6", weapons=(LASSO,)),))], [("Prey", (el("Beast", target_die),))])
    b.apply({"type": "activate", "unit": "catchers"})
    b.apply({"type": "shoot", "unit": "catchers", "target": "prey"})
    expect_roll(b, 8, 1, "to hit")
    return b


@pytest.mark.parametrize(("target_die", "mover"), [
    ("d10", "catchers/catcher"),  # the attacker is smaller: it is pulled to the target
    ("d6", "prey/beast"),  # a tie: the target moves
    ("d4", "prey/beast"),
])
def test_capture_pulls_the_smaller_element_into_contact_and_does_no_damage(target_die: str, mover: str) -> None:
    b = captured(target_die)
    b.roll([5])  # a hit
    beast = b.state.element("prey/beast")
    assert beast.alive and b.state.unit("prey").data["lost"] == 0
    event = next(e for e in b.events if e.kind == "captured")
    assert event.data["mover"] == mover
    moved = b.state.element(mover).name
    assert f"{moved} is pulled into base contact" in event.text
    # both units are now engaged in melee with each other
    assert b.state.unit("catchers").data["engaged"] == ["prey"]
    assert b.state.unit("prey").data["engaged"] == ["catchers"]
    # no recovery roll and no automatic attack: the catchers' activation simply goes on
    assert decision(b).side == "red" and "melee" not in legal(b)


def test_capture_miss_pulls_nobody() -> None:
    b = captured("d6")
    b.roll([3])
    assert not any(e.kind == "captured" for e in b.events)
    assert "engaged" not in b.state.unit("prey").data


def test_captured_units_are_in_melee_on_the_next_turn() -> None:
    b = captured("d6")
    b.roll([6])
    end(b, "catchers")
    b.apply({"type": "activate", "unit": "prey"})
    b.apply({"type": "melee", "unit": "prey", "target": "catchers"})
    expect_roll(b, 6, 1, "to hit")


# --- 3. Waterborne: running aground (FOW 20 Waterborne) --------------------------------------

def boat_battle(**opts: Any) -> Battle:
    boat = el("Boat", "d8", weapons=(GUN,), attributes=("Waterborne",) + opts.pop("extra", ()))
    return duel([("Boats", (boat,))], [("Blues", (el("B"),))], **opts)


def next_red_activation(b: Battle, unit: str) -> None:
    end(b, unit)
    b.apply({"type": "pass"})
    initiative(b, "red")
    b.apply({"type": "activate", "unit": unit})


def test_entering_shallow_water_runs_aground_and_only_a_six_frees_it() -> None:
    b = boat_battle()
    b.apply({"type": "activate", "unit": "boats"})
    b.apply({"type": "move", "unit": "boats", "facts": {"distance": 3, "aground": True}})
    boat = b.state.element("boats/boat")
    assert boat.markers["aground"] is True
    assert isinstance(b.pending, Decision)  # no escape roll in the activation it ran aground
    next_red_activation(b, "boats")
    expect_roll(b, 6, 1, "run aground")  # at the start of the unit's next activation
    b.roll([5])
    assert boat.markers["aground"] and "Boat stays aground (5)" in texts(b)
    assert "move" not in legal(b) and "shoot" in legal(b)  # stuck: no movement, but it may fire
    with pytest.raises(IllegalCommand):
        b.apply({"type": "move", "unit": "boats", "facts": {"distance": 1}})
    next_red_activation(b, "boats")
    expect_roll(b, 6, 1, "run aground")  # rolled again at every activation
    b.roll([6])
    assert "aground" not in boat.markers and "Boat floats free (6)" in texts(b)
    assert "move" in legal(b)  # it moves normally in the same activation
    b.apply({"type": "move", "unit": "boats", "facts": {"distance": 4}})
    next_red_activation(b, "boats")
    assert isinstance(b.pending, Decision)  # afloat: no more rolls


def test_only_waterborne_elements_run_aground() -> None:
    b = duel([("Swimmers", (el("Frog", attributes=("Amphibious",)),))], [("Blues", (el("B"),))])
    b.apply({"type": "activate", "unit": "swimmers"})
    b.apply({"type": "move", "unit": "swimmers", "facts": {"distance": 3, "aground": True}})
    assert "aground" not in b.state.element("swimmers/frog").markers
    assert not any(e.kind == "aground" for e in b.events)


# --- 4. Lucky per edition (FOW 20 Lucky, A-67) -------------------------------------------------

def hero_battle(edition: str, hero: Any = None, mates: tuple = (), blue_die: str = "d6", **opts: Any) -> Battle:
    hero = hero or el("Hero", attributes=("Lucky",))
    return duel([("Reds", (hero, *mates))], [("Blues", (el("B", blue_die),))], edition=edition,
                lucky_prompt=True, **opts)


def lucky_decision(b: Battle, take: bool) -> None:
    d = decision(b)
    assert d.side == "red" and "Hero is Lucky" in d.prompt, d.prompt
    b.apply({"type": "reroll", "reason": "lucky"} if take else {"type": "keep"})


def red_melee_again(b: Battle) -> None:
    """Blue passes; a new round; Reds attack Blues again."""
    end(b, "reds")
    b.apply({"type": "pass"})
    initiative(b, "red")
    b.apply({"type": "activate", "unit": "reds"})
    b.apply({"type": "melee", "unit": "reds", "target": "blues"})


def test_so_lucky_is_once_per_game() -> None:
    b = hero_battle(SO)
    b.apply({"type": "activate", "unit": "reds"})
    b.apply({"type": "melee", "unit": "reds", "target": "blues"})
    b.roll([2])
    lucky_decision(b, take=True)
    b.roll([3])  # keeps the 3: still a miss
    assert any("keeps 3" in t for t in texts(b))
    red_melee_again(b)
    b.roll([2])
    no_lucky_offer(b)  # a later round: used up for the game
    assert legal(b) >= {"move"}


def test_so_declining_lucky_keeps_it_for_later() -> None:
    b = hero_battle(SO)
    b.apply({"type": "activate", "unit": "reds"})
    b.apply({"type": "melee", "unit": "reds", "target": "blues"})
    b.roll([2])
    lucky_decision(b, take=False)
    assert "lucky_used" not in b.state.element("reds/hero").data
    red_melee_again(b)
    b.roll([1])
    lucky_decision(b, take=True)
    b.roll([6])
    expect_roll(b, 6, 1, "recovery")  # the better face, a hit, stands


def test_v17_lucky_is_once_per_player_turn() -> None:
    twin = Weapon("Twin gun", "ranged", "d6", 12, traits=("Multi-shot 2x",))
    b = hero_battle(V17, hero=el("Hero", attributes=("Lucky",), weapons=(twin,)), blue_die="d8")
    b.apply({"type": "activate", "unit": "reds"})
    b.apply({"type": "shoot", "unit": "reds", "target": "blues"})
    expect_roll(b, 6, 1, "to hit")  # a Lucky element's shots roll one at a time
    b.roll([1])
    lucky_decision(b, take=True)
    b.roll([2])
    expect_roll(b, 6, 1, "to hit")  # the second shot: same player-turn, no second Lucky
    b.roll([1])
    no_lucky_offer(b)
    end(b, "reds")
    # Blue's turn is a new player-turn: the hero may use Lucky on its recovery roll
    b.apply({"type": "activate", "unit": "blues"})
    b.apply({"type": "melee", "unit": "blues", "target": "reds"})
    b.roll([7])
    expect_roll(b, 6, 1, "recovery")
    b.roll([1])
    lucky_decision(b, take=True)
    b.roll([5])
    assert b.state.element("reds/hero").alive


def test_lucky_is_only_for_rolls_of_the_elements_own_die() -> None:
    # the unmarked mate rolls its own batch and recovery; the d8 sergeant rolls the unit's morale
    mates = (el("Mate"), el("Sarge", "d8"), el("Tail"))
    b = hero_battle(SO, mates=mates, blue_die="d10")
    b.apply({"type": "activate", "unit": "reds"})
    b.apply({"type": "melee", "unit": "reds", "target": "blues", "facts": {"attackers": ["reds/hero", "reds/mate"]}})
    expect_roll(b, 6, 1, "to hit")  # the hero's die alone
    b.roll([6])
    lucky_decision(b, take=False)
    expect_roll(b, 6, 1, "to hit")  # the mate's die, a batch of its own
    b.roll([1])
    no_lucky_offer(b)
    expect_roll(b, 10, 1, "recovery")  # Blue's element rolls: not the hero's die either
    b.roll([9])
    no_lucky_offer(b)
    end(b, "reds")
    b.apply({"type": "activate", "unit": "blues"})
    b.apply({"type": "melee", "unit": "blues", "target": "reds", "facts": {"allocate": ["reds/mate"]}})
    b.roll([8])
    expect_roll(b, 6, 1, "recovery")  # the mate's recovery
    b.roll([1])
    no_lucky_offer(b)
    assert not b.state.element("reds/mate").alive
    expect_roll(b, 8, 1, "morale")  # 25% lost: the sergeant's d8, not the hero's die
    b.roll([2])
    no_lucky_offer(b)
    assert "lucky_used" not in b.state.element("reds/hero").data


def test_lucky_element_rolls_the_units_morale_when_its_die_is_used() -> None:
    hero = el("Hero", "d8", attributes=("Lucky",))
    b = hero_battle(SO, hero=hero, mates=(el("Mate"), el("Tail"), el("End")), blue_die="d10")
    end_first = {"type": "end_activation", "unit": "reds"}
    b.apply({"type": "activate", "unit": "reds"})
    b.apply(end_first)
    b.apply({"type": "activate", "unit": "blues"})
    b.apply({"type": "melee", "unit": "blues", "target": "reds", "facts": {"allocate": ["reds/mate"]}})
    b.roll([8])
    b.roll([1])  # the mate is lost
    expect_roll(b, 8, 1, "morale")
    b.roll([2])
    lucky_decision(b, take=True)
    b.roll([7])
    assert b.state.unit("reds").data["morale"] == "steady"


def test_waterborne_escape_d6_is_not_a_lucky_roll() -> None:
    b = boat_battle(extra=("Lucky",), lucky_prompt=True)
    b.apply({"type": "activate", "unit": "boats"})
    b.apply({"type": "move", "unit": "boats", "facts": {"aground": True}})
    next_red_activation(b, "boats")
    b.roll([3])
    no_lucky_offer(b)
    assert "move" not in legal(b)
