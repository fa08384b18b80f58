"""The range of each number in a Flat Out War profile, as data.

The rulebooks fix no upper limits, so these are the sane ones: a MOVE or a range
longer than any table, or a thousand identical elements in one entry, is a typing
slip or a damaged file, and pricing it would only give nonsense. Kept next to the
field names so they can move into typed field specs unchanged.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Bound:
    low: int
    high: int
    rule: str  # the section that defines the field
    label: str  # how findings name it


FIELD_BOUNDS: dict[str, Bound] = {
    "force.points_limit": Bound(0, 100_000, "FOW 19 points limit", "points limit"),
    "element.count": Bound(1, 200, "FOW 1", "count"),
    "element.move": Bound(0, 48, "FOW 19.1", "MOVE"),  # inches; four feet of table
    "element.lost": Bound(0, 200, "FOW 17", "lost"),
    "weapon.range": Bound(0, 120, "FOW 19.4", "range"),  # inches; ten feet of table
}


def out_of_bounds(field: str, value: int | None) -> str | None:
    """What is wrong with `value` for `field` ("element.move"...), or None when it is fine."""
    bound = FIELD_BOUNDS[field]
    if value is None or bound.low <= value <= bound.high:
        return None
    if value < bound.low == 0:
        return f"{bound.label} cannot be negative ({value})"
    if value < bound.low:
        return f"{bound.label} must be at least {bound.low}, not {value}"
    return f"{bound.label} must be at most {bound.high}, not {value}"
