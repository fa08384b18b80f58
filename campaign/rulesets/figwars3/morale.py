"""Morale (spec 14, 9, PR-34, PR-35, PR-37, PR-40): panic level, the check's pool, results
and the status machine of withdrawing units."""

from __future__ import annotations

from collections.abc import Generator
from fractions import Fraction
from typing import Any, Literal

import attrs

from campaign.rulesets.figwars3.checks import pool_dist, roll_pool
from campaign.rulesets.figwars3.pool import p_total_at_least, successes
from campaign.rulesets.figwars3.rerolls import ReRoll

Status = Literal["normal", "falling_back", "retreating", "fled"]
RALLY_TARGET = 2
COHERENCY_TARGET = 1  # PR-34: a model out of coherency checks alone and needs one success

# 14.2: dice by current unit size.
SIZE_BONUS: tuple[tuple[int, int], ...] = ((1, 0), (6, 1), (11, 2), (16, 3))
PL_CASUALTY = 1
PL_HERO_DEATH = 2
PL_CONTROLLER_DEATH = 2
PL_HORRIFIC = 1


def size_bonus(models: int) -> int:
    out = 0
    for low, dice in SIZE_BONUS:
        if models >= low:
            out = dice
    return out


def never_checks(abilities: frozenset[str] | set[str], kind: str = "trooper", hero: bool = False) -> bool:
    """Vehicles, mecha, Fearless and Soulless units, arcane entities and heroes never check."""
    return hero or kind in ("vehicle", "mecha", "entity") or bool({"Fearless", "Soulless"} & set(abilities))


@attrs.frozen
class MoraleSituation:
    """What a unit brings to a morale roll (the table facts are the players')."""

    highest_tq: int
    models: int
    mounted: bool = False
    brave: bool = False
    grizzled: bool = False
    inspired: bool = False  # a hero in LOS or within 6" (PR-40: +1d once)
    out_of_coherency: bool = False  # PR-35: -1d on a compulsory check
    supporting_hero_tq: int | None = None  # a hero lends his TQ and re-roll (4.2)
    focus: bool = False  # PR-34: a TQ 0 model checking alone may Focus (+1d, one action)

    def terms(self, rally: bool = False) -> list[tuple[str, int]]:
        """The pool's parts; a rally is a voluntary check, so only the coherency penalty
        (on compulsory checks, PR-35) is left out."""
        tq = self.highest_tq
        if self.supporting_hero_tq is not None and self.supporting_hero_tq > tq:
            tq = self.supporting_hero_tq
        out = [("TQ", tq)]
        if size_bonus(self.models):
            out.append(("unit size", size_bonus(self.models)))
        if self.mounted:
            out.append(("mounted", 1))
        if self.brave:
            out.append(("Brave", 1))
        if self.inspired:
            out.append(("Inspires Bravery", 1))
        if self.out_of_coherency and not rally:
            out.append(("out of coherency", -1))
        if self.focus:
            out.append(("Focus", 1))
        return out

    def pool(self, rally: bool = False) -> int:
        return max(sum(d for _, d in self.terms(rally)), 0)

    def rerolls(self) -> list[str]:
        out = []
        if self.grizzled:
            out.append("Grizzled")
        if self.supporting_hero_tq is not None:
            out.append("hero")
        return out


def passes(faces: list[int] | tuple[int, ...], panic_level: int) -> bool:
    """A morale check passes with successes at least the panic level."""
    return successes(faces) >= panic_level


def rallies(faces: list[int] | tuple[int, ...]) -> bool:
    return successes(faces) >= RALLY_TARGET


def after_failed_check(status: Status, cowardly: bool = False) -> Status:
    """14.3: normal -> falling back (cowardly: retreating); falling back -> retreating."""
    if status == "normal":
        return "retreating" if cowardly else "falling_back"
    if status in ("falling_back", "retreating"):
        return "retreating"
    return status


def after_rally(status: Status) -> Status:
    """A successful rally steps back once: retreating -> falling back -> normal."""
    return {"retreating": "falling_back", "falling_back": "normal"}.get(status, status)  # type: ignore[return-value]


@attrs.frozen
class PanicLevel:
    """A unit's panic level this turn and whether it carries a morale marker."""

    value: int = 0
    marker: bool = False

    def add(self, amount: int) -> PanicLevel:
        return PanicLevel(self.value + amount, True)


def morale_phase_action(marker: bool, status: Status) -> str:
    """What a unit does in the morale phase: 'check' (compulsory), 'rally' (may try), or ''."""
    if marker:
        return "check"
    if status == "falling_back":
        return "rally"
    return ""


# 14.4: what a withdrawing unit must do with its movement.
WITHDRAWAL_MOVE: dict[str, str] = {"falling_back": "walk", "retreating": "run"}


def morale_roll(
    situation: MoraleSituation, panic_level: int, rally: bool = False
) -> Generator[Any, Any, tuple[bool, tuple[int, ...]]]:
    """Roll a morale check or a rally with its re-rolls: `(passed, faces) = yield from ...`."""
    what = "rally" if rally else f"morale check against PL {panic_level}"
    faces = yield from roll_pool(situation.pool(rally), what, _rerolls(situation))
    target = RALLY_TARGET if rally else panic_level
    return successes(faces) >= target, tuple(faces)


def p_pass(situation: MoraleSituation, panic_level: int, rally: bool = False) -> Fraction:
    """The exact chance that the check (or rally) passes, with the same re-rolls."""
    target = RALLY_TARGET if rally else panic_level
    return p_total_at_least(pool_dist(situation.pool(rally), _rerolls(situation)), target)


def _rerolls(situation: MoraleSituation) -> tuple[ReRoll, ...]:
    return tuple(ReRoll(source) for source in situation.rerolls())
