"""The battle session saves each step in O(1): it serialises only the new log entries and
appends them; the bytes already on disk are never rewritten."""

from __future__ import annotations

from pathlib import Path

import pytest

from campaign.engine.battle import LogEntry
from campaign.engine.pending import Decision
from saves.battle_file import load_battle_file
from saves.lease import acquire
from scenarios.demo import write_demo
from tui.screens.battle_session import BattleSession


def _step(session: BattleSession) -> None:
    """Take the first legal command that needs nothing typed (auto dice roll the rest)."""
    pending = session.battle.pending
    assert isinstance(pending, Decision)
    for spec in pending.legal:
        try:
            session.apply(session.battle.command(spec))
            return
        except Exception:  # a command that needs fields or facts: take the next one
            continue
    raise AssertionError(f"no command fits {pending.prompt}")


def test_each_step_serialises_and_appends_only_its_new_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = write_demo(tmp_path / "demo", seed=3)
    session = BattleSession.open(folder, lease=acquire(folder, "battle"))
    try:
        for _ in range(25):
            _step(session)
        calls: list[int] = []
        original = LogEntry.to_dict

        def counted(entry: LogEntry) -> dict:
            calls.append(entry.seq)
            return original(entry)

        monkeypatch.setattr(LogEntry, "to_dict", counted)
        for _ in range(5):
            before = session.path.read_bytes()
            entries = session.battle.log_length
            calls.clear()
            _step(session)
            new = session.battle.log_length - entries
            assert new >= 1 and calls == list(range(entries, entries + new))  # the new entries, nothing older
            after = session.path.read_bytes()
            assert after.startswith(before) and len(after) > len(before)  # appended, never rewritten
        monkeypatch.undo()
        assert load_battle_file(session.path).log == session.battle.log_dicts()
    finally:
        assert session.lease is not None
        session.lease.release()
