"""FigWars 3 benchmarks next to Flat Out War's (run on demand, not a test):

    .venv/bin/python tests/figwars3/bench_figwars.py

1. exact odds of the largest pool the samples' troopers can roll (a melee with the most
   dice on both sides, every re-roll source on; machines strike through ramming.py), 2. playing and replaying a full battle between
   two sample forces, for FigWars 3 and for Flat Out War.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from campaign.engine import Battle, BattleSetup, SideSetup  # noqa: E402
from campaign.engine.battle import Battle as _B  # noqa: E402,F401
from campaign.rulesets import get_ruleset  # noqa: E402
from campaign.rulesets.figwars3.attack import exact_odds  # noqa: E402
from campaign.rulesets.figwars3.melee import melee_attack  # noqa: E402
from campaign.rulesets.figwars3.profile import profile_of  # noqa: E402
from campaign.rulesets.figwars3.samples import sample_forces  # noqa: E402
from campaign.rulesets.figwars3.vehicles import is_machine  # noqa: E402


def best(fn: Callable[[], object], repeat: int = 3) -> float:
    out = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - start)
    return out


def largest_pool() -> object:
    models = [profile_of(el) for f in sample_forces() for u in f.units for el in u.elements if not is_machine(el)]
    big = max(models, key=lambda p: p.defence + max((w.atk for w in p.melee), default=0))
    opposed = melee_attack(big, big, {"prior_attackers": 5, "attacker_focus": True, "defender_focus": True})
    print(f"largest pool: {big.name} {opposed.attacker.dice} dice v {opposed.defender.dice}")
    return opposed


def battle_times(ruleset_id: str, pick: tuple[int, int], seed: int = 3) -> tuple[float, float, int]:
    from tests.figwars3.test_battle import bot

    ruleset = get_ruleset(ruleset_id)
    forces = ruleset.sample_forces()
    sides = tuple(SideSetup(f"s{i}", forces[j].name, forces[j]) for i, j in enumerate(pick))
    opts = {"turn_structure": "alternate_until_all_pass"} if ruleset_id == "figwars-3" else {}
    rules_opts = ruleset.new_battle_options({})  # as a new campaign battle plays (FigWars: the latest revision)
    setup = BattleSetup(ruleset_id, sides, edition=ruleset.edition, options=rules_opts, seed=seed, activation_options=opts)
    holder: dict[str, Battle] = {}

    def play() -> None:
        battle = Battle.start(setup)
        bot(battle)
        holder["b"] = battle

    played = best(play, 1)
    log = holder["b"].log_dicts()
    replayed = best(lambda: Battle.replay(setup, log))
    return played, replayed, len(log)


if __name__ == "__main__":
    opposed = largest_pool()
    print(f"FigWars 3 exact odds of it: {best(lambda: exact_odds(opposed)) * 1000:.1f} ms")
    for rid, pick in (("figwars-3", (4, 5)), ("flat-out-war", (0, 1))):
        played, replayed, entries = battle_times(rid, pick)
        print(f"{rid}: full battle played {played * 1000:.0f} ms, replayed {replayed * 1000:.0f} ms ({entries} log entries)")
