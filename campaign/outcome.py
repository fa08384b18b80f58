"""What a finished battle hands to the campaign.

The engine (through a ruleset's `outcome(state)` hook) builds a BattleOutcome; the
campaign's post-battle step reads it to score VPs, pick the winner and write losses
back into the forces. Plain data only: no engine state, no file I/O. VPs are exact
Fractions because Flat Out War's unit VP is a quarter of a cost (ruling A-53).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

import attrs

from campaign.frozen import frozen
from campaign.vp import as_fraction
from campaign.vp import format_vp as format_vp  # where the screens and commands find it

VPKind = Literal["unit", "objective", "other"]


@frozen
class VPLine:
    """One term of a side's VP total: "Eliminated Rippers (25% of 90)" = 45/2."""

    label: str
    vp: Fraction = attrs.field(converter=as_fraction)
    kind: VPKind = "unit"


@frozen
class Casualty:
    """Losses and lasting changes to one element entry of a side's force.

    `unit` and `element` are names as in the Force; `index` is the element's position
    in the unit (names may repeat). `lost` counts elements of the entry removed in this
    battle (on top of any lost before it); `state` holds lasting changes to merge into
    Element.state (a reduced die, spent uses...).
    """

    unit: str
    element: str
    index: int = 0
    lost: int = 0
    state: dict[str, int | str] = attrs.field(factory=dict)


@frozen
class SideOutcome:
    side: str
    vp_lines: tuple[VPLine, ...] = ()
    units_eliminated: tuple[str, ...] = ()  # this side's own units destroyed or fled
    casualties: tuple[Casualty, ...] = ()
    honours: dict[str, tuple[str, ...]] = attrs.field(factory=dict)  # unit name -> honours won

    @property
    def vp(self) -> Fraction:
        return sum((line.vp for line in self.vp_lines), Fraction(0))


@frozen
class BattleOutcome:
    """The result of one battle.

    `sides[i].vp_lines` are the VPs that side *earned* (for Flat Out War: a quarter of
    the cost of each enemy unit it eliminated, plus objectives it achieved).
    `sides[i].units_eliminated` and `casualties` are that side's *own* losses.
    `strategic_winner` is the side the players declare completed its scenario
    objective (a strategic victory beats VPs).
    """

    sides: tuple[SideOutcome, ...]
    rounds_played: int = 0
    end_reason: str = ""  # "round limit", "sudden death: aliens lost half their models"...
    strategic_winner: str | None = None
    digest: str = ""  # the battle's final state digest
    summary: str = ""  # one readable line, if the engine has one

    def side(self, side_id: str) -> SideOutcome:
        for side in self.sides:
            if side.side == side_id:
                return side
        raise KeyError(side_id)

    def vps(self) -> dict[str, Fraction]:
        return {side.side: side.vp for side in self.sides}

    def winner(self) -> str | None:
        """The declared strategic winner, else the single side with most VPs (None: a draw)."""
        if self.strategic_winner is not None:
            return self.strategic_winner
        vps = self.vps()
        if not vps:
            return None
        best = max(vps.values())
        leaders = [side for side, vp in vps.items() if vp == best]
        return leaders[0] if len(leaders) == 1 else None
