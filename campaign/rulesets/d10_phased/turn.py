"""The turn: its phases, initiative with the catch-up bonus, Super Initiative and the
turn templates (DP-3, DP-4, DP-5, section 3.2).

The templates are data: which phases each keeps, who moves first, and the flags it
sets for the turn (no op fire, everyone stationary, everyone mindless, everyone tests).
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import Any

import attrs

from campaign.engine.dice import roll
from campaign.rulesets.d10_phased.rolls import DIE, success

MOVE_FIRST = "move_first"
MOVE_SECOND = "move_second"
SPECIALS = "specials"
STATIONARY_ATTACK = "stationary_attack"
MORALE_1 = "morale_1"
MOVING_ATTACK = "moving_attack"
MORALE_2 = "morale_2"
PANIC = "panic"  # Wide Spread Panic's single morale phase

# DP-3, as printed (no phase 6: AMB-1)
PHASES: tuple[str, ...] = (MOVE_FIRST, MOVE_SECOND, SPECIALS, STATIONARY_ATTACK, MORALE_1, MOVING_ATTACK, MORALE_2)
PHASE_NUMBERS = {MOVE_FIRST: 2, MOVE_SECOND: 3, SPECIALS: 4, STATIONARY_ATTACK: 5, MORALE_1: 7, MOVING_ATTACK: 8, MORALE_2: 9}
PHASE_NAMES = {
    MOVE_FIRST: "First movement",
    MOVE_SECOND: "Second movement",
    SPECIALS: "Specials interphase",
    STATIONARY_ATTACK: "Stationary attack",
    MORALE_1: "Morale 1",
    MOVING_ATTACK: "Moving attack",
    MORALE_2: "Morale 2",
    PANIC: "Wide Spread Panic",
}
ATTACK_PHASES = (STATIONARY_ATTACK, MOVING_ATTACK)
MORALE_PHASES = (MORALE_1, MORALE_2, PANIC)
MOVE_PHASES = (MOVE_FIRST, MOVE_SECOND)

# Who moves first: the holder, the other side, or a choice of the holder or of the opponent.
HOLDER = "holder"
OTHER = "other"
HOLDER_CHOOSES = "holder_chooses"
OPPONENT_CHOOSES = "opponent_chooses"


@attrs.frozen
class Template:
    id: str
    number: int | None  # its number on the Super Initiative list (DP-5.2)
    name: str
    phases: tuple[str, ...]
    first: str | None  # HOLDER, OTHER, HOLDER_CHOOSES, OPPONENT_CHOOSES; None: nobody moves
    op_fire: bool = True
    all_stationary: bool = False
    mindless: bool = False  # all but one model per unit (DP-5.2 option 6)
    all_test: bool = False  # every model tests morale, the normally exempt included


_NO_MOVES = tuple(p for p in PHASES if p not in MOVE_PHASES)

NORMAL_H_FIRST = Template("normal", None, "Normal turn", PHASES, HOLDER)
SUPER_FAILED = Template("super_failed", None, "Normal turn after a failed Super Initiative", PHASES, OPPONENT_CHOOSES)
SUPER_TEMPLATES: tuple[Template, ...] = (
    Template("normal_move_second", 1, "Normal turn, move second", PHASES, OTHER),
    # AMB-7: both morale phases kept; nothing moves, so no op fire
    Template("mad_minute", 2, "Mad Minute", tuple(p for p in _NO_MOVES if p != MOVING_ATTACK), None, op_fire=False, all_stationary=True),
    Template("rush", 3, "Rush", tuple(p for p in PHASES if p not in ATTACK_PHASES), HOLDER_CHOOSES, op_fire=False),
    Template("heat_of_battle", 4, "Heat of Battle", tuple(p for p in PHASES if p not in MORALE_PHASES), HOLDER),
    Template("hurry_up_and_wait", 5, "Hurry Up and Wait", (), None),
    Template("senseless_slaughter", 6, "Senseless Slaughter", PHASES, HOLDER_CHOOSES, mindless=True),
    Template("wide_spread_panic", 7, "Wide Spread Panic", (PANIC,), None, all_test=True),
    Template("normal_move_first", 8, "Normal turn, move first", PHASES, HOLDER),
)
TEMPLATES: dict[str, Template] = {t.id: t for t in (NORMAL_H_FIRST, SUPER_FAILED, *SUPER_TEMPLATES)}
BY_NUMBER: dict[int, Template] = {t.number: t for t in SUPER_TEMPLATES if t.number is not None}


def initiative_totals(faces: Mapping[str, int], streaks: Mapping[str, int]) -> dict[str, int]:
    """DP-4.1: each side's d10 plus 2 for every initiative it has lost in a row."""
    return {side: face + 2 * streaks.get(side, 0) for side, face in faces.items()}


def initiative_winner(faces: Mapping[str, int], streaks: Mapping[str, int]) -> str | None:
    """The side with the higher total, or None on a tie (re-rolled, AMB-3)."""
    totals = initiative_totals(faces, streaks)
    best = max(totals.values())
    leaders = [side for side, total in totals.items() if total == best]
    return leaders[0] if len(leaders) == 1 else None


def roll_initiative(
    sides: tuple[str, str], streaks: Mapping[str, int], names: Mapping[str, str] | None = None
) -> Generator[Any, Any, str]:
    """Roll off until a side wins; ties re-roll with the same bonuses. `names`: how the
    dice prompts name the sides."""
    while True:
        faces = {}
        for side in sides:
            who = (names or {}).get(side, side)
            (faces[side],) = yield from roll(DIE, 1, f"initiative, {who} (+{2 * streaks.get(side, 0)})", side)
        winner = initiative_winner(faces, streaks)
        if winner is not None:
            return winner


def super_succeeds(face: int) -> bool:
    """DP-5.1 with AMB-6: an unmodified d10, 5 or better."""
    return success(face, 0)


def updated_streaks(streaks: Mapping[str, int], holder: str) -> dict[str, int]:
    """DP-4.3: the holder's streak resets, every other side's grows by one."""
    return {side: 0 if side == holder else n + 1 for side, n in streaks.items()}


@attrs.frozen
class TurnPlan:
    holder: str  # who holds initiative once Super Initiative is settled (AMB-4)
    template: Template
    first: str | None  # the first mover; None until a choice is made, or nobody moves
    chooser: str | None = None  # who must choose the first mover, if anyone

    @property
    def opens_attacks(self) -> str | None:
        """Who opens each attack phase: the first mover, or the holder when nobody moved (AMB-7)."""
        return self.first or self.holder


def other_side(sides: tuple[str, str], side: str) -> str:
    return sides[1] if side == sides[0] else sides[0]


def plan_turn(sides: tuple[str, str], winner: str, template: Template, choice: str | None = None) -> TurnPlan:
    """Who holds initiative and moves first under a template (`choice`: the chosen first mover)."""
    holder = other_side(sides, winner) if template is SUPER_FAILED else winner
    other = other_side(sides, holder)
    if template.first == HOLDER:
        return TurnPlan(holder, template, holder)
    if template.first == OTHER:
        return TurnPlan(holder, template, other)
    if template.first in (HOLDER_CHOOSES, OPPONENT_CHOOSES):
        # after a failed super, the opponent now holds initiative and chooses (DP-5.3)
        if choice is not None and choice not in sides:
            raise ValueError(f"the first mover must be one of {', '.join(sides)}, not {choice!r}")
        return TurnPlan(holder, template, choice, chooser=holder)
    return TurnPlan(holder, template, None)
