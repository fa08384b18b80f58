"""A FigWars 3 battle through the core engine: turn start, activation order, model-by-model
actions, shooting and melee through the same OpposedRoll as the odds, morale at turn end,
and replay of a whole battle between two sample forces to the same digest."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs
import pytest

from campaign.campaigns.scenario import Scenario
from campaign.engine.battle import Battle
from campaign.engine.errors import IllegalCommand
from campaign.engine.lazy_specs import LazySpecs
from campaign.engine.pending import CommandSpec, Decision, RollRequest
from campaign.engine.setup import BattleSetup, SideSetup
from campaign.force import Force
from campaign.rulesets.figwars3.play import FigWarsRules
from campaign.rulesets.figwars3.samples import sample_forces

ALTERNATE = {"turn_structure": "alternate_until_all_pass"}


def sample(name: str) -> Force:
    return next(f for f in sample_forces() if f.name == name)


def setup(a: str = "USC Strike Group", b: str = "Revenant Host", seed: int = 7, rounds: int = 4,
          dice: str = "auto") -> BattleSetup:
    return BattleSetup(
        ruleset="figwars-3",
        sides=(SideSetup("a", "Side A", sample(a)), SideSetup("b", "Side B", sample(b))),
        scenario=Scenario(id="skirmish", name="Skirmish", rounds=rounds),
        activation="initiative",
        activation_options=ALTERNATE,
        seed=seed,
        dice=dice,
    )


def start(s: BattleSetup) -> Battle:
    return Battle.start(s, rules=FigWarsRules())


PREFERENCE = ("extra", "shoot", "strike", "aim", "walk", "done", "end_activation", "activate", "choose", "pass")


def preferred(legal: Sequence[CommandSpec], order: Sequence[str] = PREFERENCE) -> Iterator[CommandSpec]:
    """`legal` sorted by the place of each type in `order` (other types last, as listed):
    a lazy menu is made only as far as it is read."""
    if not isinstance(legal, LazySpecs):
        yield from sorted(legal, key=lambda s: order.index(s.type) if s.type in order else 99)
        return
    for kind in order:
        yield from legal.of_type(kind)
    yield from (s for s in legal if s.type not in order)


def bot(battle: Battle, limit: int = 5000) -> int:
    """Deterministic play: shoot whatever can be shot, else strike, else move; decline
    defensive focus half the time by taking the first option offered. A command refused
    while it resolves rebuilds the battle: the next is read from the Decision pending then."""
    steps = 0
    while battle.pending is not None:
        steps += 1
        assert steps < limit, "battle did not end"
        pending = battle.pending
        assert isinstance(pending, Decision), pending
        tried, specs = 0, preferred(pending.legal)
        while True:
            spec = next(specs, None)
            if spec is None:
                raise AssertionError(f"stuck at {pending.prompt}")
            try:
                battle.apply(battle.command(spec))
                break
            except IllegalCommand:
                tried += 1
                if battle.pending is not pending:
                    pending = battle.pending
                    assert isinstance(pending, Decision), pending
                    specs = itertools.islice(preferred(pending.legal), tried, None)
    return steps


def test_turn_start_rolls_extra_actions_and_initiative_orders_sides() -> None:
    battle = start(setup())
    kinds = [e.kind for e in battle.events]
    assert kinds.count("extra_actions") == 2 and "initiative" in kinds
    pending = battle.pending
    assert isinstance(pending, Decision)
    assert [s.type for s in pending.legal] == ["activate"] * len(pending.legal)  # no "pass": it is refused (6.2)
    assert not pending.prompt.endswith("or pass")


def eager_bot(battle: Battle, look: Callable[[Decision], None] = lambda pending: None) -> None:
    """The bot reading whole menus: every legal spec sorted by PREFERENCE, the first that is
    accepted; `look` sees each decision first."""
    while battle.pending is not None:
        pending = battle.pending
        assert isinstance(pending, Decision)
        look(pending)
        for spec in sorted(tuple(pending.legal), key=lambda s: PREFERENCE.index(s.type) if s.type in PREFERENCE else 99):
            try:
                battle.apply(battle.command(spec))
                break
            except IllegalCommand:
                continue
        else:
            raise AssertionError(f"stuck at {pending.prompt}")


def test_a_pass_is_never_offered_while_the_side_has_a_unit_to_activate() -> None:
    """6.2: a side with an eligible unit must activate one; the scheme passes for a side
    with none left. Every turn's offer across a whole battle holds no pass, and sides
    still run out of units (forced passes) along the way."""
    battle = start(setup(seed=11, rounds=3))
    offers = 0

    def no_pass_beside_activate(pending: Decision) -> None:
        nonlocal offers
        if any(s.type == "activate" for s in pending.legal):
            offers += 1
            assert "pass" not in {s.type for s in pending.legal}, pending.prompt

    eager_bot(battle, no_pass_beside_activate)
    assert offers > 3
    assert any(e.kind == "pass" and e.data.get("forced") for e in battle.events)


def test_models_act_one_action_at_a_time_and_share() -> None:
    battle = start(setup())
    battle.apply(battle.command(battle.pending.legal[0]))
    unit_id = battle.pending.legal[0].params["unit"]
    unit = battle.state.unit(unit_id)
    first, second = unit.elements[0].id, unit.elements[1].id
    battle.apply({"type": "share", "unit": unit_id, "apart": [first]})
    battle.apply({"type": "walk", "unit": unit_id, "model": first, "facts": {"inches": 3}})
    assert battle.state.element(first).data["actions"] == 1
    # an apart model finishes before anyone else acts
    assert {s.params.get("model") for s in battle.pending.legal if "model" in s.params} == {first}
    with pytest.raises(IllegalCommand):
        battle.apply({"type": "walk", "unit": unit_id, "model": first, "facts": {"inches": 9}})
    battle.apply({"type": "aim", "unit": unit_id, "model": first})
    models = {s.params.get("model") for s in battle.pending.legal if "model" in s.params}
    assert first not in models and second in models


def test_the_log_says_which_models_act_apart_or_that_all_act_together() -> None:
    texts = []
    for apart in (0, 1, 2):
        battle = start(setup())
        battle.apply(battle.command(battle.pending.legal[0]))
        unit = battle.state.unit(battle.pending.legal[0].params["unit"])
        (event,) = battle.apply({"type": "share", "unit": unit.id, "apart": [e.id for e in unit.elements[:apart]]})
        texts.append(event.text)
    assert texts == ["Marine Squad: all its models act together", "Marine Squad: 1 model acts apart",
                     "Marine Squad: 2 models act apart"]


def test_extra_action_gives_a_third_action_once() -> None:
    battle = start(setup(seed=3))
    side = battle.pending.side
    pool = battle.state.side(side).data["extra_pool"]
    battle.apply(battle.command(battle.pending.legal[0]))
    unit_id = battle.pending.legal[0].params["unit"]
    model = battle.state.unit(unit_id).elements[0].id
    if pool == 0:
        with pytest.raises(IllegalCommand, match="6.4"):
            battle.apply({"type": "extra", "unit": unit_id, "model": model})
        return
    battle.apply({"type": "extra", "unit": unit_id, "model": model})
    assert battle.state.element(model).data["actions"] == 3
    with pytest.raises(IllegalCommand, match="not allowed now"):
        battle.apply({"type": "extra", "unit": unit_id, "model": model})


def test_a_side_may_not_pass_while_it_has_units_to_activate() -> None:
    battle = start(setup())
    with pytest.raises(IllegalCommand):
        battle.apply({"type": "pass"})


def test_full_battle_between_samples_finishes_and_replays() -> None:
    battle = start(setup(seed=11, rounds=4))
    bot(battle)
    assert battle.is_over
    kinds = {e.kind for e in battle.events}
    assert {"shot", "hit", "removed", "extra_actions"} <= kinds
    again = Battle.replay(setup(seed=11, rounds=4), battle.log_dicts(), rules=FigWarsRules())
    assert again.digest() == battle.digest()


def test_replay_in_a_fresh_process_gives_the_same_digest() -> None:
    battle = start(setup(a="Gothic Imperium Battle Group", b="Xenomorph Bugs", seed=5, rounds=3))
    bot(battle)
    code = (
        "import json, sys\n"
        "from campaign.engine.battle import Battle\n"
        "from campaign.rulesets.figwars3.play import FigWarsRules\n"
        "from tests.figwars3.test_battle import setup\n"
        "log = json.loads(sys.stdin.read())\n"
        "b = Battle.replay(setup(a='Gothic Imperium Battle Group', b='Xenomorph Bugs', seed=5, rounds=3), log, rules=FigWarsRules())\n"
        "print(b.digest())\n"
    )
    import json

    out = subprocess.run([sys.executable, "-c", code], input=json.dumps(battle.log_dicts(), default=str),
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == battle.digest()


def test_odds_hook_reads_the_same_attack() -> None:
    battle = start(setup())
    battle.apply(battle.command(battle.pending.legal[0]))
    shoot = next(s for s in battle.pending.legal if s.type == "shoot")
    command = battle.command(shoot, facts={"range_band": "long"})
    report = battle.rules.odds(battle.state, command)
    exact = battle.rules.exact(battle.state, command)
    assert report.detail.rows[0].odds.p_success == exact.p_success
    assert report.outcome("pinned").p == exact.p_pinned or report.outcome("pinned").p < exact.p_pinned


def _activate_first(battle: Battle) -> str:
    spec = battle.pending.legal[0]
    battle.apply(battle.command(spec))
    return spec.params["unit"]


def test_sentry_fires_when_an_enemy_model_acts_and_is_paid_up_front() -> None:
    battle = start(setup(seed=4))
    unit_id = _activate_first(battle)
    model = battle.state.unit(unit_id).elements[0].id
    weapon = next(s for s in battle.pending.legal if s.type == "sentry" and s.params["model"] == model).params["weapon"]
    battle.apply({"type": "sentry", "unit": unit_id, "model": model, "weapon": weapon})
    assert battle.state.element(model).data["actions"] == 0 and battle.state.element(model).data["sentry"] == weapon
    battle.apply({"type": "end_activation", "unit": unit_id})
    enemy_unit = _activate_first(battle)
    assert battle.state.unit(enemy_unit).side != battle.state.unit(unit_id).side
    enemy = battle.state.unit(enemy_unit).elements[0].id
    nominated = battle.pending  # 7.2: the enemy unit activates: the sentry may fire at any of its models
    assert isinstance(nominated, Decision) and nominated.side == battle.state.unit(unit_id).side
    assert "activates: release" in nominated.prompt
    assert [s.params.get("target_model") for s in nominated.legal[1:]] == [e.id for e in battle.state.unit(enemy_unit).alive]
    battle.apply({"type": "choose", "option": "hold"})
    battle.apply({"type": "walk", "unit": enemy_unit, "model": enemy, "facts": {"inches": 2}})
    window = battle.pending
    assert isinstance(window, Decision) and window.side == battle.state.unit(unit_id).side
    assert [s.type for s in window.legal] == ["choose", "shoot"]
    battle.apply(battle.command(window.legal[1], facts={"range_band": "long"}))
    kinds = [e.kind for e in battle.events]
    assert "sentry_fire" in kinds and kinds.index("sentry_fire") < len(kinds)
    assert battle.state.element(model).data["sentry"] == ""
    shot = [e for e in battle.events if e.kind == "shot"][-1]
    assert shot.data["model"] == model and shot.data["target"] == enemy


def test_a_held_sentry_is_fired_or_lost_at_its_next_activation() -> None:
    battle = start(setup(seed=4, rounds=3))
    unit_id = _activate_first(battle)
    model = battle.state.unit(unit_id).elements[0].id
    weapon = next(s for s in battle.pending.legal if s.type == "sentry" and s.params["model"] == model).params["weapon"]
    battle.apply({"type": "sentry", "unit": unit_id, "model": model, "weapon": weapon})
    # everyone else holds every sentry window and ends activations until the unit activates again
    steps = 0
    while True:
        steps += 1
        assert steps < 500
        pending = battle.pending
        if pending.prompt.startswith(battle.state.element(model).name + ": fire the held"):
            break
        spec = pending.legal[0]
        if spec.type == "share":
            spec = next(s for s in pending.legal if s.type == "end_activation")
        battle.apply(battle.command(spec))
    assert pending.legal[-1].params == {"option": "let_go"}
    battle.apply(battle.command(pending.legal[-1]))
    assert battle.state.element(model).data["sentry"] == "" and battle.events[-1].kind == "sentry_lost"


def test_medic_saves_a_model_at_zero_dp_within_the_window() -> None:
    from campaign.rulesets.figwars3.attack import drive
    from campaign.rulesets.figwars3.commands import Medic

    battle = start(setup())
    unit_id = _activate_first(battle)
    unit = battle.state.unit(unit_id)
    medic, patient = unit.elements[0], unit.elements[1]
    rules = battle.rules
    rules._profiles[medic.id] = attrs.evolve(rules.profile(medic.id), abilities=rules.profile(medic.id).abilities | {"Medic"})
    patient.data.update(dp=0, incap=battle.state.round, stunned=True)
    specs = rules._model_specs(battle.state, unit, medic)
    assert [s.params["patient"] for s in specs if s.type == "medic"] == [patient.id]
    medic.data["actions"] = 2
    treat = Medic(unit=unit_id, model=medic.id, patient=patient.id, facts={"clear_stun": True})
    drive(rules._treat(battle.state, medic, treat, battle.ctx), [[6]])  # TQ 1: a 6 is two successes
    assert (patient.data["dp"], patient.data["stunned"], patient.data["incap"]) == (1, False, None)
    assert medic.data["actions"] == 0
    with pytest.raises(IllegalCommand, match="Medic"):
        drive(rules._treat(battle.state, medic, attrs.evolve(treat, patient=medic.id), battle.ctx), [])
