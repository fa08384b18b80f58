"""Results held back until a step ends (AMB-19) or both groups of a split have acted (CA-5).

The host resolves an action as usual; afterwards every *other* unit the action changed
(casualties, markers, morale, the host's unit data) is put back as it was, and the
change is kept aside. So the next action of the step sees the enemy as it stood when
the step began. `release` then merges every kept change into the live state at once.

The acting unit's own changes (moves, reload counters, being shot by an interrupting
overwatch unit) stay live, and so do timed effects, side data and events: only unit
states are held back. Changes made meanwhile by interrupts (which apply at once,
AMB-25) are kept too: the release is a three-way merge, field by field, of the state
before the action, after it, and now.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import attrs

from campaign.engine.state import BattleState, ElementState, UnitState

_GONE = object()  # a dict key that one side of the merge removed


def merge3(base: Any, ours: Any, theirs: Any) -> Any:
    """`theirs` (the live value) with the change from `base` to `ours` applied on top.

    Dicts merge key by key, equal-length lists and attrs records item by item; numbers
    changed on both sides add both changes (two actions each costing a wound, or each
    stepping a die down); a model removed by both is two models removed; any other
    clash keeps the live value."""
    if ours == base:
        return theirs
    if theirs == base:
        return ours
    # both changed: look inside before calling them equal (two actions that each removed
    # "the first model" removed two models, not one)
    if isinstance(base, dict) and isinstance(ours, dict) and isinstance(theirs, dict):
        out = {}
        for key in (*theirs, *(k for k in ours if k not in theirs)):
            value = merge3(base.get(key, _GONE), ours.get(key, _GONE), theirs.get(key, _GONE))
            if value is not _GONE:
                out[key] = value
        return out
    if isinstance(base, list) and isinstance(ours, list) and isinstance(theirs, list):
        if len(base) == len(ours) == len(theirs) and base and all(isinstance(e, ElementState) for e in base):
            return _merge_elements(base, ours, theirs)
        if len(base) == len(ours) == len(theirs):
            return [merge3(b, o, t) for b, o, t in zip(base, ours, theirs)]
        return theirs
    if attrs.has(type(base)) and type(base) is type(ours) is type(theirs):
        changes = {
            f.name: merge3(getattr(base, f.name), getattr(ours, f.name), getattr(theirs, f.name))
            for f in attrs.fields(type(base))
            if f.init
        }
        return attrs.evolve(theirs, **changes)
    if all(isinstance(v, (int, Fraction)) and not isinstance(v, bool) for v in (base, ours, theirs)):
        return theirs + (ours - base)
    return theirs  # the same new value on both sides, or a clash: the live one


def _merge_elements(base: list[ElementState], ours: list[ElementState], theirs: list[ElementState]) -> list[ElementState]:
    """Elements merge one by one, but a casualty is a model removed: when both actions
    removed the same model (each saw it alive), the held-back casualty takes the next
    model still standing instead, in the unit's order. (The merged elements may be the
    copies themselves, which are shared and never changed: a new one takes the loss.)"""
    merged = [merge3(b, o, t) for b, o, t in zip(base, ours, theirs)]
    for b, o, t in zip(base, ours, theirs):
        if b.alive and not o.alive and not t.alive:  # the same model lost twice
            for i, e in enumerate(merged):
                if e.alive:
                    merged[i] = attrs.evolve(e, alive=False)
                    break
    return merged


def assign(target: Any, source: Any) -> None:
    """Make `target` (a live attrs record) equal to `source` in place, keeping the identity
    of nested records (rules may hold on to an element object). Only what differs is
    replaced (with a copy): a field already equal keeps its object, and no liveness or
    marks epoch moves for it (campaign.engine.state)."""
    for f in attrs.fields(type(target)):
        mine, new = getattr(target, f.name), getattr(source, f.name)
        if attrs.has(type(mine)) and type(mine) is type(new):
            assign(mine, new)
        elif (
            isinstance(mine, list)
            and isinstance(new, list)
            and len(mine) == len(new)
            and all(attrs.has(type(a)) and type(a) is type(b) for a, b in zip(mine, new))
        ):
            for a, b in zip(mine, new):
                if a != b:
                    assign(a, b)
        elif type(mine) is not type(new) or mine != new:
            setattr(target, f.name, _plain_copy(new))


_ATOMS = frozenset({str, int, bool, type(None), Fraction})  # never changed in place: shared by copies


def _plain_copy(value: Any) -> Any:
    """copy.deepcopy for the plain data of state (dicts, lists, ints, strings, Fractions),
    a few times faster; anything else goes to deepcopy. Copies made for reading only: a
    value met twice is copied twice (deepcopy would share it)."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is dict:
        return {k: v if type(v) in _ATOMS else _plain_copy(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else _plain_copy(v) for v in value]
    return copy.deepcopy(value)


# the fields _copy_unit and _copy_element copy; a class with other fields (or code of its
# own after __init__) is deep-copied
_PLAIN = (
    tuple(f.name for f in attrs.fields(UnitState)) == ("id", "name", "side", "elements", "markers", "data")
    and tuple(f.name for f in attrs.fields(ElementState)) == ("id", "name", "unit", "entry", "alive", "markers", "data")
    and not hasattr(ElementState, "__attrs_post_init__")
)


_NEW = object.__new__
_SET = object.__setattr__  # (attrs' __init__ sets each field through its own __setattr__, in Python)


def _copy_element(e: ElementState) -> ElementState:
    """ElementState(e.id, ..., copies of markers and data), filled in slot by slot: no
    on_setattr hook runs in an attrs __init__ either, and ElementState has no other code
    there (the field names are checked in _PLAIN)."""
    c = _NEW(ElementState)
    _SET(c, "id", e.id)
    _SET(c, "name", e.name)
    _SET(c, "unit", e.unit)
    _SET(c, "entry", e.entry)
    _SET(c, "alive", e.alive)
    _SET(c, "markers", _plain_copy(e.markers))
    _SET(c, "data", _plain_copy(e.data))
    return c


def _copy_unit(unit: UnitState, old: UnitState | None) -> UnitState:
    """A copy of `unit` for reading, sharing the element copies of `old` (an earlier copy of
    it) where the element still equals them: a new turn or an action touches a unit's own
    markers and a few of its models, and copies are never changed (so they may share)."""
    if not _PLAIN or type(unit) is not UnitState or any(type(e) is not ElementState for e in unit.elements):
        return copy.deepcopy(unit)
    if old is not None and len(old.elements) == len(unit.elements):
        elements = [was if was == now else _copy_element(now) for was, now in zip(old.elements, unit.elements)]
    else:
        elements = [_copy_element(now) for now in unit.elements]
    return UnitState(unit.id, unit.name, unit.side, elements, _plain_copy(unit.markers), _plain_copy(unit.data))


def same_unit(a: UnitState, b: UnitState) -> bool:
    """`a == b` as attrs compares two UnitStates (field by field, each element likewise),
    in one loop: the list comparison calls attrs' __eq__ for every element pair, and the
    scheme compares every unit after every action (most of them equal)."""
    if type(a) is not UnitState or type(b) is not UnitState:
        return bool(a == b)
    if a is b:
        return True
    if a.id != b.id or a.name != b.name or a.side != b.side:
        return False
    ours, theirs = a.elements, b.elements
    if ours is not theirs:
        if len(ours) != len(theirs):
            return False
        for x, y in zip(ours, theirs):
            if x is y:
                continue
            if type(x) is not ElementState or type(y) is not ElementState:
                if x != y:
                    return False
            elif (x.alive != y.alive or x.id != y.id or x.name != y.name or x.unit != y.unit or x.entry != y.entry
                  or x.markers != y.markers or x.data != y.data):
                return False
    return bool(a.markers == b.markers and a.data == b.data)


class Watch:
    """How often the card scheme has called code that may change units (the host's
    resolution and morale, the rules' hooks, a release of held results): what the scheme
    has learnt of the units stays true while this count stays. Derived, never state."""

    __slots__ = ("count",)

    def __init__(self) -> None:
        self.count = 0

    def touch(self) -> None:
        self.count += 1


# Tests set VERIFY[0]: every copy or answer trusted because nothing touched the units is
# then checked against a fresh look, and a difference raises (a change the scheme missed).
VERIFY = [False]


class MissedChange(AssertionError):
    """A unit changed while the scheme's Watch said nothing could change it."""


@attrs.define(eq=False)
class Shadows:
    """Copies of units for `HeldResults.before`, and what is known of them: while `state` and
    its `units` list are the live ones and the watch count is still `mark`, every copy but
    those of the `stale` units equals its live unit (checked when taken, or just put back
    by `hold_back`). One per scheme object: a cache, never state."""

    watch: Watch = attrs.field(factory=Watch)
    copies: dict[str, UnitState] = attrs.field(factory=dict)
    state: BattleState | None = None
    units: list[UnitState] | None = None
    mark: int = -1
    stale: set[str] = attrs.field(factory=set)

    def known(self, state: BattleState) -> bool:
        return self.state is state and self.units is state.units and self.mark == self.watch.count

    def checked(self, state: BattleState, stale: set[str]) -> None:
        """Every copy but those of `stale` equals its live unit now."""
        self.state, self.units, self.mark, self.stale = state, state.units, self.watch.count, stale

    def changed(self, state: BattleState, unit_ids: set[str]) -> None:
        """The scheme itself changed `unit_ids` (a release): the watch moves (other caches
        must look again), and the copies of the other units stay known."""
        known = self.known(state)
        self.watch.touch()
        if known:
            self.mark = self.watch.count
            self.stale |= unit_ids


@attrs.define
class HeldResults:
    """Unit changes kept aside until `release`. `step` is the step they belong to
    (the most actions any unit of the group has taken, AMB-19). `shadows` are copies of
    units taken for earlier actions (see `before`); the scheme passes the same Shadows to
    every HeldResults of a battle."""

    changes: list[tuple[str, UnitState, UnitState]] = attrs.field(factory=list)
    step: int = 0
    shadows: Shadows = attrs.field(factory=Shadows)

    @property
    def pending(self) -> bool:
        return bool(self.changes)

    def before(self, state: BattleState, actor: str) -> dict[str, UnitState]:
        """Copies of every unit but the actor, as they stand just before its action resolves.

        A deep copy of every unit for every action was most of a card battle's replay
        time, and an action changes one or two units: so a copy taken for an earlier
        action is used again while the live unit still equals it. When nothing could have
        changed the units since the copies were last known equal (`Shadows.known`: the
        scheme's Watch has not moved), only the stale ones (the last actor's) are compared;
        otherwise every one is. The copies are never changed: `hold_back` and `release`
        only read them, and `assign` copies out of them."""
        out: dict[str, UnitState] = {}
        shadows = self.shadows
        copies = shadows.copies
        trusted = shadows.known(state)
        stale = shadows.stale
        verify = VERIFY[0]
        for unit in state.units:
            uid = unit.id
            if uid == actor:
                continue
            old = copies.get(uid)
            if old is None or ((not trusted or uid in stale) and not same_unit(old, unit)):
                old = copies[uid] = _copy_unit(unit, old)
            elif verify and old != unit:
                raise MissedChange(f"{uid} changed while the card scheme's Watch said nothing could change it")
            out[uid] = old
        shadows.checked(state, {actor})
        return out

    def hold_back(self, state: BattleState, before: dict[str, UnitState]) -> list[str]:
        """Put back every unit the action changed; keep its change. Returns their ids.

        The kept change shares the copies of the models the action left alone; a unit is
        put back field by field, only where it differs."""
        held = []
        for unit in state.units:
            old = before.get(unit.id)
            if old is None or same_unit(unit, old):
                continue
            self.changes.append((unit.id, old, _copy_unit(unit, old)))
            assign(unit, old)
            held.append(unit.id)
        # every unit with its copy in `before` equals that copy again
        copies = self.shadows.copies
        self.shadows.checked(state, {uid for uid, copy_ in copies.items() if before.get(uid) is not copy_})
        return held

    def release(self, state: BattleState) -> list[str]:
        """Apply every kept change to the live state; returns the units changed, in order."""
        done: list[str] = []
        for unit_id, base, ours in self.changes:
            live = state.unit(unit_id)
            if same_unit(live, base):  # untouched since it was put back: the change applies as it is
                assign(live, ours)
            else:
                assign(live, merge3(base, ours, _copy_unit(live, None)))
            if unit_id not in done:
                done.append(unit_id)
        self.changes = []
        if done:
            self.shadows.changed(state, set(done))
        return done
