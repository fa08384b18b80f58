"""Arcane entities in a battle (16.8, PR-73): created by a cast, acting in their caster's
slot, no activation of their own, the caster's points locked while they stand, loose
when he falls (the turn-start d8), and no part of the force. Scripted dice."""

from __future__ import annotations

import pytest

from campaign.engine.battle import Battle
from campaign.engine.errors import IllegalCommand
from campaign.rulesets.figwars3 import entities
from campaign.rulesets.figwars3.attack import drive
from campaign.rulesets.figwars3.commands import Cast, Strike
from campaign.rulesets.figwars3.play import FigWarsRules
from tests.figwars3.test_battle import setup


class Ctx:
    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []

    def emit(self, kind: str, text: str, **data: object) -> None:
        self.events.append((kind, text))

    def window(self, name: str, **info: object):  # type: ignore[no-untyped-def]
        yield from ()


def circle() -> tuple[FigWarsRules, Battle]:
    rules = FigWarsRules()
    battle = Battle.start(setup(a="Arcane Circle", b="Revenant Host", seed=4), rules=rules)
    mage = battle.state.unit("archmage").elements[0]
    rules._spells[mage.id] = (*rules._spells[mage.id], "entity")
    mage.data["actions"] = 2
    return rules, battle


def call(rules: FigWarsRules, battle: Battle, designs: list[str], level: int = 1) -> Ctx:
    mage = battle.state.unit("archmage").elements[0]
    ctx = Ctx()
    drive(rules.resolve(battle.state, Cast("archmage", mage.id, "entity", "", "", {"level": level, "entities": designs}), ctx), [])
    return ctx


def test_a_cast_creates_entities_with_their_bought_profile() -> None:
    rules, battle = circle()
    state = battle.state
    mage = state.unit("archmage").elements[0]
    ctx = call(rules, battle, ["1:0:1:0"], level=1)  # 1 + 2 CP of 3
    (unit,) = [u for u in state.units if entities.is_entity_unit(u)]
    (spirit,) = unit.elements
    p = rules.profile(spirit.id)
    assert (p.mov, p.defence, p.dp, p.tq, p.melee[0].atk) == (4, 0, 1, 2, 2)  # PR-73: TQ = caster's - 1
    assert unit.side == "a" and unit.data["entities_of"] == mage.id and spirit.data["actions"] == 2
    assert mage.data["arc"]["points"] == 2 and mage.data["arc"]["entity"] and mage.data["actions"] == 1
    assert ctx.events[-1][0] == "entity"
    with pytest.raises(IllegalCommand, match="no points on other powers|spends no points"):
        drive(rules.resolve(state, Cast("archmage", mage.id, "barrier", "", "", {"level": 1}), Ctx()), [])


def test_entities_cost_cp_and_stay_within_their_maxima() -> None:
    rules, battle = circle()
    mage = battle.state.unit("archmage").elements[0]
    with pytest.raises(IllegalCommand, match="CP"):
        call(rules, battle, ["1:1:1:0"], level=1)  # 4 CP, 3 to spend
    with pytest.raises(IllegalCommand, match="maximum"):
        call(rules, battle, ["0:6:0:0"], level=3)  # DEF 6d, at most 5d
    with pytest.raises(IllegalCommand, match="MOV:DEF:ATK:DP"):
        call(rules, battle, ["big"], level=1)
    assert mage.data["arc"]["points"] == 3 and mage.data["actions"] == 2  # nothing spent on a refusal
    call(rules, battle, ["0:0:0:0", "0:0:0:0", "0:0:0:0:roam"][:2] + ["0:0:0:0"], level=1)  # three 1-CP entities
    assert len([u for u in battle.state.units if entities.is_entity_unit(u)][0].elements) == 3


def test_entities_act_in_their_casters_activation_only() -> None:
    rules, battle = circle()
    state = battle.state
    call(rules, battle, ["2:0:0:0"], level=1)
    (unit,) = [u for u in state.units if entities.is_entity_unit(u)]
    assert not rules.can_activate(state, unit.id)
    caster_unit = state.unit("archmage")
    assert entities.of_caster_unit(state, caster_unit) == [unit]
    specs = rules._model_specs(state, unit, unit.elements[0])
    assert {"walk", "strike", "done"} <= {s.type for s in specs}


