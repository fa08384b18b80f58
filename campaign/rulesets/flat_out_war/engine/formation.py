"""A tight unit's formation (spec 5.1, FOW "Cohesion"): a line of one rank, or two ranks
with more than 5 elements; a column of one file, or two files with more than 5. Only the
first rank fights in melee, only the first two ranks shoot."""

from __future__ import annotations

from math import ceil
from typing import Literal

FORMATIONS: tuple[str, ...] = ("line", "column")
DEPTHS: tuple[str, ...] = ("single", "double")  # one rank (line) or file (column), or two
DOUBLE_MIN = 6  # two ranks or files only with more than 5 elements

Kind = Literal["melee", "shoot"]


def rank_sizes(count: int, formation: str, depth: str) -> list[int]:
    """Elements in each rank, front to back, split as evenly as possible (the front
    rank takes the odd one)."""
    if count <= 0:
        return []
    double = depth == "double" and count >= DOUBLE_MIN
    if formation == "column":
        width = 2 if double else 1
        return [min(width, count - i) for i in range(0, count, width)]
    if double:
        front = ceil(count / 2)
        return [front, count - front]
    return [count]


def fighting_ranks(count: int, formation: str, depth: str, kind: Kind) -> int:
    """How many elements may attack: the first rank in melee, the first two shooting."""
    ranks = rank_sizes(count, formation, depth)
    return sum(ranks[: 1 if kind == "melee" else 2])


def depth_problem(count: int, depth: str) -> str | None:
    if depth == "double" and count < DOUBLE_MIN:
        return f"only a unit of more than 5 elements may form two ranks or files ({count} here)"
    return None
