"""Build small Flat Out War battles for tests, driven with table dice."""

from __future__ import annotations

from typing import Any

from campaign.engine.battle import Battle
from campaign.engine.dice import AutoDice, TableDice
from campaign.engine.pending import Decision, RollRequest
from campaign.campaigns.scenario import Objective, Scenario
from campaign.engine.setup import BattleSetup, SideSetup
from campaign.force import Element, Force, Unit, Weapon
from campaign.rulesets.flat_out_war.editions import SO, V17
from campaign.rulesets.flat_out_war.engine.rules import FlatOutWarRules


def el(name: str, die: str = "d6", *, count: int = 1, move: int = 4, weapons: tuple[Weapon, ...] | None = None,
       attributes: tuple[str, ...] = (), kind: str = "trooper", spells: tuple[str, ...] = ()) -> Element:
    if weapons is None:
        weapons = (Weapon("Sword", "melee", die),)
    return Element(name, count=count, die=die, move=move, weapons=weapons, attributes=attributes,
                   kind=kind, spells=spells)  # type: ignore[arg-type]


def force(name: str, *units: tuple[str, tuple[Element, ...]], edition: str = V17) -> Force:
    return Force(name, "flat-out-war", edition, tuple(Unit(n, es) for n, es in units))


def battle(a: Force, b: Force, *, edition: str = V17, auto: int | None = None, rounds: int = 0,
           objectives: tuple[Objective, ...] = (), **options: Any) -> Battle:
    options.setdefault("ask_witnesses", False)
    options.setdefault("lucky_prompt", False)
    setup = BattleSetup(
        ruleset="flat-out-war", edition=edition,
        sides=(SideSetup("red", "Red", a), SideSetup("blue", "Blue", b)),
        scenario=Scenario(id="test", name="Test", rounds=rounds or None, objectives=objectives),
        options=dict(options), dice="auto" if auto is not None else "table", seed=auto or 0,
    )
    rules = FlatOutWarRules(dict(options), edition=edition)
    dice = AutoDice(auto) if auto is not None else TableDice()
    return Battle.start(setup, dice, rules=rules)


def initiative(b: Battle, first: str = "red") -> None:
    """Answer the round's initiative rolls so `first` goes first."""
    req = b.pending
    assert isinstance(req, RollRequest) and "initiative" in req.purpose, req
    order = []
    while isinstance(b.pending, RollRequest) and "initiative" in b.pending.purpose:
        side = b.pending.side
        order.append(side)
        b.roll([6 if side == first else 1])


def expect_roll(b: Battle, die: int, count: int = 1, contains: str = "") -> RollRequest:
    req = b.pending
    assert isinstance(req, RollRequest), f"expected a roll, engine waits for {req}"
    assert (req.die, req.count) == (die, count), f"expected {count} x d{die}, got {req.purpose}"
    assert contains in req.purpose, req.purpose
    return req


def decision(b: Battle) -> Decision:
    assert isinstance(b.pending, Decision), f"expected a decision, got {b.pending}"
    return b.pending


def texts(b: Battle) -> list[str]:
    return [e.text for e in b.events]


__all__ = ["SO", "V17", "Weapon", "battle", "el", "force", "initiative", "expect_roll", "decision", "texts", "Objective"]
