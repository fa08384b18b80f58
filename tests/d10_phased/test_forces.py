"""d10 armies as force files: round trip byte for byte, findings instead of tracebacks."""

import attrs

from campaign.force import Weapon
from campaign.rulesets.d10_phased.forces import army_to_force, force_to_army
from campaign.rulesets.d10_phased.ruleset import D10Phased
from campaign.rulesets.d10_phased.samples import SAMPLES
from saves.force_file import dump_force, parse_force


def test_samples_round_trip_through_force_files() -> None:
    ruleset = D10Phased()
    for army in SAMPLES:
        force = army_to_force(army)
        back, found = force_to_army(force)
        assert found == [] and back == army
        text = dump_force(force)
        assert "2d10" in text or "1d10" in text or "weapons" not in text
        assert [f for f in ruleset.validate(force) if f.severity == "error"] == []
        assert ruleset.price(force).total == 0


def test_bad_stats_become_findings_with_force_paths() -> None:
    force = army_to_force(SAMPLES[0])
    unit = force.units[0]
    first = attrs.evolve(unit.elements[0], stats={**unit.elements[0].stats, "grade": "brave", "save": "x", "armour": 2})
    second = attrs.evolve(
        unit.elements[1],
        weapons=(Weapon("Rifle", "ranged", "d6", 24),),
        stats={**unit.elements[1].stats, "grade": "average"},
        attributes=("Laser Eyes",),
    )
    bad = attrs.evolve(force, units=(attrs.evolve(unit, elements=(first, second)), *force.units[1:]))
    found = {(f.severity, f.path) for f in D10Phased().validate(bad)}
    assert ("error", "units[0].elements[0].stats.grade") in found
    assert ("error", "units[0].elements[0].stats.save") in found
    assert ("error", "units[0].elements[0].stats.armour") in found
    assert ("error", "units[0].elements[1].weapons[0].die") in found
    assert ("error", "units[0].elements[1].stats.grade") in found
    assert ("warning", "units[0].elements[1].attributes") in found


def test_lost_models_are_left_out_of_the_army() -> None:
    force = army_to_force(SAMPLES[1])
    pack = force.units[0]
    hurt = attrs.evolve(force, units=(attrs.evolve(pack, elements=(attrs.evolve(pack.elements[0], lost=5),)), *force.units[1:]))
    army, _ = force_to_army(hurt)
    assert army.units[0].model_count == 7


def test_registered_samples_load_and_round_trip_byte_for_byte(tmp_path) -> None:
    from campaign.rulesets import get_ruleset, ruleset_ids
    from tui.cli import main

    assert "d10-phased" in ruleset_ids() and get_ruleset("d10").id == "d10-phased"
    assert main(["samples", "--ruleset", "d10-phased", "--out", str(tmp_path)]) == 0
    files = sorted((tmp_path / "d10-phased").glob("*.toml"))
    assert [f.name for f in files] == ["ghost-engines.toml", "gnasher-horde.toml", "iron-legion.toml"]
    for path in files:
        text = path.read_text()
        force = parse_force(text, path)
        assert dump_force(force) == text
        army, found = force_to_army(force)
        assert found == [] and army in SAMPLES


def test_a_battle_is_refused_until_the_core_has_a_phased_turn() -> None:
    from campaign.activation.registry import check_activation

    problem = check_activation("initiative", {}, "d10-phased")
    assert problem is not None and "d10-phased cannot be played" in problem
