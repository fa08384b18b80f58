"""The Intergalactic Hunter's self-destruct (17.5, PR-74): the last hunter's fall starts a
countdown; at the start of the 6th turn after, 9d under the large template, 2d at every
model that sees the body, then every model but machines stunned. Scripted dice."""

from __future__ import annotations

import pytest

from campaign.engine.battle import Battle
from campaign.engine.errors import IllegalCommand
from campaign.rulesets.figwars3 import self_destruct
from campaign.rulesets.figwars3.commands import Report
from campaign.rulesets.figwars3.play import FigWarsRules
from tests.figwars3.test_battle import setup
from tests.figwars3.test_interrupts import run


def hunters() -> tuple[FigWarsRules, Battle]:
    rules = FigWarsRules()
    battle = Battle.start(setup(a="Intergalactic Hunters", b="Gothic Imperium Battle Group"), rules=rules)
    return rules, battle


def test_only_the_last_hunters_fall_starts_the_countdown() -> None:
    rules, battle = hunters()
    state = battle.state
    party = state.unit("hunting-party").elements
    assert len(party) == 3 and rules.profile(party[0].id).has(self_destruct.SELF_DESTRUCT)
    for hunter in party[:2]:
        rules._remove(state, hunter, battle.ctx)
    assert not state.data.get("self_destruct")
    rules._remove(state, party[2], battle.ctx)
    assert state.data["self_destruct"] == {"at": party[2].id, "turn": state.round + 6, "done": False}


def test_the_body_goes_off_at_the_start_of_the_sixth_turn_after() -> None:
    rules, battle = hunters()
    state = battle.state
    for hunter in state.unit("hunting-party").elements:
        rules._remove(state, hunter, battle.ctx)
    fell = state.round
    state.round = fell + 5
    assert run(self_destruct.turn_start(rules, state, battle.ctx), []) == []  # one turn to go: nothing asked
    assert ("self_destruct", "Intergalactic Hunter's self-destruct: 1 turn(s) to go") in [(e.kind, e.text) for e in battle.events]
    guards = state.unit("guard-squad").elements
    near, seen, away = guards[0], guards[1], guards[2]
    d = rules._defender(near).defence
    state.round = fell + 6
    bad = Report(facts={"under_template": ["nobody"]})
    gen = self_destruct.turn_start(rules, state, battle.ctx)
    ask = next(gen)
    with pytest.raises(IllegalCommand):
        ask.check(bad)
    report = Report(facts={"under_template": [near.id], "in_sight": [seen.id, near.id]})
    # near: 9d [6, 6, 1...] = 4 against blanks: margin 4, 2 DP (dead); seen: 2d [1, 1] against blanks: nothing
    faces = [[6, 6] + [1] * 7, [1] * d, [1, 1], [1] * d]
    try:
        request = gen.send(report)
        while True:
            request = gen.send(faces.pop(0))
    except StopIteration:
        pass
    assert not faces
    assert not near.alive and seen.alive and seen.data["dp"] == rules.profile(seen.id).dp
    assert seen.data["stunned"] and away.data["stunned"]  # every model on the table is stunned
    assert state.data["self_destruct"]["done"]
    assert run(self_destruct.turn_start(rules, state, battle.ctx), []) == []  # once only


def test_the_turn_start_counts_down() -> None:
    rules, battle = hunters()
    state = battle.state
    for hunter in state.unit("hunting-party").elements:
        rules._remove(state, hunter, battle.ctx)
    state.round += 1
    run(rules.on_round_start(state, battle.ctx), [], [[1], [1]])  # the extra-action rolls
    assert any(e.text == "Intergalactic Hunter's self-destruct: 5 turn(s) to go" for e in battle.events)


def _goes_off(revision: int, report: Report) -> tuple[list[tuple[int, str]], FigWarsRules, Battle]:
    """The self-destruct's rolls (count, purpose) under `revision`, every die a blank."""
    rules = FigWarsRules({"rules_revision": revision})
    battle = Battle.start(setup(a="Intergalactic Hunters", b="Gothic Imperium Battle Group"), rules=rules)
    state = battle.state
    for hunter in state.unit("hunting-party").elements:
        rules._remove(state, hunter, battle.ctx)
    state.round += 6
    gen = self_destruct.turn_start(rules, state, battle.ctx)
    ask = next(gen)
    ask.check(report)
    rolls: list[tuple[int, str]] = []
    try:
        request = gen.send(report)
        while True:
            rolls.append((request.count, request.purpose))
            request = gen.send([1] * request.count)
    except StopIteration:
        pass
    return rolls, rules, battle


def test_from_revision_3_each_model_rolls_against_its_own_cover_one_level_lower() -> None:
    rules, battle = hunters()
    guards = battle.state.unit("guard-squad").elements
    near, seen, other = guards[0].id, guards[1].id, guards[2].id
    d = rules._defender(guards[0]).defence
    report = Report(facts={"under_template": [f"{near}:full_hard", other], "in_sight": [f"{seen}:obscuring_soft"]})
    rolls, rules3, _ = _goes_off(3, report)
    assert [count for count, _ in rolls] == [9, d + 2, 9, d, 2, d + 2]  # full hard counts as partial hard (+2d), the open one +0,
    # and the 2d roll at a model in sight takes its cover too (obscuring soft as full soft, +2d)
    spec = next(f for f in self_destruct.FACTS_EACH if f.name == "in_sight")
    assert spec.parts and spec.parts[0].name == "cover"  # the screen asks each model's cover
    with pytest.raises(IllegalCommand, match="cover"):
        _goes_off(3, Report(facts={"under_template": [f"{near}:behind_a_tree"]}))


def test_before_revision_3_one_cover_for_the_template_and_none_for_the_2d_rolls() -> None:
    rules, battle = hunters()
    guards = battle.state.unit("guard-squad").elements
    near, seen = guards[0].id, guards[1].id
    d = rules._defender(guards[0]).defence
    report = Report(facts={"under_template": [near], "cover": "full_hard", "in_sight": [seen]})
    for revision in (1, 2):
        rolls, _, _ = _goes_off(revision, report)
        assert [count for count, _ in rolls] == [9, d + 2, 2, d]  # as battles were recorded
