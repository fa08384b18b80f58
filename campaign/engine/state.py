"""Battle state: attrs classes changed only by the engine's resolution of commands.

The core fixes the shape every ruleset shares (sides, units, elements, markers, timed
effects, counters) and leaves the rest to each ruleset's `data` dicts. Everything in
here must be canonical-JSON-able: str, int, bool, None, Fraction, lists, str-keyed
dicts and these attrs classes. No floats: they would make digests fragile.
"""

from __future__ import annotations

import functools
import re
from operator import attrgetter
from typing import Any

import attrs

from campaign.engine.setup import BattleSetup

Data = dict[str, Any]

# The liveness epoch: a count that moves whenever an element's `alive` or a unit's
# `elements` or `markers` is assigned (attrs calls `_moved` on those assignments), and when a
# ruleset marks a unit "removed" in place (`liveness_changed`). Which units stand and which
# have living elements can change only then, so a ruleset may keep such lists while the epoch
# (and the units list) stays the same. Not state: no digest or snapshot sees it.
_EPOCH = [0]


# The marks epoch moves when a whole markers dict or elements list is assigned (a card
# scheme's held-back results are put back that way): a ruleset that knows which markers it
# set itself since then need not look through every element for them.
_MARKS = [0]


# The revival epoch moves only on what could give a unit with no living element one again:
# an element's `alive` set true, a whole elements list or markers dict assigned, and
# `liveness_changed`. While it stays, such a unit has none (a ruleset re-checking liveness
# after a loss need only look at the units that had one).
_REVIVALS = [0]


def _moved(instance: Any, attribute: Any, value: Any) -> Any:
    _EPOCH[0] += 1
    if value:
        _REVIVALS[0] += 1
    return value


def _replaced(instance: Any, attribute: Any, value: Any) -> Any:
    _EPOCH[0] += 1
    _MARKS[0] += 1
    _REVIVALS[0] += 1
    return value


def marks_epoch() -> int:
    return _MARKS[0]


def liveness_changed() -> None:
    """Say that a unit's standing changed without an assignment (`markers["removed"] = True`)."""
    _EPOCH[0] += 1
    _REVIVALS[0] += 1


def liveness_epoch() -> int:
    return _EPOCH[0]


def revival_epoch() -> int:
    return _REVIVALS[0]


@attrs.define
class ElementState:
    id: str  # unique in the battle: "tactical-squad/marine-2"
    name: str
    unit: str  # the unit id
    entry: int = 0  # index of the Element entry in the force's Unit (for casualties)
    alive: bool = attrs.field(default=True, on_setattr=_moved)
    markers: Data = attrs.field(factory=dict, on_setattr=_replaced)  # "prone": True, "sticky": 6 ...
    data: Data = attrs.field(factory=dict)  # ruleset-owned: current die, weapons, counters


_set = object.__setattr__  # (a slot of _Kept: no field, no hook)
_ALIVE = attrgetter("alive")


class _Kept:
    """Slots a state record keeps derived answers in, beside its fields: not fields, so
    canonical JSON, snapshots, eq and copies never see them (a copy starts without)."""

    __slots__ = ("_living", "_at")
    _living: tuple[int, tuple[ElementState, ...]]  # UnitState.living as of a liveness epoch
    _at: tuple[list[Any], dict[str, int]]  # a units or elements list and its ids' positions


@attrs.define
class UnitState(_Kept):
    id: str  # unique in the battle: "tactical-squad"
    name: str  # as in the force
    side: str
    elements: list[ElementState] = attrs.field(factory=list, on_setattr=_replaced)
    markers: Data = attrs.field(factory=dict, on_setattr=_replaced)
    data: Data = attrs.field(factory=dict)

    @property
    def alive(self) -> list[ElementState]:
        """The living elements, in order: a new list the caller may change (`living` to read)."""
        return list(self.living)

    @property
    def living(self) -> tuple[ElementState, ...]:
        """The living elements, in order, without a copy: the same tuple while the liveness
        epoch stays (a tuple held stays as it was made when elements die or revive)."""
        # asked thousands of times a battle, mostly while no element lives or dies: kept on
        # the unit for the liveness epoch
        try:
            kept = self._living
            if kept[0] == _EPOCH[0]:
                return kept[1]
        except AttributeError:  # (not asked yet, or a copy)
            pass
        living = tuple([e for e in self.elements if e.alive])
        _set(self, "_living", (_EPOCH[0], living))
        return living

    @property
    def eliminated(self) -> bool:
        if self.markers.get("removed"):
            return True
        for e in self.elements:  # a plain loop: asked for every unit after every step
            if e.alive:
                return False
        return True


def _quick_setattr(cls: type) -> None:
    """Give `cls` a `__setattr__` running the same on_setattr hooks as attrs' own, which
    finds that a name has none by catching a KeyError: every other field attrs' `__init__`
    sets of every element and unit `new_state` makes (thousands a battle)."""
    # each field's slot setter (quicker than object.__setattr__) with its hook, if it has one
    plan = {
        f.name: (cls.__dict__[f.name].__set__, f, None if f.on_setattr in (None, attrs.setters.NO_OP) else f.on_setattr)
        for f in attrs.fields(cls)
    }
    get = plan.get
    set_slot = object.__setattr__

    def __setattr__(self: Any, name: str, value: Any) -> None:
        found = get(name)
        if found is None:  # (not a field: object.__setattr__ says what it says of that name)
            set_slot(self, name, value)
            return
        setter, field, hook = found
        setter(self, value if hook is None else hook(self, field, value))

    __setattr__.__qualname__ = f"{cls.__qualname__}.__setattr__"
    cls.__setattr__ = __setattr__  # type: ignore[method-assign,assignment]


