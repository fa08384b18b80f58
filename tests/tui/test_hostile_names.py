"""User text is shown exactly as typed and never runs as markup.

A unit called `[@click=app.quit]Boss[/]` would quit the app when clicked if it were
read as markup; a side called `[bold]x` would lose its brackets.
"""

from __future__ import annotations

from pathlib import Path

from tests.tui.campaign_fixture import HOSTILE_CAMPAIGN, HOSTILE_SIDE, HOSTILE_UNIT, make_toy_campaign
from tests.tui.helpers import screen_text
from tests.tui.toy_ruleset import toy_force
from tests.tui.test_campaigns import settle
from tui.app import MusterApp
from tui.commands import screen_commands
from tui.screens.dashboard import DashboardScreen
from tui.screens.force_builder import ForceBuilderScreen
from tui.screens.log_viewer import LogViewerScreen


def find(text: str, needle: str) -> tuple[int, int]:
    for y, line in enumerate(text.splitlines()):
        if needle in line:
            return line.index(needle), y
    raise AssertionError(f"{needle!r} is not on screen:\n{text}")


async def test_hostile_names_show_exactly_and_trigger_nothing(tmp_path: Path) -> None:
    folder = make_toy_campaign(tmp_path / "toy")
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert HOSTILE_CAMPAIGN in screen_text(app)  # the campaigns list
        app.open_campaign(folder)
        await settle(pilot)
        assert isinstance(app.screen, DashboardScreen)
        text = screen_text(app)
        assert f"8 VP  {HOSTILE_SIDE}" in text
        assert f"{HOSTILE_SIDE}: Raider Band" in text
        assert HOSTILE_CAMPAIGN in text.splitlines()[0]  # the header title

        # the palette offers "Edit force: [bold]x" as plain text
        labels = [label for label, _help, _run in screen_commands(app.screen, app)]
        assert f"Edit force: {HOSTILE_SIDE}" in labels
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"edit force")
        await pilot.pause(0.3)
        assert f"Edit force: {HOSTILE_SIDE}" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, DashboardScreen)

        # the battle log shows the unit's name; clicking it does nothing
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LogViewerScreen)
        text = screen_text(app)
        x, y = find(text, HOSTILE_UNIT)
        await pilot.click(offset=(x + 2, y))
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, LogViewerScreen)
        await pilot.press("escape")
        await pilot.pause()

        # the force builder: the unit row and the delete question
        app.screen.edit_side("raiders")  # type: ignore[attr-defined]
        await pilot.pause()
        assert isinstance(app.screen, ForceBuilderScreen)
        text = screen_text(app)
        x, y = find(text, HOSTILE_UNIT[:20])  # the name column is 20 wide: cut, never parsed
        await pilot.click(offset=(x + 1, y))
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, ForceBuilderScreen)
        await pilot.press("up", "up", "x")  # the cursor to the unit row, then delete
        await pilot.pause()
        assert f"Delete unit {HOSTILE_UNIT}?" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running


async def test_hostile_force_and_element_names_in_the_builder(app: MusterApp) -> None:
    force = toy_force("[red]Raiders[/red]", "[bold]x")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.open_force(force, None, on_save=lambda f: None)
        await pilot.pause()
        text = screen_text(app)
        assert "[red]Raiders[/red]" in text.splitlines()[1]
        assert "[bold]x" in text
        await pilot.press("r")  # rename the force to something hostile again
        await pilot.pause()
        field = app.screen.query_one("#prompt-input")
        field.value = ""
        await pilot.press(*"[@click=app.quit]Q[/]", "enter")
        await pilot.pause()
        assert "[@click=app.quit]Q[/]" in screen_text(app)
        await pilot.press("ctrl+s")  # the "Saved ..." notice carries the name too
        await pilot.pause()
        assert app.is_running
