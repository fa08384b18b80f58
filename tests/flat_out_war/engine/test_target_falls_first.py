"""A declared attack whose target falls in a window just before it resolves.

Under the card deck the other side may interrupt a declared action (overwatch, a
morale test it causes); if that leaves the target with nobody standing, the spent
action finds nobody instead of crashing the battle (found by random play, seed 1).
"""

from __future__ import annotations

import random

import attrs

from campaign.campaigns.scenario import Scenario
from campaign.engine.battle import Battle
from campaign.engine.setup import BattleSetup, SideSetup
from campaign.force import Force
from campaign.rulesets.flat_out_war.samples import ALIEN, DEMONS, HUMAN, ORCS
from tests.activation.play import random_play


def _enlarged(name: str, *forces: Force, copies: int = 3) -> Force:
    units = tuple(attrs.evolve(u, name=f"{u.name} {n + 1}") for n in range(copies) for f in forces for u in f.units)
    return Force(name, "flat-out-war", "special-ops", units)


def test_an_attack_on_a_unit_that_fell_first_finds_nobody() -> None:
    setup = BattleSetup(
        ruleset="flat-out-war", edition="special-ops", activation="cards",
        sides=(SideSetup("a", "Horde", _enlarged("Horde", ORCS, HUMAN)),
               SideSetup("b", "Host", _enlarged("Host", DEMONS, ALIEN))),
        scenario=Scenario(id="bench", name="Benchmark", rounds=6), seed=1, dice="auto",
    )
    battle = Battle.start(setup)
    random_play(battle, random.Random(1))  # crashed with ZeroDivisionError before
    assert battle.pending is None
    nobody = [e for e in battle.events if e.kind == "no_target"]
    assert nobody and "finds nobody" in nobody[0].text
    replayed = Battle.replay(setup, battle.log)
    assert replayed.digest() == battle.digest()
