"""One writer per campaign, for real: a lease that names who holds it.

A Muster that opens a battle, a force editor or a post-battle takes the campaign's
lease (`.muster-lease.toml`: host, process, since when, what for) and keeps it until
it closes them. Every write goes through `writing()`: under the short OS lock
(saves/lock.py) it checks that nobody else holds the lease, writes, and notes who
wrote last, so a refused save can say who changed the campaign.

A lease whose process is gone is broken safely: on this host a pid that is not
running (or a pid reused by another program, told apart by its start time) is
stale and is broken by the next taker, with a notice. A lease from another host
(a campaign on a shared or synced folder) cannot be checked from here: it is
reported, and only broken when the user says so (`muster unlock DIR`, or the
TUI's take-over key after a confirmation).
"""

from __future__ import annotations

import atexit
import datetime as dt
import os
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import attrs

from campaign.frozen import frozen
from saves.errors import SaveError
from saves.lock import campaign_lock
from saves.toml_read import parse_toml, read_text
from saves.toml_write import dumps

try:  # CPython's own SHA-256, as random.py does: hashlib would load OpenSSL at start-up
    from _sha256 import sha256  # type: ignore[import-not-found]
except ImportError:  # Pythons without it (3.12 renamed it): the same digest from hashlib
    from hashlib import sha256

LEASE_NAME = ".muster-lease.toml"
WAIT = 5.0  # seconds a write waits for the short OS lock before giving up


@frozen
class Holder:
    """Who holds (or last held) a campaign's lease."""

    host: str
    pid: int
    token: str
    what: str = ""  # "battle", "editor", "post-battle", "muster new"...
    since: str = ""  # ISO 8601, UTC
    started: int = 0  # the process's start time in clock ticks (Linux), 0 if unknown

    def describe(self) -> str:
        here = "on this machine" if self.host == _HOST else f"on host {self.host}"
        what = f"{self.what}, " if self.what else ""
        when = f" since {_shown_time(self.since)}" if self.since else ""
        return f"{what}process {self.pid} {here}{when}"


class CampaignBusy(SaveError):
    """Another Muster holds this campaign's lease; nothing was changed."""

    def __init__(self, folder: str | Path, holder: Holder, *, alive: bool | None) -> None:
        self.holder = holder
        self.alive = alive  # None: on another host, cannot tell
        if alive is None:
            hint = ("Muster cannot tell from here whether it is still running; if it is gone, "
                    f"break its lease with `muster unlock {folder}` (or take over from a watching Muster)")  # fmt: skip
        else:
            hint = "close it there (or wait for it); this one can watch read-only; nothing was changed"
        super().__init__(folder, f"another Muster is writing this campaign ({holder.describe()})", hint=hint)


class LeaseLost(SaveError):
    """This Muster's lease was broken or taken by another one; nothing was changed."""


class StaleSave(SaveError):
    """The file changed on disk since this Muster read it; nothing was changed."""


_HOST = socket.gethostname()
_live: dict[str, "Lease"] = {}  # tokens of the leases this process holds now
_live_guard = threading.Lock()


def _now() -> str:
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _shown_time(iso: str) -> str:
    try:
        when = dt.datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return iso
    return when.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def _start_ticks(pid: int) -> int:
    """When `pid` started (clock ticks since boot, Linux /proc), 0 if unknown: tells a
    reused pid from the process that took the lease."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
        return int(stat.rsplit(")", 1)[1].split()[19])
    except (OSError, ValueError, IndexError):
        return 0


def holder_alive(holder: Holder) -> bool | None:
    """True/False for a holder on this host; None for another host (cannot tell)."""
    if holder.host != _HOST:
        return None
    if holder.pid == os.getpid():
        with _live_guard:
            return holder.token in _live
    if holder.pid <= 0:
        return False
    if os.name == "nt":  # os.kill(pid, 0) would end the process on Windows
        return _windows_alive(holder.pid)
    try:
        os.kill(holder.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # running, as another user
    except OSError:
        return False
    if holder.started and _start_ticks(holder.pid) not in (0, holder.started):
        return False  # the pid now belongs to another program
    return True


def _windows_alive(pid: int) -> bool | None:
    """OpenProcess + GetExitCodeProcess: running, gone, or (any other failure) cannot tell."""
    import ctypes

    kernel = ctypes.windll.kernel32  # type: ignore[attr-defined]
    handle = kernel.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
    if not handle:
        error = kernel.GetLastError()
        return True if error == 5 else False if error == 87 else None  # access denied / no such pid
    try:
        code = ctypes.c_ulong()
        if not kernel.GetExitCodeProcess(handle, ctypes.byref(code)):
            return None
        return code.value == 259  # STILL_ACTIVE
    finally:
        kernel.CloseHandle(handle)


def held_here(holder: Holder) -> bool:
    """Whether this process holds that lease (a screen of this very Muster)."""
    with _live_guard:
        return holder.token in _live


# --- the lease file ---------------------------------------------------------------


def _plain(value: object, limit: int = 80) -> str:
    """A field of the lease file as inert text: it is shown in messages, and the file may
    have been edited by hand (control characters made visible, length capped)."""
    text = str(value)[:limit]
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)


def _read(folder: Path) -> tuple[Holder | None, dict[str, object]]:
    """(the current holder, the last write) from the lease file; a damaged file holds nothing."""
    try:  # read as any save is: a regular file, small, not nested deep (a FIFO must not hang us)
        data = parse_toml(read_text(folder / LEASE_NAME, 64 * 1024), folder / LEASE_NAME)
    except SaveError:
        return None, {}
    last = data.get("last_write")
    last = last if isinstance(last, dict) else {}
    raw = data.get("holder")
    if not isinstance(raw, dict):
        return None, last
    try:
        holder = Holder(
            host=_plain(raw["host"]), pid=int(raw["pid"]), token=_plain(raw["token"]),
            what=_plain(raw.get("what", "")), since=_plain(raw.get("since", "")), started=int(raw.get("started", 0)),
        )  # fmt: skip
    except (KeyError, TypeError, ValueError):
        return None, last
    return holder, last


def _write(folder: Path, holder: Holder | None, last: dict[str, object]) -> None:
    doc: dict[str, object] = {}
    if holder is not None:
        doc["holder"] = attrs.asdict(holder)
    if last:
        doc["last_write"] = last
    text = "# Which Muster may write this campaign now, and which wrote it last. Muster's own file.\n"
    _replace(folder / LEASE_NAME, text + dumps(doc, tables=("holder", "last_write")))


def _replace(path: Path, text: str) -> None:
    """Atomic (readers see the old file or the new) but not fsync'd: after a power cut every
    holder is gone anyway, so a lease file that lost its last change still reads right."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def current_holder(folder: str | Path) -> Holder | None:
    return _read(Path(folder))[0]


