"""Atomic file writes: a reader sees the old file or the new one, never half of one."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # some platforms cannot open folders; the rename is still atomic
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _umask() -> int:
    """The process umask, read without changing it where the system allows."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # elsewhere: read it by setting it, then put it back
    os.umask(mask)
    return mask


def _mode_for(path: Path) -> int:
    """The mode the file has now, or a new file's usual mode (mkstemp's own is 600)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return 0o666 & ~_umask()


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write via a temporary file in the same folder, fsync, rename, fsync the folder."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = _mode_for(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(tmp, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    _fsync_dir(path.parent)


def atomic_write_text(path: str | Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def create_files(folder: Path, files: dict[str, str], last: str) -> None:
    """Create files that do not exist yet (a new campaign folder), `last` among them, so
    that a crash leaves either no `last` or every file whole: each is written to a
    temporary file and fsynced; all but `last` are renamed into place and their folders
    fsynced once each; then `last`. Fewer fsyncs than a journal and one atomic write per
    file (`muster --demo` waits for them)."""
    mode = 0o666 & ~_umask()
    temps: dict[Path, str] = {}
    try:
        for rel, text in files.items():
            path = folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            temps[path] = tmp
            os.chmod(tmp, mode)
            with os.fdopen(fd, "wb") as handle:
                handle.write(text.encode("utf-8"))
                handle.flush()
                os.fsync(handle.fileno())
        final = folder / last
        for path, tmp in temps.items():
            if path != final:
                os.replace(tmp, path)
        for parent in dict.fromkeys(path.parent for path in temps if path != final):
            _fsync_dir(parent)
        os.replace(temps[final], final)
    except BaseException:
        for path, tmp in temps.items():
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
        raise
    _fsync_dir(final.parent)
