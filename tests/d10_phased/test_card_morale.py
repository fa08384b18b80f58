"""The d10 rules under the card deck (card-activation.md 7.4), the parts the table reports:
command control asked as each activation starts, Cowardly's enemy within 6 inches asked
after a move, and the individual morale table when the option `use_004_individual_morale`
is on (scripted dice)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from campaign.engine.battle import Battle
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import Decision
from campaign.rulesets.d10_phased.card_host import D10CardHost
from campaign.rulesets.d10_phased.commands import Report
from campaign.rulesets.d10_phased.state import PINNED, ROUTED
from tests.d10_phased.cardplay import step
from tests.d10_phased.scripted import play
from tests.d10_phased.test_cards import setup


class Emit:
    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []

    def emit(self, kind: str, text: str, **data: Any) -> None:
        self.events.append((kind, text))


def card_battle(**options: Any) -> tuple[Battle, D10CardHost]:
    battle = Battle.start(attrs.evolve(setup(), options=options))
    return battle, D10CardHost(battle.rules, {})  # type: ignore[arg-type]


def test_command_control_is_asked_as_each_activation_starts() -> None:
    battle = Battle.start(setup())
    for _ in range(200):
        pending = battle.pending
        if isinstance(pending, Decision) and "command control" in pending.prompt:
            break
        step(battle)
    else:
        raise AssertionError("no activation asked for command control")
    game = battle.rules.game(battle.state)  # type: ignore[attr-defined]
    strays = pending.data["pick_elements"]
    unit = game.roster.units[game.roster.model(strays[0]).unit]
    assert unit.name in pending.prompt
    assert unit.leader not in strays and set(strays) < set(unit.models)
    before = battle.digest()
    other = next(m for m in game.roster.models if m not in unit.models)
    with pytest.raises(IllegalCommand, match="DP-6"):
        battle.apply(Report(facts={"beyond_radius": [other]}))
    assert battle.digest() == before and battle.pending is pending
    battle.apply(Report(facts={"beyond_radius": [strays[0]]}))
    assert game.roster.model(strays[0]).out_of_command
    assert not any(game.roster.model(m).out_of_command for m in strays[1:])
    assert any(e.kind == "out_of_command" for e in battle.events)
    # the actions no longer carry command control as a fact
    assert all(f.name != "beyond_radius" for s in battle.legal_commands() for f in s.facts)


def test_a_cowardly_unit_near_an_enemy_checks_once_a_turn() -> None:
    battle, host = card_battle()
    game = host.game(battle.state)
    pack = next(u for u in game.roster.units.values() if u.name == "Gnasher Pack")
    ctx = Emit()
    # one question, to the side with Cowardly units; a failed unit check (d12 12) routs the pack
    _, asked = play(host._cowardly_near(battle.state, ctx), Report(facts={"enemy_within_6": [pack.id]}), [12])
    assert isinstance(asked[0], Decision) and asked[0].side == pack.side
    assert pack.id in asked[0].data["pick_units"]
    assert asked[1].die == 12
    assert host.routed(battle.state, pack.id)
    # the pack is routed, the slingers already answered: nobody is asked again this turn
    slingers = next(u for u in game.roster.units.values() if u.name == "Slingers")
    slingers.checked_this_turn = True
    _, asked = play(host._cowardly_near(battle.state, ctx))
    assert asked == []


def test_a_unit_not_reported_near_an_enemy_does_not_check() -> None:
    battle, host = card_battle()
    ctx = Emit()
    _, asked = play(host._cowardly_near(battle.state, ctx), Report(facts={"enemy_within_6": []}))
    assert len(asked) == 1 and not ctx.events
    with pytest.raises(IllegalCommand, match="DP-18.2"):
        play(host._cowardly_near(battle.state, ctx), Report(facts={"enemy_within_6": ["legionaries"]}))


def test_the_individual_table_when_the_option_is_on() -> None:
    battle, host = card_battle(use_004_individual_morale=True)
    game = host.game(battle.state)
    slingers = next(u for u in game.roster.units.values() if u.name == "Slingers")
    models = game.roster.members(slingers.id)
    assert len(models) == 6
    ctx = Emit()
    # the unit check fails (d6 6), then each model rolls the d10 table: 1 routs (natural),
    # 5 pins, 10 is unaffected (natural), 2 routs, 9 unaffected, 3 pins
    play(host._morale(battle.state, slingers.id, ctx, near=True), [6], [1], [5], [10], [2], [9], [3])
    assert [m.marker for m in models] == [ROUTED, PINNED, "", ROUTED, "", PINNED]
    assert host.routed(battle.state, slingers.id), "routed for the scheme while a model is routed"
    # the forced rally: each marked model tests again; all unaffected, the unit rallies
    passed, asked = play(host.rally(battle.state, slingers.id, ctx), [10], [10], [10], [10])
    assert passed and len(asked) == 4
    assert all(m.marker == "" for m in models) and not host.routed(battle.state, slingers.id)


def test_without_the_option_a_failed_check_routs_the_unit_and_sets_no_marker() -> None:
    battle, host = card_battle()
    game = host.game(battle.state)
    slingers = next(u for u in game.roster.units.values() if u.name == "Slingers")
    play(host._morale(battle.state, slingers.id, Emit(), near=True), [6])
    assert host.routed(battle.state, slingers.id)
    assert all(m.marker == "" for m in game.roster.members(slingers.id))
