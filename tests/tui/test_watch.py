"""A second Muster on a battle in progress watches it live, read-only, and takes it over
once the writer has left (tui/screens/battle.py, saves/lease.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.widgets import RichLog

from saves.battle_file import load_battle_file
from saves.lease import LeaseLost, acquire, current_holder
from scenarios.demo import write_demo
from tests.tui.helpers import screen_text
from tests.tui.test_battle import pick, settle
from tui.app import MusterApp
from tui.screens.battle import POLL_SECONDS, BattleScreen
from tui.screens.battle_dialogs import CommandForm
from tui.screens.dialogs import ConfirmScreen
from tui.screens.battle_session import BattleSession

SIZE = (80, 24)


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return write_demo(tmp_path / "demo", seed=11)


def log_text(screen: BattleScreen) -> str:
    return "\n".join(strip.text for strip in screen.query_one("#battle-log", RichLog).lines)


async def poll(pilot) -> None:  # type: ignore[no-untyped-def]
    """Long enough for the watching screen's timer to notice and reopen the battle."""
    for _ in range(2):
        await pilot.pause(POLL_SECONDS * 1.5)
        await settle(pilot)


async def test_a_second_muster_follows_the_battle_live_and_takes_over(demo: Path) -> None:
    writer_lease = acquire(demo, "battle")
    writer = BattleSession.open(demo, lease=writer_lease)  # the first Muster: battle 1 is under way
    app = MusterApp(demo.parent)
    try:
        async with app.run_test(size=SIZE) as pilot:
            app.start_battle(demo)
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, BattleScreen)
            assert screen.watching is not None and screen.session is not None and screen.session.read_only
            text = screen_text(app)
            assert "Watching read-only: battle, process" in text and "t takes over" in text
            assert f"process {os.getpid()} on this machine" in text

            # A verb is refused and nothing is written.
            size = writer.path.stat().st_size
            await pilot.press("enter")
            await settle(pilot)
            assert writer.path.stat().st_size == size
            assert any("This Muster is watching" in str(n.message) for n in app._notifications)

            # The writer appends; the watcher shows the new entry, its events and the units.
            spec = next(s for s in writer.battle.pending.legal if s.params.get("unit") == "tactical-squad")  # type: ignore[union-attr]
            events = writer.apply(writer.command(spec))
            assert len(load_battle_file(writer.path).log) == 2
            size_after = writer.path.stat().st_size
            await poll(pilot)
            assert screen.session is not None and len(screen.session.battle.log) == 2
            assert screen.session.battle.digest() == writer.battle.digest()
            assert events and events[-1].text in log_text(screen)
            assert screen.watching is not None

            # The watcher may open a form to read the odds, but not act on it.
            await pick(pilot, "Tactical Squad: shoot at Ripper Swarm")
            form = app.screen
            assert isinstance(form, CommandForm)
            await settle(pilot)
            assert "To hit: 8 x 50%, 1 x 62%" in screen_text(app)
            await pilot.press("ctrl+r")
            await settle(pilot)
            assert app.screen is screen and writer.path.stat().st_size == size_after
            assert len(load_battle_file(writer.path).log) == 2

            # Taking over is refused while the writer is there.
            await pilot.press("t")
            await settle(pilot)
            assert screen.watching is not None
            assert any("Still being written" in str(n.title) for n in app._notifications)

            # The writer leaves: the banner says so, and T takes the battle over.
            writer_lease.release()
            await poll(pilot)
            assert "the writer has left; t takes the battle over" in screen_text(app)
            await pilot.press("t")
            await settle(pilot)
            assert screen.watching is None and screen.session is not None and not screen.session.read_only
            assert "Watching" not in screen_text(app)
            holder = current_holder(demo)
            assert holder is not None and holder == screen.session.lease.holder  # type: ignore[union-attr]
            await pick(pilot, "End activation")
            assert len(load_battle_file(writer.path).log) == 3  # the new writer appends

            # The old writer's session can no longer write.
            with pytest.raises(LeaseLost):
                writer.apply(writer.command(writer.battle.pending.legal[0]))  # type: ignore[union-attr]
        assert current_holder(demo) is None  # leaving the battle let go of the campaign
    finally:
        writer_lease.release()


async def test_a_watcher_sees_the_battle_end(demo: Path) -> None:
    from saves.campaign_file import finish_battle

    writer_lease = acquire(demo, "battle")
    writer = BattleSession.open(demo, lease=writer_lease)
    app = MusterApp(demo.parent)
    try:
        async with app.run_test(size=SIZE) as pilot:
            app.start_battle(demo)
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, BattleScreen) and screen.watching is not None
            writer.end_by_agreement()
            finish_battle(writer.loaded, writer.scenario, writer.outcome())  # the writer's post-battle
            writer_lease.release()
            await poll(pilot)
            assert "the battle is over and its result is saved" in screen_text(app)
            await pilot.press("t")
            await settle(pilot)
            assert screen.watching is not None and current_holder(demo) is None  # nothing was taken
            assert any("nothing to take over" in str(n.message) for n in app._notifications)
    finally:
        writer_lease.release()


