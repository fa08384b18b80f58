"""Waiting for an app's workers in Pilot tests."""

from __future__ import annotations

from textual.app import App
from textual.worker import WorkerCancelled


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
