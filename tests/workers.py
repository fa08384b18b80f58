"""Waiting for an app's workers in Pilot tests."""

from __future__ import annotations

from textual.app import App
from textual.pilot import Pilot
from textual.worker import WorkerCancelled, WorkerState

ACTIVE = (WorkerState.PENDING, WorkerState.RUNNING)


async def workers_done(app: App[object]) -> None:
    """Wait until the app's workers have finished.

    An exclusive worker cancelled by a newer one (a redraw replaced by the next) makes
    Textual's wait_for_complete raise WorkerCancelled, which a busy machine hits now and
    then; a cancelled worker is finished for our purpose, so wait for the rest."""
    for _ in range(20):
        try:
            await app.workers.wait_for_complete()
            return
        except WorkerCancelled:
            continue


async def settle(pilot: Pilot[object]) -> None:
    """Wait until the app is quiet: its workers (folder scans, campaign loads) have finished
    and the app has handled what they handed over, which may start another worker (a scan
    that opens a campaign): so again, until a pause leaves no worker running. Our workers
    hand their results over with call_from_thread, so a finished worker's result is shown."""
    app = pilot.app
    for _ in range(20):
        await workers_done(app)
        await pilot.pause()
        if not any(worker.state in ACTIVE for worker in app.workers):
            return
    raise AssertionError(f"workers kept running: {[worker.name for worker in app.workers]}")
