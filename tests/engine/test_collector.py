"""The cycle collector is paused over a replay and an autoplayed battle, and put back as
it was; the steps themselves leave no reference cycles for it (campaign.engine.collector)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from campaign.engine import Battle, BattleSetup, SideSetup
from campaign.engine.collector import collector_paused
from campaign.rulesets import get_ruleset


@pytest.fixture
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    try:
        yield
    finally:
        if not was:
            gc.disable()


def fow_battle(seed: int = 4) -> tuple[BattleSetup, Battle]:
    ruleset = get_ruleset("flat-out-war")
    a, b = ruleset.sample_forces()[:2]
    setup = BattleSetup("flat-out-war", (SideSetup("a", a.name, a), SideSetup("b", b.name, b)),
                        edition=ruleset.edition, seed=seed, dice="auto")
    battle = Battle.start(setup)
    simulator = ruleset.simulator()
    assert simulator is not None
    simulator.play(battle, seed)
    return setup, battle


def test_the_pause_puts_the_collector_back_as_it_was(collector_on: None) -> None:
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():  # nested: the inner one leaves it paused
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()  # paused by the caller: left paused
    with collector_paused():
        pass
    assert not gc.isenabled()
    gc.enable()
    with pytest.raises(ZeroDivisionError), collector_paused():
        1 / 0
    assert gc.isenabled()


def test_a_replay_pauses_the_collector_and_resumes_it(collector_on: None) -> None:
    setup, battle = fow_battle()
    seen: list[bool] = []
    Battle.replay(setup, battle.log_dicts(), progress=lambda done, total: seen.append(gc.isenabled()), every=5)
    assert seen and not any(seen)  # paused while the entries were replayed
    assert gc.isenabled()


def test_a_failed_replay_resumes_the_collector(collector_on: None) -> None:
    setup, battle = fow_battle()
    log = battle.log_dicts()
    log[3]["command"] = {"type": "no_such_command"}
    with pytest.raises(Exception):
        Battle.replay(setup, log)
    assert gc.isenabled()


def test_replaying_and_playing_leave_no_cycles(collector_on: None) -> None:
    """What the pause relies on: a step makes no reference cycles, so nothing waits for
    the collector while it is paused (a battle dropped whole is one: Battle <-> Context)."""
    setup, battle = fow_battle()
    log = battle.log_dicts()
    gc.collect()
    gc.disable()
    try:
        again = Battle.replay(setup, log)
        replayed = gc.collect()
        fow_battle(seed=5)
        gc.collect()  # (the battle just played, dropped whole)
        played = Battle.start(setup)
        get_ruleset("flat-out-war").simulator().play(played, 4)  # type: ignore[union-attr]
        after_play = gc.collect()
    finally:
        gc.enable()
    assert again.digest() == battle.digest() == played.digest()
    assert (replayed, after_play) == (0, 0)