# --- the dashboard's force editor is a writer too ----------------------------------


async def open_dashboard(pilot, folder: Path) -> None:  # type: ignore[no-untyped-def]
    pilot.app.open_campaign(folder)
    await settle(pilot)


async def test_a_stale_dashboard_cannot_roll_the_campaign_back(demo: Path) -> None:
    """Terminal 1's dashboard is left open; terminal 2 changes the campaign; terminal 1 edits a force."""
    import attrs

    from saves.campaign_file import load_campaign, save_campaign
    from tui.screens.force_builder import ForceBuilderScreen

    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        await open_dashboard(pilot, demo)
        other = load_campaign(demo)  # terminal 2, after its battle
        save_campaign(demo, attrs.evolve(other.campaign, note="battle 1 fought"), base=other, what="battle 1 finished")
        after = (demo / "campaign.toml").read_bytes()
        forces = (demo / "forces" / "humans.toml").read_bytes()
        await pilot.press("e")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ForceBuilderScreen)
        assert current_holder(demo) is not None and current_holder(demo).what == "force editor"  # type: ignore[union-attr]
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert (demo / "campaign.toml").read_bytes() == after  # not rolled back
        assert (demo / "forces" / "humans.toml").read_bytes() == forces
        note = next(n for n in app._notifications if n.title == "Not saved")
        assert "changed on disk since this Muster read it" in str(note.message)
        assert "battle 1 finished by process" in str(note.message)
        await pilot.press("escape")  # nothing was edited: the builder closes at once
        await settle(pilot)
        assert app.screen.__class__.__name__ == "DashboardScreen"
        assert current_holder(demo) is None  # closing the editor let go of the campaign


async def test_the_force_editor_waits_for_a_battle_in_another_muster(demo: Path) -> None:
    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        await open_dashboard(pilot, demo)
        with acquire(demo, "battle"):
            await pilot.press("e")
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen.__class__.__name__ == "DashboardScreen"
            note = next(n for n in app._notifications if n.title == "Cannot edit the force now")
            assert "another Muster is writing this campaign (battle, process" in str(note.message)


async def test_a_lease_from_another_host_is_broken_only_after_asking(demo: Path) -> None:
    from saves.lease import LEASE_NAME

    with acquire(demo, "battle") as lease:
        BattleSession.open(demo, lease=lease)  # battle 1 starts, then its Muster "moves" to another host
    (demo / LEASE_NAME).write_text('[holder]\nhost = "far-away"\npid = 4242\ntoken = "abcd"\nwhat = "battle"\n')
    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        app.start_battle(demo)
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BattleScreen) and screen.watching is not None
        assert "process 4242 on host far-away" in screen_text(app)
        await pilot.press("t")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        assert "cannot tell from here whether it is still running" in app.screen.message.plain
        await pilot.press("escape")  # keep watching
        await settle(pilot)
        assert screen.watching is not None and current_holder(demo).host == "far-away"  # type: ignore[union-attr]
        await pilot.press("t")
        await settle(pilot)
        await pilot.press("b")  # break it and take over
        await settle(pilot)
        assert screen.watching is None and screen.session is not None and not screen.session.read_only
        assert current_holder(demo) == screen.session.lease.holder  # type: ignore[union-attr]
        assert any("Took over from a Muster that is gone (battle, process 4242 on host far-away" in str(n.message)
                   for n in app._notifications)  # fmt: skip


async def test_the_dashboard_says_another_muster_is_writing(demo: Path) -> None:
    from saves.lease import LEASE_NAME

    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        await open_dashboard(pilot, demo)
        assert "another Muster" not in screen_text(app)
        (demo / LEASE_NAME).write_text('[holder]\nhost = "far-away"\npid = 7\ntoken = "abcd"\nwhat = "battle"\n')
        await pilot.press("g")  # reload
        await settle(pilot)
        assert "Campaign (another Muster is writing it)" in screen_text(app)
        assert any("Another Muster is writing this campaign (battle, process 7 on host far-away)" in str(n.message)
                   for n in app._notifications)  # fmt: skip


async def test_a_writer_whose_lease_was_broken_becomes_a_watcher(demo: Path) -> None:
    from saves.lease import LEASE_NAME

    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        app.start_battle(demo)
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BattleScreen) and screen.watching is None and screen.session is not None
        before = load_battle_file(screen.session.path).log
        # another machine broke this Muster's lease (`muster unlock --other-host` there) and took it
        (demo / LEASE_NAME).write_text('[holder]\nhost = "far-away"\npid = 7\ntoken = "abcd"\nwhat = "battle"\n')
        await pick(pilot, "Activate Tactical Squad")
        await settle(pilot)
        assert load_battle_file(screen.session.path).log == before  # nothing written
        assert any("no longer holds the campaign" in str(n.message) for n in app._notifications)
        assert screen.watching is not None and screen.session.read_only
        assert len(screen.session.battle.log) == len(before)  # back to what the file holds
        assert "Watching read-only: battle, process 7 on host far-away" in screen_text(app)
