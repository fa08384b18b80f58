"""The Xenomorph Bug's acid blood (17.5): a successful melee hit splashes the weapon
(1d8: 1-3 destroyed; unarmed or natural weapons take ATK 1d; the hunter's claw and spear
are immune), and a dead bug sprays the models under the small template. Scripted dice."""

from __future__ import annotations

import attrs

from campaign.engine.battle import Battle
from campaign.engine.commands import Choose
from campaign.rulesets.figwars3 import acid
from campaign.rulesets.figwars3.commands import Report, Strike
from campaign.rulesets.figwars3.play import FigWarsRules
from tests.figwars3.test_battle import setup
from tests.figwars3.test_interrupts import run

NO_FOCUS = Choose(option="no")
PIN = Choose(option="pin")  # margin 1: the default package


def bugs() -> tuple[FigWarsRules, Battle]:
    rules = FigWarsRules()
    battle = Battle.start(setup(a="Gothic Imperium Battle Group", b="Xenomorph Bugs"), rules=rules)
    for unit in battle.state.units:
        for el in unit.elements:
            el.data["actions"] = 2
    return rules, battle


def _hit(rules: FigWarsRules, battle: Battle, attacker, bug, margin: int = 1):  # type: ignore[no-untyped-def]
    """Faces for a strike the attacker wins by `margin` (3s against blanks)."""
    strike = Strike(attacker.unit, attacker.id, bug.unit, bug.id, {})
    opposed = rules.strike(battle.state, strike)[0]
    return strike, [[3] * margin + [1] * (opposed.attacker.dice - margin), [1] * opposed.defender.dice]


def test_the_samples_bugs_have_acid_blood() -> None:
    rules, battle = bugs()
    bug = battle.state.unit("bug-brood").elements[0]
    assert rules.profile(bug.id).has(acid.ACID_BLOOD)


def test_a_successful_strike_splashes_the_weapon_1_to_3_destroys_it() -> None:
    rules, battle = bugs()
    state = battle.state
    guard = state.unit("guard-squad").elements[0]
    bug = state.unit("bug-brood").elements[0]
    strike, faces = _hit(rules, battle, guard, bug)
    run(rules._strike(state, guard, strike, battle.ctx), [NO_FOCUS, PIN], faces + [[3]])  # margin 1: a pin; the splash d8 3
    assert bug.data["pins"] == 1 and guard.data["destroyed"] == ["fixed bayonet"]
    assert "fixed bayonet" not in {w.name for w in rules._armed(guard).melee}
    assert ("acid", "acid blood eats Guardsman's fixed bayonet") in [(e.kind, e.text) for e in battle.events]
    other = state.unit("guard-squad").elements[1]
    bug.data.update(pins=0, actions=2, spent=0)
    strike, faces = _hit(rules, battle, other, bug)
    run(rules._strike(state, other, strike, battle.ctx), [NO_FOCUS, PIN], faces + [[4]])  # 4: the bayonet survives
    assert "destroyed" not in other.data


def test_an_unarmed_or_natural_attacker_suffers_an_atk_1d_attack_and_immune_weapons_are_untouched() -> None:
    rules, battle = bugs()
    state = battle.state
    guard = state.unit("guard-squad").elements[0]
    bug = state.unit("bug-brood").elements[0]
    guard.data["disarmed"] = ["fixed bayonet", "Laser Gun"]  # nothing left in hand: unarmed
    strike, faces = _hit(rules, battle, guard, bug)
    defence = rules._defender(guard).defence
    # the splash: ATK 1d [6] (2 successes) against the guardsman's DEF (all blanks): margin 2, 1 DP
    run(rules._strike(state, guard, strike, battle.ctx), [NO_FOCUS, PIN], faces + [[6], [1] * defence])
    assert not guard.alive  # DP 1 - 1 = 0, no medic: taken out
    bug.data.update(pins=0, actions=2, spent=0)
    hunter = state.unit("guard-squad").elements[1]
    p = rules.profile(hunter.id)
    from campaign.rulesets.figwars3.weapons import MELEE

    rules._profiles[hunter.id] = attrs.evolve(p, melee=(MELEE["hunter's claw"],))
    strike, faces = _hit(rules, battle, hunter, bug)
    run(rules._strike(state, hunter, strike, battle.ctx), [NO_FOCUS, PIN], faces)  # no splash roll at all
    assert "destroyed" not in hunter.data and hunter.alive


def test_a_dead_bug_sprays_the_models_its_owner_reports_under_the_template() -> None:
    rules, battle = bugs()
    state = battle.state
    guards = state.unit("guard-squad").elements
    bug = state.unit("bug-brood").elements[0]
    near, far = guards[0], guards[1]
    ctx = battle.ctx
    report = Report(facts={"victims": [near.id, far.id], "cover": "full_soft"})
    d_near = rules._defender(near).defence
    # 5 DP kill the bug; the spray: near [6] against blanks (margin 2, 1 DP: dead); far [1] against
    # DEF + partial soft (full soft one level lower): nothing
    seen = run(rules._hurt(state, bug, 5, False, ctx), [report], [[6], [1] * (d_near + 1), [1], [1] * (d_near + 1)])
    ask = [r for r in seen if getattr(r, "prompt", "").startswith("Xenomorph Bug dies")]
    assert len(ask) == 1 and ask[0].side == "b"
    assert not bug.alive and not near.alive and far.alive and not far.data["stunned"]  # no stun
