"""The force builder edits a caster's arcane powers (`spells`, FW3 16) through the
ruleset's field spec, driven by Pilot."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from campaign.force import Force
from campaign.rulesets import get_ruleset
from campaign.rulesets.figwars3.fields import PROFILE, SPELLS
from tests.tui.helpers import editor_findings, type_into
from tests.tui.test_profile_editors import apply_and_save, open_editor, round_trips
from tui.app import MusterApp


def circle() -> Force:
    return next(f for f in get_ruleset("figwars-3").sample_forces() if f.name == "Arcane Circle")


def test_the_profile_declares_the_powers() -> None:
    assert PROFILE.field("spells") is SPELLS and "teleport" in SPELLS.choices and SPELLS.type == "list"


async def test_a_casters_powers_are_edited_in_the_element_editor(tmp_path: Path) -> None:
    force = circle()
    saved: list[Force] = []
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await open_editor(app, pilot, force, saved)
        assert editor.query_one("#f-spells", Input).value == "assault, blast, barrier, teleport, spirit_strike, concealment"
        await type_into(pilot, "#f-spells", "assault, levitate")
        assert "levitate" in editor_findings(app)  # not a power of 16: named, not blocked
        await type_into(pilot, "#f-spells", "assault, teleport")
        assert "levitate" not in editor_findings(app)
        await apply_and_save(pilot)
    (after,) = saved
    assert round_trips(after).units[0].elements[0].spells == ("assault", "teleport")
