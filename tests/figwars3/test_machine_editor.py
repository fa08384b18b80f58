"""The force builder edits vehicle and mecha designs (issue 15, 4.4, 4.5), driven by
Pilot at 80x24: the element editor shows the values the rules work out from the design
(SIZ, MOV, DEF, DP, CAP, RAM) and follows each change; the force builder shows them for
the element under the cursor, where a ruleset with points would show a price."""

from __future__ import annotations

from pathlib import Path

import attrs
from textual.widgets import Static

from campaign.force import Force
from campaign.rulesets import get_ruleset
from tests.tui.helpers import type_into
from tests.tui.test_profile_editors import apply_and_save, open_editor, pick, round_trips
from tui.screens.element_editor import ElementEditorScreen
from tui.app import MusterApp
from tui.screens.force_builder import ForceBuilderScreen

RULES = get_ruleset("figwars-3")
FORCES = {f.name: f for f in RULES.sample_forces()}


def panel(app: MusterApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def test_the_rules_work_out_a_design() -> None:
    hedgehog = FORCES["USC Hedgehog Patrol"].units[0].elements[0]
    assert RULES.derived_values(hedgehog) == ["SIZ 8", "MOV 9", "DEF 5d", "DP 8", "CAP 4 (crew 1)", "RAM 7"]
    archmage = FORCES["Arcane Circle"].units[0].elements[0]
    assert RULES.derived_values(archmage) == ["MOV 4", "DEF 5d", "COM 6", "DP 3", "ARC 3"]
    broken = attrs.evolve(hedgehog, stats={**hedgehog.stats, "locomotion": "rollerskates"})
    assert RULES.derived_values(broken) == []  # its findings say what is wrong


async def test_a_vehicle_design_is_edited_with_its_derived_values(tmp_path: Path) -> None:
    force = FORCES["Imperial Armour"]
    saved: list[Force] = []
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_force(force, None, on_save=saved.append)
        await pilot.pause()
        assert isinstance(app.screen, ForceBuilderScreen)
        shown = panel(app, "#cost-breakdown")
        assert "Armoured Carrier" in shown and "CAP 10 (crew 1)" in shown and "each" not in shown  # no price: no points
        await pilot.press("enter")  # the cursor starts on the first element
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, ElementEditorScreen)
        assert "SIZ 10" in panel(app, "#editor-cost") and "DP 7" in panel(app, "#editor-cost")
        await type_into(pilot, "#f-stat-siz", "14")
        await pick(pilot, "#f-stat-role", "battle vehicle")
        changed = editor.read_form()
        expected = RULES.derived_values(changed)
        assert expected[0] == "SIZ 14" and expected != RULES.derived_values(force.units[0].elements[0])
        shown = panel(app, "#editor-cost")
        assert all(phrase in shown for phrase in expected)  # the panel follows the design
        await apply_and_save(pilot)
    (after,) = saved
    element = round_trips(after).units[0].elements[0]
    assert (element.stats["siz"], element.stats["role"]) == (14, "battle vehicle")


async def test_a_mecha_design_is_edited_with_its_derived_values(tmp_path: Path) -> None:
    force = FORCES["Mecha Lance"]
    saved: list[Force] = []
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_editor(app, pilot, force, saved)
        assert "DP 7" in panel(app, "#editor-cost")  # the Strider: stocky
        await pick(pilot, "#f-stat-build", "slender")
        shown = panel(app, "#editor-cost")
        assert "DP 7" not in shown and "DP " in shown
        await apply_and_save(pilot)
    (after,) = saved
    strider = round_trips(after).units[0].elements[0]
    assert strider.stats["build"] == "slender"
    assert f"DP {RULES.derived_values(strider)[3].split()[1]}" in shown
