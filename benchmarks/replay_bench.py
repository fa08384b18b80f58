"""Replay benchmark: time per command and per die, next to a bare loop of random() dice.

    .venv/bin/python benchmarks/replay_bench.py [--commands 1000] [--repeat 5]

Builds a toy battle (tests/engine/toy_rules.py) of `--commands` log entries by auto play
and replays its log `--repeat` times; also times playing it from scratch (auto dice and a
seeded chooser). Then, if Flat Out War's battle rules are wired in, plays a full battle
between two of its sample forces and times the same for it. Run on demand; not a test.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "engine")]

from campaign.engine import AutoDice, Battle, BattleSetup, SideSetup  # noqa: E402
from engine_play import play  # noqa: E402
from toy_rules import ToyRules, toy_setup  # noqa: E402


def fow_game() -> tuple[str, BattleSetup, object] | None:
    """Flat Out War with two sample forces, if its battle rules are available."""
    try:
        from campaign.rulesets import get_ruleset

        ruleset = get_ruleset("flat-out-war")
        rules = ruleset.battle_rules()
        forces = ruleset.sample_forces()[:2]
        if len(forces) < 2:
            return None
        sides = tuple(SideSetup(f"side-{i + 1}", f.name, f) for i, f in enumerate(forces))
        setup = BattleSetup("flat-out-war", sides, edition=ruleset.edition)
        return "Flat Out War sample forces", setup, rules
    except Exception:  # not wired in yet: fall back to the toy
        return None


def toy_game(units: int) -> tuple[str, BattleSetup, object]:
    setup = toy_setup(((3,) * units, (3,) * units), rounds=10_000)
    return "toy ruleset (tests/engine/toy_rules.py)", setup, ToyRules()


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Best of `repeat` runs, in seconds (the least disturbed by the machine)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def bench(name: str, setup: BattleSetup, rules: object, log: list[dict], repeat: int) -> None:
    n = len(log)
    dice = sum(len(r["faces"]) for e in log for r in e["rolls"])
    replay_s = timed(lambda: Battle.replay(setup, log, rules=rules), repeat)
    play_s = timed(lambda: play(Battle.start(setup, AutoDice(1), rules=rules), seed=2, max_steps=n - 1), repeat)

    def bare() -> None:
        rnd = random.Random(1).random
        for _ in range(dice):
            int(rnd() * 6) + 1

    bare_s = timed(bare, repeat)
    per_die = max(dice, 1)
    print(f"game: {name}")
    print(f"log: {n} commands, {dice} dice (best of {repeat})")
    print(f"  replay     {replay_s * 1e3:9.2f} ms  {replay_s / n * 1e6:9.2f} us/command  {replay_s / per_die * 1e6:9.2f} us/die")
    print(f"  auto play  {play_s * 1e3:9.2f} ms  {play_s / n * 1e6:9.2f} us/command  {play_s / per_die * 1e6:9.2f} us/die")
    print(f"  bare dice  {bare_s * 1e3:9.2f} ms  {'':>20}  {bare_s / per_die * 1e6:9.2f} us/die (random.random() loop)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--commands", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)

    units = 8
    while True:  # more toy units until the battle lasts long enough (each attack rolls 3 dice)
        name, setup, rules = toy_game(units)
        battle = play(Battle.start(setup, AutoDice(1), rules=rules), seed=2, max_steps=args.commands - 1)
        if len(battle.log) >= args.commands or units > 1000:
            break
        units *= 2
    bench(name, setup, rules, battle.log_dicts()[: args.commands], args.repeat)

    game = fow_game()
    if game is None:
        print("Flat Out War: battle rules not available; skipped")
        return 0
    name, setup, rules = game
    battle = play(Battle.start(setup, AutoDice(1), rules=rules), seed=2)
    state = "to the end" if battle.is_over else "until the chooser gave up"
    bench(f"{name}, a full battle played {state}", setup, rules, battle.log_dicts(), args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
