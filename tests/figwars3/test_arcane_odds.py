"""Odds of the powers that roll without an opposed pool (16.4 spirit strike, 16.7
teleport) through the battle's odds hook: the report equals every way the cast's dice go."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from campaign.engine.errors import IllegalCommand
from campaign.rulesets.figwars3 import arcane as ar
from campaign.rulesets.figwars3.commands import Cast
from tests.figwars3.test_battle import setup, start
from tests.figwars3.test_machines_battle import mixed_setup


def _all_ways(make, sizes):  # type: ignore[no-untyped-def]
    """Every scripted way a generator can go: (probability, result)."""
    out = []

    def walk(prefix: list[list[int]], p: Fraction) -> None:
        gen = make()
        try:
            request = next(gen)
            for faces in prefix:
                request = gen.send(faces)
        except StopIteration as stop:
            out.append((p, stop.value))
            return
        for faces in product(range(1, request.die + 1), repeat=request.count):
            walk(prefix + [list(faces)], p / request.die ** request.count)

    walk([], Fraction(1))
    return out


@pytest.mark.parametrize("level", [1, 2, 3])
def test_spirit_strike_report_equals_the_dice(level: int) -> None:
    battle = start(setup(a="Arcane Circle", b="Revenant Host", seed=4))
    rules, state = battle.rules, battle.state
    mage = state.unit("archmage").elements[0]
    target = next(u for u in state.units if u.side != "a" and not rules.is_machine(u.elements[0].id))
    report = rules.odds(state, Cast("archmage", mage.id, "spirit_strike", target.id, "", {"level": level}))
    hero = rules.profile(mage.id).hero
    assert hero
    want: dict[int, Fraction] = {}
    for p, (_, _, dp) in _all_ways(lambda: ar.spirit_strike(level, False, hero), None):
        want[dp] = want.get(dp, Fraction(0)) + p
    assert report.outcome("DP inflicted").dist == {k: want[k] for k in sorted(want)}
    assert report.outcome("target hurt").p == 1 - want.get(0, Fraction(0))
    assert "re-rolls his lowest die" in " ".join(report.notes)


@pytest.mark.parametrize(("level", "anywhere"), [(1, False), (2, False), (2, True), (3, True)])
def test_teleport_report_equals_the_dice(level: int, anywhere: bool) -> None:
    battle = start(mixed_setup(seed=4))
    rules, state = battle.rules, battle.state
    mage = state.unit("archmage").elements[0]
    report = rules.odds(state, Cast("archmage", mage.id, "teleport", "", "", {"level": level, "anywhere": anywhere}))
    want: dict[str, Fraction] = {}
    for p, result in _all_ways(lambda: ar.teleport(level, anywhere, True), None):
        want[result.result] = want.get(result.result, Fraction(0)) + p
    got = {o.name: o.p for o in report.outcomes}
    assert got["arrives where intended"] == want.get("arrived", 0)
    assert got["deviates 1d8\""] == want.get("deviated", 0)
    assert got["caster killed (every die a 1)"] == want.get("killed", 0)
    assert sum(got.values()) == 1


def test_spirit_strike_odds_refuse_a_machine_and_the_spec_offers_odds() -> None:
    battle = start(mixed_setup(seed=4))
    rules, state = battle.rules, battle.state
    mage = state.unit("archmage").elements[0]
    machine_unit = next(u for u in state.units if u.side != "a" and rules.is_machine(u.elements[0].id))
    with pytest.raises(IllegalCommand, match="only the living"):
        rules.odds(state, Cast("archmage", mage.id, "spirit_strike", machine_unit.id, "", {"level": 1}))
    mage.data["actions"] = 2
    specs = [s for s in rules._model_specs(state, state.unit("archmage"), mage) if s.type == "cast"]
    assert all(s.odds for s in specs if s.params["power"] in ("spirit_strike", "teleport", "assault", "blast"))


# --- force weapons: ARC points spent on a blow (16.9, PR-72) ---------------------------------


class _Ctx:
    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []

    def emit(self, kind: str, text: str, **data: object) -> None:
        self.events.append((kind, text))

    def window(self, name: str, **info: object):  # type: ignore[no-untyped-def]
        yield from ()  # no interrupts in this test


def test_a_force_weapon_blow_spends_arc_points_for_dice_without_an_action() -> None:
    from campaign.rulesets.figwars3.commands import Strike

    battle = start(setup(a="Arcane Circle", b="Revenant Host", seed=4))
    rules, state = battle.rules, battle.state
    mage = state.unit("archmage").elements[0]
    mage.data["actions"] = 2
    enemy = next(u for u in state.units if u.side == "b")
    spec = next(s for s in rules._model_specs(state, state.unit("archmage"), mage) if s.type == "strike")
    arc = next(f for f in spec.facts if f.name == "arc_points")
    assert arc.choices == (0, 1, 2, 3)
    free = rules.strike(state, Strike("archmage", mage.id, enemy.id, "", {}))[0]
    paid = rules.strike(state, Strike("archmage", mage.id, enemy.id, "", {"arc_points": 2}))[0]
    assert paid.attacker.dice == free.attacker.dice + 2
    assert ("ARC rating (force weapon)", 3) in [(t.label, t.dice) for t in free.attacker.terms]
    with pytest.raises(IllegalCommand, match="4 ARC point"):
        rules.strike(state, Strike("archmage", mage.id, enemy.id, "", {"arc_points": 4}))
    report = rules.odds(state, Strike("archmage", mage.id, enemy.id, "", {"arc_points": 2}))
    assert report.outcome("DP inflicted").mean > rules.odds(state, Strike("archmage", mage.id, enemy.id, "", {})).outcome("DP inflicted").mean
    target = rules._target_model(state, mage, enemy.id, "")
    ctx = _Ctx()
    gen = rules.resolve(state, Strike("archmage", mage.id, enemy.id, target.id, {"arc_points": 2}), ctx)
    request = next(gen)  # the defender may focus, or the dice roll: either way the points are spent now
    assert mage.data["arc"]["points"] == 1 and mage.data["arc"]["spent"] and mage.data["actions"] == 1
    assert ("cast", "Archmage pours 2 ARC point(s) into the force weapon (1 left)") in ctx.events
    assert request is not None
    acolyte = state.unit("acolytes").elements[0]
    with pytest.raises(IllegalCommand, match="force weapon"):
        rules.strike(state, Strike("acolytes", acolyte.id, enemy.id, "", {"arc_points": 1}))
