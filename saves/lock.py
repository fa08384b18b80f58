"""One writer per campaign: a lock file (filelock) in the campaign folder.

A second Muster that tries to save the same campaign gets CampaignLocked with a
clear message instead of silently overwriting the first one's work. The lock is an
OS file lock, so it is released when its process ends, even by a crash. Nested use
in one process (a battle save inside a campaign save) is allowed.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from saves.errors import SaveError

LOCK_NAME = ".muster.lock"
_held: dict[Path, int] = {}
_guard = threading.Lock()


class CampaignLocked(SaveError):
    """Another process is writing this campaign."""


@contextmanager
def campaign_lock(folder: str | Path, timeout: float = 0.0) -> Iterator[None]:
    folder = Path(folder).resolve()
    with _guard:
        if _held.get(folder):
            _held[folder] += 1
            nested = True
        else:
            nested = False
    if nested:
        try:
            yield
        finally:
            with _guard:
                _held[folder] -= 1
        return
    folder.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(folder / LOCK_NAME), timeout=timeout)
    try:
        lock.acquire()
    except Timeout:
        raise CampaignLocked(
            folder,
            "another Muster is saving this campaign right now",
            hint="close the other Muster (or wait for it) and try again; nothing was changed",
        ) from None
    with _guard:
        _held[folder] = 1
    try:
        yield
    finally:
        with _guard:
            _held.pop(folder, None)
        lock.release()
