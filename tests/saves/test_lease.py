"""One writer per campaign: the lease, the check that a save replaces what it read, and
what happens when the holder is gone (saves/lease.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

from saves.battle_file import load_battle_file
from saves.campaign_file import load_campaign, save_campaign
from saves.lease import (
    LEASE_NAME,
    CampaignBusy,
    Holder,
    LeaseLost,
    StaleSave,
    acquire,
    break_lease,
    current_holder,
    holder_alive,
)
from scenarios import builtin_scenarios
from scenarios.demo import write_demo
from tui.cli import main

LIB = builtin_scenarios()
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return write_demo(tmp_path / "demo")


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != LEASE_NAME
    }


def _write_lease(folder: Path, **fields: object) -> None:
    body = "\n".join(f"{k} = {v!r}" if isinstance(v, int) else f'{k} = "{v}"' for k, v in fields.items())
    (folder / LEASE_NAME).write_text("[holder]\n" + body + "\n")


# --- two writers ------------------------------------------------------------------

RMW = """
import sys, attrs
from saves.campaign_file import load_campaign, save_campaign
from saves.errors import SaveError
folder, n = sys.argv[1], int(sys.argv[2])
landed, told = 0, set()
for _ in range(n):
    try:
        loaded = load_campaign(folder)
        count = int(loaded.campaign.note or 0)
        save_campaign(folder, attrs.evolve(loaded.campaign, note=str(count + 1)), base=loaded)
        landed += 1
    except SaveError as exc:
        told.add(type(exc).__name__)
print(landed, " ".join(sorted(told)))
"""


@pytest.fixture
def demo_in_memory(tmp_path: Path) -> Iterator[Path]:
    """The demo on a memory file system when there is one: the race is the point, not fsync's speed."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield write_demo(tmp_path / "demo")
        return
    root = Path(tempfile.mkdtemp(dir=shm, prefix="muster-test-"))
    try:
        yield write_demo(root / "demo")
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_two_processes_of_300_read_modify_write_saves_lose_nothing(demo_in_memory: Path) -> None:
    """Each save either lands or is told why; the count on disk is exactly the saves that landed."""
    demo = demo_in_memory
    loaded = load_campaign(demo, LIB)  # one unit a side: the test measures saves, not parsing
    small = {side: attrs.evolve(force, units=force.units[:1]) for side, force in loaded.forces.items()}
    save_campaign(demo, loaded.campaign, small, base=loaded)
    procs = [
        subprocess.Popen([sys.executable, "-c", RMW, str(demo), "300"], stdout=subprocess.PIPE, text=True, cwd=ROOT)
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=60)[0].split(maxsplit=1) for p in procs]
    landed = [int(out[0]) for out in outs]
    told = {name for out in outs[1:] + outs[:1] for name in (out[1].split() if len(out) > 1 else [])}
    assert all(n > 0 for n in landed)
    assert told <= {"StaleSave", "CampaignLocked"}  # refused saves were told, by name
    assert int(load_campaign(demo, LIB).campaign.note) == sum(landed)


def test_a_stale_dashboard_is_refused_and_says_who_changed_the_campaign(demo: Path) -> None:
    """Terminal 1 read the campaign; terminal 2 finished a battle; terminal 1 saves a force edit."""
    dashboard = load_campaign(demo, LIB)
    other = load_campaign(demo, LIB)
    save_campaign(demo, attrs.evolve(other.campaign, note="after battle 1"), base=other, what="battle 1 finished")
    before = _snapshot(demo)
    side = dashboard.campaign.sides[0].id
    edited = attrs.evolve(dashboard.forces[side], name="Edited")
    with pytest.raises(StaleSave) as err:
        save_campaign(demo, dashboard.campaign, {side: edited}, base=dashboard)
    message = str(err.value)
    assert "campaign.toml" in message and "changed on disk since this Muster read it" in message
    assert f"battle 1 finished by process {os.getpid()} on this machine" in message
    assert "nothing was saved" in message
    assert _snapshot(demo) == before
    assert load_campaign(demo, LIB).campaign.note == "after battle 1"  # not rolled back


