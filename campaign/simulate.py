"""Forecasts: many auto-dice battles between two forces (or more: every side against every
other), played by the ruleset's autoplayer.

Pure: no files, no clock, no processes. Battle i's seed comes from the run's seed and i
alone (`battle_seed`), so a run gives the same results whether its battles are played in
one process or spread over many (the CLI's pool calls `play_one` and `summarise`).
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from fractions import Fraction
from typing import Any

import attrs

from campaign.campaigns.scenario import Scenario
from campaign.force import Force
from campaign.rulesets import get_ruleset
from campaign.rulesets.simulator import Simulator

SIDES = ("a", "b")  # the side ids of a two-force forecast; more forces go on: "c", "d"...


def side_ids(count: int) -> tuple[str, ...]:
    return tuple(chr(ord("a") + i) for i in range(count))
MAX_STEPS = 20_000  # a battle the autoplayer cannot finish is cut off here (counted as ended)


class SimulateError(Exception):
    """A forecast that cannot be made (no autoplayer, forces of different rulesets...)."""


def open_field(rounds: int = 6) -> Scenario:
    """The default scenario: no objectives, a round limit so every battle ends."""
    return Scenario(id="open-field", name="Open field", rounds=rounds)


@attrs.define(frozen=True)
class BattleResult:
    """What one battle leaves: the winner ("a", "b" or None), each side's VPs, and per unit
    (by side and name) the models lost and the enemy models it destroyed."""

    index: int
    winner: str | None
    vps: dict[str, Fraction]
    losses: dict[tuple[str, str], int]
    kills: dict[tuple[str, str], int]


def battle_seed(seed: int, index: int) -> int:
    """Battle `index`'s seed: a hash of the run's seed and the index (independent of --jobs)."""
    digest = hashlib.sha256(f"muster-simulate:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def simulator_for(a: Force, *others: Force) -> tuple[Any, Simulator]:
    """The ruleset every force is built for and its autoplayer, or SimulateError."""
    for b in others:
        if a.ruleset != b.ruleset:
            raise SimulateError(f"the forces are for different rulesets ({a.ruleset} and {b.ruleset})")
    ruleset = get_ruleset(a.ruleset, a.edition, **dict(a.options))
    simulator = ruleset.simulator()
    if simulator is None:
        raise SimulateError(f"{ruleset.name or ruleset.id} has no autoplayer yet, so it cannot be simulated")
    return ruleset, simulator


def play_one(a: Force, b: Force, scenario: Scenario, seed: int, index: int) -> BattleResult:
    """Play battle `index` of a run seeded `seed` to its end and read its result."""
    return play_sides((a, b), scenario, seed, index)


def play_sides(forces: tuple[Force, ...], scenario: Scenario, seed: int, index: int) -> BattleResult:
    """`play_one` for any number of forces, sides "a", "b", "c"... in their order."""
    from campaign.activation import DEFAULT_SCHEME
    from campaign.engine.battle import Battle
    from campaign.engine.collector import collector_paused
    from campaign.engine.setup import BattleSetup, SideSetup

    ruleset, simulator = simulator_for(*forces)
    s = battle_seed(seed, index)
    setup = BattleSetup(
        ruleset=ruleset.id, edition=ruleset.edition, options=dict(forces[0].options),
        sides=tuple(SideSetup(side, force.name, force) for side, force in zip(side_ids(len(forces)), forces)),
        scenario=scenario, seed=s, dice="auto",
        activation=ruleset.default_activation or DEFAULT_SCHEME,  # d10's phased turn, say
    )
    battle = Battle.start(setup)
    with collector_paused():  # a batch of steps (campaign.engine.collector)
        simulator.play(battle, s)
    outcome = battle.rules.outcome(battle.state)
    losses = {(u.side, u.name): sum(1 for e in u.elements if not e.alive) for u in battle.state.units}
    return BattleResult(index, outcome.winner(), outcome.vps(), losses, _kills(battle))


def _kills(battle: Any) -> dict[tuple[str, str], int]:
    """Enemy models each unit destroyed: a "destroyed" event credits the unit whose "hit"
    last struck that element (events carry `element` and `attacker` as "unit/element" ids)."""
    names = {u.id: (u.side, u.name) for u in battle.state.units}
    last_hit: dict[str, str] = {}
    kills: Counter[tuple[str, str]] = Counter()
    for event in battle.events:
        element = event.data.get("element") if isinstance(event.data, dict) else None
        if not isinstance(element, str):
            continue
        attacker = event.data.get("attacker")
        if isinstance(attacker, str):
            last_hit[element] = attacker.split("/")[0]
        elif event.kind == "destroyed" and last_hit.get(element) in names:
            kills[names[last_hit[element]]] += 1
    return dict(kills)


def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval for a proportion (successes may be fractional)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _chance(count: int, n: int) -> dict[str, float]:
    low, high = wilson(count, n)
    return {"count": count, "p": count / n if n else 0.0, "low": low, "high": high}


def summarise(a: Force, b: Force, results: list[BattleResult], assumptions: tuple[str, ...] = (),
              scenario: Scenario | None = None, seed: int = 0, requested: int | None = None) -> dict[str, Any]:
    """Everything `muster simulate` reports, as plain JSON-ready data (sorted by battle)."""
    return summarise_sides((a, b), results, assumptions, scenario, seed, requested)


def summarise_sides(forces_in_order: tuple[Force, ...], results: list[BattleResult], assumptions: tuple[str, ...] = (),
                    scenario: Scenario | None = None, seed: int = 0, requested: int | None = None) -> dict[str, Any]:
    """`summarise` for any number of forces: a side loses a battle another side wins."""
    results = sorted(results, key=lambda r: r.index)
    n = len(results)
    a = forces_in_order[0]
    forces = dict(zip(side_ids(len(forces_in_order)), forces_in_order))
    sides = []
    for side in forces:
        wins = sum(1 for r in results if r.winner == side)
        losses = sum(1 for r in results if r.winner is not None and r.winner != side)
        draws = n - wins - losses
        vps = Counter(r.vps.get(side, Fraction(0)) for r in results)
        units = []
        for unit in forces[side].units:
            key = (side, unit.name)
            units.append({
                "unit": unit.name,
                "models": sum(e.count - e.lost for e in unit.elements),
                "avg_losses": sum(r.losses.get(key, 0) for r in results) / n if n else 0.0,
                "avg_kills": sum(r.kills.get(key, 0) for r in results) / n if n else 0.0,
            })
        sides.append({
            "side": side,
            "force": forces[side].name,
            "win": _chance(wins, n), "draw": _chance(draws, n), "loss": _chance(losses, n),
            "vp_mean": float(sum(vps.elements(), Fraction(0)) / n) if n else 0.0,
            "vp_distribution": [{"vp": float(vp), "count": c} for vp, c in sorted(vps.items())],
            "units": units,
        })
    return {
        "battles": n,
        "requested": n if requested is None else requested,
        "complete": requested is None or n >= requested,
        "seed": seed,
        "ruleset": a.ruleset,
        "scenario": {"id": scenario.id, "name": scenario.name, "rounds": scenario.rounds} if scenario else None,
        "assumptions": list(assumptions),
        "sides": sides,
    }


def simulate(a: Force, b: Force, battles: int, seed: int = 0, scenario: Scenario | None = None) -> dict[str, Any]:
    """Play `battles` battles in this process and summarise them."""
    scenario = scenario or open_field()
    _, simulator = simulator_for(a, b)
    results = [play_one(a, b, scenario, seed, i) for i in range(battles)]
    return summarise(a, b, results, simulator.assumptions, scenario, seed)
