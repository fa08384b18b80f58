"""The write lock (saves/lock.py): a flock on .muster.lock that excludes other threads and
other processes, including ones that lock with filelock (older Musters, or this one where
flock is not available)."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from saves import lock
from saves.lock import LOCK_NAME, CampaignLocked, campaign_lock

HOLD = """
import sys, time
from filelock import FileLock
lock = FileLock(sys.argv[1], timeout=5)
lock.acquire()
print("held", flush=True)
sys.stdin.readline()
lock.release()
"""

TRY = """
import sys
from filelock import FileLock, Timeout
try:
    FileLock(sys.argv[1], timeout=0).acquire()
except Timeout:
    print("busy")
else:
    print("taken")
"""


def test_another_thread_waits_for_the_lock_and_gets_it_once_released(tmp_path: Path) -> None:
    held, release = threading.Event(), threading.Event()

    def holder() -> None:
        with campaign_lock(tmp_path):
            held.set()
            release.wait(5)

    thread = threading.Thread(target=holder)
    thread.start()
    try:
        assert held.wait(5)
        with pytest.raises(CampaignLocked), campaign_lock(tmp_path):
            pass
    finally:
        release.set()
        thread.join(5)
    with campaign_lock(tmp_path, timeout=1.0):  # released: taken at once
        pass


def test_the_lock_and_filelock_exclude_each_other(tmp_path: Path) -> None:
    path = str(tmp_path / LOCK_NAME)
    other = subprocess.Popen([sys.executable, "-c", HOLD, path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout is not None and other.stdout.readline().strip() == "held"
        with pytest.raises(CampaignLocked), campaign_lock(tmp_path):
            pass
    finally:
        other.communicate("\n", timeout=30)
    with campaign_lock(tmp_path):
        out = subprocess.run([sys.executable, "-c", TRY, path], capture_output=True, text=True, timeout=30)
        assert out.stdout.strip() == "busy"
    out = subprocess.run([sys.executable, "-c", TRY, path], capture_output=True, text=True, timeout=30)
    assert out.stdout.strip() == "taken"


def test_without_flock_the_lock_falls_back_to_filelock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    used: list[Path] = []
    fallback = lock._filelock

    def spy(path: Path, timeout: float):  # type: ignore[no-untyped-def]
        used.append(path)
        return fallback(path, timeout)

    monkeypatch.setattr(lock, "_flock", lambda path, timeout: None)  # as on Windows
    monkeypatch.setattr(lock, "_filelock", spy)
    with campaign_lock(tmp_path):
        assert used == [tmp_path.resolve() / LOCK_NAME]
