"""The twelve spells (powers in Special Operations), rules spec section 14.1.

Both editions print the same figures. `difficulty` is the printed penalty's size
(A-33: -2 means -2 on the casting roll); for the Magic budget a -0 spell counts 1.
Summaries are Muster's own one-liners.
"""

from __future__ import annotations

import difflib
from typing import Literal

from campaign.frozen import frozen
from campaign.rulesets.flat_out_war.editions import MAGIC_BUDGET

Duration = int | Literal["instant", "permanent"]


@frozen
class SpellSpec:
    name: str
    difficulty: int  # magnitude of the casting penalty (Zap: 0)
    range: int | None  # inches; None: no range (Summon)
    duration: Duration  # player-turns, "instant" or "permanent"
    template: int | None  # burst template diameter in inches, None if none
    needs_los: bool  # only spells that use the ranged-attack procedure
    summary: str
    res: Literal["E", "T", "M"]

    @property
    def budget_cost(self) -> int:
        """What the spell uses of a Magic element's budget (a -0 spell counts 1)."""
        return max(self.difficulty, 1)


SPELLS: tuple[SpellSpec, ...] = (
    SpellSpec("Fast", 1, 8, 4, None, False, "The target unit gets +2 MOVE while it lasts.", "E"),
    SpellSpec("Fireball", 2, 6, "instant", 2, True,
              "Shot like a ranged attack; on a success every element under a 2\" template is hit.", "M"),
    SpellSpec("Fly", 4, 8, 8, None, False,
              "The target unit can fly while it lasts; any still airborne when it ends may crash.", "M"),
    SpellSpec("Ironwill", 1, 8, 4, None, False, "The target unit gets +2 on morale rolls.", "E"),
    SpellSpec("Shield", 2, 8, 4, None, False, "Attacks against the target unit take -2.", "E"),
    SpellSpec("Slow", 1, 8, 4, None, False, "The target unit gets -2 MOVE while it lasts.", "E"),
    SpellSpec("Strengthen", 3, 8, 6, None, False, "The target unit gets +2 to melee and ranged attacks.", "E"),
    SpellSpec("Summon", 4, None, "permanent", None, False,
              "A plain d4 trooper appears by the caster; every full 2 over 4 on the roll raises its die a step.",
              "M"),
    SpellSpec("Teleport", 4, 24, "instant", None, False,
              "Moves one unit in range to any spot within range.", "T"),
    SpellSpec("Terrify", 1, 8, 4, None, False,
              "The target unit gets -2 on morale rolls ([SO] Unfeeling elements ignore it).", "E"),
    SpellSpec("Weaken", 3, 8, 6, None, False, "The target unit gets -2 to melee and ranged attacks.", "E"),
    SpellSpec("Zap", 0, 8, "instant", None, True,
              "Shot like a ranged attack; the target's recovery roll for the hit takes -2 more.", "M"),
)
SPELL_NAMES: tuple[str, ...] = tuple(s.name for s in SPELLS)
_BY_KEY = {s.name.lower(): s for s in SPELLS}


def spell(name: str) -> SpellSpec:
    """The spell with this name (any case); KeyError if there is none."""
    return _BY_KEY[name.strip().lower()]


def suggest_spell(name: str) -> str | None:
    close = difflib.get_close_matches(name.strip().lower(), list(_BY_KEY), n=1, cutoff=0.6)
    return _BY_KEY[close[0]].name if close else None


def budget_used(names: tuple[str, ...] | list[str]) -> int:
    """Budget used by the known spells in `names` (unknown names are skipped)."""
    return sum(_BY_KEY[n.strip().lower()].budget_cost for n in names if n.strip().lower() in _BY_KEY)


def within_budget(names: tuple[str, ...] | list[str]) -> bool:
    return budget_used(names) <= MAGIC_BUDGET
