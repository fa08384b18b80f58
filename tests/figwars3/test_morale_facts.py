"""Morale facts the players supply (14.2, 4.2, PR-35, PR-40): asked with the check, before
the dice, and the pool rolled with them: a hero in sight (+1d), a supporting hero's TQ
and re-roll (one unit a hero each morale phase), a model out of coherency (-1d)."""

from __future__ import annotations

import pytest

from campaign.engine.pending import Decision, RollRequest
from campaign.rulesets.figwars3.commands import Report
from tests.figwars3.helpers import run_scripted
from tests.figwars3.test_battle import bot, setup, start


def _battle():
    return start(setup(a="Gothic Imperium Battle Group", b="Xenomorph Bugs"))


def _facts(request: Decision) -> dict[str, tuple]:
    (spec,) = request.legal
    assert spec.type == "report"
    return {f.name: f.choices for f in spec.facts}


def test_without_heroes_only_coherency_is_asked_and_costs_a_die() -> None:
    battle = _battle()
    bugs = battle.state.unit("bug-brood")  # six TQ 2 bugs: TQ 2 + 1d for 6-10 models
    bugs.data.update(pl=2, marker=True)
    _, seen = run_scripted(battle.rules._check_morale(battle.state, bugs, battle.ctx),
                           [Report(facts={"out_of_coherency": True}), [6, 6]])
    ask, roll = seen
    assert isinstance(ask, Decision) and ask.side == "b" and set(_facts(ask)) == {"out_of_coherency"}
    assert isinstance(roll, RollRequest) and roll.count == 2  # 3 dice less one for coherency
    assert bugs.data["status"] == "normal"  # two 6s: four successes against PL 2
    _, seen = run_scripted(battle.rules._check_morale(battle.state, bugs, battle.ctx), [Report(facts={}), [1, 1, 1]])
    assert seen[1].count == 3 and bugs.data["status"] == "falling_back"


def test_a_rally_asks_no_coherency_and_a_lone_model_is_not_asked_at_all() -> None:
    battle = _battle()
    bugs = battle.state.unit("bug-brood")
    bugs.data["status"] = "falling_back"
    _, seen = run_scripted(battle.rules._rally(battle.state, bugs, battle.ctx), [[3, 3, 1]])
    assert [type(r) for r in seen] == [RollRequest] and bugs.data["status"] == "normal"  # two successes rally


def test_a_hero_inspires_and_supports_one_unit_a_phase() -> None:
    battle = _battle()
    rules, state = battle.rules, battle.state
    guards = state.unit("guard-squad")  # ten TQ 1 guardsmen: TQ 1 + 1d for size
    guards.data.update(pl=3, marker=True)
    captain = "marine-captain/captain"
    state.data["supported"] = []
    _, seen = run_scripted(
        rules._check_morale(state, guards, battle.ctx),
        [Report(facts={"hero_in_sight": True, "supporting_hero": captain}), [1, 1, 1, 1], [6]],
    )
    ask, roll, reroll = seen
    assert set(_facts(ask)) == {"hero_in_sight", "supporting_hero", "out_of_coherency"}
    assert _facts(ask)["supporting_hero"] == ("", captain)
    # the captain's TQ 2 + 1d size + 1d Inspires Bravery; his re-roll takes a blank die
    assert roll.count == 4 and "re-roll (hero)" in reroll.purpose
    assert guards.data["status"] == "falling_back"  # the re-rolled 6 is two successes; PL 3 needs three
    shock = state.unit("shock-troops")
    shock.data.update(pl=1, marker=True)
    _, seen = run_scripted(rules._check_morale(state, shock, battle.ctx), [Report(facts={"hero_in_sight": False}), [3, 3]])
    assert set(_facts(seen[0])) == {"hero_in_sight", "out_of_coherency"}  # he already supports the guards this phase
    assert seen[1].count == 2


def test_a_battle_asks_the_morale_facts_with_each_check() -> None:
    battle = start(setup(a="Gothic Imperium Battle Group", b="Xenomorph Bugs", seed=5, rounds=3))
    asked = []
    while battle.pending is not None:
        pending = battle.pending
        if pending.prompt.endswith(")") and "morale check" in pending.prompt:
            asked.append(pending.prompt)
        bot_step(battle)
    assert asked
    checks = [e for e in battle.events if e.kind == "morale"]
    assert len(checks) >= len(asked)


def bot_step(battle) -> None:
    from tests.figwars3.test_battle import PREFERENCE
    from campaign.engine.errors import IllegalCommand

    specs = sorted(battle.pending.legal, key=lambda s: PREFERENCE.index(s.type) if s.type in PREFERENCE else 99)
    for spec in specs:
        try:
            battle.apply(battle.command(spec))
            return
        except IllegalCommand:
            continue
    raise AssertionError(battle.pending.prompt)


def test_units_that_see_their_hero_fall_take_pl_plus_two() -> None:
    from campaign.engine.errors import IllegalCommand
    from tests.figwars3.test_interrupts import run

    battle = _battle()
    rules, state = battle.rules, battle.state
    captain = state.element("marine-captain/captain")
    guards, shock = state.unit("guard-squad"), state.unit("shock-troops")
    seen = run(rules._hurt(state, captain, 10, False, battle.ctx), [Report(facts={"witnesses": ["guard-squad"]})])
    ask = [r for r in seen if isinstance(r, Decision)][0]
    assert ask.side == "a" and ask.legal[0].facts[0].picks == "units"
    assert (guards.data["pl"], guards.data["marker"]) == (2, True) and shock.data["pl"] == 0
    assert not captain.alive
    with pytest.raises(IllegalCommand, match="witnesses"):
        ask.check(Report(facts={"witnesses": ["bug-brood"]}))
