"""The short lock around each write: an OS file lock (filelock) in the campaign folder.

It makes one save (or one lease change) a critical section; who may write at all is
the lease's business (saves/lease.py). The lock is released when its process ends,
even by a crash. Nested use in one thread (a battle save inside a campaign save) is
allowed; another thread of the same process waits like another process would.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from saves.errors import SaveError

LOCK_NAME = ".muster.lock"
_held: dict[tuple[Path, int], int] = {}  # (folder, thread) -> depth
_guard = threading.Lock()


class CampaignLocked(SaveError):
    """Another process is writing this campaign."""


@contextmanager
def campaign_lock(folder: str | Path, timeout: float = 0.0) -> Iterator[None]:
    folder = Path(folder).resolve()
    key = (folder, threading.get_ident())
    with _guard:
        if _held.get(key):
            _held[key] += 1
            nested = True
        else:
            nested = False
    if nested:
        try:
            yield
        finally:
            with _guard:
                _held[key] -= 1
        return
    from filelock import FileLock, Timeout  # only when writing: reading a campaign takes no lock

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
        _held[key] = 1
    try:
        yield
    finally:
        with _guard:
            _held.pop(key, None)
        lock.release()
