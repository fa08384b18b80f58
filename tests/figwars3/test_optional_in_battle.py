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
    assert [s.type for s in optional_play.unit_specs(rules, grunts)] == ["face", "wheel", "break_formation"]
    optional_play.face(rules, grunts, ctx)
    assert all(e.data["actions"] == 1 for e in grunts.alive)
    optional_play.break_up(grunts, ctx)
    assert not grunts.data["formation"]
    rules_off, battle_off = start()
    assert optional_play.unit_specs(rules_off, battle_off.state.unit("grunt-lance")) == []


def formed(front: int = 4, second: int = 1, leader: bool = False, revision: int = 2) -> tuple[FigWarsRules, Battle, list[str]]:
    """The grunt lance (eight) formed up: `front` wide, `second` behind, the rest a third rank."""
    from campaign.rulesets.figwars3.commands import Form

    rules, battle = start(formations=True, rules_revision=revision)
    grunts = battle.state.unit("grunt-lance")
    ids = [e.id for e in grunts.elements]
    facts: dict[str, object] = {"front": ids[:front], "second": ids[front:front + second]}
    if leader:
        facts["leader"] = ids[-1]
    optional_play.form(rules, battle.state, grunts, Form("grunt-lance", facts), Ctx())
    return rules, battle, ids


def test_a_wheel_moves_every_model_at_the_slowest_pace() -> None:
    from campaign.rulesets.figwars3.commands import Wheel

    rules, battle, ids = formed()
    state = battle.state
    grunts = state.unit("grunt-lance")
    mov = min(rules.profile(i).mov for i in ids)
    with pytest.raises(IllegalCommand, match="slowest"):
        optional_play.wheel(rules, state, grunts, Wheel("grunt-lance", {"inches": mov + 1}), Ctx())
    assert all(e.data["actions"] == 2 and e.data["moved"] == 0 for e in grunts.alive)  # nothing spent on a refusal
    optional_play.wheel(rules, state, grunts, Wheel("grunt-lance", {"inches": 3}), Ctx())
    assert all(e.data["actions"] == 1 and e.data["moved"] == 3 for e in grunts.alive)
    with pytest.raises(IllegalCommand, match="2 action"):
        optional_play.wheel(rules, state, grunts, Wheel("grunt-lance", {"inches": mov + 1, "run": True}), Ctx())


def test_consolidation_is_free_after_a_face_or_a_melee_only() -> None:
    from campaign.rulesets.figwars3.commands import Consolidate

    rules, battle, ids = formed()
    state = battle.state
    grunts = state.unit("grunt-lance")
    again = Consolidate("grunt-lance", {"front": ids[2:6], "second": ids[:2]})
    assert "consolidate" not in [s.type for s in optional_play.unit_specs(rules, grunts, state)]
    with pytest.raises(IllegalCommand, match="after a face"):
        optional_play.consolidate(rules, state, grunts, again, Ctx())
    optional_play.face(rules, grunts, Ctx(), state)
    assert "consolidate" in [s.type for s in optional_play.unit_specs(rules, grunts, state)]
    optional_play.consolidate(rules, state, grunts, again, Ctx())
    assert grunts.data["formation"]["ranks"] == [ids[2:6], ids[:2], ids[6:]]
    assert all(e.data["actions"] == 1 for e in grunts.alive)  # the face cost 1; the consolidation nothing
    rules2, battle2, ids2 = formed()
    g2 = battle2.state.unit("grunt-lance")
    battle2.state.data["struck"] = {ids2[0]: {"a": ["archmage/archmage"]}}  # a melee of the unit this turn
    optional_play.consolidate(rules2, battle2.state, g2, Consolidate("grunt-lance", {"front": ids2[1:5]}), Ctx())
    with pytest.raises(IllegalCommand):  # once after attacks
        optional_play.consolidate(rules2, battle2.state, g2, Consolidate("grunt-lance", {"front": ids2[:4]}), Ctx())


