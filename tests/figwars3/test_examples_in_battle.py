"""Worked examples 1 and 2 (spec 20) played through the battle, to their expected
outcomes: the removed Grunt and its unit's PL, the ODST's spent actions (1); the
Guardsman taken out by the Xenomorph's counter, his unit's PL and the attack count (2).
Example 3 is test_example3_in_battle.py; 4 and 5 are test_turn_and_morale.py."""

from __future__ import annotations

import attrs

from campaign.engine.battle import Battle
from campaign.engine.commands import Choose
from campaign.engine.setup import SideSetup
from campaign.force import Element, Force, Unit, Weapon
from campaign.rulesets.figwars3.commands import Aim, Shoot, Strike
from campaign.rulesets.figwars3.play import FigWarsRules
from tests.figwars3.test_battle import sample, setup
from tests.figwars3.test_interrupts import run


def test_worked_example_1_in_battle() -> None:
    odst = Element(name="ODST", stats={"tq": 2, "mov": 4, "def": 4, "dp": 1, "armour": "full combat armor"},
                   weapons=(Weapon("Assault Rifle", "ranged"),))
    lance = sample("Revenant Host").units[0]
    five = attrs.evolve(lance, elements=(attrs.evolve(lance.elements[0], count=5),))
    a = Force("Rifle", "figwars-3", units=(Unit("ODST", (odst,)),))
    b = Force("Grunts", "figwars-3", units=(five,))
    rules = FigWarsRules()
    battle = Battle.start(attrs.evolve(setup(), sides=(SideSetup("a", "A", a), SideSetup("b", "B", b))), rules=rules)
    state = battle.state
    shooter = state.unit("odst").elements[0]
    grunts = state.unit("grunt-lance")
    grunt = grunts.elements[0]
    assert len(grunts.alive) == 5 and (rules.profile(grunt.id).tq, rules.profile(grunt.id).defence, rules.profile(grunt.id).dp) == (1, 2, 1)
    shooter.data["actions"] = 2
    run(rules.resolve(state, Aim("odst", shooter.id), battle.ctx), [])
    shot = Shoot("odst", shooter.id, "grunt-lance", grunt.id, "Assault Rifle", {"range_band": "short"})
    opposed = rules.shot(state, shot)[0]
    assert (opposed.attacker.pool, opposed.defender.pool) == (5, 2)  # TQ 2 + ATK 2 + short 0 + Aim 1; DEF 2 + no cover
    run(rules.resolve(state, shot, battle.ctx), [], [[6, 5, 3, 2, 6], [4, 1]])  # 6 against 1: margin 5, pinned + 2 DP
    assert not grunt.alive and grunt.data["incap"] is None  # DP 1 - 2 = -1: removed, beyond a medic (PR-62)
    assert grunts.data["pl"] == 1 and grunts.data["marker"] and len(grunts.alive) == 4
    assert shooter.data["actions"] == 0 and "Assault Rifle" not in shooter.data["unloaded"]


def test_worked_example_2_in_battle() -> None:
    rules = FigWarsRules()
    battle = Battle.start(setup(a="Gothic Imperium Battle Group", b="Xenomorph Bugs"), rules=rules)
    state = battle.state
    guards = state.unit("guard-squad")
    first, second = guards.elements[0], guards.elements[1]
    bug = state.unit("bug-brood").elements[0]
    assert (rules.profile(bug.id).tq, rules.profile(bug.id).defence, rules.profile(bug.id).dp) == (2, 4, 2)
    for el in (first, second, bug):
        el.data["actions"] = 2
    no_focus = Choose(option="no")

    def strike(el):  # type: ignore[no-untyped-def]
        return Strike("guard-squad", el.id, "bug-brood", bug.id, {})

    opposed = rules.strike(state, strike(first))[0]
    run(rules._strike(state, first, strike(first), battle.ctx), [no_focus],
        [[6] + [1] * (opposed.attacker.dice - 1), [6] + [1] * (opposed.defender.dice - 1)])  # a tie: undamaged
    assert bug.data["dp"] == 2 and first.alive
    opposed = rules.strike(state, strike(second))[0]
    assert (opposed.attacker.pool, opposed.defender.pool) == (4, 6)  # DEF 2 + ATK 1 + second attacker 1; DEF 4 + ATK 2
    pl = guards.data["pl"]
    # [2, 3, 1, 1]: 1 against [5, 6, 1, 3, 2, 4]: 5 -> counter-attack, margin 5 - 1 - 1 = 3: the default pin + 1 DP
    seen = run(rules._strike(state, second, strike(second), battle.ctx), [no_focus, Choose(option="pin+1 DP")],
               [[2, 3, 1, 1], [5, 6, 1, 3, 2, 4]])
    spend = [r for r in seen if getattr(r, "prompt", "").endswith("spend the margin")]
    assert len(spend) == 1 and "by 3" in spend[0].prompt and spend[0].legal[0].params["option"] == "pin+1 DP"
    assert not second.alive  # DP 1 - 1 = 0: taken out (no medic in play)
    assert guards.data["pl"] == pl + 1 and guards.data["marker"]
    assert bug.alive and bug.data["dp"] == 2 and bug.data["pins"] == 0
    assert not [e for e in battle.events if e.kind == "acid"]  # no splash: the attacks on it did not succeed
    assert "destroyed" not in first.data and "destroyed" not in second.data
    assert sorted(state.data["struck"][bug.id]["a"]) == sorted([first.id, second.id])  # a third attacker gets +2d
