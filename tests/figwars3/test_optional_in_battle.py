"""The optional rules of 15 in a battle (scenario options): the Hail of Arrows as a
unit's volley (15.2, PR-67) and formations limiting who shoots and fights (15.1)."""

from __future__ import annotations

import pytest

from campaign.engine.battle import Battle
from campaign.engine.errors import IllegalCommand
from campaign.rulesets.figwars3 import optional_play
from campaign.rulesets.figwars3.attack import drive
from campaign.rulesets.figwars3.commands import Hail
from campaign.rulesets.figwars3.play import FigWarsRules
from tests.figwars3.test_battle import setup


class Ctx:
    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []

    def emit(self, kind: str, text: str, **data: object) -> None:
        self.events.append((kind, text))


def start(**options: object) -> tuple[FigWarsRules, Battle]:
    rules = FigWarsRules(dict(options))
    battle = Battle.start(setup(a="Arcane Circle", b="Revenant Host", seed=4), rules=rules)
    for unit in battle.state.units:
        for el in unit.elements:
            el.data["actions"] = 2
    return rules, battle


def test_a_hail_of_arrows_spends_each_archers_shot_and_rolls_the_table() -> None:
    rules, battle = start(hail_of_arrows=True)
    state = battle.state
    wardens = state.unit("wardens").elements
    grunts = state.unit("grunt-lance").elements
    assert any(s.type == "hail" for s in rules._model_specs(state, state.unit("wardens"), wardens[0]))
    ctx = Ctx()
    cmd = Hail("wardens", wardens[0].id, {"inches": 20, "victims": [grunts[0].id, grunts[1].id, grunts[2].id]})
    # 4 arrows (1-5 row): deviation d8 8 -> 1d4 4, less TQ 2 = 2"; direction 3; models: 7 (1 hit), 6 (miss), 8 (1 hit)
    # each hit: crossbow ATK 1d against the grunt's DEF 2d: [6] against [1, 1] wins by 2
    drive(rules.resolve(state, cmd, ctx), [[8], [3], [7], [6], [8], [6], [1, 1], [6], [1, 1]])
    assert ("hail", "Wardens looses 4 arrow(s) at 20\": the template drifts 2\" towards arrow 3") in ctx.events
    assert not grunts[0].alive and grunts[1].alive and not grunts[2].alive
    for w in wardens:
        assert w.data["actions"] == 1 and "crossbow" in w.data["unloaded"]  # one Shoot action each, then reload (R)
    assert not any(s.type == "hail" for s in rules._model_specs(state, state.unit("wardens"), wardens[0]))


def test_a_hail_is_refused_out_of_range_without_the_option_or_without_bows() -> None:
    rules, battle = start(hail_of_arrows=True)
    state = battle.state
    warden = state.unit("wardens").elements[0]
    with pytest.raises(IllegalCommand, match="10\" to 30\""):
        drive(rules.resolve(state, Hail("wardens", warden.id, {"inches": 31}), Ctx()), [])
    acolyte = state.unit("acolytes").elements[0]
    with pytest.raises(IllegalCommand, match="no archer"):
        drive(rules.resolve(state, Hail("acolytes", acolyte.id, {"inches": 12}), Ctx()), [])
    rules2, battle2 = start()
    warden2 = battle2.state.unit("wardens").elements[0]
    assert not any(s.type == "hail" for s in rules2._model_specs(battle2.state, battle2.state.unit("wardens"), warden2))
    with pytest.raises(IllegalCommand, match="hail_of_arrows"):
        drive(rules2.resolve(battle2.state, Hail("wardens", warden2.id, {"inches": 12}), Ctx()), [])


def test_a_formation_lets_only_its_front_fight_and_its_front_two_ranks_shoot() -> None:
    rules, battle = start(formations=True)
    state = battle.state
    grunts = state.unit("grunt-lance")
    ids = [e.id for e in grunts.elements]  # six grunts: 4 in front, 2 behind
    assert [s.type for s in optional_play.unit_specs(rules, grunts)] == ["form"]
    ctx = Ctx()
    from campaign.rulesets.figwars3.commands import Form

    with pytest.raises(IllegalCommand, match="at least 4"):
        optional_play.form(rules, state, grunts, Form("grunt-lance", {"front": ids[:3]}), ctx)
    optional_play.form(rules, state, grunts, Form("grunt-lance", {"front": ids[:4], "second": ids[4:]}), ctx)
    assert grunts.data["formation"]["ranks"] == [ids[:4], ids[4:]]
    back = grunts.elements[4]
    front = grunts.elements[0]
    back_specs = {s.type for s in optional_play.adjust(rules, grunts, back, rules._model_specs(state, grunts, back))}
    front_specs = {s.type for s in optional_play.adjust(rules, grunts, front, rules._model_specs(state, grunts, front))}
    assert "strike" in front_specs and "strike" not in back_specs and "shoot" in back_specs  # second rank still fires
    assert [s.type for s in optional_play.unit_specs(rules, grunts)] == ["face", "break_formation"]
    optional_play.face(rules, grunts, ctx)
    assert all(e.data["actions"] == 1 for e in grunts.alive)
    optional_play.break_up(grunts, ctx)
    assert not grunts.data["formation"]
    rules_off, battle_off = start()
    assert optional_play.unit_specs(rules_off, battle_off.state.unit("grunt-lance")) == []