def test_a_detached_leader_stands_outside_the_ranks_and_acts_freely() -> None:
    rules, battle, ids = formed(second=1, leader=True)
    state = battle.state
    grunts = state.unit("grunt-lance")
    assert grunts.data["formation"]["ranks"] == [ids[:4], [ids[4]], ids[5:7]] and grunts.data["formation"]["leader"] == ids[7]
    leader = state.element(ids[7])
    back = state.element(ids[4])
    leader_specs = {s.type for s in optional_play.adjust(rules, grunts, leader, rules._model_specs(state, grunts, leader))}
    back_specs = {s.type for s in optional_play.adjust(rules, grunts, back, rules._model_specs(state, grunts, back))}
    assert "strike" in leader_specs and "strike" not in back_specs
    from campaign.rulesets.figwars3.commands import Form

    with pytest.raises(IllegalCommand, match="outside the ranks"):
        optional_play.form(rules, state, grunts, Form("grunt-lance", {"front": ids[:4], "leader": ids[0]}), Ctx())


def test_casualties_step_up_from_behind_and_too_few_break_the_formation() -> None:
    rules, battle, ids = formed(second=4)
    state = battle.state
    grunts = state.unit("grunt-lance")
    ctx = Ctx()
    rules._remove(state, state.element(ids[1]), ctx)
    assert grunts.data["formation"]["ranks"] == [[ids[0], ids[2], ids[3], ids[4]], ids[5:]]
    rules._remove(state, state.element(ids[0]), ctx)
    assert grunts.data["formation"]["ranks"] == [ids[2:6], ids[6:]]
    for i in (2, 3, 4):
        assert grunts.data["formation"]
        rules._remove(state, state.element(ids[i]), ctx)
    assert len(grunts.alive) == 3 and not grunts.data["formation"]  # three left: no longer four wide
    assert ("formation", "Grunt Lance is too few to stand in formation and breaks it") in ctx.events


def test_direct_fire_hits_only_the_two_ranks_nearest_the_shooter() -> None:
    from campaign.rulesets.figwars3.commands import Shoot

    rules, battle, ids = formed(second=1)  # ranks: 4, then ids[4], then ids[5]
    state = battle.state
    warden = state.unit("wardens").elements[0]
    bow = rules.profile(warden.id).ranged[0].name
    spec = next(s for s in rules._model_specs(state, state.unit("wardens"), warden) if s.type == "shoot" and s.params["target"] == "grunt-lance")
    assert "from_side" in {f.name for f in spec.facts}

    def shot(model: str, side: str) -> str:
        return rules.shot(state, Shoot("wardens", warden.id, "grunt-lance", model, bow, {"range_band": "short", "from_side": side}))[2].id

    with pytest.raises(IllegalCommand, match="two ranks nearest"):
        shot(ids[5], "front")
    assert shot(ids[4], "front") == ids[4]
    assert shot(ids[5], "rear") == ids[5] and shot("", "rear") == ids[4]
    with pytest.raises(IllegalCommand, match="two ranks nearest"):
        shot(ids[0], "rear")
    assert shot(ids[1], "left") == ids[1] and shot(ids[6], "left") == ids[6]
    with pytest.raises(IllegalCommand, match="two ranks nearest"):
        shot(ids[2], "left")
    with pytest.raises(IllegalCommand, match="two ranks nearest"):
        shot(ids[5], "right")
    assert shot(ids[3], "right") == ids[3] and shot(ids[7], "right") == ids[7]


def test_revision_one_battles_keep_their_ranks_and_any_target() -> None:
    """Battle files recorded before rules revision 2 replay as played: no step-up, no rank limit."""
    from campaign.rulesets.figwars3.commands import Shoot

    rules, battle, ids = formed(second=1, revision=1)
    state = battle.state
    warden = state.unit("wardens").elements[0]
    bow = rules.profile(warden.id).ranged[0].name
    shot = Shoot("wardens", warden.id, "grunt-lance", ids[6], bow, {"range_band": "short"})
    assert rules.shot(state, shot)[2].id == ids[6]  # the third rank
    rules._remove(state, state.element(ids[1]), Ctx())
    assert state.unit("grunt-lance").data["formation"]["ranks"][0] == ids[:4]  # kept as formed
