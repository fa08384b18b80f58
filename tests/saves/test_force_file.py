"""Force files: canonical writing, strict reading, versions, and what a bad file says."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import campaign.rulesets as rulesets
from campaign.costing import ElementCost, ForceCost, UnitCost
from campaign.findings import Finding
from campaign.force import Element, Force, Unit, Weapon
from campaign.rulesets import Option, Ruleset
from saves.errors import FormatTooNew, SaveError
from saves.force_file import (
    FORMAT,
    dump_force,
    force_problems,
    load_force,
    parse_force,
    save_force,
)
from saves.versions import upgrade

LADDER = ("d4", "d6", "d8", "d10", "d12", "d20")


class TinyRules(Ruleset):
    """A stand-in ruleset with two editions, one option and a short attribute list."""

    id = "tiny-test"
    name = "Tiny Test Rules"
    editions = ("one", "two")
    default_edition = "one"
    dice = LADDER
    option_specs = (Option("ranged_base_dac", 2, (1, 2)),)

    def attribute_names(self) -> list[str]:
        names = ["Agile", "Brave", "Jump", "Loose Cohesion", "Multi-shot", "Reload: X"]
        return names + (["Glide"] if self.edition == "two" else [])

    def price(self, force: Force) -> ForceCost:
        return ForceCost(
            tuple(
                UnitCost(u.name, tuple(ElementCost(e.name, e.count, 4) for e in u.elements))
                for u in force.units
            ),
            tuple(self.validate(force)),
        )

    def validate(self, force: Force) -> list[Finding]:
        """Like a real ruleset: text it cannot read is an error at its key path.
        It also accepts the spelling "Courage" for Brave, which attribute_names() omits."""
        known = [*(n.removesuffix(": X").lower() for n in self.attribute_names()), "courage"]
        found = []
        for u, unit in enumerate(force.units):
            for e, element in enumerate(unit.elements):
                at = f"units[{u}].elements[{e}]"
                texts = [(f"{at}.attributes[{i}]", a) for i, a in enumerate(element.attributes)]
                texts += [
                    (f"{at}.weapons[{w}].traits[{t}]", trait)
                    for w, weapon in enumerate(element.weapons)
                    for t, trait in enumerate(weapon.traits)
                ]
                for path, text in texts:
                    if not any(text.lower().startswith(k) for k in known):
                        found.append(Finding("error", "tiny 1", f"cannot read {text!r}", path))
        return found


@pytest.fixture(autouse=True)
def tiny_rules(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    rulesets._load_builtins()
    monkeypatch.setitem(rulesets._REGISTRY, TinyRules.id, TinyRules)
    yield


def sample() -> Force:
    troop = Element(
        "Assault Troop",
        count=9,
        die="d6",
        move=4,
        attributes=("Agile", "Brave"),
        weapons=(Weapon("Power Claw", "melee", "d8"),),
    )
    gunner = Element(
        "Gunner",
        die="d8",
        move=2,
        attributes=('Jump 8"',),
        weapons=(
            Weapon("Autocannon", "ranged", "d10", 24, traits=("Multi-shot 3x", "Reload: 2")),
            Weapon("Knife", "melee"),
        ),
        stats={"armour": 2, "role": "heavy"},
        lost=1,
        note='carries the "big" gun',
    )
    return Force(
        name="Human Force",
        ruleset="tiny-test",
        edition="two",
        points_limit=500,
        options={"ranged_base_dac": 1},
        units=(
            Unit("Assault Squad", (troop,)),
            Unit("Fire Team", (gunner, Element("Spotter", die="d4")), honours=("Held the bridge",)),
        ),
    )


EXPECTED = """\
format = "muster/1"
ruleset = "tiny-test"
edition = "two"
name = "Human Force"
points_limit = 500

[options]
ranged_base_dac = 1

[[units]]
name = "Assault Squad"

