"""Bad commands get a clear refusal, never a traceback, and change nothing.

Battles between sample forces are played by the seeded autoplayer; between its moves,
hypothesis throws commands with wrong ids, wrong types and nonsense facts at the engine.
Each one must either be accepted or refused with an EngineError that names a rule, and a
refusal must leave the battle exactly as it was.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from campaign.campaigns.scenario import Scenario
from campaign.engine.battle import Battle
from campaign.engine.dice import AutoDice
from campaign.engine.errors import EngineError
from campaign.engine.pending import Decision
from campaign.engine.setup import BattleSetup, SideSetup
from campaign.rulesets.flat_out_war.engine.autoplay import AutoPlayer
from campaign.rulesets.flat_out_war.samples import ALIEN, HUMAN

SETUP = BattleSetup(
    ruleset="flat-out-war", edition="special-ops",
    sides=(SideSetup("humans", "Humans", HUMAN), SideSetup("aliens", "Aliens", ALIEN)),
    scenario=Scenario(id="meeting", name="Meeting engagement", rounds=6), seed=0, dice="auto",
)

JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 40), st.text(max_size=8),
    st.sampled_from(["front", "flank", "rear", "long", "out", "partial", "none", "open 3, light 2", "heavy -2",
                     "open x", "take_off", "dive", "#2", "=", "humans", "aliens"]),
)


def ids(battle: Battle) -> list[str]:
    state = battle.state
    return [u.id for u in state.units] + [e.id for u in state.units for e in u.elements]


def value(draw: Any, battle: Battle) -> Any:
    pool = st.sampled_from(ids(battle) + ["nobody", "humans/nobody", ""])
    scalar = st.one_of(JUNK, pool)
    return draw(st.one_of(scalar, st.lists(scalar, max_size=3),
                          st.lists(pool.map(lambda i: f"{i}#2=aliens"), max_size=2)))


@st.composite
def hostile(draw: Any, battle: Battle) -> dict[str, Any]:
    """A command near a legal one: a legal spec with some params or facts swapped for junk."""
    decision = battle.pending
    assert isinstance(decision, Decision)
    spec = draw(st.sampled_from(decision.legal))
    command: dict[str, Any] = {"type": spec.type, **spec.params}
    for key in list(command)[1:]:
        if draw(st.integers(0, 3)) == 0:
            command[key] = value(draw, battle)
    facts: dict[str, Any] = {}
    for fact in draw(st.lists(st.sampled_from(spec.facts), max_size=3)) if spec.facts else ():
        plausible = st.sampled_from(fact.choices) if fact.choices else st.nothing()
        facts[fact.name] = draw(st.one_of(plausible, st.just(value(draw, battle))))
    if draw(st.integers(0, 5)) == 0:
        facts[draw(st.sampled_from(["bogus", "aspect", "range_band"]))] = value(draw, battle)
    if facts:
        command["facts"] = facts
    for extra in ("unit", "target", "element", "spell", "option", "elements", "units", "side", "objective"):
        if draw(st.integers(0, 7)) == 0:
            command[extra] = value(draw, battle)
    return command


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120), data=st.data())
def test_hostile_commands_are_refused_cleanly(seed: int, steps: int, data: st.DataObject) -> None:
    battle = Battle.start(SETUP, AutoDice(seed))
    player = AutoPlayer(seed)
    for _ in range(steps):
        if not isinstance(battle.pending, Decision):
            break
        battle.apply(player.answer(battle))
    for _ in range(5):
        if not isinstance(battle.pending, Decision):
            break
        before = (battle.digest(), battle.log_dicts(), battle.pending)
        command = data.draw(hostile(battle), label="command")
        try:
            battle.apply(command)
            event(f"accepted {command['type']}")
        except EngineError as exc:
            event(f"refused {command['type']}")
            assert str(exc), "a refusal says why"
            assert (battle.digest(), battle.log_dicts(), battle.pending) == before


def started() -> Battle:
    battle = Battle.start(SETUP, AutoDice(1))
    battle.apply({"type": "activate", "unit": "ripper-swarm"})
    return battle


@pytest.mark.parametrize(("command", "message"), [
    ({"type": "move", "unit": "ripper-swarm", "facts": "x"}, "facts must be a table of name = value"),
    ({"type": "move", "unit": 7}, "unit must be text, not 7"),
    ({"type": "move", "unit": "ripper-swarm", "facts": {"contact": "assault-squad"}}, "contact must be a list"),
    ({"type": "move", "unit": "ripper-swarm", "facts": {"contact": [3]}}, "contact must be a list"),
    ({"type": "move", "unit": "ripper-swarm", "facts": {"run": 1}}, "run must be one of True, False, not 1"),
    ({"type": "move", "unit": "ripper-swarm", "facts": {"distance": "far"}}, "distance must be a whole number"),
    ({"type": "move", "unit": "ripper-swarm", "facts": {"distance": -5}}, "distance cannot be negative"),
    ({"type": "move", "unit": "ripper-swarm", "facts": {"path": 3}}, "path must be text"),
    ({"type": "report", "elements": "all"}, "elements must be a list"),
])
def test_wrong_shapes_are_named_plainly(command: dict[str, Any], message: str) -> None:
    battle = started()
    before = battle.digest()
    with pytest.raises(EngineError, match=message):
        battle.apply(command)
    assert battle.digest() == before
