"""Morale (DP-18): who owes a check, the unit die, the individual table, markers,
rallies, characters, leaders, and a whole morale phase (Wide Spread Panic included).
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from fractions import Fraction
from math import floor
from typing import Any

import attrs

from campaign.engine.dice import roll
from campaign.rulesets.d10_phased.specials import NO_MORALE, has_hook
from campaign.rulesets.d10_phased.state import PINNED, ROUTED, ModelState, Roster, UnitState

FEARLESS, AVERAGE, COWARDLY = "fearless", "average", "cowardly"
THRESHOLD = {AVERAGE: Fraction(1, 2), COWARDLY: Fraction(3, 10)}  # DP-18.2
UNAFFECTED = "unaffected"
# DP-18.3 with AMB-24: the largest standard die that does not exceed the original models
UNIT_DICE = ((20, 20), (12, 12), (10, 10), (8, 8), (6, 6), (4, 4), (3, 3), (2, 2))


def unit_die(original_models: int) -> int | None:
    """The unit check's die; None for a one-model unit (straight to the individual table)."""
    for at_least, die in UNIT_DICE:
        if original_models >= at_least:
            return die
    return None


def unit_passes(face: int, models_left: int) -> bool:
    """DP-18.4: below the models left passes; equal or above fails (AMB-24)."""
    return face < models_left


def threshold_met(grade: str, destroyed_hits: int, original_hits: int) -> bool:
    """AMB-23: destroyed absorbable hits >= floor(pct x original total)."""
    pct = THRESHOLD.get(grade)
    return pct is not None and destroyed_hits >= floor(pct * original_hits)


def owes_unit_check(unit: UnitState, roster: Roster, enemy_within_6: bool = False, mode: str = "or") -> bool:
    """DP-18.2 (AMB-22): the grade's triggers, read with "or" (default) or "and"."""
    if unit.grade == FEARLESS:
        return False
    standing = threshold_met(unit.grade, roster.destroyed_hits(unit.id), unit.original_hits)
    if unit.grade == AVERAGE:
        event = unit.hit_since_morale
    else:
        event = unit.attacked_since_morale or enemy_within_6
    return (event and standing) if mode == "and" else (event or standing)


def character_owes(unit: UnitState, model: ModelState, enemy_within_6: bool = False) -> bool:
    """DP-18.7: Average checks when aimed at with more dice than its save dice (per phase);
    Cowardly when attacked or an enemy is within 6 inches; Fearless never."""
    if unit.grade == AVERAGE:
        return model.attacked_by > model.save
    if unit.grade == COWARDLY:
        return unit.attacked_since_morale or enemy_within_6
    return False


def individual_result(face: int, modifier: int, die: int = 10) -> str:
    """DP-18.5 table: 2 or less routed, 3-8 pinned, 9+ unaffected. On a d10 a natural 1
    routs and a natural 10 is unaffected (AMB-25); the d6 setting has no naturals."""
    if die == 10 and face == 1:
        return ROUTED
    if die == 10 and face == 10:
        return UNAFFECTED
    score = face + modifier
    if score <= 2:
        return ROUTED
    if score <= 8:
        return PINNED
    return UNAFFECTED


def individual_modifier(model: ModelState, unit: UnitState, touching_leader: bool = False) -> int:
    """DP-18.5: race/type modifier, -1 out of command (once, AMB-12), +1 leader or touching it."""
    mod = unit.morale_modifier
    if model.out_of_command:
        mod -= 1
    if model.id == unit.leader or touching_leader:
        mod += 1
    return mod


def apply_result(model: ModelState, result: str, leaves_table: bool = False, can_move: bool = True) -> None:
    """Set or clear the marker; a rout that leaves the table removes the model, and an
    immobile model that routs is destroyed (AMB-26). `can_move` False: a run-away's check."""
    if result == ROUTED:
        model.marker = ROUTED
        if model.immobile and can_move:
            model.alive, model.gone = False, "destroyed"
        elif leaves_table and can_move:
            model.alive, model.gone = False, "routed off"
    elif result == PINNED:
        model.marker = PINNED
    else:
        model.marker = ""


