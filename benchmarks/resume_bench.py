"""Resuming a long battle: from its file to a battle ready to play, next to raw tomllib.

    .venv/bin/python benchmarks/resume_bench.py [--commands 2000] [--repeat 3]

Writes long battles as battle files in a temporary folder (the snapshot cache there too,
through XDG_CACHE_HOME), one for each turn structure that keeps checkpoints:

* initiative: the long Flat Out War battle of full_battle_bench.py (at least --commands
  log entries);
* cards: enlarged Flat Out War forces under the card scheme, played by the tests' random
  player (tests/activation/play.py);
* phased: d10 on the core phased turn, 60 turns, played by the tests' d10 bot;
* figwars: FigWars 3 (model by model, alternating) between two enlarged sample forces,
  played by the tests' FigWars bot;

then times each, best of --repeat, in CPU seconds:

* the anchor: raw `tomllib.loads` of the battle file's text (any resume reads the file);
* a whole replay: load the file and replay every entry (resuming without a cache);
* a resume: load the file, find the newest cached snapshot, check it and replay only the
  entries after it (saves/snapshot_cache.py open_battle). Issue 17's target: 0.3 s.

Each battle also prints its whole replay per command (the scheme's and the ruleset's cost
of one step), beside the anchor's per command; the end compares them across the battles.
Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.anchors import cpu  # noqa: E402
from benchmarks.full_battle_bench import long_battle  # noqa: E402


def best(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = cpu()
        result = fn()
        times.append(cpu() - start)
    return min(times), result


def cards_battle() -> tuple[Any, Any]:
    import random

    from benchmarks.full_battle_bench import enlarged, setup
    from campaign.engine import Battle
    from campaign.rulesets.flat_out_war.samples import ALIEN, DEMONS, HUMAN, ORCS
    from tests.activation.play import random_play

    s = attrs.evolve(setup(enlarged("Horde", ORCS, HUMAN), enlarged("Host", DEMONS, ALIEN), 2, rounds=12),
                     activation="cards")
    battle = Battle.start(s)
    random_play(battle, random.Random(2), limit=20000)
    return s, battle


def phased_battle() -> tuple[Any, Any]:
    from campaign.engine import Battle
    from tests.d10_phased.phasedplay import play_out
    from tests.d10_phased.test_battle import setup

    s = attrs.evolve(setup(seed=3, victory="position"), options={"turn_limit": 60})
    battle = Battle.start(s)
    play_out(battle, limit=20000)
    return s, battle


def figwars_battle() -> tuple[Any, Any]:
    from campaign.campaigns.scenario import Scenario
    from campaign.engine import Battle, BattleSetup, SideSetup
    from campaign.force import Force
    from campaign.rulesets import get_ruleset
    from tests.figwars3.test_battle import ALTERNATE, bot, sample

    def enlarged(name: str, *forces: Force) -> Force:  # every unit fielded three times
        units = tuple(attrs.evolve(u, name=f"{u.name} {k + 1}") for k in range(3) for f in forces for u in f.units)
        return attrs.evolve(forces[0], name=name, units=units)

    a = enlarged("Strike", sample("USC Strike Group"), sample("Gothic Imperium Battle Group"))
    b = enlarged("Horde", sample("Revenant Host"), sample("Xenomorph Bugs"))
    s = BattleSetup(ruleset="figwars-3", sides=(SideSetup("a", a.name, a), SideSetup("b", b.name, b)),
                    scenario=Scenario(id="skirmish", name="Skirmish", rounds=12), activation="initiative",
                    activation_options=ALTERNATE, seed=3, options=get_ruleset("figwars-3").new_battle_options({}))
    battle = Battle.start(s)
    bot(battle)
    return s, battle


def measure(tmp: Path, name: str, setup: Any, battle: Any, repeat: int) -> float:
    """Prints the battle's figures; returns its whole replay's CPU seconds per command."""
    from campaign.engine import Battle
    from saves.battle_file import BattleFile, BattleHeader, BattleSide, dumps_battle, load_battle_file
    from saves.battle_replay import battle_setup
    from saves.snapshot_cache import open_battle

    header = BattleHeader(
        ruleset=setup.ruleset, edition=setup.edition, options=dict(setup.options), scenario=setup.scenario,
        activation=setup.activation, activation_options=dict(setup.activation_options), seed=setup.seed,
        dice=setup.dice, sides=tuple(BattleSide(s.id, s.name, force=s.force) for s in setup.sides),
    )
    path = tmp / f"{name}.toml"
    path.write_text(dumps_battle(BattleFile(path, header, battle.log_dicts())), encoding="utf-8")
    text = path.read_text(encoding="utf-8")

    anchor, _ = best(lambda: tomllib.loads(text), repeat)

    def replayed() -> Battle:
        file = load_battle_file(path)
        return Battle.replay(battle_setup(file), file.log)

    def resumed() -> Battle:
        file = load_battle_file(path)
        return open_battle(file, battle_setup(file))

    whole, full = best(replayed, repeat)
    resumed()  # the first open replays once and caches its newest snapshot
    fast, again = best(resumed, repeat)
    assert isinstance(full, Battle) and isinstance(again, Battle)
    assert again.digest() == full.digest() == battle.digest(), "the resumed battle is not the replayed one"
    assert again.events == full.events and again.log_dicts() == full.log_dicts()
    after = len(full.log) - 1 - (again.checkpoint_entry or 0)

    n = len(battle.log)
    print(f"{name} ({setup.ruleset}, {setup.activation}): {n} commands, {len(text):,} bytes")
    print(f"  raw tomllib.loads (anchor): {anchor * 1e3:8.1f} ms  ({anchor / n * 1e6:6.1f} us/command)")
    print(f"  whole replay:               {whole * 1e3:8.1f} ms  {whole / anchor:6.1f}x the anchor "
          f"({whole / n * 1e6:6.1f} us/command)")
    print(f"  resume from the snapshot:   {fast * 1e3:8.1f} ms  {fast / anchor:6.1f}x the anchor "
          f"(target 300 ms; {after} entries replayed after the snapshot)")
    return whole / n


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--commands", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")  # never the user's own cache
        setup, battle, _ = long_battle(args.seed, args.commands)
        per = {"initiative": measure(Path(tmp), "initiative", setup, battle, args.repeat)}
        per["cards"] = measure(Path(tmp), "cards", *cards_battle(), args.repeat)
        per["phased"] = measure(Path(tmp), "phased", *phased_battle(), args.repeat)
        per["figwars"] = measure(Path(tmp), "figwars", *figwars_battle(), args.repeat)
    base = per["initiative"]
    print("whole replay per command (Flat Out War's initiative battle as 1.0x):")
    for name, cost in per.items():
        print(f"  {name:<11} {cost * 1e6:7.1f} us/command  {cost / base:5.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
