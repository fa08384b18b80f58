"""Odds and dice agree (issue 12 item 9): for randomly built attacks, `odds()` against a
run of the engine's own resolution fed 20,000 random dice.

The run drives `FlatOutWarRules.resolve` directly (the Battle's log and checks are left
out for speed, the rules' code is all there), restores the units between trials, and
answers the engine's questions with the policy the odds assume: Lucky re-rolls every
failure it is offered, nobody else is reported under a template. The casualties' mean and
the chance of none must lie within 3 sigma of the exact odds.
"""

from __future__ import annotations

import copy
import math
import random
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.engine.commands import KeepRoll, Reroll
from campaign.engine.pending import Decision, RollRequest
from campaign.rulesets.flat_out_war.engine.commands import Report

from .battle_helpers import SO, V17, Weapon, battle, el, force, initiative

DICE = 20_000  # dice rolled per attack
DIES = ("d4", "d6", "d8", "d10", "d12")


class _Ctx:
    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.options = rules.options

    def emit(self, *args: Any, **kwargs: Any) -> None:
        pass


def _answer(decision: Decision) -> Any:
    data = decision.data or {}
    if "lucky" in data:
        return Reroll(reason="lucky") if data.get("good") is False else KeepRoll()
    if any(s.type == "report" for s in decision.legal):
        return Report(elements=[])
    raise AssertionError(f"unexpected question: {decision.prompt}")


_ATOMS = (int, str, bool, float, type(None), Fraction)


def _copy(value: Any) -> Any:
    """copy.deepcopy for the plain data a state holds (dicts, lists, tuples, numbers, text),
    at a fraction of its cost: a state is restored before each of the ~35,000 trials, and
    deepcopy's memo took a third of the test's time. Anything else goes to deepcopy."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is dict:
        return {k: _copy(v) for k, v in value.items()}
    if kind is list:
        return [_copy(v) for v in value]
    if kind is tuple:
        return tuple(_copy(v) for v in value)
    return copy.deepcopy(value)


def _snapshot(state: Any) -> Any:
    return _copy(([(u.markers, u.data, [(e.alive, e.markers, e.data) for e in u.elements]) for u in state.units],
                  state.data, state.effects))


def _restore(state: Any, snap: Any) -> None:
    units, data, effects = _copy(snap)
    for u, (markers, udata, elements) in zip(state.units, units):
        u.markers, u.data = markers, udata
        for e, (alive, emarkers, edata) in zip(u.elements, elements):
            e.alive, e.markers, e.data = alive, emarkers, edata
    state.data, state.effects = data, effects


def rolled_casualties(b: Any, command: Any, target: str, seed: int) -> list[int]:
    """Casualties in `target` per trial, trials until DICE dice are rolled."""
    rules, state = b.rules, b.state
    snap = _snapshot(state)
    rng = random.Random(seed)
    out: list[int] = []
    dice = 0
    while dice < DICE:
        _restore(state, snap)
        gen = rules.resolve(state, command, _Ctx(rules))
        value: Any = None
        try:
            while True:
                ask = gen.send(value)
                if isinstance(ask, RollRequest):
                    value = tuple(rng.randint(1, ask.die) for _ in range(ask.count))
                    dice += ask.count
                else:
                    value = _answer(ask)
        except StopIteration:
            pass
        out.append(sum(1 for e in state.unit(target).elements if not e.alive))
        if not dice:  # no die at all (Heavy Armour, say): every trial would be the same
            break
    _restore(state, snap)
    return out


@st.composite
def attacks(draw: st.DrawFn) -> tuple[Any, dict[str, Any]]:
    edition = draw(st.sampled_from((SO, V17)))
    kind = draw(st.sampled_from(("melee", "shoot", "template")))
    die = draw(st.sampled_from(DIES))
    count = draw(st.integers(1, 7))
    mine = list(draw(st.sets(st.sampled_from(("Lucky", "Aggressive", "Sharpshooter")))))
    traits: tuple[str, ...] = ()
    if kind == "template":
        traits, count = ('Template: 2"',), 1
    elif kind == "shoot" and draw(st.booleans()):
        traits = ("Multi-shot: 2",)
    if draw(st.booleans()) and kind != "melee":
        mine.append("Heavy Ranged Weapon")
    weapon = (Weapon("Sword", "melee", die) if kind == "melee"
              else Weapon("Gun", "ranged", draw(st.sampled_from(DIES)), 24, traits=traits))
    theirs = list(draw(st.sets(st.sampled_from(("Tough", "Frail", "Heavy Armor", "Lucky")))))
    if edition == SO:
        theirs += draw(st.sets(st.sampled_from(("Hit Points 1", "Resilient"))))
    n_targets = draw(st.integers(1, 4))
    red = force("Red", ("Reds", (el("A", die, count=count, weapons=(weapon,), attributes=tuple(mine)),)), edition=edition)
    blue = force("Blue", ("Blues", (el("B", draw(st.sampled_from(DIES)), count=n_targets, attributes=tuple(theirs)),)),
                 edition=edition)
    b = battle(red, blue, edition=edition, lucky_prompt=True, stand_prompt=False, face_charge_prompt=False)
    initiative(b, "red")
    b.apply({"type": "activate", "unit": "reds"})
    if count > 5 and draw(st.booleans()):  # ranks: a line of two ranks or a column
        b.state.unit("reds").data.update(formation=draw(st.sampled_from(("line", "column"))), depth="double")
    elif draw(st.booleans()):
        b.state.unit("reds").data.update(formation="column")
    facts: dict[str, Any] = {"aspect": draw(st.sampled_from(("front", "flank", "rear")))}
    if kind != "melee":
        facts.update(range_band=draw(st.sampled_from(("short", "long"))), los=draw(st.sampled_from(("open", "partial"))))
    if kind == "template":
        ids = [e.id for e in b.state.unit("blues").elements]
        facts["covered"] = ids[: draw(st.integers(1, len(ids)))]
    command = {"type": "melee" if kind == "melee" else "shoot", "unit": "reds", "target": "blues", "facts": facts}
    return b, command


@settings(max_examples=6, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(attacks())
def test_odds_match_twenty_thousand_rolled_dice(case: tuple[Any, dict[str, Any]]) -> None:
    b, raw = case
    command = b.types.from_dict(raw)
    exact = b.rules.odds(b.state, command).casualties
    mean = sum((k * p for k, p in exact.items()), Fraction(0))
    var = sum(((k - mean) ** 2 * p for k, p in exact.items()), Fraction(0))
    got = rolled_casualties(b, command, "blues", seed=12)
    n = len(got)
    observed = sum(got) / n
    assert abs(observed - float(mean)) <= 3 * math.sqrt(float(var) / n) + 1e-9, (raw, float(mean), observed, n)
    p0 = float(exact.get(0, 0))
    zero = sum(1 for k in got if k == 0) / n
    assert abs(zero - p0) <= 3 * math.sqrt(p0 * (1 - p0) / n) + 1e-9, (raw, p0, zero, n)


if __name__ == "__main__":  # timing: python -m tests.flat_out_war.engine.test_odds_match_dice
    import time

    t = time.time()
    test_odds_match_twenty_thousand_rolled_dice()
    print(f"{time.time() - t:.1f}s")
