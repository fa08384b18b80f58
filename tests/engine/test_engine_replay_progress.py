"""Battle.replay's optional progress callback: how far a long replay has got, nothing else changes."""

from __future__ import annotations

from campaign.engine import AutoDice, Battle
from engine_play import play
from toy_rules import ToyRules, toy_setup


def played() -> Battle:
    return play(Battle.start(toy_setup(rounds=4), AutoDice(8), rules=ToyRules()), seed=3)


def test_progress_is_reported_every_n_entries_and_at_the_end() -> None:
    battle = played()
    log = battle.log_dicts()
    total = len(log)
    assert total > 7  # the call pattern below needs a log longer than one step
    calls: list[tuple[int, int]] = []
    again = Battle.replay(toy_setup(rounds=4), log, rules=ToyRules(), progress=lambda d, t: calls.append((d, t)), every=3)
    expected = [(n, total) for n in range(3, total + 1, 3)]
    if total % 3:
        expected.append((total, total))
    assert calls == expected
    assert again.digest() == battle.digest()


def test_replay_without_progress_is_unchanged_and_undo_reports_nothing() -> None:
    battle = played()
    calls: list[tuple[int, int]] = []
    again = Battle.replay(toy_setup(rounds=4), battle.log_dicts(), rules=ToyRules(), progress=lambda d, t: calls.append((d, t)))
    plain = Battle.replay(toy_setup(rounds=4), battle.log_dicts(), rules=ToyRules())
    assert again.digest() == plain.digest() == battle.digest()
    assert calls[-1] == (len(battle.log), len(battle.log))
    count = len(calls)
    assert again.can_undo
    again.undo()
    assert len(calls) == count  # undo's internal replay never calls back