def test_a_save_remembers_what_it_wrote(demo: Path) -> None:
    loaded = load_campaign(demo, LIB)
    save_campaign(demo, attrs.evolve(loaded.campaign, note="one"), base=loaded)
    save_campaign(demo, attrs.evolve(loaded.campaign, note="two"), base=loaded)  # its own write is no surprise
    assert load_campaign(demo, LIB).campaign.note == "two"


# --- the lease ----------------------------------------------------------------------


def test_a_held_lease_refuses_other_writers_and_names_its_holder(demo: Path) -> None:
    mine = acquire(demo, "battle")
    try:
        with pytest.raises(CampaignBusy, match=f"battle, process {os.getpid()} on this machine since"):
            acquire(demo, "force editor")
        loaded = load_campaign(demo, LIB)
        before = _snapshot(demo)
        with pytest.raises(CampaignBusy):
            save_campaign(demo, attrs.evolve(loaded.campaign, note="x"), base=loaded)  # no lease: refused
        assert _snapshot(demo) == before
        loaded.lease = mine
        save_campaign(demo, attrs.evolve(loaded.campaign, note="x"), base=loaded)  # the holder writes
    finally:
        mine.release()
    assert current_holder(demo) is None
    acquire(demo, "editor").release()


def test_a_lease_whose_process_died_is_broken_by_the_next_taker(demo: Path) -> None:
    script = "import os, sys; from saves.lease import acquire; acquire(sys.argv[1], 'battle'); os._exit(0)"
    proc = subprocess.run([sys.executable, "-c", script, str(demo)], cwd=ROOT, check=True)
    assert proc.returncode == 0
    dead = current_holder(demo)
    assert dead is not None and dead.what == "battle" and holder_alive(dead) is False
    lease = acquire(demo, "battle")  # no refusal: the holder is gone
    try:
        assert lease.broke == dead
        assert current_holder(demo) == lease.holder
    finally:
        lease.release()


def test_a_reused_pid_does_not_keep_a_lease(demo: Path) -> None:
    """Our own pid with a token we do not hold, or a live pid that started at another time."""
    _write_lease(demo, host=current_host(), pid=os.getpid(), token="feedface", what="battle")
    assert holder_alive(current_holder(demo)) is False  # type: ignore[arg-type]
    if Path(f"/proc/{os.getppid()}/stat").exists():
        _write_lease(demo, host=current_host(), pid=os.getppid(), token="feedface", started=1)
        assert holder_alive(current_holder(demo)) is False  # type: ignore[arg-type]
    acquire(demo, "battle").release()


def current_host() -> str:
    import socket

    return socket.gethostname()


