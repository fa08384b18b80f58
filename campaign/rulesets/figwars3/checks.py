"""Single-pool rolls and small tables (spec 2.4, 2.5, 4.3, 11.10, 11.18-11.22, 12):
skill checks, Dodge, the medic's treatment, the jump-pack landing table, out of ammo,
firing into a melee, blast deviation and the grenade's short fall.

Each roll is a generator (`yield from`) so table dice, auto dice and replay agree, and
each has an exact chance beside it computed from the same pool and re-rolls.
"""

from __future__ import annotations

from collections.abc import Generator
from fractions import Fraction
from typing import Any

from campaign.engine.dice import roll as request_roll
from campaign.rulesets.figwars3.pool import CountsDist, p_total_at_least, pool_counts, successes
from campaign.rulesets.figwars3.rerolls import ReRoll, apply_dist, apply_face, pick_index

DODGE_TARGET = {"normal": 2, "explosive": 3}  # Moderate; Hard against explosive or spray weapons


def check_pool(tq: int, focus: bool = False) -> int:
    """A skill check rolls TQ dice, +1d after a Focus (2.4); TQ 0 needs the Focus."""
    return tq + (1 if focus else 0)


def roll_pool(dice: int, purpose: str, rerolls: tuple[ReRoll, ...] = ()) -> Generator[Any, Any, list[int]]:
    """The faces of a pool of `dice` d6 (none for 0) after its re-rolls, each re-roll
    asked for as its own die."""
    faces: list[int] = []
    if dice > 0:
        faces = list((yield from request_roll(6, dice, purpose)))
    for reroll in rerolls:
        index = pick_index(faces, reroll)
        if index is not None:
            (new,) = yield from request_roll(6, 1, f"re-roll ({reroll.source}): {purpose}")
            faces = apply_face(faces, index, new, reroll)
    return faces


def pool_dist(dice: int, rerolls: tuple[ReRoll, ...] = ()) -> CountsDist:
    """The exact distribution of what `roll_pool` gives, with the same re-rolls."""
    dist = pool_counts(dice)
    for reroll in rerolls:
        dist = apply_dist(dist, reroll)
    return dist


def skill_check(
    dice: int, target: int, purpose: str, rerolls: tuple[ReRoll, ...] = ()
) -> Generator[Any, Any, tuple[bool, int]]:
    """(passed, successes) of a check needing `target` successes."""
    got = successes((yield from roll_pool(dice, purpose, rerolls)))
    return got >= target, got


def p_check(dice: int, target: int, rerolls: tuple[ReRoll, ...] = ()) -> Fraction:
    return p_total_at_least(pool_dist(dice, rerolls), target)


def dodge(tq: int, explosive: bool) -> Generator[Any, Any, bool]:
    """Dodge (4.3): a check against 2 (3 vs explosive or spray), never re-rolled; a pass
    cancels every DP of the attack (PR-61), not its pins or stun."""
    passed, _ = yield from skill_check(tq, DODGE_TARGET["explosive" if explosive else "normal"], "Dodge")
    return passed


def medic_heal(successes_rolled: int, stunned: bool = False, clear_stun: bool = False) -> tuple[int, bool]:
    """(DP restored, stun removed) for a treatment's successes (4.3 Medic, PR-62): one
    success may clear a stun, the rest heal 1 DP per two, rounded up."""
    if successes_rolled < 1:
        return 0, False
    left = successes_rolled
    removed = False
    if stunned and clear_stun:
        left -= 1
        removed = True
    return (left + 1) // 2, removed


# Jump pack landing (4.3 #16): successes -> result on normal / difficult ground.
LANDING: dict[str, tuple[str, str, str, str]] = {
    "normal": ("1 DP", "pinned", "no effect", "no effect"),
    "difficult": ("3 DP", "1 DP", "pinned", "no effect"),
}


def landing(successes_rolled: int, ground: str) -> str:
    return LANDING[ground][min(successes_rolled, 3)]


OUT_OF_AMMO_FACES = (1, 2, 3)  # optional rule (11.22): a zero-success roll, then 1d8 of 1-3 empties it

# Firing into a melee (11.10): the highest d8 face that hits the first-named model.
INTO_MELEE: dict[str, int] = {"side_view": 4, "partly_hidden": 6, "fully_hidden": 7}


def into_melee_target(face: int, view: str, nearer_much_larger: bool = False) -> str:
    """'first' (the left or nearer model) or 'second' (the right or hidden one)."""
    roll = face - (1 if nearer_much_larger else 0)
    if nearer_much_larger and view == "fully_hidden":
        return "first"  # the hidden model cannot be hit
    return "first" if roll <= INTO_MELEE[view] else "second"


DEVIATION_INCHES: dict[str, int] = {"point_blank": 2, "short": 2, "long": 4, "extreme": 6}


def deviation(band: str) -> Generator[Any, Any, tuple[int, int]]:
    """(direction 1-8, inches) of a blast that missed its point (11.18)."""
    (direction,) = yield from request_roll(8, 1, "deviation direction (1d8 arrow)")
    return direction, DEVIATION_INCHES[band]


def d4() -> Generator[Any, Any, int]:
    """The source's 1d4: a d8 halved, rounded up."""
    (face,) = yield from request_roll(8, 1, "1d4 (a d8 halved)")
    return (face + 1) // 2


def grenade_short_fall() -> Generator[Any, Any, int]:
    """A grenade that missed falls 1d4\" short, back along its line (11.20)."""
    return (yield from d4())


def flight_lift_off(face: int) -> bool:
    """Engaged in melee, a flier escapes on a d8 of 7-8, never re-rolled (4.3 #11)."""
    return face >= 7