def leader_needs_replacing(unit: UnitState, roster: Roster) -> bool:
    """DP-7.2: the leader is gone or carries a marker, and another member could lead."""
    leader = roster.model(unit.leader) if unit.leader else None
    if leader is not None and leader.alive and not leader.marker:
        return False
    return any(m.id != unit.leader for m in roster.members(unit.id))


def name_leader(unit: UnitState, roster: Roster, model_id: str) -> None:
    if model_id not in unit.models or not roster.model(model_id).alive:
        raise ValueError(f"DP-7.2: the new leader must be a living member of {unit.name}")
    unit.leader = model_id


@attrs.frozen
class Check:
    """One roll of a morale phase: a unit check (model "") or an individual one."""

    unit: str
    model: str
    die: int
    face: int
    result: str  # "pass"/"fail" for a unit, ROUTED/PINNED/UNAFFECTED for a model


@attrs.frozen
class MoraleFacts:
    """What the players report for a morale phase (the rest the engine knows)."""

    enemy_within_6: frozenset[str] = frozenset()  # unit ids with an enemy within 6 inches
    touching_leader: frozenset[str] = frozenset()  # model ids touching their leader
    leaves_table: frozenset[str] = frozenset()  # model ids whose rout would carry them off


def _subject(model: ModelState, all_test: bool) -> bool:
    return all_test or not (has_hook(model.specials, NO_MORALE) or model.mindless)


def morale_phase(
    roster: Roster,
    order: Sequence[str],
    *,
    first_phase: bool,
    facts: MoraleFacts = MoraleFacts(),
    all_test: bool = False,
    die: int = 10,
    mode: str = "or",
) -> Generator[Any, Any, list[Check]]:
    """One morale phase. `order`: the sides, first mover first (AMB-39). `first_phase`:
    models beginning it with a marker test for that alone (MORALE_1, or the single phase).
    `all_test`: Wide Spread Panic (AMB-9). Modifiers are fixed at the start (AMB-40)."""
    checks: list[Check] = []
    units = [u for side in order for u in roster.units.values() if u.side == side and roster.members(u.id)]
    mods = {
        m.id: individual_modifier(m, u, m.id in facts.touching_leader)
        for u in units
        for m in roster.members(u.id)
    }
    queue: list[str] = []
    for unit in units:
        members = roster.members(unit.id)
        near = unit.id in facts.enemy_within_6
        if unit.character:
            model = members[0]
            if all_test or character_owes(unit, model, near):
                queue.append(model.id)
            continue
        if unit.checked_this_turn and not all_test:
            continue
        if not (all_test or owes_unit_check(unit, roster, near, mode)):
            continue
        if not all_test and not any(_subject(m, False) for m in members):
            continue
        unit.checked_this_turn = True
        unit_die_sides = unit_die(unit.original_models)
        failed = True
        if unit_die_sides is not None:
            (face,) = yield from roll(unit_die_sides, 1, f"unit morale, {unit.name} ({len(members)} left: passes under {len(members)})", unit.side)
            failed = not unit_passes(face, len(members))
            checks.append(Check(unit.id, "", unit_die_sides, face, "fail" if failed else "pass"))
        if failed:
            queue += [m.id for m in members]
    if first_phase or all_test:
        queue += [m.id for u in units for m in roster.members(u.id) if m.marker]
    for unit in units:
        unit.hit_since_morale = unit.attacked_since_morale = False
        for m in roster.members(unit.id):
            m.attacked_by = 0
    seen: set[str] = set()
    for model_id in queue:
        model = roster.model(model_id)
        if model_id in seen or not model.alive or (model.indiv_checked and not all_test):
            continue
        seen.add(model_id)
        if not _subject(model, all_test):
            continue
        model.indiv_checked = True
        (face,) = yield from roll(die, 1, f"morale, {model.label}", model.side)
        result = individual_result(face, mods.get(model_id, 0), die)
        apply_result(model, result, model_id in facts.leaves_table)
        checks.append(Check(model.unit, model_id, die, face, result))
    return checks


def run_away_check(model: ModelState, unit: UnitState, face: int, die: int = 10, touching_leader: bool = False) -> str:
    """DP-9.3 (AMB-28): the individual table at once; it cannot move the model further and
    does not count as its check this turn."""
    result = individual_result(face, individual_modifier(model, unit, touching_leader), die)
    apply_result(model, result, can_move=False)
    return result
