"""`muster simulate`'s speed: battles per second per core, next to a bare dice loop.

    .venv/bin/python benchmarks/simulate_bench.py [--battles 50] [--seed 0] [--jobs 2]

1. Plays --battles forecast battles of Human Force against Alien Force (the Special
   Operations samples, open field, 6 rounds) in this one process: battles per second per
   core (issue 17's target: at least 100), and the dice they rolled.
2. The same battles through the CLI's process pool with --jobs processes (0 skips it).
3. The anchor: a bare loop of random.random() dice, as many as the battles rolled, so the
   ratio reads the same on any machine.

One-process times are CPU seconds (benchmarks/anchors.py: a busy shared machine does not
inflate them); the pool's is wall time. Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from campaign.engine.battle import Battle  # noqa: E402
from campaign.engine.setup import BattleSetup, SideSetup  # noqa: E402
from campaign.rulesets.flat_out_war.samples import ALIEN, HUMAN  # noqa: E402
from campaign.simulate import battle_seed, open_field, play_one, simulator_for  # noqa: E402
from tui.cli.simulate import Progress, play_all  # noqa: E402
from benchmarks.anchors import bare_dice, cpu  # noqa: E402


def dice_rolled(seed: int, battles: int) -> int:
    """The dice the forecast's battles roll (played again, untimed)."""
    _, simulator = simulator_for(HUMAN, ALIEN)
    total = 0
    for i in range(battles):
        s = battle_seed(seed, i)
        battle = Battle.start(BattleSetup(
            ruleset="flat-out-war", edition="special-ops", sides=(SideSetup("a", HUMAN.name, HUMAN),
            SideSetup("b", ALIEN.name, ALIEN)), scenario=open_field(), seed=s, dice="auto"))
        simulator.play(battle, s)
        total += sum(len(r.faces) for entry in battle.log for r in entry.rolls)
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--battles", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()

    scenario = open_field()
    start = cpu()
    for i in range(args.battles):
        play_one(HUMAN, ALIEN, scenario, args.seed, i)
    one = cpu() - start
    dice = dice_rolled(args.seed, args.battles)
    per_core = args.battles / one
    print(f"Human Force against Alien Force, {args.battles} battles (seed {args.seed}), one process:")
    print(f"  {one:8.3f} s  {per_core:8.1f} battles/s per core (target 100)  "
          f"{dice / args.battles:8.0f} dice/battle  {one / dice * 1e6:8.1f} us/die")
    if args.jobs > 1:
        start = time.perf_counter()
        play_all(HUMAN, ALIEN, scenario, args.seed, args.battles, args.jobs, Progress(args.battles, _Silent()))
        pooled = time.perf_counter() - start
        print(f"  pool of {args.jobs}: {pooled:8.3f} s  {args.battles / pooled:8.1f} battles/s in all")
    bare = bare_dice(dice)
    print(f"bare random.random() dice: {dice} in {bare:.4f} s  {bare / dice * 1e6:8.3f} us/die "
          f"(the battles take {one / bare:,.0f}x as long as their dice alone)")
    return 0


class _Silent:
    def isatty(self) -> bool:
        return False


if __name__ == "__main__":
    sys.exit(main())
