"""Flat Out War through the engine: how fast are commands and dice?

    .venv/bin/python benchmarks/full_battle_bench.py [--seed N] [--commands 1000]

1. Plays a long battle between enlarged Special Operations sample forces (Orc & Ghoblin
   and Human against Demonic and Alien, each unit fielded three times) with the seeded
   autoplayer until its log holds at least --commands commands, then replays that log
   with Battle.replay and reports time per command and per die. The rules' modules are
   imported before the clock starts (a one-off of each process, not a cost per die).
2. Rolls a whole battle between two sample forces (Human against Alien) with auto dice.
3. A bare loop of random.random() dice, for scale.

Times are CPU seconds of this process (benchmarks/anchors.py), so other work on a shared
machine does not inflate them; each is printed with its ratio to the bare dice loop.
Timings are printed, never asserted: timing targets live here, not in tests.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import attrs  # noqa: E402

from campaign.campaigns.scenario import Scenario  # noqa: E402
from campaign.engine.battle import Battle, resolve_rules  # noqa: E402
from campaign.engine.setup import BattleSetup, SideSetup  # noqa: E402
from campaign.force import Force  # noqa: E402
from campaign.rulesets.flat_out_war.engine.autoplay import play_out  # noqa: E402
from campaign.rulesets.flat_out_war.samples import ALIEN, DEMONS, HUMAN, ORCS  # noqa: E402
from benchmarks.anchors import bare_dice, cpu  # noqa: E402


def enlarged(name: str, *forces: Force, copies: int = 3) -> Force:
    units = tuple(
        attrs.evolve(unit, name=f"{unit.name} {n + 1}") for n in range(copies) for f in forces for unit in f.units
    )
    return Force(name, "flat-out-war", "special-ops", units)


def setup(a: Force, b: Force, seed: int, rounds: int) -> BattleSetup:
    return BattleSetup(
        ruleset="flat-out-war", edition="special-ops",
        sides=(SideSetup("a", a.name, a), SideSetup("b", b.name, b)),
        scenario=Scenario(id="bench", name="Benchmark", rounds=rounds), seed=seed, dice="auto",
    )


def dice_in(battle: Battle) -> int:
    return sum(len(r.faces) for entry in battle.log for r in entry.rolls)


def long_battle(seed: int, commands: int) -> tuple[BattleSetup, Battle, float]:
    a = enlarged("Horde", ORCS, HUMAN)
    b = enlarged("Host", DEMONS, ALIEN)
    resolve_rules(setup(a, b, seed, rounds=0))  # imports the rules' modules: a one-off, not a die's cost
    for attempt in range(seed, seed + 50):
        s = setup(a, b, attempt, rounds=0)
        start = cpu()
        battle = Battle.start(s)
        play_out(battle, seed=attempt, max_steps=commands * 3)
        took = cpu() - start
        if len(battle.log) >= commands:
            return s, battle, took
    raise SystemExit(f"no battle reached {commands} commands in 50 seeds")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--commands", type=int, default=1000)
    args = parser.parse_args()

    s, battle, played = long_battle(args.seed, args.commands)
    cmds, dice = len(battle.log), dice_in(battle)
    start = cpu()
    again = Battle.replay(s, battle.log_dicts())
    replayed = cpu() - start
    assert again.digest() == battle.digest(), "replay gave a different state"
    print(f"long battle (seed {s.seed}): {cmds} commands, {dice} dice, {len(battle.events)} events, "
          f"{battle.state.round} rounds; {battle.state.end_reason}")
    print(f"  played:   {played:8.3f} s  {played / cmds * 1e3:8.3f} ms/command  {played / dice * 1e6:8.1f} us/die")
    print(f"  replayed: {replayed:8.3f} s  {replayed / cmds * 1e3:8.3f} ms/command  {replayed / dice * 1e6:8.1f} us/die")

    s2 = setup(HUMAN, ALIEN, args.seed, rounds=30)
    start = cpu()
    full = Battle.start(s2)
    play_out(full, seed=args.seed)
    took = cpu() - start
    cmds2, dice2 = len(full.log), dice_in(full)
    print(f"full battle Human vs Alien: {cmds2} commands, {dice2} dice, {full.state.round} rounds; "
          f"{full.state.end_reason}; VPs {dict((k, float(v)) for k, v in full.rules.victory_points(full.state).items())}")
    print(f"  rolled:   {took:8.3f} s  {took / cmds2 * 1e3:8.3f} ms/command  {took / max(dice2, 1) * 1e6:8.1f} us/die")

    bare = bare_dice(dice) / dice
    print(f"bare random.random() dice: {bare * 1e6:8.3f} us/die (the anchor)")
    print(f"engine per die (target 30 us): played {played / dice * 1e6:.1f} us = {played / dice / bare:,.0f}x the anchor, "
          f"replayed {replayed / dice * 1e6:.1f} us = {replayed / dice / bare:,.0f}x, "
          f"full battle {took / max(dice2, 1) * 1e6:.1f} us = {took / max(dice2, 1) / bare:,.0f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
