"""The element and weapon editors are built from each ruleset's profile: a FigWars 3 trooper
and its weapon, a d10 model, its unit's fields and its weapon, a Flat Out War element.
What is saved reads back and round-trips; an editor opened and applied changes nothing."""

from __future__ import annotations

from pathlib import Path

import attrs
from textual.widgets import Input, Select

from campaign.force import Force
from campaign.rulesets import get_ruleset
from campaign.rulesets.d10_phased.forces import force_to_army
from saves.force_file import dump_force, parse_force
from tests.tui.helpers import editor_findings, type_into
from tui.app import MusterApp
from tui.screens.element_editor import ElementEditorScreen
from tui.screens.force_builder import ForceBuilderScreen
from tui.screens.unit_editor import UnitEditorScreen
from tui.screens.weapon_editor import WeaponEditorScreen


def sample(ruleset: str) -> Force:
    return get_ruleset(ruleset).sample_forces()[0]


async def open_editor(app: MusterApp, pilot, force: Force, saved: list[Force]) -> ElementEditorScreen:  # type: ignore[no-untyped-def]
    await pilot.pause()
    app.open_force(force, None, on_save=saved.append)
    await pilot.pause()
    assert isinstance(app.screen, ForceBuilderScreen)
    await pilot.press("enter")  # the cursor starts on the first element
    await pilot.pause()
    assert isinstance(app.screen, ElementEditorScreen)
    return app.screen


async def pick(pilot, selector: str, value: str) -> None:  # type: ignore[no-untyped-def]
    pilot.app.screen.query_one(selector, Select).value = value
    await pilot.pause()


async def apply_and_save(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("ctrl+s")  # apply the element
    await pilot.pause()
    assert isinstance(pilot.app.screen, ForceBuilderScreen)
    await pilot.press("ctrl+s")  # save the force
    await pilot.pause()


def round_trips(force: Force) -> Force:
    text = dump_force(force)
    again = parse_force(text, "f.toml")
    assert dump_force(again) == text
    return again


async def test_a_figwars_trooper_and_its_weapon(tmp_path: Path) -> None:
    force = sample("figwars-3")
    saved: list[Force] = []
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_editor(app, pilot, force, saved)
        assert editor.query_one("#f-stat-tq", Input).value == "1"
        assert editor.query_one("#f-stat-armour", Select).value == "flak vest"
        assert not editor.query("#f-die") and not editor.query("#f-kind")  # no Flat Out War fields
        await type_into(pilot, "#f-stat-tq", "9")
        assert "TQ must be at most 3, not 9" in editor_findings(app)
        assert "Rebel Squad / Rebel Trooper:" in editor_findings(app)  # the players' names, never a key path
        assert "units[" not in editor_findings(app) and ".stats." not in editor_findings(app)
        await type_into(pilot, "#f-stat-tq", "2")
        assert "TQ must be" not in editor_findings(app)
        await pick(pilot, "#f-stat-armour", "powered armor")
        await pick(pilot, "#f-stat-shield", "normal shield")
        await pilot.press("ctrl+o")  # its first weapon
        await pilot.pause()
        assert isinstance(app.screen, WeaponEditorScreen)
        assert app.screen.query_one("#w-kind", Select).value == "ranged"
        assert not app.screen.query("#w-die") and not app.screen.query("#w-mount")
        await type_into(pilot, "#w-name", "Plasma Gun")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ElementEditorScreen)
        await apply_and_save(pilot)
    (after,) = saved
    element = round_trips(after).units[0].elements[0]
    before = force.units[0].elements[0]
    assert element.stats == {**before.stats, "tq": 2, "armour": "powered armor", "shield": "normal shield"}
    assert element.weapons[0].name == "Plasma Gun" and element.weapons[0].kind == "ranged"
    assert after.units[1:] == force.units[1:] and element.weapons[1:] == before.weapons[1:]
    findings = get_ruleset("figwars-3").validate(after)
    assert not [f for f in findings if f.severity == "error"], findings


async def test_a_d10_model_its_unit_and_its_weapon(tmp_path: Path) -> None:
    force = sample("d10-phased")
    saved: list[Force] = []
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_editor(app, pilot, force, saved)
        assert not editor.query("#f-stat-grade")  # a unit's field: the unit editor's
        await type_into(pilot, "#f-stat-save", "25")
        assert "Save must be 0 to 20, not 25" in editor_findings(app)
        assert editor_findings(app).count("Save must") == 1  # the ruleset's finding, not the profile's too
        await type_into(pilot, "#f-stat-save", "3")
        await type_into(pilot, "#f-stat-base", "1.5")
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert isinstance(app.screen, WeaponEditorScreen)
        await type_into(pilot, "#w-die", "3d10")
        await type_into(pilot, "#w-range", "30")
        await pilot.press("ctrl+s")
        await pilot.pause()
        await apply_and_save(pilot)
    (after,) = saved
    element = round_trips(after).units[0].elements[0]
    assert element.stats == {**force.units[0].elements[0].stats, "save": 3, "base": "1.5"}
    assert (element.weapons[0].die, element.weapons[0].range) == ("3d10", 30)
    assert get_ruleset("d10-phased").validate(after) == get_ruleset("d10-phased").validate(force)


