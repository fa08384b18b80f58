"""How `muster simulate` plays a ruleset (the `Ruleset.simulator` hook's answer)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from campaign.frozen import frozen

if TYPE_CHECKING:  # the engine imports the rulesets: no cycle at run time
    from campaign.engine.battle import Battle


@frozen
class Simulator:
    """How `muster simulate` plays this ruleset: `play(battle, seed)` answers every decision
    of a started battle with auto dice until it ends; `assumptions` are the table facts the
    player takes for granted (open field), printed with every forecast."""

    play: Callable[[Battle, int], object]
    assumptions: tuple[str, ...] = ()
