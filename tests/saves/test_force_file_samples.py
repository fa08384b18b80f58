"""Every built-in sample force survives a save and a load, byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from campaign.force import Force
from campaign.rulesets import get_ruleset, ruleset_ids
from saves.force_file import dump_force, load_force, parse_force, save_force

ISSUE_EXAMPLE = """\
format = "muster/1"
ruleset = "flat-out-war"
edition = "special-ops"
name = "Human Force"

[[units]]
name = "Assault Squad"

[[units.elements]]
name = "Assault Troop"
count = 9
die = "d6"
move = 4
attributes = ["Agile", "Brave"]
weapons = [{ name = "Power Claw", kind = "melee", die = "d8" }]
"""


def all_samples() -> list[Force]:
    found: dict[tuple, Force] = {}
    for rid in ruleset_ids():
        ruleset_cls = type(get_ruleset(rid))
        if not ruleset_cls.__module__.startswith("campaign.rulesets."):
            continue  # a test's stand-in ruleset, not a built-in one
        for edition in ruleset_cls.editions or (None,):
            for force in get_ruleset(rid, edition).sample_forces():
                found.setdefault((rid, force.edition, force.name), force)
    return list(found.values())


SAMPLES = all_samples()


def test_there_are_samples_of_both_editions() -> None:
    editions = {(f.ruleset, f.edition) for f in SAMPLES}
    assert {("flat-out-war", "1.7"), ("flat-out-war", "special-ops")} <= editions
    assert len(SAMPLES) >= 5


@pytest.mark.parametrize("force", SAMPLES, ids=lambda f: f"{f.edition}-{f.name}")
def test_sample_round_trips_byte_identical(tmp_path: Path, force: Force) -> None:
    path = tmp_path / "sample.toml"
    save_force(path, force)
    first = path.read_bytes()
    loaded = load_force(path)
    assert loaded == force
    save_force(path, loaded)
    assert path.read_bytes() == first
    assert dump_force(parse_force(first.decode(), path)) == first.decode()


def test_the_issue_example_reads_and_writes_back_unchanged() -> None:
    force = parse_force(ISSUE_EXAMPLE, "human.toml")
    troop = force.units[0].elements[0]
    assert (troop.name, troop.count, troop.die, troop.move) == ("Assault Troop", 9, "d6", 4)
    assert troop.weapons[0].die == "d8" and troop.weapons[0].kind == "melee"
    assert dump_force(force) == ISSUE_EXAMPLE


def test_spellings_flat_out_war_accepts_load_and_typos_do_not() -> None:
    alias = parse_force(ISSUE_EXAMPLE.replace('"Brave"', '"Heavy Armor"'))
    assert alias.units[0].elements[0].attributes == ("Agile", "Heavy Armor")
    from saves.errors import SaveError

    with pytest.raises(SaveError) as caught:
        parse_force(ISSUE_EXAMPLE.replace('"Brave"', '"Bravve"'), "human.toml")
    assert caught.value.key == "units[0].elements[0].attributes[1]"
    assert caught.value.line == 14
    assert "did you mean 'Brave'?" in str(caught.value)