[[units.elements]]
name = "Assault Troop"
count = 9
die = "d6"
move = 4
attributes = ["Agile", "Brave"]
weapons = [{ name = "Power Claw", kind = "melee", die = "d8" }]

[[units]]
name = "Fire Team"
honours = ["Held the bridge"]

[[units.elements]]
name = "Gunner"
count = 1
die = "d8"
move = 2
attributes = ["Jump 8\\""]
weapons = [
    { name = "Autocannon", kind = "ranged", die = "d10", range = 24, traits = ["Multi-shot 3x", "Reload: 2"] },
    { name = "Knife", kind = "melee" },
]
stats = { armour = 2, role = "heavy" }
lost = 1
note = "carries the \\"big\\" gun"

[[units.elements]]
name = "Spotter"
count = 1
die = "d4"
"""


def test_canonical_layout_is_small_and_ordered() -> None:
    assert dump_force(sample()) == EXPECTED


def test_round_trip_is_byte_identical() -> None:
    force = parse_force(EXPECTED, "f.toml")
    assert force == sample()
    assert dump_force(force) == EXPECTED


def test_save_and_load(tmp_path: Path) -> None:
    path = tmp_path / "forces" / "humans.toml"
    save_force(path, sample())
    assert path.read_text(encoding="utf-8") == EXPECTED
    assert load_force(path) == sample()
    assert [p.name for p in path.parent.iterdir()] == ["humans.toml"]  # no temporary left


def test_hand_layout_is_read_and_canonicalised() -> None:
    text = (
        'name = "Raiders"\nruleset = "tiny-test"\nformat = "muster/1"\n'
        "[[units]]\nname = 'Bikes'\n[[units.elements]]\n"
        'attributes = [\n  "agile",\n]\nname = "Bike"\ncount = 1\nweapons = []\n'
    )
    force = parse_force(text, "f.toml")
    assert force.units[0].elements[0].attributes == ("agile",)  # kept as written
    assert dump_force(force) == (
        'format = "muster/1"\nruleset = "tiny-test"\nname = "Raiders"\n\n'
        '[[units]]\nname = "Bikes"\n\n[[units.elements]]\nname = "Bike"\ncount = 1\n'
        'attributes = ["agile"]\n'
    )


def test_spellings_the_ruleset_accepts_are_not_typos() -> None:
    force = parse_force(EXPECTED.replace('"Brave"', '"Courage"'))
    assert force.units[0].elements[0].attributes == ("Agile", "Courage")


def test_attribute_from_the_other_edition_is_left_to_the_ruleset() -> None:
    force = parse_force(EXPECTED.replace('"Brave"', '"Glide"').replace('"two"', '"one"'))
    assert force.units[0].elements[0].attributes == ("Agile", "Glide")


# --- damaged files -------------------------------------------------------------------

GOOD = EXPECTED


def _edit(old: str, new: str, count: int = 1) -> str:
    assert old in GOOD
    return GOOD.replace(old, new, count)


DAMAGED = {
    "toml-syntax": (
        _edit('name = "Assault Squad"', 'name = "Assault Squad'),
        ["TOML syntax error"],
        'name = "Assault Squad',
        "",
    ),
    "missing-format": (_edit('format = "muster/1"\n', ""), ["missing format version", 'format = "muster/1"'], None, "format"),
    "unknown-format": (_edit('"muster/1"', '"muster-one"'), ["unknown format 'muster-one'"], "muster-one", "format"),
    "unknown-key": (
        _edit("move = 4", "mvoe = 4"),
        ["unknown key 'mvoe'", "one of attributes, count, die", "did you mean 'move'?"],
        "mvoe",
        "units[0].elements[0].mvoe",
    ),
    "wrong-type": (
        _edit("count = 9", 'count = "9"'),
        ["got text", "expected a whole number"],
        'count = "9"',
        "units[0].elements[0].count",
    ),
    "negative-count": (_edit("count = 9", "count = -3"), ["count is -3", "1 or more"], "count = -3", "units[0].elements[0].count"),
    "empty-unit-name": (_edit('name = "Fire Team"', 'name = "  "'), ["empty name"], 'name = "  "', "units[1].name"),
    "no-units": (GOOD[: GOOD.index("[[units]]")], ["the force has no units", "[[units]]"], None, "units"),
    "unit-without-elements": (
        GOOD[: GOOD.index("[[units.elements]]")],
        ["unit 'Assault Squad' has no elements"],
        "[[units]]",
        "units[0].elements",
    ),
    "unknown-ruleset": (
        _edit('ruleset = "tiny-test"', 'ruleset = "tiny-tset"'),
        ["unknown ruleset 'tiny-tset'", "tiny-test", "did you mean 'tiny-test'?"],
        "tiny-tset",
        "ruleset",
    ),
    "unknown-edition": (
        _edit('edition = "two"', 'edition = "three"'),
        ["has no edition 'three'", "one of one, two"],
        "three",
        "edition",
    ),
    "bad-die": (
        _edit('die = "d4"', 'die = "d7"'),
        ["unknown die 'd7'", "one of d4, d6, d8, d10, d12, d20"],
        "d7",
        "units[1].elements[1].die",
    ),
    "weapon-die-case": (
        _edit('die = "d10"', 'die = "D10"'),
        ["unknown die 'D10'", "did you mean 'd10'?"],
        "D10",
        "units[1].elements[0].weapons[0].die",
    ),
    "attribute-typo": (
        _edit('"Brave"', '"Brvae"'),
        ["unknown attribute 'Brvae'", "did you mean 'Brave'?"],
        "Brvae",
        "units[0].elements[0].attributes[1]",
    ),
    "trait-typo": (
        _edit('"Reload: 2"', '"Relaod: 2"'),
        ["unknown attribute 'Relaod: 2'", "did you mean 'Reload'?"],
        "Relaod",
        "units[1].elements[0].weapons[0].traits[1]",
    ),
    "weapon-kind": (
        _edit('kind = "melee", die = "d8"', 'kind = "laser", die = "d8"'),
        ["'laser' is not allowed", "one of melee, ranged"],
        "laser",
        "units[0].elements[0].weapons[0].kind",
    ),
    "attributes-not-a-list": (
        _edit('attributes = ["Agile", "Brave"]', 'attributes = "Agile"'),
        ["got text", "a list of quoted texts"],
        'attributes = "Agile"',
        "units[0].elements[0].attributes",
    ),
    "units-as-table": (
        _edit("[[units]]", "[units]").split("[[units.elements]]")[0],
        ["got a table", "a list of tables"],
        "[units]",
        "units",
    ),
    "unknown-option": (
        _edit("ranged_base_dac = 1", "ranged_base = 1"),
        ["unknown option 'ranged_base'", "did you mean 'ranged_base_dac'?"],
        "ranged_base =",
        "options.ranged_base",
    ),
    "option-choice": (_edit("ranged_base_dac = 1", "ranged_base_dac = 3"), ["3 is not allowed", "one of 1, 2"], "ranged_base_dac = 3", "options.ranged_base_dac"),
    "missing-name": (_edit('name = "Human Force"\n', ""), ["missing key 'name'"], None, "name"),
    "misspelt-name": (
        _edit('name = "Spotter"', 'nmae = "Spotter"'),
        ["unknown key 'nmae'", "did you mean 'name'?"],
        "nmae",
        "units[1].elements[1].nmae",
    ),
    "lost-above-count": (_edit("lost = 1", "lost = 2"), ["lost is 2", "0 to 1"], "lost = 2", "units[1].elements[0].lost"),
    "negative-range": (_edit("range = 24", "range = -24"), ["range is -24"], "range = -24", "units[1].elements[0].weapons[0].range"),
}


@pytest.mark.parametrize("case", sorted(DAMAGED))
def test_damaged_file_gives_a_clear_error_and_is_left_alone(tmp_path: Path, case: str) -> None:
    text, phrases, marker, key = DAMAGED[case]
    line = None
    if marker is not None:  # the line of the damage
        line = next(n for n, t in enumerate(text.splitlines(), 1) if marker in t)
    path = tmp_path / f"{case}.toml"
    path.write_text(text, encoding="utf-8")
    before = path.read_bytes()
    with pytest.raises(SaveError) as caught:
        load_force(path)
    message = str(caught.value)
    assert message.startswith(str(path))
    for phrase in phrases:
        assert phrase in message
    assert caught.value.line == line
    assert caught.value.key == key
    assert path.read_bytes() == before
    assert sorted(tmp_path.iterdir()) == [path]


def test_newer_format_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.toml"
    path.write_text(GOOD.replace("muster/1", "muster/7"), encoding="utf-8")
    before = path.read_bytes()
    with pytest.raises(FormatTooNew) as caught:
        load_force(path)
    assert "newer Muster (muster/7)" in str(caught.value)
    assert "upgrade Muster" in str(caught.value)
    assert caught.value.line == 1
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("raw", "phrase", "line"),
    [
        (b"", "the file is empty", None),
        (b"  \n\n", "the file is empty", None),
        (GOOD.encode().replace(b"Human", b"Hum\xe9n"), "is not UTF-8 text (bad byte 0xe9)", 4),
    ],
    ids=["empty", "blank", "latin-1"],
)
def test_unreadable_bytes(tmp_path: Path, raw: bytes, phrase: str, line: int | None) -> None:
    path = tmp_path / "force.toml"
    path.write_bytes(raw)
    with pytest.raises(SaveError) as caught:
        load_force(path)
    assert phrase in str(caught.value)
    assert caught.value.line == line
    assert path.read_bytes() == raw


def test_folder_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="is a folder, not a file"):
        load_force(tmp_path)
    with pytest.raises(SaveError, match="no such file"):
        load_force(tmp_path / "nope.toml")
    assert list(tmp_path.iterdir()) == []


def test_syntax_error_line_is_the_broken_line() -> None:
    text = GOOD.replace("move = 2", "move = = 2")
    with pytest.raises(SaveError) as caught:
        parse_force(text, "f.toml")
    assert caught.value.line == GOOD.splitlines().index("move = 2") + 1


def test_problems_are_all_listed_in_file_order() -> None:
    force = parse_force(GOOD)
    broken = Force(
        name="",
        ruleset="tiny-test",
        units=(Unit("A", (Element("x", count=0, die="d3", attributes=("Agil",)),)),),
    )
    keys = [p.key for p in force_problems(broken)]
    assert keys == [
        "name",
        "units[0].elements[0].count",
        "units[0].elements[0].die",
        "units[0].elements[0].attributes[0]",
    ]
    assert force_problems(force) == []


# --- versions ----------------------------------------------------------------------


def test_migrations_run_in_order_up_to_the_current_version() -> None:
    def one_to_two(doc: dict) -> dict:
        return {**doc, "steps": [*doc.get("steps", []), "1->2"]}

    def two_to_three(doc: dict) -> dict:
        return {**doc, "steps": [*doc["steps"], "2->3"]}

    data = {"format": "muster/1", "name": "x"}
    out = upgrade(data, "f.toml", current=3, migrations={1: one_to_two, 2: two_to_three})
    assert out == {"name": "x", "steps": ["1->2", "2->3"]}
    assert data == {"format": "muster/1", "name": "x"}  # the input is not changed
    assert upgrade({"format": "muster/3"}, "f", current=3, migrations={}) == {}
    with pytest.raises(SaveError, match="cannot be upgraded"):
        upgrade({"format": "muster/1"}, "f.toml", current=3, migrations={2: two_to_three})


def test_format_constant() -> None:
    assert FORMAT == "muster/1"
    assert dump_force(sample()).startswith('format = "muster/1"\n')
