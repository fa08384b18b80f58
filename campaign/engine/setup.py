"""What a battle starts from: ruleset, scenario, the sides' forces, activation scheme, seed, dice.

Plain attrs data. Field names follow saves/battle_file.py's BattleHeader (`activation`,
`activation_options`), so turning a battle file's header into a BattleSetup is a copy.
The scenario is the campaign's own Scenario record (rounds, objectives and their VPs).
"""

from __future__ import annotations

from typing import Any

import attrs

from campaign.activation import DEFAULT_SCHEME
from campaign.campaigns.scenario import Scenario
from campaign.force import Force


def _skirmish() -> Scenario:
    return Scenario(id="skirmish", name="Skirmish")


@attrs.define(frozen=True)
class SideSetup:
    id: str  # short, stable: "humans"
    name: str
    force: Force
    role: str = ""  # the scenario's role for this side ("attacker"...), if any


@attrs.define(frozen=True)
class BattleSetup:
    ruleset: str
    sides: tuple[SideSetup, ...]
    edition: str | None = None  # None: the ruleset's default
    options: dict[str, Any] = attrs.field(factory=dict)  # ruleset battle options
    scenario: Scenario = attrs.field(factory=_skirmish)  # rounds: None or 0 = no round limit
    activation: str = DEFAULT_SCHEME  # a registered activation scheme (campaign.engine.scheme)
    activation_options: dict[str, Any] = attrs.field(factory=dict)
    seed: int = 0
    dice: str = "auto"  # "auto" | "table"

    def side(self, side_id: str) -> SideSetup:
        for side in self.sides:
            if side.id == side_id:
                return side
        raise KeyError(side_id)
