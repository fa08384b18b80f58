"""Kill the post-battle save at every disk step and at random: only old or new is found.

The post-battle step changes the battle file (its result), campaign.toml and the
forces. A forked child runs `finish_battle` on a copy of a campaign with a battle in
progress and dies by SIGKILL -- at each os-level step that changes the disk in turn (a
hook counts file creations, opens for writing, writes and half-writes, fsyncs, renames,
unlinks, chmods and kills the process just before step k), then at random moments in
the save (at least 200 kills in all): a random delay after a random step, timed by a
kernel timer whose signal (SIGALRM, left to its default action) ends the child wherever
it is, like SIGKILL, so that the moments are spread over the whole save however loaded
the machine is. After each death:

- read-only commands (`muster validate`, `load_campaign` without `write`) change no
  byte, and report a journal that was left;
- what a reader sees is the old campaign or the new one, never a mix;
- once a writer has loaded it, the four files on disk are all old or all new, and an
  old campaign can still take its post-battle save.

A disk that refuses a step (ENOSPC) is tried at every step as well.

The children skip the real fsync (a killed process loses nothing it wrote; fsync is
about power cuts, which a kill does not model) so the test stays fast.
"""

from __future__ import annotations

import errno
import os
import random
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from saves.campaign_file import JOURNAL, finish_battle, load_campaign
from saves.validate import validate_path
from scenarios import builtin_scenarios
from scenarios.demo import write_demo
from tests.saves.test_battle_file_endings import play, writer

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or sys.platform == "win32", reason="needs fork and SIGKILL")

LIB = builtin_scenarios()
RANDOM_KILLS = 170  # with one kill per disk step (over 30), more than 200 in all
STEP_FUNCS = ("replace", "rename", "unlink", "remove", "truncate", "ftruncate", "chmod", "mkdir")
WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