def test_the_casters_fall_looses_them_and_the_turn_start_d8_dispels_or_not() -> None:
    rules, battle = circle()
    state = battle.state
    call(rules, battle, ["0:0:0:0", "0:0:0:0"], level=1)
    (unit,) = [u for u in state.units if entities.is_entity_unit(u)]
    mage = state.unit("archmage").elements[0]
    ctx = Ctx()
    rules._remove(state, mage, ctx)
    assert unit.data["loose"] and not rules.can_activate(state, unit.id)  # it was made this turn
    unit.data["activated"] = False  # as every turn starts
    assert rules.can_activate(state, unit.id)  # loose, it runs wild on its own
    drive(entities.turn_start(state, ctx), [[3], [2]])  # the first dispelled, the second stays
    assert [e.alive for e in unit.elements] == [False, True]
    assert ("entity", "Arcane entity 2 runs wild: it goes for the nearest model that is not an entity") in ctx.events
    drive(entities.turn_start(state, ctx), [[8]])
    assert unit.eliminated


def test_a_last_entity_down_frees_the_caster_and_entities_are_no_casualties() -> None:
    rules, battle = circle()
    state = battle.state
    call(rules, battle, ["0:0:0:0"], level=1)
    (unit,) = [u for u in state.units if entities.is_entity_unit(u)]
    mage = state.unit("archmage").elements[0]
    rules._remove(state, unit.elements[0], Ctx())
    assert not mage.data["arc"]["entity"]
    assert rules._lost(state)["a"] == 0
    outcome = rules.outcome(state)
    assert not any("entit" in c.unit for s in outcome.sides for c in s.casualties)


def test_a_caster_shot_dead_looses_his_entities_with_a_d8_at_once() -> None:
    rules, battle = circle()
    state = battle.state
    call(rules, battle, ["0:0:0:0"], level=1)
    (unit,) = [u for u in state.units if entities.is_entity_unit(u)]
    mage = state.unit("archmage").elements[0]
    ctx = Ctx()
    from campaign.engine.pending import Decision, RollRequest
    from campaign.rulesets.figwars3.commands import Report

    gen = rules._hurt(state, mage, 5, False, ctx, attack=False)  # beyond help
    assert isinstance(next(gen), RollRequest)  # the entity's d8, at once
    asked = gen.send([4])  # 4: dispelled
    assert isinstance(asked, Decision) and "fallen" in asked.prompt  # then the hero's fall is reported
    with pytest.raises(StopIteration):
        gen.send(Report({"witnesses": []}))
    assert not mage.alive and unit.eliminated
    assert ("dispelled", "Arcane entity 1 is dispelled") in ctx.events


def test_entities_profiles_come_back_after_a_resume_at_the_turn_boundary() -> None:
    rules, battle = circle()
    state = battle.state
    call(rules, battle, ["1:2:1:0"], level=2)
    (unit,) = [u for u in state.units if entities.is_entity_unit(u)]
    spirit = unit.elements[0].id
    fresh = FigWarsRules()
    fresh.new_state(battle.setup)  # what a resumed battle has before the checkpoint's state
    assert not fresh.has_profile(spirit)
    drive(fresh.on_round_start(state, Ctx()), [[1], [1]])  # the turn start (extra-action rolls) rebuilds it
    assert fresh.profile(spirit) == rules.profile(spirit)


def answer(gen, script: list) -> list:  # type: ignore[type-arg]
    """Drive a generator: lists answer dice, strings answer a Decision with that option; returns the decisions met."""
    from campaign.engine.commands import Choose
    from campaign.engine.pending import Decision

    met, queue = [], list(script)
    try:
        request = next(gen)
        while True:
            if isinstance(request, Decision):
                met.append(request)
            item = queue.pop(0)
            request = gen.send(Choose(option=item) if isinstance(item, str) else item)
    except StopIteration:
        assert not queue, f"left over: {queue}"
    return met


