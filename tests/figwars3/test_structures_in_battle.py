"""Doors and walls as targets in a battle (12.4, 17.8 Chainfist): the breach command,
sections kept by name, odds from the same roll. Scripted dice."""

from __future__ import annotations

import pytest

from campaign.engine.battle import Battle
from campaign.engine.errors import IllegalCommand
from campaign.rulesets.figwars3 import structures_play
from campaign.rulesets.figwars3.attack import drive, exact_odds
from campaign.engine.commands import Choose
from campaign.rulesets.figwars3.commands import Breach, Report
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


# --- PR-60: a shot that fails to hurt a model in cover may hit the cover instead ------------

class WindowCtx(Ctx):
    def window(self, name: str, **info: object):  # type: ignore[no-untyped-def]
        yield from ()


def run(gen, script: list) -> list:  # type: ignore[type-arg]
    """Drive a resolution: lists answer dice requests, commands answer decisions; returns the decisions met."""
    from campaign.engine.pending import Decision

    met = []
    queue = list(script)
    try:
        request = next(gen)
        while True:
            if isinstance(request, Decision):
                met.append(request)
            answer = queue.pop(0)
            request = gen.send(answer)
    except StopIteration:
        assert not queue, f"left over: {queue}"
    return met


def _cover_shot(rules: FigWarsRules, b: Battle, cover: str = "partial_hard"):  # type: ignore[no-untyped-def]
    from campaign.rulesets.figwars3.commands import Shoot

    unit, m = marine(b)
    grunt = b.state.unit("grunt-lance").elements[0]
    weapon = rules.profile(m.id).ranged[0].name
    shot = Shoot(unit.id, m.id, "grunt-lance", grunt.id, weapon, {"range_band": "short", "cover": cover})
    opposed = rules.shot(b.state, shot)[0]
    return shot, grunt, opposed.attacker.dice, opposed.defender.dice


DOOR = {"structure": "crate stack", "kind": "door", "grade": "weak"}


def test_pr60_a_shot_that_scores_but_does_not_hurt_hits_the_door_instead() -> None:
    rules, b = battle()
    rules.options["cover_hits"] = True
    shot, grunt, a, d = _cover_shot(rules, b)
    assert d >= 3 and a >= 2
    report = Report(facts=DOOR)
    ctx = WindowCtx()
    # the attack scores 4 (two 6s), the grunt 6 (three 6s): unhurt; the weak door (DEF 2) rolls [1, 4]: 1 -> margin 3: 1 DP
    met = run(rules.resolve(b.state, shot, ctx), [[6, 6] + [1] * (a - 2), [6, 6, 6] + [1] * (d - 3), report, [1, 4]])
    assert len(met) == 1 and "hit its cover instead (PR-60)" in met[0].prompt
    assert b.state.data["structures"]["crate stack"]["sections"] == [0]  # a weak door: 1 DP, broken open
    assert ("breached", "crate stack is broken open") in ctx.events
    assert grunt.alive and grunt.data["pins"] == 0


def test_pr60_the_cover_taken_instead_spares_the_pin_and_no_declines() -> None:
    rules, b = battle()
    rules.options["cover_hits"] = True
    shot, grunt, a, d = _cover_shot(rules, b)
    ctx = WindowCtx()
    # 2 against 1: margin 1, a pin and no DP -- the shooter takes the wall instead; it rolls [6, 6, 6]: no DP
    wall = {"structure": "low wall", "kind": "wall", "grade": "flimsy", "length": 6, "section": 3}
    run(rules.resolve(b.state, shot, ctx), [[6] + [1] * (a - 1), [4] + [1] * (d - 1), Report(facts=wall), [6, 6, 6]])
    assert grunt.data["pins"] == 0 and b.state.data["structures"]["low wall"]["sections"] == [3, 3, 3]
    rules2, b2 = battle()
    rules2.options["cover_hits"] = True
    shot, grunt, a, d = _cover_shot(rules2, b2)
    run(rules2.resolve(b2.state, shot, WindowCtx()), [[6] + [1] * (a - 1), [4] + [1] * (d - 1), Choose(option="no")])
    assert grunt.data["pins"] == 1 and not b2.state.data.get("structures")


def test_pr60_not_offered_without_the_option_without_cover_or_without_a_success() -> None:
    rules, b = battle()
    shot, grunt, a, d = _cover_shot(rules, b)
    assert run(rules.resolve(b.state, shot, WindowCtx()), [[6] + [1] * (a - 1), [6] + [1] * (d - 1)]) == []  # option off
    rules.options["cover_hits"] = True
    shot, grunt, a, d = _cover_shot(rules, b, cover="none")
    assert run(rules.resolve(b.state, shot, WindowCtx()), [[6] + [1] * (a - 1), [6] + [1] * (d - 1)]) == []  # no cover
    for e in b.state.unit(shot.unit).elements:
        e.data["actions"] = 2
    shot, grunt, a, d = _cover_shot(rules, b)
    assert run(rules.resolve(b.state, shot, WindowCtx()), [[1] * a, [1] * d]) == []  # no success scored


def test_pr60_a_burst_share_that_does_not_hurt_may_hit_its_targets_cover() -> None:
    from campaign.rulesets.figwars3.commands import Shoot

    rules, b = battle()
    rules.options["cover_hits"] = True
    unit, m = marine(b)
    grunts = b.state.unit("grunt-lance").elements
    weapon = next(w for w in rules.profile(m.id).ranged if w.autofire)
    burst = [{"model": grunts[1].id, "dice": weapon.autofire, "gap": 0, "cover": "partial_hard"}]
    shot = Shoot(unit.id, m.id, "grunt-lance", grunts[0].id, weapon.name, {"range_band": "short", "burst": burst})
    first = rules.shot(b.state, shot)[0]
    (other, share, cover, direct), = rules._further_rolls(b.state, m, shot, rules.profile(m.id).ranged_weapon(weapon.name))
    assert other.id == grunts[1].id and cover == "partial_hard" and direct and share.attacker.dice >= 1
    ctx = WindowCtx()
    # the first share scores nothing (no question: no success); the burst share [6] = 2 against
    # [6, 1, ...] = 2: unhurt -> its cover (a weak door, DEF 2) rolls [1, 1]: margin 2, 1 DP
    met = run(rules.resolve(b.state, shot, ctx), [
        [1] * first.attacker.dice, [1] * first.defender.dice,
        [6] + [1] * (share.attacker.dice - 1), [6] + [1] * (share.defender.dice - 1),
        Report(facts=DOOR), [1, 1]])
    assert len(met) == 1 and grunts[1].name in met[0].prompt
    assert b.state.data["structures"]["crate stack"]["sections"] == [0] and grunts[1].data["pins"] == 0
