"""Exact VPs and points as Fractions: read from any number, and shown.

Flat Out War's unit VP is a quarter of a cost (ruling A-53), so VPs and banked points
are kept exact. Its own module, so the campaign records that hold such numbers do not
import the battle outcome records (campaign/outcome.py) with them.
"""

from __future__ import annotations

from fractions import Fraction


def as_fraction(value: object) -> Fraction:
    """`value` as a Fraction (an attrs converter: "45/2", 12, 12.25 and Fractions)."""
    return value if isinstance(value, Fraction) else Fraction(str(value))


def format_vp(vp: Fraction) -> str:
    """Exact quarters kept; shown as 12.25 or 12 (rounding only for display, A-53)."""
    if vp.denominator == 1:
        return str(vp.numerator)
    return f"{float(vp):g}"
