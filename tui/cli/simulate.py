"""`muster simulate A.toml B.toml [--scenario ID] [--battles N] [--jobs J] [--seed S] [--json]`

Plays N battles between two forces with auto dice and the ruleset's autoplayer, spread over
a process pool, and prints each side's win, draw and loss chance (95% Wilson intervals),
the VP distribution and each unit's average losses and kills, with the open-field
assumptions the ruleset's autoplayer makes. Battle i's seed depends only on --seed and i
(campaign/simulate.py), so --jobs never changes the numbers. ctrl+c stops and reports the
battles finished so far (exit status 130).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from campaign.campaigns.scenario import Scenario
from campaign.force import Force
from campaign.inert_text import inert, inert_json
from campaign.rulesets import UnknownRuleset
from campaign.simulate import BattleResult, SimulateError, open_field, play_one, simulator_for, summarise
from saves.errors import SaveError
from saves.force_file import load_force, ruleset_for

NAME = "simulate"
HELP = "forecast a battle: win, draw and loss chances from many auto-played battles"


class BadInput(Exception):
    """Bad input, said plainly (exit status 2)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a", metavar="A.toml", help="the first side's force file")
    parser.add_argument("b", metavar="B.toml", help="the second side's force file")
    parser.add_argument("--scenario", metavar="ID", default=None,
                        help="a built-in scenario's id (default: an open field of 6 rounds)")
    parser.add_argument("--battles", type=int, default=200, metavar="N", help="battles to play (default 200)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="J",
                        help="processes to play them in (default: every core)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="the run's seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print JSON")


def _scenario(scenario_id: str | None) -> Scenario:
    if scenario_id is None:
        return open_field()
    from scenarios import builtin_scenarios

    found = builtin_scenarios()
    if scenario_id not in found:
        raise BadInput(f"no built-in scenario {scenario_id!r} (scenarios: {', '.join(sorted(found))})")
    return found[scenario_id]


def _quiet_worker() -> None:
    # ctrl+c reaches the whole process group: the parent alone decides to stop
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_chunk(a: Force, b: Force, scenario: Scenario, seed: int, indices: list[int]) -> list[BattleResult]:
    return [play_one(a, b, scenario, seed, i) for i in indices]


class Progress:
    """A progress line on stderr with the time left, only when stderr is a terminal."""

    def __init__(self, total: int, stream: Any = None) -> None:
        self.total, self.stream = total, stream or sys.stderr
        self.shown = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = time.monotonic()

    def update(self, done: int) -> None:
        if not self.shown:
            return
        took = time.monotonic() - self.start
        left = took / done * (self.total - done) if done else 0.0
        width = 24
        filled = int(width * done / self.total) if self.total else width
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} battles"
                          f"  {done / took if took else 0:.1f}/s  about {_duration(left)} left ")
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * 78 + "\r")
            self.stream.flush()


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 60}m {seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


def play_all(a: Force, b: Force, scenario: Scenario, seed: int, battles: int, jobs: int,
             progress: Progress | None = None) -> tuple[list[BattleResult], bool]:
    """Every battle's result and whether all were played (False after ctrl+c)."""
    results: list[BattleResult] = []
    progress = progress or Progress(battles)
    try:
        if jobs <= 1:
            for i in range(battles):
                results.append(play_one(a, b, scenario, seed, i))
                progress.update(len(results))
            return results, True
        # small chunks: a steady progress line, and ctrl+c waits for little
        size = max(1, min(8, battles // (jobs * 8)))
        chunks = [list(range(i, min(i + size, battles))) for i in range(0, battles, size)]
        pool = ProcessPoolExecutor(max_workers=jobs, initializer=_quiet_worker)
        pending: set[Future[list[BattleResult]]] = set()
        try:
            pending = {pool.submit(_play_chunk, a, b, scenario, seed, chunk) for chunk in chunks}
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    results.extend(future.result())
                progress.update(len(results))
        except KeyboardInterrupt:
            for future in pending:
                future.cancel()
            pool.shutdown(wait=True, cancel_futures=True)
            results.extend(r for f in pending if f.done() and not f.cancelled() for r in f.result())
            return results, False
        pool.shutdown()
        return results, True
    except KeyboardInterrupt:
        return results, False
    finally:
        progress.close()


def _pct(chance: dict[str, float]) -> str:
    return f"{chance['p'] * 100:5.1f}% ({chance['low'] * 100:4.1f}-{chance['high'] * 100:4.1f})"


def _num(value: float) -> str:
    return f"{value:g}"


def as_text(report: dict[str, Any]) -> str:
    scenario = report["scenario"]
    rounds = f", {scenario['rounds']} rounds" if scenario and scenario["rounds"] else ""
    names = [side["force"] for side in report["sides"]]
    if names[0] == names[1]:  # a force against itself: tell the sides apart
        names = [f"{n} ({side['side'].upper()})" for n, side in zip(names, report["sides"])]
    sides = [side | {"force": name} for name, side in zip(names, report["sides"])]
    lines = [f"{names[0]} against {names[1]}: {report['battles']} battles"
             + ("" if report["complete"] else f" of {report['requested']} (stopped)")
             + f", scenario {scenario['name'] if scenario else '-'}{rounds}, seed {report['seed']}"]
    lines.append("assumed (open field): " + "; ".join(report["assumptions"]))
    width = max(len(n) for n in names)
    lines.append(f"{'':{width}}  {'win (95% interval)':<22}{'draw':<22}loss")
    for side in sides:
        lines.append(f"{side['force']:{width}}  {_pct(side['win']):<22}{_pct(side['draw']):<22}{_pct(side['loss']):<22}"
                     .rstrip())
    for side in sides:
        dist = "  ".join(f"{_num(d['vp'])}: {d['count']}" for d in side["vp_distribution"])
        lines.append(f"{side['force']} VPs: mean {side['vp_mean']:.1f}; {dist}")
    for side in sides:
        lines.append(f"{side['force']}, per battle on average:")
        uw = max((len(u["unit"]) for u in side["units"]), default=4)
        for unit in side["units"]:
            lines.append(f"  {unit['unit']:{uw}}  lost {unit['avg_losses']:5.2f} of {unit['models']:<3}"
                         f"  destroyed {unit['avg_kills']:5.2f}")
    return "\n".join(inert(line) for line in lines)


def run(args: argparse.Namespace) -> int:
    try:
        if args.battles < 1:
            raise BadInput(f"--battles must be at least 1, not {args.battles}")
        if args.jobs < 1:
            raise BadInput(f"--jobs must be at least 1, not {args.jobs}")
        a, b = load_force(args.a), load_force(args.b)
        ruleset_for(a, args.a)
        ruleset_for(b, args.b)
        scenario = _scenario(args.scenario)
        _, simulator = simulator_for(a, b)
    except (BadInput, SaveError, SimulateError, UnknownRuleset, ValueError) as exc:
        print(inert(f"muster simulate: {exc}"), file=sys.stderr)
        return 2
    jobs = min(args.jobs, args.battles)
    results, complete = play_all(a, b, scenario, args.seed, args.battles, jobs)
    report = summarise(a, b, results, simulator.assumptions, scenario, args.seed, requested=args.battles)
    if args.json:
        print(inert_json(report, indent=2, ensure_ascii=False))
    elif results:
        print(as_text(report))
    else:
        print("muster simulate: stopped before any battle was played", file=sys.stderr)
    return 0 if complete else 130
