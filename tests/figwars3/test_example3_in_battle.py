"""Worked example 3 (spec 20) played through the battle: an ODST's rocket lands on Grunt A
(a tie, no damage, but stunned), blasts Grunt B out, and must be reloaded."""

from __future__ import annotations

import attrs

from campaign.engine.battle import Battle
from campaign.engine.setup import SideSetup
from campaign.force import Element, Force, Unit, Weapon
from campaign.rulesets.figwars3.attack import drive
from campaign.rulesets.figwars3.commands import Shoot
from campaign.rulesets.figwars3.play import FigWarsRules
from tests.figwars3.test_battle import sample, setup


class Ctx:
    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []

    def emit(self, kind: str, text: str, **data: object) -> None:
        self.events.append((kind, text))

    def window(self, name: str, **info: object):  # type: ignore[no-untyped-def]
        yield from ()


def test_worked_example_3_in_battle() -> None:
    odst = Element(name="ODST", stats={"tq": 2, "mov": 4, "def": 4, "dp": 1, "armour": "full combat armor"},
                   weapons=(Weapon("Rocket Launcher", "ranged"),))
    a = Force("Rocket", "figwars-3", units=(Unit("ODST", (odst,)),))
    b = Force("Grunts", "figwars-3", units=sample("Revenant Host").units[:1])
    rules = FigWarsRules()
    battle = Battle.start(attrs.evolve(setup(), sides=(SideSetup("a", "A", a), SideSetup("b", "B", b))), rules=rules)
    state = battle.state
    shooter = state.unit("odst").elements[0]
    grunts = state.unit("grunt-lance")
    grunt_a, grunt_b = grunts.elements[0], grunts.elements[1]
    assert rules.profile(grunt_a.id).defence == 2 and rules.profile(grunt_a.id).dp == 1
    shooter.data["actions"] = 2
    shot = Shoot("odst", shooter.id, "grunt-lance", grunt_a.id, "Rocket Launcher",
                 {"range_band": "long", "under_template": [grunt_b.id]})
    ctx = Ctx()
    # 5 dice [1, 3, 2, 1, 2]: 1 success, placed on Grunt A; A defends [5, 1]: a tie;
    # Grunt B: blast ATK 1d [6] against [2, 2]: margin 2, 1 DP
    drive(rules.resolve(state, shot, ctx), [[1, 3, 2, 1, 2], [5, 1], [6], [2, 2]])
    assert grunt_a.alive and grunt_a.data["dp"] == 1 and grunt_a.data["stunned"] and grunt_a.data["pins"] == 0
    assert not grunt_b.alive
    assert grunts.data["pl"] == 1 and grunts.data["marker"]
    assert shooter.data["unloaded"] == ["Rocket Launcher"] and shooter.data["actions"] == 1