def last_write(folder: str | Path) -> str:
    """Who wrote the campaign last, in words ("" if unknown)."""
    _holder, last = _read(Path(folder))
    if not last:
        return ""
    host = _plain(last.get("host", ""))
    here = "on this machine" if host == _HOST else f"on host {host}"
    what = _plain(last.get("what", "")) or "a save"
    return f"{what} by process {_plain(last.get('pid', '?'))} {here} at {_shown_time(_plain(last.get('at', '')))}"


# --- holding a lease ----------------------------------------------------------------


@attrs.define(eq=False)
class Lease:
    """This process's hold on one campaign. Release it (or use it as a context manager)."""

    folder: Path
    holder: Holder
    broke: Holder | None = None  # a stale lease this one replaced, for a notice
    released: bool = False

    def check(self) -> None:
        """Under the OS lock: the lease file still names this lease."""
        holder, _last = _read(self.folder)
        if holder is None or holder.token != self.holder.token:
            who = f"; it is now held by {holder.describe()}" if holder else ""
            raise LeaseLost(
                self.folder, f"this Muster no longer holds the campaign: its lease was broken{who}",
                hint="nothing was saved; reopen the campaign to see what is on disk now",
            )  # fmt: skip

    def release(self) -> None:
        if self.released:
            return
        self.released = True
        with _live_guard:
            _live.pop(self.holder.token, None)
        try:
            with campaign_lock(self.folder, timeout=WAIT):
                holder, last = _read(self.folder)
                if holder is not None and holder.token == self.holder.token:
                    _write(self.folder, None, last)
        except (SaveError, OSError):
            pass  # the lease stays on disk naming a process that will be gone: it reads as stale

    def __enter__(self) -> Lease:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def acquire(folder: str | Path, what: str, *, break_other_host: bool = False) -> Lease:
    """Take the campaign's lease. CampaignBusy if a live Muster holds it (or one on
    another host, unless `break_other_host`); a stale one is broken and named in `broke`."""
    folder = Path(folder).resolve()
    with campaign_lock(folder, timeout=WAIT):
        holder, last = _read(folder)
        broke = None
        if holder is not None:
            alive = holder_alive(holder)
            if alive or (alive is None and not break_other_host):
                raise CampaignBusy(folder, holder, alive=alive)
            broke = holder
        # a random token (as secrets.token_hex: os.urandom), without importing secrets and hmac
        mine = Holder(_HOST, os.getpid(), os.urandom(8).hex(), what, _now(), _start_ticks(os.getpid()))
        _write(folder, mine, last)
        lease = Lease(folder, mine, broke)
        with _live_guard:
            _live[mine.token] = lease
    return lease


def break_lease(folder: str | Path, *, other_host: bool = False) -> Holder | None:
    """`muster unlock`: remove a lease whose holder is gone. A live holder on this host is
    never broken; one on another host only with `other_host`. Returns who was removed."""
    folder = Path(folder).resolve()
    with campaign_lock(folder, timeout=WAIT):
        holder, last = _read(folder)
        if holder is None:
            return None
        alive = holder_alive(holder)
        if alive or (alive is None and not other_host):
            raise CampaignBusy(folder, holder, alive=alive)
        _write(folder, None, last)
        return holder


@contextmanager
def writing(folder: str | Path, lease: Lease | None = None, what: str = "a save") -> Iterator[None]:
    """The one way to write a campaign: under the OS lock, as the lease's holder (or, with
    no lease, only while nobody else holds one: a headless command's single write)."""
    folder = Path(folder)
    with campaign_lock(folder, timeout=WAIT):
        if lease is not None:
            lease.check()
        else:
            holder, _last = _read(folder.resolve())
            if holder is not None:
                alive = holder_alive(holder)
                if alive is not False:
                    raise CampaignBusy(folder, holder, alive=alive)
        yield


def note_write(folder: str | Path, what: str, lease: Lease | None = None) -> None:
    """Record who wrote last (call inside `writing`): a refused save can then say who."""
    folder = Path(folder)
    holder, _last = _read(folder)
    last = {"host": _HOST, "pid": os.getpid(), "what": what, "at": _now()}
    if holder is not None and holder_alive(holder) is False:
        holder = None  # a stale lease is cleared by the next write
    _write(folder, holder, last)


def digest(text: str | None) -> str:
    """What a save remembers of a file it read, to notice a change before replacing it."""
    return "" if text is None else sha256(text.encode("utf-8")).hexdigest()


@atexit.register
def _release_all() -> None:
    """A Muster that exits normally lets go of its leases (a crash leaves them stale)."""
    with _live_guard:
        leases = list(_live.values())
    for lease in leases:
        lease.release()
