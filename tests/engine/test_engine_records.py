"""The engine's per-step records: quick_init's objects are attrs' own, and a battle's events
are kept raw until read, then read as the same Events."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from campaign.engine.dice import RollRecord
from campaign.engine.events import Event, make_events
from campaign.engine.pending import CommandSpec, Decision, FactSpec, RollRequest
from campaign.engine.quick import quick_init
from campaign.engine.state import ElementState, UnitState, liveness_changed


def attrs_fields(cls: type, *args: Any, **kwargs: Any) -> dict[str, Any]:
    """The fields attrs' own generated __init__ fills in (that of an identical attrs class)."""
    twin = attrs.make_class(cls.__name__, {f.name: attrs.field(default=f.default) for f in attrs.fields(cls)}, frozen=True)
    return attrs.asdict(twin(*args, **kwargs), recurse=False)


@pytest.mark.parametrize("cls, args, kwargs", [
    (CommandSpec, ("move",), {"params": {"unit": "a"}, "label": "Move"}),
    (CommandSpec, ("pass",), {}),
    (FactSpec, ("moved",), {"choices": (True, False)}),
    (Decision, ("a", "Pick"), {"legal": (CommandSpec("pass"),)}),
    (RollRequest, (6, 2, "2 x d6"), {}),
    (RollRecord, (6, (1, 2)), {"purpose": "x", "by": "engine"}),
    (Event, ("hit", "2 hits"), {"data": {"hits": 2}, "seq": 3}),
])
def test_quick_init_makes_what_attrs_makes(cls: type, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    made = cls(*args, **kwargs)
    assert attrs.asdict(made, recurse=False) == attrs_fields(cls, *args, **kwargs)
    assert type(made.__init__).__name__ == "method" and "quick_init" in made.__init__.__code__.co_filename
    assert attrs.evolve(made) == made
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.__setattr__(attrs.fields(cls)[0].name, None)


def test_quick_init_keeps_factories_fresh_and_post_init() -> None:
    one, two = CommandSpec("pass"), CommandSpec("pass")
    assert one.params == {} and one.params is not two.params and one.picks is not two.picks
    with pytest.raises(ValueError, match="a roll needs a die"):
        RollRequest(1, 1, "a d1")  # __attrs_post_init__ still checks
    with pytest.raises(TypeError, match="missing"):
        RollRequest(6)  # type: ignore[call-arg]


def test_quick_init_refuses_what_it_cannot_copy() -> None:
    @attrs.define
    class Mutable:
        x: int = 0

    @attrs.frozen
    class Checked:
        x: int = attrs.field(validator=attrs.validators.instance_of(int))

    @attrs.frozen
    class Private:
        _x: int = 0

    for cls in (Mutable, Checked, Private):
        with pytest.raises(TypeError, match="quick_init"):
            quick_init(cls)


def test_raw_events_are_made_once_in_place() -> None:
    events: list[Any] = [("hit", "2 hits", {"hits": 2}, 4), Event("round_start", "Round 1")]
    made = make_events(events)
    assert made[0] == Event("hit", "2 hits", {"hits": 2}, 4) and isinstance(events[0], Event)
    assert make_events(events)[0] is made[0]


def test_living_elements_follow_the_liveness_epoch() -> None:
    unit = UnitState("u", "U", "a", [ElementState(f"u/e-{n}", "E", "u") for n in range(3)])
    first = unit.alive
    first.pop()  # a copy: the kept list is not the caller's
    assert [e.id for e in unit.alive] == ["u/e-0", "u/e-1", "u/e-2"]
    unit.elements[1].alive = False  # an assignment moves the epoch
    assert [e.id for e in unit.alive] == ["u/e-0", "u/e-2"]
    unit.elements = unit.elements[:1]
    assert [e.id for e in unit.alive] == ["u/e-0"]
    unit.markers["removed"] = True
    liveness_changed()
    assert unit.eliminated


def test_living_is_one_tuple_while_the_epoch_stays_and_copies_keep_their_own() -> None:
    import copy

    from campaign.engine.snapshot import decode, encode

    unit = UnitState("u", "U", "a", [ElementState(f"u/e-{n}", "E", "u") for n in range(3)])
    held = unit.living
    assert isinstance(held, tuple) and unit.living is held  # no copy while nothing lives or dies
    assert unit.alive == list(held) and unit.alive is not unit.alive  # alive: a list of the caller's
    # copies made while the tuple is kept (a snapshot's state, undo's replay from one): each
    # answers its own element objects, never the original's kept ones
    for twin in (copy.copy(unit), copy.deepcopy(unit), attrs.evolve(unit), decode(encode(unit))):
        assert [id(e) for e in twin.living] == [id(e) for e in twin.elements if e.alive]
        twin.elements[0].alive = False
        assert [e.id for e in twin.living] == ["u/e-1", "u/e-2"]
        twin.elements[0].alive = True
    unit.elements[1].alive = False
    assert [e.id for e in held] == ["u/e-0", "u/e-1", "u/e-2"]  # a held tuple stays as it was made
    assert [e.id for e in unit.living] == ["u/e-0", "u/e-2"] and unit.living is unit.living
    unit.elements[1].alive = True
    assert unit.living == held and unit.living is not held


def test_unit_and_element_assignments_move_the_epochs_as_attrs_hooks_did() -> None:
    from campaign.engine import state as S

    def epochs() -> tuple[int, int, int]:
        return S.liveness_epoch(), S.revival_epoch(), S.marks_epoch()

    before = epochs()
    es = ElementState("u/e", "E", "u", markers={"prone": True})  # made: no epoch moves
    unit = UnitState("u", "U", "a", [es])
    assert epochs() == before
    es.data, es.name, unit.data = {"hp": 1}, "F", {"morale": "steady"}  # no hook on these
    assert epochs() == before and (es.data, es.name, unit.data) == ({"hp": 1}, "F", {"morale": "steady"})
    es.alive = False  # a loss: liveness moves, revivals do not
    assert epochs() == (before[0] + 1, before[1], before[2]) and es.alive is False
    es.alive = True  # a revival
    assert epochs() == (before[0] + 2, before[1] + 1, before[2])
    es.markers = {}  # a whole dict assigned: every epoch moves
    unit.elements = [es]
    assert epochs() == (before[0] + 4, before[1] + 3, before[2] + 2)


def test_unique_names_with_the_last_number_kept_are_the_plain_search_s() -> None:
    import random

    from campaign.engine.state import _unique

    def plain(base: str, taken: set[str]) -> str:  # (the search as it was: from the bare name up)
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}-{n}"
        taken.add(name)
        return name

    rng = random.Random(5)
    for _ in range(500):
        bases = [rng.choice(["orc", "orc-2", "orc-3", "imp", "orc-2-2", "imp-1"]) for _ in range(rng.randint(1, 14))]
        taken_plain: set[str] = set()
        taken: set[str] = set()
        tried: dict[str, int] = {}
        assert [_unique(b, taken, tried) for b in bases] == [plain(b, taken_plain) for b in bases], bases


def test_unit_lookup_follows_a_changed_list_and_another_state() -> None:
    from campaign.engine.state import BattleState, SideState

    units = [UnitState(f"u{i}", f"U{i}", "a") for i in range(4)]
    state = BattleState([SideState("a", "A")], units)
    assert state.unit("u2") is units[2] and state.unit("u2") is units[2]
    units.insert(0, UnitState("z", "Z", "a"))  # the same list, changed in place: positions move
    assert state.unit("u2") is units[3] and state.unit("z") is units[0]
    other = BattleState([SideState("a", "A")], [UnitState("u2", "Other", "a")])
    assert other.unit("u2").name == "Other" and state.unit("u2") is units[3]
    state.units = units[:2]  # a new list
    assert state.unit("u0") is units[1]
    with pytest.raises(KeyError):
        state.unit("u3")
