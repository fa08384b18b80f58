"""Doors and walls as targets in a battle (12.4, 17.8 Chainfist): the breach command,
sections kept by name, odds from the same roll. Scripted dice."""

from __future__ import annotations

import pytest

from campaign.engine.battle import Battle
from campaign.engine.errors import IllegalCommand
from campaign.rulesets.figwars3 import structures_play
from campaign.rulesets.figwars3.attack import drive, exact_odds
from campaign.rulesets.figwars3.commands import Breach
from campaign.rulesets.figwars3.play import FigWarsRules
from tests.figwars3.test_battle import setup


class Ctx:
    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []

    def emit(self, kind: str, text: str, **data: object) -> None:
        self.events.append((kind, text))


def battle() -> tuple[FigWarsRules, Battle]:
    rules = FigWarsRules()
    b = Battle.start(setup(seed=3), rules=rules)
    for unit in b.state.units:
        for el in unit.elements:
            el.data["actions"] = 2
    return rules, b


def marine(b: Battle):  # type: ignore[no-untyped-def]
    unit = next(u for u in b.state.units if u.side == "a")
    return unit, unit.elements[0]


def test_a_strike_breaks_a_flimsy_door_and_the_door_never_strikes_back() -> None:
    rules, b = battle()
    unit, m = marine(b)
    cmd = Breach(unit.id, m.id, {"structure": "hut door", "kind": "door", "grade": "flimsy"})
    opposed, _, _, _ = structures_play.opposed_for(rules, b.state, cmd)
    assert [t.dice for t in opposed.defender.terms] == [1] and not opposed.counter
    ctx = Ctx()
    a = opposed.attacker.dice
    drive(rules.resolve(b.state, cmd, ctx), [[6] * a, [1]])
    assert b.state.data["structures"]["hut door"]["sections"][0] <= 0
    assert ctx.events[-1] == ("breached", "hut door is broken open")
    assert m.data["actions"] == 1 and m.alive
    with pytest.raises(IllegalCommand, match="already breached"):
        rules.resolve(b.state, cmd, ctx).send(None)


def test_a_wall_keeps_each_sections_dp_between_attacks() -> None:
    rules, b = battle()
    unit, m = marine(b)
    first = Breach(unit.id, m.id, {"structure": "north wall", "kind": "wall", "grade": "flimsy", "length": 5, "section": 2})
    opposed, _, _, _ = structures_play.opposed_for(rules, b.state, first)
    a, d = opposed.attacker.dice, opposed.defender.dice
    assert d == 3  # flimsy wall: DEF 3d, DP 3 a section, 3 sections for 5"
    ctx = Ctx()
    drive(rules.resolve(b.state, first, ctx), [[6] + [1] * (a - 1), [1] * d])  # won by 1: that section loses DP
    left = b.state.data["structures"]["north wall"]["sections"]
    assert len(left) == 3 and left[0] == 3 and left[2] == 3 and left[1] < 3
    again = Breach(unit.id, m.id, {"structure": "north wall", "section": 4})
    with pytest.raises(IllegalCommand, match="section"):
        rules.resolve(b.state, again, ctx).send(None)
    assert structures_play.describe(b.state) == [f"flimsy wall north wall: 3 DP, {left[1]} DP, 3 DP"]


def test_breach_odds_read_the_same_roll_and_do_not_touch_the_state() -> None:
    rules, b = battle()
    unit, m = marine(b)
    cmd = Breach(unit.id, m.id, {"structure": "gate", "kind": "door", "grade": "heavy"})
    report = rules.odds(b.state, cmd)
    opposed, _, _, _ = structures_play.opposed_for(rules, b.state, cmd)
    assert report.outcome("DP inflicted").dist == exact_odds(opposed).dp
    assert "structures" not in b.state.data
    spec = next(s for s in rules._model_specs(b.state, unit, m) if s.type == "breach")
    assert spec.odds and "weapon" in {f.name for f in spec.facts}


def test_a_shot_at_a_door_uses_the_weapon_and_its_cost() -> None:
    rules, b = battle()
    unit, m = marine(b)
    weapon = rules._armed(m).ranged[0].name
    cmd = Breach(unit.id, m.id, {"structure": "hatch", "kind": "door", "grade": "normal", "weapon": weapon, "range_band": "short"})
    opposed, _, _, _ = structures_play.opposed_for(rules, b.state, cmd)
    assert opposed.kind == "ranged" and opposed.defender.dice == 3
    drive(rules.resolve(b.state, cmd, Ctx()), [[1] * opposed.attacker.dice, [6] * 3])
    assert b.state.data["structures"]["hatch"]["sections"] == [1]  # missed: the door stands
    assert m.data["actions"] < 2


def test_a_chainfist_adds_a_dp_to_a_door_and_the_odds_know_it() -> None:
    import attrs

    from campaign.rulesets.figwars3.weapons import MELEE

    rules, b = battle()
    unit, m = marine(b)
    cmd = Breach(unit.id, m.id, {"structure": "vault", "kind": "door", "grade": "heavy"})
    plain, _, _, _ = structures_play.opposed_for(rules, b.state, cmd)
    rules._profiles[m.id] = attrs.evolve(rules.profile(m.id), melee=(MELEE["Chainfist"],))
    fist, _, _, _ = structures_play.opposed_for(rules, b.state, cmd)
    assert fist.attacker.chainfist and not plain.attacker.chainfist
    assert exact_odds(fist).expected_dp > exact_odds(attrs.evolve(fist, attacker=attrs.evolve(fist.attacker, chainfist=False))).expected_dp
