"""Start-up time: launch to the demo dashboard drawn, next to a bare Textual app.

Each run is a fresh process (imports included), headless, timed from the first line
of the process to the first refresh that shows what the screen is for:

    .venv/bin/python benchmarks/startup_bench.py [--runs 7]

"demo" runs `muster DIR --demo` (the command, not just the app) on a temporary folder;
its clock stops at the first refresh, after the dashboard has been handed the fresh demo
campaign, at which the campaign's name, sides and track are on the screen (a placeholder
or a loading indicator does not count; a run that never shows them fails). "bare" is an
App with one Static, timed to its first refresh. Each figure is given as wall time and
as the process's CPU time: on a busy shared machine the CPU ratio is the one to read
(other processes stretch wall times, not CPU seconds).

The children run with Python's bytecode cache on (PYTHONDONTWRITEBYTECODE removed from
their environment) after one untimed warm-up run each: an installed Muster, like the
installed Textual it is compared with, starts from compiled .pyc files, and a machine that
forbids writing them would time the compiler instead of the start-up.
"""

from __future__ import annotations

import time

START = time.perf_counter()

import argparse  # noqa: E402
import gc  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# What the demo's dashboard shows once its campaign is read (the name, a side, the track).
DEMO_ON_SCREEN = ("Demo: The Hive War", "Hot Landing", "Humans → The Last Bridge", "Aliens: Aliens  4 units")


def child(kind: str) -> None:
    sys.path.insert(0, str(ROOT))
    if kind != "bare":
        # `muster` pauses the cycle collector before it imports Textual and the app (tui/cli).
        # The timed app below has to import them before `muster` runs, so they are imported
        # paused here too, as `muster` would; the collector is on again when `muster` starts,
        # which pauses it and has the app resume it after the first screen, as in a real start.
        gc.disable()
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    def report(app: App) -> None:  # type: ignore[type-arg]
        print(f"{time.perf_counter() - START:.4f} {time.process_time():.4f}")
        app.exit()

    if kind == "bare":

        class Bare(App[None]):
            def compose(self) -> ComposeResult:
                yield Static("hello")

            def on_mount(self) -> None:
                self.call_after_refresh(report, self)

        Bare().run(headless=True, size=(80, 24))
        return

    # Through the `muster` command itself (`muster DIR --demo`): its start-up is part of
    # what a player waits for. Only the app class is swapped, for one that reports.
    import tui.app
    from tui.cli import main as muster
    from tui.screens.dashboard import DashboardScreen

    class Timed(tui.app.MusterApp):
        def done(self) -> None:
            wall, cpu = time.perf_counter() - START, time.process_time()
            # The clock stops at the first refresh that shows the campaign (its name, sides and
            # track), not a placeholder: until then, look again after the next refresh.
            shown = "\n".join(strip.text for strip in self.screen._compositor.render_strips())
            missing = [text for text in DEMO_ON_SCREEN if text not in shown]
            self.looks += 1
            if missing and self.looks < 100:
                self.call_after_refresh(self.done)
                return
            print(f"{wall:.4f} {cpu:.4f}")
            if missing:
                print(f"the dashboard does not show {missing}", file=sys.stderr)
            self.exit(return_code=1 if missing else 0)

        def demo_failed(self, exc: Exception | None, folder: Path | None = None) -> None:
            # the campaigns list would come instead, and the clock would never stop: say why
            print(f"the demo was not written: {exc!r}", file=sys.stderr)
            self.exit(return_code=1)

        def run(self, *args: object, **kwargs: object) -> None:  # type: ignore[override]
            self.looks = 0
            super().run(headless=True, size=(80, 24))
            if self.return_code:
                sys.exit(f"the demo's dashboard is not on screen (exit {self.return_code})")

    def show(screen: DashboardScreen, *args: Any) -> None:  # the campaign handed to the screen
        shows(screen, *args)
        screen.app.call_after_refresh(screen.app.done)

    shows = DashboardScreen.show
    DashboardScreen.show = show  # type: ignore[method-assign]
    tui.app.MusterApp = Timed  # type: ignore[misc]
    gc.enable()
    with tempfile.TemporaryDirectory() as tmp:
        muster([tmp, "--demo"])


def measure(kind: str, runs: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of `runs` fresh processes."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    walls, cpus = [], []
    for i in range(runs + 1):
        out = subprocess.run(
            [sys.executable, __file__, "--child", kind], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120
        )
        if out.returncode:
            sys.exit(f"the {kind} run failed (exit {out.returncode}):\n{out.stderr[-3000:]}")
        if i == 0:
            continue  # the warm-up: writes the .pyc files a later run reads
        wall, cpu = out.stdout.strip().splitlines()[-1].split()
        walls.append(float(wall))
        cpus.append(float(cpu))
    return walls, cpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--child", choices=("bare", "demo"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    results = {kind: measure(kind, args.runs) for kind in ("bare", "demo")}
    for kind, (times, cpus) in results.items():
        print(f"{kind:>5}: median {statistics.median(times) * 1000:7.1f} ms"
              f"  (min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f}, {len(times)} runs)"
              f"  CPU median {statistics.median(cpus) * 1000:7.1f} ms (min {min(cpus) * 1000:.1f})")  # fmt: skip
    for i, what in ((0, "wall"), (1, "CPU")):
        ratio = statistics.median(results["demo"][i]) / statistics.median(results["bare"][i])
        print(f"demo dashboard / bare Textual app ({what}): {ratio:.2f}x (target 1.5x)")


if __name__ == "__main__":
    main()
