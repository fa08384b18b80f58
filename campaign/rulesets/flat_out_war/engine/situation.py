"""The table facts of one attack (spec section 22), with their defaults.

The engine never measures: players supply these. Defaults are the plain case
(front aspect, short range, open line of sight, nobody ran or charged).
"""

from __future__ import annotations

from typing import Literal

import attrs

from campaign.engine.quick import quick_init

Aspect = Literal["front", "flank", "rear"]
RangeBand = Literal["short", "long", "out"]
LoS = Literal["open", "partial", "none"]

ASPECTS: tuple[str, ...] = ("front", "flank", "rear")
RANGE_BANDS: tuple[str, ...] = ("short", "long", "out")
LOS_VALUES: tuple[str, ...] = ("open", "partial", "none")


@quick_init
@attrs.frozen
class Situation:
    aspect: Aspect = "front"  # where the attacker sits, seen from the target
    range_band: RangeBand = "short"
    los: LoS = "open"
    ran: bool = False  # the attacker's unit runs this activation
    charging: bool = False  # the attacker's unit made contact with this activation's move
    moved: bool = False  # the attacking element moved this activation (Sharpshooter)
    attacker_effects: frozenset[str] = frozenset()  # spells on the attacker's unit
    target_effects: frozenset[str] = frozenset()  # spells on the target's unit
    target_prone: bool = False
    target_flying: bool = False  # airborne, hovering, or jumped in its latest move
