"""Seed 001's own arithmetic, as small pure functions (spec sections CA-1, CA-7, CA-8, CA-10, CA-11).

Nothing here knows a host ruleset or the engine: numbers in, numbers out. The
scheme (`scheme.py`) and its tests call these.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction

import attrs

from campaign.activation.cards.deck import DECK_SIZE

Inches = Fraction


def inches(value: object) -> Fraction:
    """A distance as typed or logged ("11.5", 12, 17.9) -> an exact Fraction; negatives refused."""
    if isinstance(value, bool):
        raise ValueError(f"distance must be a number of inches, not {value!r}")
    try:
        result = Fraction(str(value)) if not isinstance(value, Fraction) else value
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"distance must be a number of inches, not {value!r}") from None
    if result < 0:
        raise ValueError(f"distance cannot be negative ({value})")
    return result


# --- CA-1: how many cards each side gets --------------------------------------------------


def cards_for(units: int, largest_opponent: int, leadership_bonus: int = 0, rounding: str = "ceil") -> int:
    """CA-1.5: one card per unit; the strictly smaller side gets at least 3/4 of the
    largest opposing side (AMB-3, AMB-4), rounded per `rounding` (AMB-2); plus the
    field commander's leadership bonus (CA-1.4)."""
    n = units
    if units < largest_opponent:
        q = Fraction(3 * largest_opponent, 4)
        n = max(units, math.ceil(q) if rounding == "ceil" else math.floor(q))
    return n + max(0, leadership_bonus)


@attrs.define(frozen=True)
class DealPlan:
    counts: dict[str, int]  # side -> cards dealt, in dealing order
    use_chits: bool  # more cards needed than the deck holds (CA-1.6, AMB-5)
    deck_size: int

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def plan_deal(
    unit_counts: Mapping[str, int],
    leadership: Mapping[str, int],
    rounding: str = "ceil",
    jokers: int = 0,
) -> DealPlan:
    """Cards per side for this turn's deal; switches to chits 1..N when one deck is short."""
    counts = {}
    for side, n in unit_counts.items():
        others = [m for s, m in unit_counts.items() if s != side]
        counts[side] = cards_for(n, max(others, default=0), leadership.get(side, 0), rounding)
    total = sum(counts.values())
    deck = DECK_SIZE + jokers
    if total > deck:
        return DealPlan(counts, True, total)
    return DealPlan(counts, False, deck)


# --- CA-7: overwatch -----------------------------------------------------------------------


def overwatch_minimum(ap_max: int) -> int:
    """CA-7.1: half the unit's actions, rounded up, must still be left."""
    return math.ceil(ap_max / 2)


def may_overwatch(ap_left: int, ap_max: int) -> bool:
    return ap_left >= overwatch_minimum(ap_max)


# --- CA-11.3: target movement --------------------------------------------------------------


def target_move_penalty(moved: object) -> int:
    """-1 per full 6" beyond the first 6" (AMB-16): 0-11.99 -> 0, 12-17.99 -> -1, 18 -> -2."""
    d = inches(moved)
    return -max(0, math.floor(d / 6) - 1)


# --- CA-8: charges -------------------------------------------------------------------------


@attrs.define(frozen=True)
class Step:
    """One action of the activation so far. For a Move, the players' table facts."""

    kind: str  # "move", "melee", "ballistic", "special", "prep", "aim", "cast", "rally", "free_melee"
    inches: Fraction = Fraction(0)
    straight: bool = False  # a straight line toward the enemy unit
    contact: bool = False  # ended in contact with an enemy unit
    uninterrupted: bool = True  # no pause in the path (an enemy overwatch interrupt does not count, AMB-13)


@attrs.define(frozen=True)
class Charge:
    by_distance: bool  # (a) at least 8" of uninterrupted straight movement into contact
    by_two_moves: bool  # (b) two consecutive straight Move actions into contact

    @property
    def bonus(self) -> int:
        """+1 once, even if both kinds apply (AMB-14)."""
        return 1 if (self.by_distance or self.by_two_moves) else 0

    @property
    def free_melee(self) -> bool:
        """Only the two-move kind earns the free melee action (CA-8.3)."""
        return self.by_two_moves

    @property
    def kind(self) -> str:
        if self.by_distance and self.by_two_moves:
            return "both"
        return "two_moves" if self.by_two_moves else "distance" if self.by_distance else "none"


NO_CHARGE = Charge(False, False)
CHARGE_DISTANCE = Fraction(8)


def classify_charge(actions: Sequence[Step]) -> Charge:
    """Classify the activation's latest action (CA-8.2).

    `actions` is this activation's steps so far, oldest first. Only the trailing run of
    consecutive straight Move steps counts, and the last must make contact.
    """
    if not actions or actions[-1].kind != "move" or not actions[-1].contact:
        return NO_CHARGE
    run: list[Step] = []  # trailing consecutive straight moves, newest first
    for step in reversed(actions):
        if step.kind != "move" or not step.straight:
            break
        run.append(step)
    # (a) counts straight distance back to the first break in the path: a move the
    # players flag as interrupted ends the measurement (it does not count itself).
    distance = Fraction(0)
    for step in run:
        if not step.uninterrupted:
            break
        distance += step.inches
    by_distance = distance >= CHARGE_DISTANCE
    by_two_moves = len(run) >= 2
    return Charge(by_distance, by_two_moves)


# --- CA-10.2 / CA-11.4: the flat modifier handed to the host ---------------------------------


@attrs.define(frozen=True)
class FlatModifier:
    """The seed-001 modifiers of one attack, itemised so the UI can explain the total."""

    previous_actions: int = 0  # -1 each (CA-10.2, CA-11.4)
    charge: int = 0  # +1 (CA-8.3)
    target_movement: int = 0  # <= 0 (CA-11.3)
    aim: int = 0  # +1 (AMB-24)

    @property
    def total(self) -> int:
        return -self.previous_actions + self.charge + self.target_movement + self.aim

    def lines(self) -> list[tuple[str, int]]:
        out = []
        if self.previous_actions:
            out.append((f"{self.previous_actions} previous action(s)", -self.previous_actions))
        if self.charge:
            out.append(("charge", self.charge))
        if self.target_movement:
            out.append(("target movement", self.target_movement))
        if self.aim:
            out.append(("aim", self.aim))
        return out


# --- CA-11.2: PREP --------------------------------------------------------------------------


def prep_ticks(action_kind: str, counts: str = "prep_only") -> bool:
    """Whether an action counts down outstanding PREP (AMB-17): only Special "prep"
    actions by default, any action with `prep_counts = "any_action"`."""
    return action_kind == "prep" or counts == "any_action"


# --- CA-12.3: multi-turn casting ------------------------------------------------------------


@attrs.define(frozen=True)
class CastProgress:
    power: str
    paid: int
    cost: int

    @property
    def complete(self) -> bool:
        return self.paid >= self.cost


def pay_cast(progress: CastProgress | None, power: str, cost: int) -> CastProgress:
    """Pay one action toward `power`; switching power starts again from zero (AMB-23)."""
    if progress is None or progress.power != power:
        return CastProgress(power, 1, cost)
    return CastProgress(power, progress.paid + 1, cost)