_quick_setattr(ElementState)
_quick_setattr(UnitState)


@attrs.define
class SideState:
    id: str
    name: str
    data: Data = attrs.field(factory=dict)  # e.g. owner-turn counter, VP bookkeeping


@attrs.define
class Effect:
    """A timed effect: `remaining` counts down on `clock` ("round", "player_turn", ...)."""

    id: str
    kind: str
    target: str  # unit or element id, or "" for the whole battle
    remaining: int
    clock: str = "round"
    source: str = ""
    data: Data = attrs.field(factory=dict)


@attrs.define
class BattleState(_Kept):
    sides: list[SideState]
    units: list[UnitState]
    round: int = 0
    turn: int = 0  # game-wide player-turn counter
    effects: list[Effect] = attrs.field(factory=list)
    scheme: Data = attrs.field(factory=dict)  # the activation scheme's bookkeeping
    secret: dict[str, Data] = attrs.field(factory=dict)  # side id -> what only that side may see
    data: Data = attrs.field(factory=dict)
    over: bool = False
    end_reason: str = ""

    def unit(self, unit_id: str) -> UnitState:
        # asked tens of thousands of times a battle: an id -> position index kept with the
        # units list it was made of (`_at`), checked on use (the list must be the state's,
        # the unit at that position must still have that id); rebuilt when either fails
        try:
            units, positions = self._at
            if units is self.units:
                unit: UnitState = units[positions[unit_id]]
                if unit.id == unit_id:
                    return unit
        except (AttributeError, KeyError, IndexError):  # (no index yet, or a unit added)
            pass
        units = self.units
        for unit in units:
            if unit.id == unit_id:
                _set(self, "_at", (units, _positions(units)))
                return unit
        raise KeyError(unit_id)

    def element(self, element_id: str) -> ElementState:
        unit = self.unit(element_id.rsplit("/", 1)[0])
        try:  # (the same kind of index as the units', kept on the unit)
            elements, positions = unit._at
            if elements is unit.elements:
                element: ElementState = elements[positions[element_id]]
                if element.id == element_id:
                    return element
        except (AttributeError, KeyError, IndexError):
            pass
        elements = unit.elements
        for element in elements:
            if element.id == element_id:
                _set(unit, "_at", (elements, _positions(elements)))
                return element
        raise KeyError(element_id)

    def side(self, side_id: str) -> SideState:
        for side in self.sides:
            if side.id == side_id:
                return side
        raise KeyError(side_id)

    def units_of(self, side_id: str, *, alive: bool = True) -> list[UnitState]:
        return [u for u in self.units if u.side == side_id and not (alive and u.eliminated)]

    def side_ids(self) -> list[str]:
        return [s.id for s in self.sides]

    def names(self) -> dict[str, str]:
        """Every side, unit and element id -> its name, for messages players read."""
        found = {s.id: s.name for s in self.sides}
        for unit in self.units:
            found[unit.id] = unit.name
            found.update((es.id, es.name) for es in unit.elements)
        return found


def _positions(items: list[Any]) -> dict[str, int]:
    """Each id of a units or elements list -> its position (the first of a repeated id, as
    a scan finds it): the index BattleState.unit and .element keep."""
    positions: dict[str, int] = {}
    for pos, item in enumerate(items):
        positions.setdefault(item.id, pos)
    return positions


@functools.lru_cache(maxsize=4096)  # (every model of a battle is named by one: most names repeat)
def slug(text: str) -> str:
    out = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return out or "x"


def _unique(base: str, taken: set[str], tried: dict[str, int] | None = None) -> str:
    """`base`, else `base-2`, `base-3` ... the first not `taken` (then taken). `tried`: the
    last number each base came to (every one below it is taken, as `taken` only grows), so
    a unit of many like models does not try each of its names again for the next."""
    n = 1 if tried is None else tried.get(base, 1)
    name = base if n == 1 else f"{base}-{n}"
    while name in taken:
        n += 1
        name = f"{base}-{n}"
    taken.add(name)
    if tried is not None:
        tried[base] = n
    return name


def state_from_setup(setup: BattleSetup) -> BattleState:
    """The generic starting state: one ElementState per living model of each Element entry.

    Unit ids are slugs of the unit names, made unique in side order ("orcs", "orcs-2");
    element ids are "<unit id>/<element slug>-<n>". Rulesets usually call this and then
    fill in their `data`.
    """
    sides = [SideState(id=s.id, name=s.name) for s in setup.sides]
    units: list[UnitState] = []
    taken: set[str] = set()
    for side in setup.sides:
        for unit in side.force.units:
            unit_id = _unique(slug(unit.name), taken)
            state = UnitState(id=unit_id, name=unit.name, side=side.id)
            element_taken: set[str] = set()
            tried: dict[str, int] = {}
            for entry, element in enumerate(unit.elements):
                base = f"{unit_id}/{slug(element.name)}"
                for _ in range(max(element.alive, 0)):
                    eid = _unique(base, element_taken, tried)
                    state.elements.append(ElementState(id=eid, name=element.name, unit=unit_id, entry=entry))
            units.append(state)
    return BattleState(sides=sides, units=units)
