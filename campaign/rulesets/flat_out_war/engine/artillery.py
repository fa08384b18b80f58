"""Artillery and templates (spec sections 16 and 17): scatter, bounce, template rolls.

The engine never handles geometry: players report which elements a template, a
moved marker or a bounce path covers. This module holds the tables and decides
which covered elements are rolled against (or hit outright).
"""

from __future__ import annotations

from typing import Literal, Sequence

import attrs

from campaign.engine.quick import quick_init

TemplateMode = Literal["roll_each", "auto_hit"]

SCATTER_DISTANCE = 6
# Inaccurate: d4 -> where the marker moves (6 inches each way)
SCATTER_TABLE: dict[int, str] = {1: "right", 2: "left", 3: "short", 4: "long"}

# Linear Artillery: d6 -> inches travelled on (None: it stops)
BOUNCE_TABLE: dict[int, int | None] = {1: None, 2: None, 3: 4, 4: 4, 5: 8, 6: 8}

TEMPLATE_SIZES: tuple[str, ...] = ("2", "4", "6", "flame")


def scatter(face: int) -> str:
    """The marker's move for a d4 face, as text: '6 inches right'."""
    return f"{SCATTER_DISTANCE} inches {SCATTER_TABLE[face]}"


def bounce(face: int) -> int | None:
    return BOUNCE_TABLE[face]


@quick_init
@attrs.frozen
class Covered:
    """An element under a template or along a path, as the players report it."""

    unit: str
    element: str
    friendly: bool  # belongs to the attacker's side


@quick_init
@attrs.frozen
class TemplatePlan:
    rolled: tuple[Covered, ...]  # each gets its own attack roll
    auto_hits: tuple[Covered, ...]  # each takes a hit without a roll


def template_plan(
    covered: Sequence[Covered],
    *,
    mode: TemplateMode,
    friendly_fire: bool,
    aimed_at: Covered | None = None,
    auto_hit_spell: bool = False,
    scattered: bool = False,
) -> TemplatePlan:
    """Who is rolled against after a burst template lands (A-20).

    `roll_each`: the aiming roll counts for the element the marker was on; every
    other covered element gets its own roll. `auto_hit`: every covered element takes
    a hit. Friendly elements are left out unless `template_friendly_fire`; a
    scattered shot (Inaccurate) and Fireball (A-38) hit friend or foe."""
    hit_friends = friendly_fire or scattered or auto_hit_spell
    pool = tuple(c for c in covered if hit_friends or not c.friendly)
    if auto_hit_spell or mode == "auto_hit":
        return TemplatePlan((), pool)
    if aimed_at is not None and not scattered:
        rest = tuple(c for c in pool if c != aimed_at)
        autos = (aimed_at,) if aimed_at in pool else ()
        return TemplatePlan(rest, autos)
    return TemplatePlan(pool, ())
