"""Special attributes as data (DP-2): each special switches on named hooks.

The rulebook excerpt only names its specials; what they do lives in parts of the game we
do not have ([B]). DP-2 says a special overrides any rule that looks absolute, so the
rules ask `has_hook(specials, HOOK)` at each point a special may change them, and a
special here is nothing but a name, the hooks it switches on, and a line of help. A
force may name a special this catalogue lacks: it is kept, flagged by validation, and
switches nothing on.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

# The hook points: where the rules consult a model's specials.
BREAKS_SPEED_LIMIT = "breaks_speed_limit"  # DP-8.2: no 18" cap on a single move
JUMPS = "jumps"  # DP-8.3, DP-13.4: a straight move over everything; op fire along the path
MACHINE = "machine"  # DP-9.2/9.3: may run away although Fearless; no check after running
NO_MORALE = "no_morale"  # never checks morale, never takes a marker
NO_RUN_AWAY = "no_run_away"  # may not choose to run away
OBLIGATORY_TARGET = "obligatory_target"  # DP-12.3: must attack its obligatory targets first
ATTACKS_AFTER_MOVING = "attacks_after_moving"  # DP-10.1: eligible in the stationary phase anyway
INTERPHASE = "interphase"  # DP-3 phase 4: activates in the specials interphase
MULTI_TARGET = "multi_target"  # DP-10.3: may split its dice between targets
FIRE_THROUGH_FRIENDS = "fire_through_friends"  # DP-14.2 A
BLOCKS_FIRE_THROUGH = "blocks_fire_through"  # DP-14.2: hostile fire may not pass through it

HOOKS = (
    BREAKS_SPEED_LIMIT,
    JUMPS,
    MACHINE,
    NO_MORALE,
    NO_RUN_AWAY,
    OBLIGATORY_TARGET,
    ATTACKS_AFTER_MOVING,
    INTERPHASE,
    MULTI_TARGET,
    FIRE_THROUGH_FRIENDS,
    BLOCKS_FIRE_THROUGH,
)


@attrs.frozen
class Special:
    name: str
    hooks: frozenset[str]
    help: str
    rule: str  # where the rules name it
    ours: bool = False  # True: what it does is our ruling, not the source's (it only names it)


def _s(name: str, hooks: Iterable[str], help: str, rule: str, ours: bool = False) -> Special:
    return Special(name, frozenset(hooks), help, rule, ours)


CATALOGUE: tuple[Special, ...] = (
    _s("Jump", (JUMPS, BREAKS_SPEED_LIMIT), "moves in a straight line over terrain and models", "DP-8.3"),
    _s("Flyer", (BREAKS_SPEED_LIMIT,), "exempt from the 18-inch limit", "DP-8.2"),
    _s("Hover", (BREAKS_SPEED_LIMIT,), "exempt from the 18-inch limit", "DP-8.2"),
    _s("Teleport", (BREAKS_SPEED_LIMIT,), "teleported moves ignore the 18-inch limit", "DP-8.2"),
    _s("Breaks Speed Limit", (BREAKS_SPEED_LIMIT,), "exempt from the 18-inch limit", "DP-8.2"),
    _s("Machine", (MACHINE,), "may run away even when Fearless; no morale check for running", "DP-9"),
    _s(
        "Mindless",
        (NO_MORALE, NO_RUN_AWAY),
        "our reading: takes no morale checks and never runs away",
        "DP-5.2 option 6",
        ours=True,
    ),
    _s(
        "Obligatory Target",
        (OBLIGATORY_TARGET,),
        "must attack its obligatory targets before any other",
        "DP-12.3",
    ),
    _s("Smoke", (INTERPHASE,), "activates in the specials interphase", "DP-3"),
    _s("Gas", (INTERPHASE,), "activates in the specials interphase", "DP-3"),
    _s("Fog", (INTERPHASE,), "activates in the specials interphase", "DP-3"),
    _s("Cloaking", (INTERPHASE,), "activates in the specials interphase", "DP-3"),
    _s("Fire On The Move", (ATTACKS_AFTER_MOVING,), "may attack in the stationary phase after moving", "DP-10.1", ours=True),
    _s("Multi-target", (MULTI_TARGET,), "may divide its attack dice between targets", "DP-10.3"),
    _s("Fire Through Friends", (FIRE_THROUGH_FRIENDS,), "may fire through friendly models", "DP-14.2"),
    _s("Blocks Fire", (BLOCKS_FIRE_THROUGH,), "hostile fire may not pass through it", "DP-14.2", ours=True),
)

_BY_KEY = {s.name.casefold(): s for s in CATALOGUE}


def special(name: str) -> Special | None:
    """The catalogue entry for a special as written in a force ("jump", "Jump 12" -> Jump)."""
    key = name.strip().casefold()
    if key in _BY_KEY:
        return _BY_KEY[key]
    # "Jump 12\"": a value after the name belongs to the special, not to its identity
    head = key.rsplit(" ", 1)[0] if " " in key else key
    return _BY_KEY.get(head)


def hooks_of(specials: Iterable[str]) -> frozenset[str]:
    out: set[str] = set()
    for name in specials:
        found = special(name)
        if found:
            out |= found.hooks
    return frozenset(out)


def has_hook(specials: Iterable[str], hook: str) -> bool:
    return hook in hooks_of(specials)


def unknown_specials(specials: Iterable[str]) -> list[str]:
    return [name for name in specials if special(name) is None]