class Template:
    """A campaign with a battle in progress, the post-battle inputs, and the files' old and new bytes."""

    def __init__(self, root: Path) -> None:
        folder = write_demo(root / "template", seed=11)
        session = writer(folder)
        play(session, 8)
        session.lease.release()
        self.folder = folder
        self.scenario = session.scenario
        self.outcome = session.outcome()
        from campaign.campaigns.after_battle import recovery_dice_needed
        from saves.campaign_file import mustered_roster

        loaded = load_campaign(folder, LIB)
        needed = recovery_dice_needed(loaded.campaign, loaded.forces, self.outcome, mustered_roster(loaded))
        self.faces = {side: [3] * n for side, n in needed.items()}
        self.files = ["campaign.toml", "forces/humans.toml", "forces/aliens.toml", loaded.campaign.battle_in_progress]
        self.old = self.read(folder)
        reference = self.fresh(root / "reference")
        self.finish(load_campaign(reference, LIB))
        self.new = self.read(reference)
        self.views = {state: self.view(f) for state, f in (("old", folder), ("new", reference))}
        self.snapshot = {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
        changed = [f for f in self.files if self.old[f] != self.new[f]]
        assert len(changed) >= 3 and "campaign.toml" in changed and self.files[-1] in changed  # a multi-file change

    @staticmethod
    def view(folder: Path) -> tuple[Any, Any]:
        """What a reader sees: the campaign and its forces."""
        loaded = load_campaign(folder, LIB)
        return loaded.campaign, loaded.forces

    def read(self, folder: Path) -> dict[str, bytes | None]:
        return {f: (folder / f).read_bytes() if (folder / f).exists() else None for f in self.files}

    def fresh(self, work: Path) -> Path:
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(self.folder, work)
        return work

    def restore(self, work: Path) -> Path:
        """Put `work` back as the template is (faster than a new copy)."""
        for path in [p for p in work.rglob("*") if p.is_file()]:
            rel = path.relative_to(work)
            if rel not in self.snapshot:
                path.unlink()
            elif path.read_bytes() != self.snapshot[rel]:
                path.write_bytes(self.snapshot[rel])
        for rel, data in self.snapshot.items():
            if not (work / rel).exists():
                (work / rel).write_bytes(data)
        return work

    def finish(self, loaded: Any) -> None:
        finish_battle(loaded, self.scenario, self.outcome, recovery_faces=self.faces)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Template:
    return Template(tmp_path_factory.mktemp("post-battle"))


# --- the hooks: every os-level step is counted, and one of them kills or fails ---------


@contextmanager
def steps(at: Callable[[str], None]) -> Iterator[None]:
    """Call `at(name)` before each disk step of the code run inside (file writes too)."""
    saved: dict[tuple[Any, str], Any] = {}

    def wrap(owner: Any, name: str, real_call: Callable[..., Any] | None = None) -> None:
        real = getattr(owner, name)
        saved[(owner, name)] = real
        call = real_call or real

        def hooked(*args: Any, **kwargs: Any) -> Any:
            at(name)
            return call(*args, **kwargs)

        setattr(owner, name, hooked)

    real_open = os.open

    def opened(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & WRITING:  # opening to read changes nothing on disk: not a step
            at("open")
        return real_open(path, flags, *args, **kwargs)

    class Writer:  # a file from os.fdopen: a write is two steps (before it, and half-way)
        def __init__(self, handle: Any) -> None:
            self._handle = handle

        def write(self, data: bytes) -> int:
            at("write")
            half = len(data) // 2
            self._handle.write(data[:half])
            self._handle.flush()
            at("half-write")
            return half + self._handle.write(data[half:])

        def __getattr__(self, name: str) -> Any:
            return getattr(self._handle, name)

        def __enter__(self) -> Writer:
            return self

        def __exit__(self, *exc: object) -> None:
            self._handle.__exit__(*exc)

    real_fdopen = os.fdopen
    for name in STEP_FUNCS:
        wrap(os, name)
    wrap(os, "fsync", lambda fd: None)  # counted, not done (see the module's docstring)
    wrap(tempfile, "mkstemp")
    saved[(os, "open")] = real_open
    os.open = opened  # type: ignore[assignment]
    os.fdopen = lambda *a, **k: Writer(real_fdopen(*a, **k))  # type: ignore[assignment]
    try:
        yield
    finally:
        os.fdopen = real_fdopen  # type: ignore[assignment]
        for (owner, name), real in saved.items():
            setattr(owner, name, real)


def run_child(
    template: Template, loaded: Any, kill_at: int | None, report: Path | None = None,
    alarm: tuple[int, float] | None = None,
) -> int:
    """Fork a child that runs the post-battle save, dying by SIGKILL before step `kill_at`
    (None: it runs to the end, and writes to `report` when each step began and when the
    save ended, in seconds from its start), or by SIGALRM `alarm[1]` seconds after step
    `alarm[0]` begins (0: after the start). Returns the child's pid."""
    pid = os.fork()
    if pid:
        return pid
    code = 1
    try:
        signal.signal(signal.SIGALRM, signal.SIG_DFL)  # the default action: the process ends at once
        started = time.perf_counter()
        seen = [0]
        times: list[float] = []

        def at(_name: str) -> None:
            if seen[0] == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
            if report is not None:
                times.append(time.perf_counter() - started)
            seen[0] += 1
            if alarm is not None and seen[0] == alarm[0]:
                signal.setitimer(signal.ITIMER_REAL, alarm[1])

        if alarm is not None and alarm[0] == 0:
            signal.setitimer(signal.ITIMER_REAL, alarm[1])
        with steps(at):
            template.finish(loaded)
        if report is not None:
            report.write_text(" ".join(str(t) for t in [*times, time.perf_counter() - started]))
        code = 0
    finally:
        os._exit(code)


def wait(pid: int) -> bool:
    """True if the child was killed, False if it finished (a failure raises)."""
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        assert os.WTERMSIG(status) in (signal.SIGKILL, signal.SIGALRM)
        return True
    assert os.WEXITSTATUS(status) == 0, "the post-battle save failed in the child"
    return False


# --- what is on disk after a death ---------------------------------------------------


def everything(folder: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def check(template: Template, work: Path, *, read_only_commands: bool) -> str:
    """The checks after a death; returns "old" or "new" (what a writer finds)."""
    before = everything(work)
    journal = (work / JOURNAL).exists()
    if read_only_commands:
        report = validate_path(work)
        assert everything(work) == before, "validate changed a file"
        messages = [f.message for r in report.files for f in r.findings]
        assert journal == any("a save was interrupted" in m for m in messages)
    view = Template.view(work)  # a reader: through the journal, changing nothing
    assert everything(work) == before, "a read-only load changed a file"
    assert view in template.views.values(), "a reader saw a mix of old and new"
    loaded = load_campaign(work, LIB, write=True)  # a writer finishes a journal
    assert not (work / JOURNAL).exists()
    now = template.read(work)
    if now not in (template.old, template.new):
        which = {f: "old" if now[f] == template.old[f] else "new" if now[f] == template.new[f] else "other" for f in now}
        pytest.fail(f"a mix of old and new files after a writer loaded: {which}")
    state = "old" if now == template.old else "new"
    assert (loaded.campaign.battle_in_progress != "") == (state == "old")
    assert view == template.views[state], "a reader saw another state than the one a writer finishes"
    return state


def test_kill_at_every_disk_step(template: Template, tmp_path: Path) -> None:
    work = template.fresh(tmp_path / "work")
    loaded = load_campaign(work, LIB)  # the same folder is restored before every child
    report = tmp_path / "steps"
    assert not wait(run_child(template, loaded, None, report))
    total = len(report.read_text().split()) - 1
    assert template.read(work) == template.new
    assert total > 30  # the journal, then each file replaced: many steps
    seen = {"old": 0, "new": 0}
    for k in range(total):
        template.restore(work)
        assert wait(run_child(template, loaded, k))
        journal = (work / JOURNAL).exists()
        state = check(template, work, read_only_commands=journal or k % 4 == 0)  # validate replays: slow
        seen[state] += 1
        if state == "old" and k % 5 == 0:  # the save can be made again, and then it is whole
            template.finish(load_campaign(work, LIB, write=True))
            assert template.read(work) == template.new
    assert seen["old"] and seen["new"], seen
    assert validate_path(work).exit_code == 0  # the result replays to its recorded digest


def test_kill_at_random_moments(template: Template, tmp_path: Path) -> None:
    work = template.fresh(tmp_path / "work")
    loaded = load_campaign(work, LIB)
    report = tmp_path / "steps"
    assert not wait(run_child(template, loaded, None, report))
    times = [0.0, *(float(x) for x in report.read_text().split())]  # the start, each step, the end
    rng = random.Random(10)
    kills, rounds, seen = 0, 0, {"old": 0, "new": 0}
    while kills < RANDOM_KILLS:
        rounds += 1
        assert rounds < RANDOM_KILLS * 2, f"only {kills} kills landed in {rounds} rounds"
        template.restore(work)
        # A moment after step k begins (k = 0: the start), before the next one began in the
        # measured save: inside the step, or in the code after it. Every gap between steps
        # is as likely, whatever its length; a slower child than the measured one dies
        # earlier in the gap, a faster one perhaps in a later gap.
        k = rng.randrange(len(times) - 1)
        alarm = (k, rng.uniform(1e-6, times[k + 1] - times[k]))
        if wait(run_child(template, loaded, None, alarm=alarm)):
            kills += 1
        seen[check(template, work, read_only_commands=rounds % 20 == 0)] += 1
    assert seen["old"] and seen["new"], seen


def test_a_disk_that_refuses_a_step_leaves_old_or_new(template: Template, tmp_path: Path) -> None:
    from saves.errors import SaveError

    error = errno.ENOSPC
    work = template.fresh(tmp_path / "work")
    counted = [0]
    with steps(lambda _name: counted.__setitem__(0, counted[0] + 1)):
        template.finish(load_campaign(work, LIB))
    refused = 0
    for k in range(counted[0]):
        template.restore(work)
        loaded = load_campaign(work, LIB)
        seen = [0]

        def at(_name: str) -> None:
            if seen[0] == k:
                seen[0] += 1
                raise OSError(error, os.strerror(error))
            seen[0] += 1

        try:
            with steps(at):
                template.finish(loaded)
        except (OSError, SaveError):
            refused += 1
        check(template, work, read_only_commands=False)
    assert refused > 10