def test_a_lease_from_another_host_is_reported_and_broken_only_when_asked(demo: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    _write_lease(demo, host="far-away", pid=4242, token="abcd", what="battle", since="2026-01-02T03:04:05Z")
    with pytest.raises(CampaignBusy) as err:
        acquire(demo, "battle")
    assert err.value.alive is None
    assert "process 4242 on host far-away" in str(err.value) and "muster unlock" in str(err.value)
    assert main(["unlock", str(demo)]) == 1
    assert "--other-host" in capsys.readouterr().err
    assert current_holder(demo) is not None
    assert main(["unlock", str(demo), "--other-host"]) == 0
    assert "Broke the lease of battle, process 4242 on host far-away" in capsys.readouterr().out
    acquire(demo, "battle").release()


def test_unlock_never_breaks_a_live_holder(demo: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    with acquire(demo, "battle"):
        assert main(["unlock", str(demo), "--other-host"]) == 1
        assert "held by a running Muster" in capsys.readouterr().err
        with pytest.raises(CampaignBusy):
            break_lease(demo, other_host=True)
    assert main(["unlock", str(demo)]) == 0
    assert "Nobody holds this campaign" in capsys.readouterr().out


def test_a_lease_taken_over_by_another_is_lost_and_its_saves_refused(demo: Path) -> None:
    loaded = load_campaign(demo, LIB)
    loaded.lease = acquire(demo, "battle")
    _write_lease(demo, host="far-away", pid=1, token="other", what="battle")  # broken and retaken elsewhere
    before = _snapshot(demo)
    with pytest.raises(LeaseLost, match="no longer holds the campaign.*process 1 on host far-away"):
        save_campaign(demo, attrs.evolve(loaded.campaign, note="late"), base=loaded)
    assert _snapshot(demo) == before
    loaded.lease.release()
    assert current_holder(demo) == Holder("far-away", 1, "other", "battle")  # not ours to remove


def test_control_characters_in_a_lease_file_are_shown_inert(demo: Path) -> None:
    _write_lease(demo, host="evil\\u001b]0;pwned\\u0007", pid=7, token="t", what="x\\u001b[2J")
    with pytest.raises(CampaignBusy) as err:
        acquire(demo, "battle")
    text = str(err.value)
    assert "\x1b" not in text and "\x07" not in text
    assert "\\x1b]0;pwned\\x07" in text


def test_headless_commands_respect_the_lease(demo: Path, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    with acquire(demo, "battle"):
        assert main(["report", str(demo), "-o", str(demo / "report.md")]) == 2
        assert "another Muster is writing this campaign" in capsys.readouterr().err
        assert not (demo / "report.md").exists()
        assert main(["report", str(demo), "-o", str(tmp_path / "elsewhere.md")]) == 0  # outside the folder: fine
    assert main(["report", str(demo), "-o", str(demo / "report.md")]) == 0


def test_battle_appends_take_part_in_the_lease(demo: Path) -> None:
    from tui.screens.battle_session import BattleSession

    lease = acquire(demo, "battle")
    try:
        session = BattleSession.open(demo, lease=lease)
        watcher = BattleSession.open(demo)  # a second Muster: read-only
        assert watcher.read_only and not session.read_only
        spec = session.battle.pending.legal[0]  # type: ignore[union-attr]
        with pytest.raises(LeaseLost, match="read-only"):
            watcher.apply(watcher.command(spec))
        before = len(load_battle_file(session.path).log)
        session.apply(session.command(spec))
        assert len(load_battle_file(session.path).log) > before
        with open(session.path, "ab") as handle:  # someone edits the file behind the writer's back
            handle.write(b"\n# a note\n")
        size = session.path.stat().st_size
        pending = session.battle.pending
        with pytest.raises(StaleSave, match="battle file changed on disk"):
            session.apply(session.command(pending.legal[0]))  # type: ignore[union-attr]
        assert session.path.stat().st_size == size
    finally:
        lease.release()


def test_the_lease_file_is_never_committed(demo: Path) -> None:
    import shutil

    from tui.workspace import commit_campaign

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q", str(demo)], check=True)
    (demo / ".gitignore").unlink()  # a campaign from before the lease existed
    with acquire(demo, "battle"):
        assert (demo / LEASE_NAME).is_file()
        assert commit_campaign(demo, "Muster: test") == "Committed."
    files = subprocess.run(["git", "-C", str(demo), "ls-files"], capture_output=True, text=True, check=True).stdout
    assert "campaign.toml" in files and LEASE_NAME not in files and ".muster.lock" not in files


def test_status_names_the_holder(demo: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    import json

    assert main(["status", str(demo)]) == 0
    assert "held for writing" not in capsys.readouterr().out
    with acquire(demo, "battle"):
        assert main(["status", str(demo)]) == 0
        assert f"held for writing by battle, process {os.getpid()} on this machine" in capsys.readouterr().out
    _write_lease(demo, host="far-away", pid=4242, token="abcd", what="battle")
    assert main(["status", str(demo), "--json"]) == 0
    writer = json.loads(capsys.readouterr().out)["writer"]
    assert writer["host"] == "far-away" and writer["pid"] == 4242 and writer["state"] == "unknown"
