"""Profiles, specials as data, validation findings, the sample armies."""

import attrs

from campaign.rulesets.d10_phased.profile import MODEL_FIELDS, Model, Unit, Weapon
from campaign.rulesets.d10_phased.samples import SAMPLES
from campaign.rulesets.d10_phased.specials import (
    BREAKS_SPEED_LIMIT,
    CATALOGUE,
    HOOKS,
    INTERPHASE,
    JUMPS,
    MACHINE,
    NO_MORALE,
    OBLIGATORY_TARGET,
    has_hook,
    special,
)
from campaign.rulesets.d10_phased.state import roster_of
from campaign.rulesets.d10_phased.validation import validate_army, validate_unit


def test_the_named_specials_switch_on_their_hooks() -> None:
    assert has_hook(["Jump 12"], JUMPS) and has_hook(["jump"], BREAKS_SPEED_LIMIT)
    assert has_hook(["Machine"], MACHINE) and not has_hook(["Machine"], BREAKS_SPEED_LIMIT)
    assert has_hook(["Mindless"], NO_MORALE)
    assert has_hook(["Breaks Speed Limit"], BREAKS_SPEED_LIMIT)
    assert has_hook(["Obligatory Target"], OBLIGATORY_TARGET)
    assert all(has_hook([name], INTERPHASE) for name in ("Smoke", "Gas", "Fog", "Cloaking"))
    assert special("Laser Eyes") is None
    assert all(s.hooks <= set(HOOKS) for s in CATALOGUE)


def test_samples_are_clean_and_of_different_character() -> None:
    assert len(SAMPLES) == 3
    for army in SAMPLES:
        assert [f for f in validate_army(army) if f.severity != "info"] == [], army.name
    grades = [{u.grade for u in a.units} for a in SAMPLES]
    assert grades[0] != grades[1]
    roster = roster_of({"red": SAMPLES[0], "blue": SAMPLES[1]})
    assert roster.units["gnasher-pack"].original_models == 12
    assert roster.units["legionaries"].leader == "legionaries/legion-sergeant-1"


def test_validation_names_the_field_and_the_rule() -> None:
    bad = Unit(
        "Odd",
        (Model("M", move=-1, save=1, hits=0, specials=("Laser Eyes",), weapons=(Weapon("G", 1), Weapon("G", 2))),),
        grade="brave",  # type: ignore[arg-type]
        leader=3,
    )
    found = {(f.severity, f.rule, f.path) for f in validate_unit(bad, "units[0]")}
    assert ("error", "DP-8", "units[0].models[0].move") in found
    assert ("error", "DP-16", "units[0].models[0].hits") in found
    assert ("error", "DP-18.2", "units[0].grade") in found
    assert ("error", "DP-7.1", "units[0].leader") in found
    assert ("warning", "DP-2", "units[0].models[0].specials") in found
    assert ("error", "profile", "units[0].models[0].weapons[0]") in found
    two = attrs.evolve(bad, grade="average", leader=0, character=True, models=(Model("M", 6, 1, count=2),))
    assert [f.rule for f in validate_unit(two, "u") if f.severity != "info"] == ["DP-18.7"]


def test_every_model_field_has_help() -> None:
    assert all(f.help for f in MODEL_FIELDS)
