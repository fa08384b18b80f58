"""Victory points (spec section 18): exact quarters of creation cost (A-53)."""

from __future__ import annotations

from fractions import Fraction


def unit_vp(creation_cost: float | int | Fraction, *, summoned: bool = False) -> Fraction:
    """25% of an eliminated unit's creation cost, kept exact; summoned units are worth 0."""
    if summoned:
        return Fraction(0)
    return Fraction(creation_cost).limit_denominator(1000) / 4


def display_vp(value: Fraction) -> str:
    """Rounded only for display: '50', '12.25'."""
    return f"{float(value):g}"
