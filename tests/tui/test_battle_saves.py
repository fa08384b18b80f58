"""What the battle screen says about its file: a torn tail dropped on resume, a file
rewritten before appending, an append the disk refused (issue 10, problems 2, 3, 8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from campaign.engine import Battle, Decision
from saves.battle_file import load_battle_file
from saves.errors import SaveError
from scenarios.demo import write_demo
from tests.saves.test_battle_file_endings import play, writer
from tests.tui.test_battle import SIZE, pick, settle
from tui.app import MusterApp
from tui.cli.replay import battle_setup
from tui.screens import battle_session
from tui.screens.battle import BattleScreen
from tui.screens.battle_session import NotSaved


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return write_demo(tmp_path / "demo", seed=11)


def messages(app: MusterApp) -> list[str]:
    return [f"{n.title}: {n.message}" for n in app._notifications]


def _refuse(*_args: object, **_kwargs: object) -> list[str]:
    raise SaveError("battles/01.toml", "no space left on the device")


def test_a_refused_append_puts_the_session_back_to_the_file(demo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = writer(demo)
    play(session, 3)
    saved = len(load_battle_file(session.path).log)
    digest = session.battle.digest()
    monkeypatch.setattr(battle_session, "append_log", _refuse)
    with pytest.raises(NotSaved, match="no space left"):
        play(session, 1)
    assert len(session.battle.log) == saved == session.written
    assert session.battle.digest() == digest  # not a step ahead of the file
    monkeypatch.undo()
    play(session, 2)  # the disk is back: play goes on from the saved step
    on_disk = load_battle_file(session.path)
    assert len(on_disk.log) == saved + 2
    assert Battle.replay(battle_setup(on_disk), on_disk.log).digest() == session.battle.digest()


def test_a_refused_undo_keeps_the_entry(demo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = writer(demo)
    play(session, 2)
    saved = load_battle_file(session.path).log
    monkeypatch.setattr(battle_session, "drop_last_log", _refuse)
    assert session.battle.can_undo
    with pytest.raises(NotSaved):
        session.undo()
    assert len(session.battle.log) == len(saved) == session.written


async def test_the_screen_says_not_saved_and_stays_on_the_saved_step(demo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        app.start_battle(demo)
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BattleScreen) and screen.session is not None
        before = len(load_battle_file(screen.session.path).log)
        monkeypatch.setattr(battle_session, "append_log", _refuse)
        await pick(pilot, "Activate Tactical Squad")
        assert any(m.startswith("Not saved:") and "no space left" in m for m in messages(app))
        assert len(screen.session.battle.log) == before  # the screen did not carry on
        assert isinstance(screen.session.pending, Decision)


async def test_resuming_a_torn_battle_shows_the_warning(demo: Path) -> None:
    session = writer(demo)
    play(session, 3)
    session.lease.release()
    path = session.path
    path.write_bytes(path.read_bytes() + b'\n[[log]]\nseq = 3\nside = "hum')  # a power cut mid-append
    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        app.start_battle(demo)
        await settle(pilot)
        assert isinstance(app.screen, BattleScreen) and app.screen.session is not None
        assert any("was cut short" in m for m in messages(app)), messages(app)


async def test_a_crlf_battle_file_is_rewritten_with_a_notice(demo: Path) -> None:
    session = writer(demo)
    play(session, 1)
    session.lease.release()
    path = session.path
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        app.start_battle(demo)
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BattleScreen) and screen.session is not None
        before = len(load_battle_file(path).log)
        await pick(pilot, "End activation")
        assert any("CRLF line ends" in m for m in messages(app)), messages(app)
        assert len(load_battle_file(path).log) == before + 1 == len(screen.session.battle.log)
