"""What a battle starts from: ruleset, scenario, the sides' forces, scheme, seed, dice mode.

Plain attrs data that saves/ writes with cattrs (no None values: TOML has none).
"""

from __future__ import annotations

from typing import Any

import attrs

from campaign.force import Force


@attrs.define(frozen=True)
class Objective:
    id: str
    name: str = ""
    vp: int = 0  # agreed before the battle


@attrs.define(frozen=True)
class ScenarioSetup:
    id: str = "skirmish"
    name: str = "Skirmish"
    rounds: int = 0  # round limit; 0: no limit (the rules' own end condition decides)
    objectives: tuple[Objective, ...] = ()
    data: dict[str, Any] = attrs.field(factory=dict)  # anything else the scenario says


@attrs.define(frozen=True)
class SideSetup:
    id: str  # short, stable: "humans"
    name: str
    force: Force


@attrs.define(frozen=True)
class BattleSetup:
    ruleset: str
    sides: tuple[SideSetup, ...]
    edition: str = ""  # "" for the ruleset's default
    options: dict[str, Any] = attrs.field(factory=dict)  # ruleset battle options
    scenario: ScenarioSetup = attrs.field(factory=ScenarioSetup)
    scheme: str = "initiative"  # activation scheme: "initiative" | "cards"
    scheme_options: dict[str, Any] = attrs.field(factory=dict)
    seed: int = 0
    dice: str = "auto"  # "auto" | "table"

    def side(self, side_id: str) -> SideSetup:
        for side in self.sides:
            if side.id == side_id:
                return side
        raise KeyError(side_id)
