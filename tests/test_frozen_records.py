"""campaign/frozen.py: `frozen` classes compare, hash and print exactly as `attrs.frozen`'s,
with those methods made on first use rather than when the class is made (issue 17)."""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import attrs
import pytest

import campaign.frozen
from campaign.force import Element, Force, Unit, Weapon
from campaign.frozen import DEFERRED, frozen


def deferred(cls: type) -> bool:
    """Whether `cls` still holds the stand-ins (attrs' methods not made yet)."""
    return all(cls.__dict__[name].__code__.co_filename == campaign.frozen.__file__ for name in DEFERRED)


def records(decorate: Any) -> tuple[type, type]:
    """The same two classes (a base and a subclass with a field of its own) made by `decorate`:
    the same module and qualified names whichever decorator made them, as attrs' hash seed
    comes from them."""

    @decorate
    class Base:
        a: int
        b: str = attrs.field(default="x", repr=False)  # compared, not shown
        c: dict[str, int] = attrs.field(factory=dict, eq=False)  # shown, not compared
        d: Fraction = attrs.field(default=Fraction(0), converter=Fraction)
        e: str = attrs.field(default="", eq=str.lower)  # compared by a key

    @decorate
    class Sub(Base):
        f: tuple[int, ...] = ()

    return Base, Sub


def samples(base: type, sub: type) -> list[Any]:
    return [
        base(1), base(1, c={"x": 1}), base(2), base(1, "y"), base(1, d=2), base(1, d="2/1"),
        base(1, e="ABC"), base(1, e="abc"), sub(1), sub(1, f=(1,)), sub(1, f=(1,), c={"y": 2}),
    ]  # fmt: skip


def test_frozen_classes_compare_hash_and_print_as_attrs_makes_them() -> None:
    ours, theirs = records(frozen), records(attrs.frozen)
    assert deferred(ours[0]) and deferred(ours[1])  # nothing made yet
    mine, reference = samples(*ours), samples(*theirs)
    # hash first, before any comparison: the seed and the fields hashed are attrs' own
    assert [hash(x) for x in mine] == [hash(x) for x in reference]
    assert not deferred(ours[0]) and not deferred(ours[1])
    for i, (x, rx) in enumerate(zip(mine, reference)):
        assert repr(x) == repr(rx)
        for j, (y, ry) in enumerate(zip(mine, reference)):
            assert ((x == y), (x != y)) == ((rx == ry), (rx != ry)), (i, j)
    assert mine[1] == mine[0] and mine[6] == mine[7] and mine[0] != mine[8]  # the cases above do differ
    assert ours[0](1).__eq__(theirs[0](1)) is NotImplemented  # another class: not equal, as attrs'
    assert attrs.fields(ours[1]) == attrs.fields(theirs[1])
    assert copy.deepcopy(mine[10]) == mine[10] and copy.deepcopy(mine[10]) is not mine[10]


def test_each_method_alone_makes_all_four() -> None:
    for use in (repr, hash, lambda x: x == x, lambda x: x != x):
        base, sub = records(frozen)
        use(base(1))
        assert not deferred(base) and deferred(sub)  # the subclass has methods of its own
        assert base(1) == base(1) and hash(base(1)) == hash(base(1)) and repr(base(1)) == "Base(a=1, c={}, d=Fraction(0, 1), e='')"


def test_a_recursive_record_prints_as_attrs_does() -> None:
    @frozen
    class Node:
        items: list[Any] = attrs.field(factory=list)

    node = Node()
    node.items.append(node)
    assert repr(node) == "Node(items=[...])"


def test_other_options_and_own_methods_go_to_attrs() -> None:
    @frozen(order=True)
    class Ordered:
        a: int

    @frozen
    class Shown:
        a: int

        def __repr__(self) -> str:
            return "shown"

    assert Ordered(1) < Ordered(2) and not deferred(Ordered)
    assert repr(Shown(1)) == "shown" and Shown(1) == Shown(1) and hash(Shown(1)) == hash(Shown(1))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        Shown(1).a = 2  # type: ignore[misc]


def test_forces_are_frozen_records_with_attrs_equality() -> None:
    """The force records are made by `frozen` (deferred until used) and compare by value."""
    force = Force(name="F", ruleset="r", units=(Unit(name="U", elements=(Element(name="E", weapons=(Weapon("w"),)),)),))
    again = Force(name="F", ruleset="r", units=(Unit(name="U", elements=(Element(name="E", weapons=(Weapon("w"),)),)),))
    assert force == again and force is not again and hash(Weapon("w")) == hash(Weapon("w"))
    with pytest.raises(TypeError):
        hash(force)  # its options are a dict, as with attrs
    assert force != attrs.evolve(force, name="G")
    assert repr(Weapon("w")).startswith("Weapon(name='w', kind='melee'")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        force.name = "G"  # type: ignore[misc]
