"""Pilot tests of the force builder: live costs, edits, confirmation, saving."""

from __future__ import annotations

import re
from pathlib import Path

from textual.widgets import Static

from tests.tui.helpers import screen_text, type_into
from tests.tui.toy_ruleset import toy_force
from tui.app import MusterApp
from tui.screens.element_editor import ElementEditorScreen
from tui.screens.force_builder import ForceBuilderScreen


def squash(text: str) -> str:
    """Runs of spaces as one, so column widths can change without breaking the tests."""
    return re.sub(r"[ ]+", " ", text)


def summary(app: MusterApp) -> str:
    return str(app.screen.query_one("#force-summary", Static).render())


async def open_builder(app: MusterApp, pilot, force=None, path=None) -> ForceBuilderScreen:  # type: ignore[no-untyped-def]
    await pilot.pause()
    app.open_force(force or toy_force(), path)
    await pilot.pause()
    assert isinstance(app.screen, ForceBuilderScreen)
    return app.screen


async def test_builder_shows_costs_per_element_unit_and_force(app: MusterApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await open_builder(app, pilot)
        # Trooper 2 x 8 = 16, Sergeant 13: unit and force 29 against the limit of 100
        assert "29 / 100 pts" in summary(app)
        text = screen_text(app)
        assert "Trooper" in text and "16" in text and "13" in text
        assert "each 8" in squash(text)  # the cursor starts on the Trooper: its breakdown


async def test_editing_an_element_updates_the_cost_as_you_type(app: MusterApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await open_builder(app, pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ElementEditorScreen)
        await type_into(pilot, "#f-count", "5", keys=True)
        cost = squash(str(app.screen.query_one("#editor-cost", Static).render()))
        assert "x 5 40" in cost  # 5 x 8
        assert "Force total 53 / 100" in cost  # 40 + 13
        await type_into(pilot, "#f-attributes", "Brave, Tough")
        cost = squash(str(app.screen.query_one("#editor-cost", Static).render()))
        assert "each 14" in cost  # 8 + 3 + 3
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ForceBuilderScreen)
        assert "83 / 100 pts" in summary(app)  # 5 x 14 + 13
        assert "(unsaved)" in summary(app)


async def test_findings_warn_but_do_not_block(app: MusterApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await open_builder(app, pilot)
        await pilot.press("enter")
        await pilot.pause()
        await type_into(pilot, "#f-move", "5")
        await type_into(pilot, "#f-count", "x", keys=True)  # the field takes digits only
        findings = str(app.screen.query_one("#editor-findings", Static).render())
        assert "MOVE must be a multiple of 2" in findings
        assert "Count is empty" in findings
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ForceBuilderScreen)
        trooper = screen.force.units[0].elements[0]
        assert trooper.move == 5 and trooper.count == 2  # the bad count kept the old value
        assert "1 errors" not in summary(app) and "0 errors, 1 warnings" in summary(app)


async def test_over_the_limit_is_an_error_finding(app: MusterApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await open_builder(app, pilot, toy_force(limit=20))
        assert "29 / 20 pts" in summary(app)
        assert "1 errors" in summary(app)
        assert "29 points is over the limit of 20" in screen_text(app)


async def test_escape_from_editor_with_changes_asks_and_can_discard(app: MusterApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        builder = await open_builder(app, pilot)
        await pilot.press("enter")
        await pilot.pause()
        await type_into(pilot, "#f-name", "Veteran")
        await pilot.press("escape")
        await pilot.pause()
        assert "unsaved changes" in screen_text(app)
        await pilot.press("escape")  # keep editing
        await pilot.pause()
        assert isinstance(app.screen, ElementEditorScreen)
        await pilot.press("escape", "d")
        await pilot.pause()
        assert app.screen is builder
        assert builder.force == toy_force()


async def test_add_duplicate_reorder_delete(app: MusterApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        builder = await open_builder(app, pilot)
        await pilot.press("d")  # duplicate the Trooper entry
        await pilot.pause()
        names = [e.name for e in builder.force.units[0].elements]
        assert names == ["Trooper", "Trooper", "Sergeant"]
        assert "45 / 100 pts" in summary(app)
        await pilot.press("down", "shift+up")  # Sergeant above the second Trooper
        await pilot.pause()
        assert [e.name for e in builder.force.units[0].elements] == ["Trooper", "Sergeant", "Trooper"]
        await pilot.press("x")
        await pilot.pause()
        assert "Delete element Sergeant of Squad?" in screen_text(app)
        await pilot.press("escape")  # keep it
        await pilot.pause()
        assert len(builder.force.units[0].elements) == 3
        await pilot.press("x", "y")
        await pilot.pause()
        assert [e.name for e in builder.force.units[0].elements] == ["Trooper", "Trooper"]
        assert "32 / 100 pts" in summary(app)


async def test_add_unit_from_samples_and_a_named_unit(app: MusterApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        builder = await open_builder(app, pilot)
        await pilot.press("s")
        await pilot.pause()
        assert "Lances  from Toy Knights" in screen_text(app)
        await pilot.press("down", "enter")  # Archers: 4 x (4 + 2 + 2) = 32
        await pilot.pause()
        assert [u.name for u in builder.force.units] == ["Squad", "Archers"]
        assert "61 / 100 pts" in summary(app)
        await pilot.press("u")
        await pilot.pause()
        await pilot.press(*"Scouts", "enter")
        await pilot.pause()
        assert [u.name for u in builder.force.units] == ["Squad", "Archers", "Scouts"]
        await pilot.press("a")  # a new element opens in the editor at once
        await pilot.pause()
        assert isinstance(app.screen, ElementEditorScreen)
        await type_into(pilot, "#f-name", "Scout")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert builder.force.units[2].elements[0].name == "Scout"


async def test_weapon_editor_adds_a_priced_weapon(app: MusterApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        builder = await open_builder(app, pilot)
        await pilot.press("down", "enter")  # the Sergeant: 13
        await pilot.pause()
        await pilot.press("ctrl+n")
        await pilot.pause()
        await type_into(pilot, "#w-name", "Pistol")
        await type_into(pilot, "#w-range", "8")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ElementEditorScreen)
        assert "Pistol" in str(app.screen.query_one("#editor-cost", Static).render())
        await pilot.press("ctrl+s")
        await pilot.pause()
        sergeant = builder.force.units[0].elements[1]
        assert [w.name for w in sergeant.weapons] == ["Blade", "Pistol"]
        assert sergeant.weapons[1].range == 8
        assert "31 / 100 pts" in summary(app)  # 13 + 2


async def test_save_writes_the_force_file_and_clears_unsaved(app: MusterApp, tmp_path: Path) -> None:
    saved = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_force(toy_force(), None, on_save=saved.append)
        await pilot.pause()
        await pilot.press("d", "ctrl+s")
        await pilot.pause()
        assert len(saved) == 1 and len(saved[0].units[0].elements) == 3
        assert "(unsaved)" not in summary(app)


async def test_escape_with_unsaved_changes_asks_then_saves(app: MusterApp) -> None:
    saved = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_force(toy_force(), None, on_save=saved.append)
        await pilot.pause()
        await pilot.press("d", "escape")
        await pilot.pause()
        assert "There are unsaved changes." in screen_text(app)
        await pilot.press("s")
        await pilot.pause()
        assert len(saved) == 1
        assert not isinstance(app.screen, ForceBuilderScreen)


async def test_a_new_force_is_saved_under_its_name_and_never_over_another_file(
    app: MusterApp, empty_folder: Path
) -> None:
    from saves.force_file import load_force

    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_force(toy_force("Iron Guard"), None, new_in=empty_folder)
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert load_force(empty_folder / "iron-guard.toml").name == "Iron Guard"
        app.pop_screen()
        await pilot.pause()
        # a second new force of the same name must not replace the first file
        app.open_force(toy_force("Iron Guard", unit="Other"), None, new_in=empty_folder)
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert load_force(empty_folder / "iron-guard.toml").units[0].name == "Squad"
        assert isinstance(app.screen, ForceBuilderScreen) and app.screen.path is None


async def test_fixing_a_force_clears_its_finding(app: MusterApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await open_builder(app, pilot, toy_force(limit=25))
        assert "29 / 25 pts  1 errors" in summary(app)
        await pilot.press("enter")  # the Trooper entry: 2 x 8
        await pilot.pause()
        await type_into(pilot, "#f-count", "1")
        assert "Force total 21 / 25" in str(app.screen.query_one("#editor-cost", Static).render())
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert summary(app).startswith("Test Force  toy-war 1  21 / 25 pts")
        assert "errors" not in summary(app)
        assert "No findings: the force is within" in screen_text(app)


async def test_escape_from_a_changed_weapon_asks_first(app: MusterApp) -> None:
    from tui.screens.weapon_editor import WeaponEditorScreen

    async with app.run_test(size=(80, 24)) as pilot:
        builder = await open_builder(app, pilot)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("ctrl+o")  # edit the Blade
        await pilot.pause()
        assert isinstance(app.screen, WeaponEditorScreen)
        await pilot.press("escape")  # unchanged: straight back
        await pilot.pause()
        assert isinstance(app.screen, ElementEditorScreen)
        await pilot.press("ctrl+o")
        await pilot.pause()
        await type_into(pilot, "#w-name", "Sabre")
        await pilot.press("escape")
        await pilot.pause()
        assert "The weapon has changes." in screen_text(app)
        await pilot.press("s")  # apply them
        await pilot.pause()
        assert isinstance(app.screen, ElementEditorScreen)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert [w.name for w in builder.force.units[0].elements[0].weapons] == ["Sabre"]


async def test_a_typed_problem_is_never_shown_beside_no_findings(app: MusterApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await open_builder(app, pilot)
        await pilot.press("enter")
        await pilot.pause()
        await type_into(pilot, "#f-count", "x", keys=True)  # only the typed problem, no rule finding
        findings = str(app.screen.query_one("#editor-findings", Static).render())
        assert "Count is empty" in findings
        assert "No findings" not in findings