async def test_a_d10_unit_edits_its_own_fields(tmp_path: Path) -> None:
    force = sample("d10-phased")
    assert force.units[0].stats == {"grade": "average", "command_radius": 6}
    saved: list[Force] = []
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_force(force, None, on_save=saved.append)
        await pilot.pause()
        await pilot.press("up", "enter")  # the unit's row
        await pilot.pause()
        assert isinstance(app.screen, UnitEditorScreen)
        assert app.screen.query_one("#u-stat-grade", Select).value == "average"
        await pick(pilot, "#u-stat-grade", "fearless")
        await type_into(pilot, "#u-stat-leader", "1")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ForceBuilderScreen)
        await pilot.press("ctrl+s")
        await pilot.pause()
    unit = round_trips(saved[0]).units[0]
    assert unit.stats == {"grade": "fearless", "command_radius": 6, "leader": 1}
    army, found = force_to_army(saved[0])
    assert (army.units[0].grade, army.units[0].leader, found) == ("fearless", 1, [])


async def test_an_older_d10_file_keeps_its_unit_fields_on_the_first_model_until_changed(tmp_path: Path) -> None:
    force = sample("d10-phased")
    first = force.units[0].elements[0]
    older_unit = attrs.evolve(force.units[0], stats={}, elements=(
        attrs.evolve(first, stats={**first.stats, "grade": "cowardly", "leader": 1}), *force.units[0].elements[1:]))
    older = attrs.evolve(force, units=(older_unit, *force.units[1:]))
    army, found = force_to_army(older)
    assert (army.units[0].grade, army.units[0].leader, found) == ("cowardly", 1, [])  # still read
    saved: list[Force] = []
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_force(older, None, on_save=saved.append)
        await pilot.pause()
        await pilot.press("up", "enter")
        await pilot.pause()
        assert isinstance(app.screen, UnitEditorScreen)
        assert app.screen.query_one("#u-stat-grade", Select).value == "cowardly"  # shown from the first model
        assert app.screen.read_form()[0] == older_unit  # unchanged: nothing moves
        await pick(pilot, "#u-stat-grade", "fearless")
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
    unit = saved[0].units[0]
    assert unit.stats == {"grade": "fearless"} and "grade" not in unit.elements[0].stats  # moved, not given twice
    assert unit.elements[0].stats["leader"] == 1
    assert force_to_army(saved[0])[0].units[0].grade == "fearless"


async def test_a_flat_out_war_element_keeps_its_fields_and_its_bytes(tmp_path: Path) -> None:
    force = sample("flat-out-war")
    saved: list[Force] = []
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_editor(app, pilot, force, saved)
        assert {w.id for w in editor.query("Input, Select")} >= {"f-name", "f-count", "f-die", "f-move", "f-kind",
                                                               "f-attributes", "f-spells"}
        await pilot.press("ctrl+s")  # applied unchanged
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert dump_force(saved[0]) == dump_force(force)  # opened and applied: byte for byte the same
    saved.clear()
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_editor(app, pilot, force, saved)
        await type_into(pilot, "#f-move", "50")
        assert "MOVE must be at most 48, not 50" in editor_findings(app)
        await type_into(pilot, "#f-move", "6")
        await pick(pilot, "#f-kind", "vehicle")
        await pilot.press("ctrl+o")
        await pilot.pause()
        await pick(pilot, "#w-mount", "turret")
        await pilot.press("ctrl+s")
        await pilot.pause()
        await apply_and_save(pilot)
    element = round_trips(saved[0]).units[0].elements[0]
    assert (element.move, element.kind, element.weapons[0].mount) == (6, "vehicle", "turret")


async def test_a_new_element_has_only_the_fields_its_profile_declares(tmp_path: Path) -> None:
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_force(sample("figwars-3"), None)
        await pilot.pause()
        await pilot.press("a")  # opens the new element in the editor
        await pilot.pause()
        assert isinstance(app.screen, ElementEditorScreen)
        assert (app.screen.original.die, app.screen.original.move) == (None, None)  # FigWars keeps MOV in stats


async def test_the_force_table_wraps_long_weapon_names(tmp_path: Path) -> None:
    """Issue 11: FigWars' weapon names are long; at 80 columns they wrap (three lines at most,
    an ellipsis says there is more) instead of being cut mid-word."""
    from tests.tui.helpers import screen_text

    forces = {f.name: f for f in get_ruleset("figwars-3").sample_forces()}
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_force(forces["Gothic Imperium Battle Group"], None, on_save=lambda f: None)
        await pilot.pause()
        lines = screen_text(app).splitlines()
        at = next(i for i, line in enumerate(lines) if line.startswith("   Guardsman "))
        assert lines[at].rstrip().endswith("Laser Gun;") and lines[at + 1].strip() == "fixed bayonet"
        assert any(line.rstrip().endswith("Hi-(powered)") for line in lines)
        await pilot.press("escape")
        await pilot.pause()
        app.open_force(forces["Intergalactic Hunters"], None, on_save=lambda f: None)
        await pilot.pause()
        lines = screen_text(app).splitlines()
        at = next(i for i, line in enumerate(lines) if line.startswith("   Intergalactic Hun… "))
        assert [line[46:62].rstrip() for line in lines[at:at + 3]] == ["hunter's", "shoulder", "blaster;…"]
