"""Names with escape sequences and newlines are inert on every screen (issue 10, problem 6).

The hostile campaign (tests/hostile.py) is opened in the TUI at 80x24; on each screen
the rendered text must hold no raw control character and no forged line, and the
names must still be there, shown visibly.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile import assert_inert, hostile_campaign
from textual.widgets import Input, Static

from tests.tui.helpers import editor_findings, screen_text, type_into
from tests.tui.test_campaigns import settle
from tui.app import MusterApp
from tui.screens.battle import BattleScreen
from tui.screens.dashboard import DashboardScreen
from tui.screens.dialogs import PromptScreen
from tui.screens.element_editor import ElementEditorScreen
from tui.screens.force_builder import ForceBuilderScreen
from tui.screens.log_viewer import LogViewerScreen
from tui.screens.new_campaign import NewCampaignScreen


def shown(app: MusterApp) -> str:
    text = screen_text(app)
    assert_inert(text)
    for title in (app.title, app.sub_title, app.screen.title or "", app.screen.sub_title or ""):
        assert_inert(str(title))
    return text


@pytest.fixture
def hostile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return hostile_campaign(tmp_path / "camp")


async def test_hostile_names_are_inert_on_every_screen(hostile: Path) -> None:
    app = MusterApp(hostile.parent)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Evil\\x1b[2J" in shown(app)  # the campaigns list
        app.open_campaign(hostile)
        await settle(pilot)
        assert isinstance(app.screen, DashboardScreen)
        assert "Evil\\x1b" in shown(app)
        await pilot.press("l")
        await settle(pilot)
        assert isinstance(app.screen, LogViewerScreen)
        assert "Evil" in shown(app)
        await pilot.press("escape")
        await pilot.pause()
        app.screen.edit_side("humans")  # type: ignore[attr-defined]
        await settle(pilot)
        assert isinstance(app.screen, ForceBuilderScreen)
        assert "Evil" in shown(app)
        await pilot.press("down", "enter")  # the element editor
        await settle(pilot)
        assert "Evil" in shown(app)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("up", "up", "x")  # delete a unit? the question quotes its name
        await settle(pilot)
        shown(app)
        await pilot.press("escape")
        await pilot.press("escape")
        await settle(pilot)


async def test_hostile_names_are_inert_in_battle(hostile: Path) -> None:
    app = MusterApp(hostile.parent)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.start_battle(hostile)
        await settle(pilot)
        assert isinstance(app.screen, BattleScreen)
        assert "Evil" in shown(app)


async def test_the_battle_form_and_palette_are_inert(hostile: Path) -> None:
    from tests.tui.test_battle import pick

    app = MusterApp(hostile.parent)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.start_battle(hostile)
        await settle(pilot)
        await pick(pilot, "Activate Tactical Squad")
        assert "Evil" in shown(app)
        await pick(pilot, "Tactical Squad")  # its first action: a form naming units
        await settle(pilot)
        assert "Evil" in shown(app)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause(0.3)
        shown(app)


async def test_typed_names_with_control_characters_are_refused(hostile: Path) -> None:
    app = MusterApp(hostile.parent)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.open_campaign(hostile)
        await settle(pilot)
        app.screen.edit_side("humans")  # type: ignore[attr-defined]
        await settle(pilot)
        before = app.screen.force  # type: ignore[attr-defined]
        await pilot.press("r")  # rename the unit under the cursor: the field shows its name inert
        await pilot.pause()
        field = app.screen.query_one("#prompt-input", Input)
        assert "\x1b" not in field.value and "\\x1b" in field.value
        field.value = ""
        field.insert_text_at_cursor("Pwn\x1b[2J")  # a paste
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PromptScreen)  # refused: the dialog stays
        assert "control characters" in " ".join(str(n.message) for n in app._notifications)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.force == before  # type: ignore[attr-defined]
        await pilot.press("r", "enter")  # accepted as shown: the file's own name is kept, not its inert form
        await pilot.pause()
        assert app.screen.force == before  # type: ignore[attr-defined]
        await pilot.press("down", "enter")  # the element editor
        await settle(pilot)
        editor = app.screen
        assert isinstance(editor, ElementEditorScreen)
        await type_into(pilot, "#f-name", "Bad\x07name")
        assert "control characters" in editor_findings(app)
        assert editor.read_form().name == editor.original.name  # never the typed control character
        await type_into(pilot, "#f-name", editor.query_one("#f-name", Input).value.replace("Bad\x07name", ""))
        await pilot.press("escape")
        await settle(pilot)


async def test_the_wizard_refuses_a_side_name_with_an_escape(tmp_path: Path) -> None:
    folder = tmp_path / "table"
    folder.mkdir()
    app = MusterApp(folder)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewCampaignScreen)
        await type_into(pilot, "#c-name", "Hive War")
        await pilot.press("ctrl+n")
        await pilot.pause()
        await type_into(pilot, "#c-side-0", "Humans\x1b]0;pwned\x07")
        await type_into(pilot, "#c-side-1", "Aliens")
        await pilot.press("ctrl+n")
        await pilot.pause()
        await pilot.press("down", "space")
        await pilot.press("ctrl+s")
        await settle(pilot)
        problem = str(app.screen.query_one("#wizard-problem", Static).render())
        assert "control characters" in problem and "\\x1b" in problem
        assert list(folder.iterdir()) == []
        shown(app)


# --- SVG snapshots at 80x24 -------------------------------------------------------------


def test_hostile_dashboard_snapshot(snap_compare, hostile: Path) -> None:  # type: ignore[no-untyped-def]
    async def run(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        pilot.app.open_campaign(hostile)
        await settle(pilot)

    assert snap_compare(MusterApp(hostile.parent), terminal_size=(80, 24), run_before=run)


def test_hostile_battle_snapshot(snap_compare, hostile: Path) -> None:  # type: ignore[no-untyped-def]
    async def run(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        pilot.app.start_battle(hostile)
        await settle(pilot)
        pilot.app.screen.query_one("#battle-log").scroll_end(animate=False, immediate=True)  # where a long log sits
        await settle(pilot)

    assert snap_compare(MusterApp(hostile.parent), terminal_size=(80, 24), run_before=run)


async def test_a_stat_from_the_file_is_shown_inert_and_kept(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import attrs

    from campaign.profiles import FieldSpec, Profile
    from tests.tui.toy_ruleset import ToyWar, toy_force

    spec = FieldSpec("armour", "text", stat=True)
    monkeypatch.setattr(ToyWar, "profile", Profile(element=(*ToyWar.profile.element, spec)))
    force = toy_force()
    force = attrs.evolve(force, units=tuple(
        attrs.evolve(u, elements=tuple(attrs.evolve(e, stats={"armour": "flak\x1b[2J"}) for e in u.elements))
        for u in force.units))  # fmt: skip
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.open_force(force, None)
        await settle(pilot)
        await pilot.press("down", "enter")
        await settle(pilot)
        editor = app.screen
        assert isinstance(editor, ElementEditorScreen)
        assert editor.query_one("#f-stat-armour", Input).value == "flak\\x1b[2J"
        assert editor.read_form().stats == {"armour": "flak\x1b[2J"}  # shown inert, kept as the file has it
        await type_into(pilot, "#f-stat-armour", "plate\x07")
        assert "control characters" in editor_findings(app)
        assert "plate\x07" not in editor.read_form().stats.values()  # refused, never stored
        await type_into(pilot, "#f-stat-armour", "plate")
        assert editor.read_form().stats == {"armour": "plate"}