def test_the_leash_asked_at_the_end_of_the_activation_all_within_changes_nothing() -> None:
    rules, battle = circle()
    state = battle.state
    call(rules, battle, ["0:0:0:0", "0:0:0:0:roam"][:1] + ["0:0:0:0"], level=1)
    (unit,) = [u for u in state.units if entities.is_entity_unit(u)]
    met = answer(entities.leash(rules, state, state.unit("archmage"), Ctx()), ["within"])
    assert len(met) == 1 and "12\"" in met[0].prompt
    assert [s.params["option"] for s in met[0].legal] == ["within", *(e.id for e in unit.elements)]
    assert not unit.data["loose"] and all(e.alive for e in unit.elements)


def test_a_broken_leash_rolls_the_d8_at_once_dispelled_frees_the_caster() -> None:
    rules, battle = circle()
    state = battle.state
    call(rules, battle, ["0:0:0:0"], level=1)
    (unit,) = [u for u in state.units if entities.is_entity_unit(u)]
    mage = state.unit("archmage").elements[0]
    ctx = Ctx()
    answer(entities.leash(rules, state, state.unit("archmage"), ctx), [unit.elements[0].id, [3]])  # 3: dispelled
    assert unit.eliminated and not mage.data["arc"]["entity"]  # 16.8: the caster may use other powers again
    assert ("dispelled", "Arcane entity 1 is dispelled") in ctx.events


def test_one_entity_breaking_the_leash_runs_wild_on_its_own_the_rest_stay() -> None:
    rules, battle = circle()
    state = battle.state
    call(rules, battle, ["1:0:1:0", "0:0:0:0"], level=2)
    (unit,) = [u for u in state.units if entities.is_entity_unit(u)]
    first, second = unit.elements
    ctx = Ctx()
    # the first is beyond 12": d8 2, it stays and runs wild; then the rest are within
    answer(entities.leash(rules, state, state.unit("archmage"), ctx), [first.id, [2], "within"])
    wild = [u for u in state.units if entities.is_entity_unit(u) and u.data["loose"]]
    assert len(wild) == 1 and wild[0].id != unit.id and unit.elements == [second] and not unit.data["loose"]
    (runner,) = wild[0].elements
    assert rules.profile(runner.id) == rules.profile(first.id) and runner.data["entity"]["mov"] == 1
    assert entities.of_caster_unit(state, state.unit("archmage")) == [unit]
    assert state.unit("archmage").elements[0].data["arc"]["entity"]  # an entity of his still stands
    wild[0].data["activated"] = False
    assert rules.can_activate(state, wild[0].id)  # it activates on its own now


def test_a_loose_entity_may_strike_a_friendly_model() -> None:
    rules, battle = circle()
    state = battle.state
    call(rules, battle, ["0:0:2:0"], level=1)
    (unit,) = [u for u in state.units if entities.is_entity_unit(u)]
    spirit = unit.elements[0]
    strikes = {s.params["target"] for s in rules._model_specs(state, unit, spirit) if s.type == "strike"}
    assert strikes and all(state.unit(t).side == "b" for t in strikes)  # under control: enemies only
    with pytest.raises(IllegalCommand, match="not an enemy"):
        rules.strike(state, Strike(unit.id, spirit.id, "archmage", "", {}))
    answer(entities.leash(rules, state, state.unit("archmage"), Ctx()), [spirit.id, [1]])  # 1: it runs wild
    assert unit.data["loose"]
    strikes = {s.params["target"] for s in rules._model_specs(state, unit, spirit) if s.type == "strike"}
    assert "archmage" in strikes and any(state.unit(t).side == "b" for t in strikes)
    assert not any(entities.is_entity_unit(state.unit(t)) for t in strikes)
    spirit.data["actions"] = 2
    mage = state.unit("archmage").elements[0]
    opposed, _, target = rules.strike(state, Strike(unit.id, spirit.id, "archmage", mage.id, {}))
    assert target.id == mage.id and opposed.attacker.pool == 3  # DEF 0 + ATK 1d base and 2d bought (PR-73)
