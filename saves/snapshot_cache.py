"""A cache of battle snapshots beside the saves, never inside them: resuming a long battle
replays only the log after its latest snapshot.

The cache lives in the user's cache folder (platformdirs: ~/.cache/muster/snapshots on
Linux; XDG_CACHE_HOME moves it), one folder per battle file, named by a digest of the
file's absolute path and of its setup, so a battle whose setup was edited never meets an
old snapshot. A snapshot names the log prefix it stands for and the digest of its state;
campaign.engine.Battle.resume checks both before using it. The battle file stays the only
truth: a missing, damaged or stale snapshot only means a full replay, and the cache may be
deleted at any time. Writes are best effort (a cache that cannot be written is skipped).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from campaign.engine.snapshot import Snapshot, SnapshotError, dumps, loads, prefix_digest
from saves.atomic import atomic_write_text

if TYPE_CHECKING:
    from campaign.engine import Battle

KEEP = 2  # snapshots kept per battle: the newest, and one before it in case it is torn
MAX_BYTES = 64 * 1024 * 1024  # a snapshot larger than this is not read


def cache_root() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("muster", appauthor=False)) / "snapshots"


def battle_folder(path: str | Path, setup_text: str) -> Path:
    """The cache folder of one battle file: its absolute path and its setup, digested."""
    key = hashlib.sha256(f"{Path(path).resolve()}\n{setup_text}".encode()).hexdigest()[:32]
    return cache_root() / key


def _name(snapshot: Snapshot) -> str:
    return f"{snapshot.entry:08d}-{snapshot.rolls:04d}.json"


def store(path: str | Path, setup_text: str, snapshot: Snapshot) -> bool:
    """Write `snapshot` for the battle file at `path` (whose setup reads `setup_text`) and
    drop all but the newest KEEP. False if the cache could not be written."""
    folder = battle_folder(path, setup_text)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write_text(folder / _name(snapshot), dumps(snapshot))
        for old in sorted(folder.glob("*.json"))[:-KEEP]:
            old.unlink(missing_ok=True)
    except (OSError, TypeError, ValueError):
        return False
    return True


def find(path: str | Path, setup_text: str, log: Sequence[Mapping[str, Any]]) -> Snapshot | None:
    """The newest snapshot that stands for a prefix of `log` (checked by its digest), or None.
    Files that cannot be read, or stand for another log, are removed."""
    folder = battle_folder(path, setup_text)
    try:
        candidates = sorted(folder.glob("*.json"), reverse=True)
    except OSError:
        return None
    for file in candidates:
        try:
            if file.stat().st_size > MAX_BYTES:
                raise SnapshotError("too large")
            snapshot = loads(file.read_text("utf-8"))
            if snapshot.entry >= len(log):
                continue  # of a longer log (an undo since): it may still be right later; keep it
            if prefix_digest(log, snapshot.entry, snapshot.rolls) != snapshot.prefix:
                raise SnapshotError("of another log")
            return snapshot
        except (OSError, ValueError, SnapshotError):
            discard(file)
    return None


def discard(file: Path) -> None:
    try:
        os.unlink(file)
    except OSError:
        pass


def forget(path: str | Path, setup_text: str) -> None:
    """Remove the battle's snapshots (one was refused on use)."""
    folder = battle_folder(path, setup_text)
    try:
        for file in folder.glob("*.json"):
            discard(file)
    except OSError:
        pass


def open_battle(file: Any, setup: Any, dice: Any = None, progress: Any = None) -> Any:
    """The battle of a loaded battle file (saves.battle_file.BattleFile), in bounded time:
    from its newest snapshot and the log after it when the cache has a good one, else by a
    whole replay; either way with checkpoints kept, and the newest one cached for next time.
    A snapshot refused on use (its state is not what it claims) is dropped and the log replayed."""
    from campaign.engine import Battle
    from campaign.engine.battle import resolve_rules
    from campaign.engine.scheme import get_scheme
    from saves.battle_file import dump_header

    setup_text = dump_header(file.header)
    # the rules and the scheme first: building them imports (and so registers) the records a
    # snapshot of this battle holds, such as a card turn or a d10 game, before one is read
    rules = resolve_rules(setup)
    scheme = get_scheme(setup.activation, **setup.activation_options)
    snapshot = find(file.path, setup_text, file.log) if getattr(rules, "snapshots", False) else None
    if snapshot is not None:
        try:
            battle = Battle.resume(setup, file.log, snapshot, dice, rules=rules, scheme=scheme, progress=progress)
        except SnapshotError:
            forget(file.path, setup_text)
            rules, scheme = resolve_rules(setup), get_scheme(setup.activation, **setup.activation_options)
        else:
            save_snapshot(battle, file.path, setup_text, len(file.log), after=snapshot.entry)
            return battle
    battle = Battle.replay(setup, file.log, dice, rules=rules, scheme=scheme, progress=progress, checkpoints=True)
    save_snapshot(battle, file.path, setup_text, len(file.log))
    return battle


def save_snapshot(battle: Battle, path: str | Path, setup_text: str, saved: int, after: int = -1) -> int:
    """Cache the battle's latest checkpoint if it lies within the `saved` entries on disk and
    is newer than entry `after` (the one cached already). Returns the entry cached, or `after`."""
    entry = battle.checkpoint_entry
    if entry is None or entry <= after or entry >= saved:
        return after
    snapshot = battle.snapshot(within=saved)
    if snapshot is None or not store(path, setup_text, snapshot):
        return after
    return snapshot.entry
