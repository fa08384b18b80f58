"""Any force Muster can hold survives a save and a load unchanged, byte for byte."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import campaign.rulesets as rulesets
from campaign.force import Element, Force, Unit, Weapon
from saves.force_file import dump_force, parse_force
from test_force_file import LADDER, TinyRules


@pytest.fixture(scope="module", autouse=True)
def tiny_rules() -> Iterator[None]:
    rulesets._load_builtins()
    before = rulesets._REGISTRY.get(TinyRules.id)
    rulesets._REGISTRY[TinyRules.id] = TinyRules
    yield
    if before is None:
        del rulesets._REGISTRY[TinyRules.id]
    else:
        rulesets._REGISTRY[TinyRules.id] = before


# Any text a user might type, quotes, backslashes, newlines and non-Latin letters
# included; surrogates cannot be stored as UTF-8, so they are left out.
text = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)
name = text.filter(lambda s: s.strip() != "")
small = st.integers(min_value=0, max_value=60)
die = st.sampled_from(LADDER)
attribute = st.one_of(
    st.sampled_from(["Agile", "Brave", "Glide"]),
    small.map(lambda n: f'Jump {n}"'),
    st.integers(2, 4).map(lambda n: f"Multi-shot {n}x"),
    st.integers(1, 2).map(lambda n: f"Reload: {n}"),
)
scalar = st.one_of(st.integers(-(2**63), 2**63 - 1), text)
weapon = st.builds(
    Weapon,
    name=name,
    kind=st.sampled_from(["melee", "ranged"]),
    die=st.none() | die,
    range=small,
    mount=st.sampled_from(["main", "extra", "sponson", "turret"]),
    traits=st.lists(attribute, max_size=2).map(tuple),
)


@st.composite
def element(draw: st.DrawFn) -> Element:
    count = draw(st.integers(1, 20))
    return Element(
        name=draw(name),
        count=count,
        die=draw(st.none() | die),
        move=draw(st.none() | small),
        kind=draw(st.sampled_from(["trooper", "vehicle"])),
        mounted=draw(st.booleans()),
        large=draw(st.booleans()),
        weapons=tuple(draw(st.lists(weapon, max_size=3))),
        attributes=tuple(draw(st.lists(attribute, max_size=4))),
        spells=tuple(draw(st.lists(name, max_size=2))),
        stats=draw(st.dictionaries(text, scalar, max_size=2)),
        lost=draw(st.integers(0, count)),
        state=draw(st.dictionaries(text, scalar, max_size=2)),
        note=draw(text),
    )


unit = st.builds(
    Unit,
    name=name,
    elements=st.lists(element(), min_size=1, max_size=3).map(tuple),
    cohesion=st.none() | text,
    honours=st.lists(text, max_size=2).map(tuple),
    note=text,
)
force = st.builds(
    Force,
    name=name,
    ruleset=st.just("tiny-test"),
    edition=st.sampled_from([None, "one", "two"]),
    units=st.lists(unit, min_size=1, max_size=3).map(tuple),
    points_limit=st.none() | st.integers(0, 5000),
    options=st.sampled_from([{}, {"ranged_base_dac": 1}, {"ranged_base_dac": 2}]),
    note=text,
)


@settings(max_examples=150, deadline=None)
@given(force)
def test_generated_forces_round_trip(original: Force) -> None:
    written = dump_force(original)
    loaded = parse_force(written, "generated.toml")
    assert loaded == original
    assert dump_force(loaded) == written
