"""The short lock around each write: an OS file lock in the campaign folder.

It makes one save (or one lease change) a critical section; who may write at all is
the lease's business (saves/lease.py). The lock is released when its process ends,
even by a crash. Nested use in one thread (a battle save inside a campaign save) is
allowed; another thread of the same process waits like another process would.

On POSIX it is a plain `flock` on .muster.lock, as filelock's own Unix lock is (the two
exclude each other); filelock is imported only where that is not available (Windows, a
file system without flock, a lock file that cannot be opened for writing), since its
import alone costs `muster --demo` several milliseconds of start-up.
"""

from __future__ import annotations

import errno
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from saves.errors import SaveError

LOCK_NAME = ".muster.lock"
_held: dict[tuple[Path, int], int] = {}  # (folder, thread) -> depth
_guard = threading.Lock()
POLL = 0.05  # seconds between tries while another holds the lock (filelock's default)
_BUSY = frozenset({errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK})  # held elsewhere


class _Busy(Exception):
    """The lock stayed held by another for the whole timeout."""


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
    folder.mkdir(parents=True, exist_ok=True)
    try:
        release = _flock(folder / LOCK_NAME, timeout) or _filelock(folder / LOCK_NAME, timeout)
    except _Busy:
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
        release()


def _flock(path: Path, timeout: float) -> Callable[[], None] | None:
    """Take the lock with flock; its release, or None where flock cannot be used here."""
    try:
        import fcntl
    except ImportError:  # Windows
        return None
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError:  # e.g. another account's lock file in a shared folder: filelock knows those cases
        return None
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as exc:
                if exc.errno not in _BUSY:  # no flock on this file system (ENOSYS...)
                    os.close(fd)
                    return None
            if time.monotonic() >= deadline:
                raise _Busy
            time.sleep(POLL)
    except BaseException:  # busy, or interrupted while waiting: the descriptor is not kept
        os.close(fd)
        raise

    def release() -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)

    return release


def _filelock(path: Path, timeout: float) -> Callable[[], None]:
    from filelock import FileLock, Timeout

    lock = FileLock(str(path), timeout=timeout)
    try:
        lock.acquire()
    except Timeout:
        raise _Busy from None
    return lock.release
