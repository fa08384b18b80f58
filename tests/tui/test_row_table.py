"""The dashboard's battles table (tui/widgets/row_table.py) against Textual's DataTable with a
row cursor: the same cells in the same styles, segment for segment as the SVG snapshots see
them, whatever the focus, the cursor, the mouse, the scroll and the theme; and the same ways
(keys, clicks, selection)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from tests.tui.helpers import screen_cells, screen_text
from tui.widgets.row_table import RowTable

# the dashboard's: the panel's border and height, the table's width and padding
CSS = """
.panel { border: round $primary 50%; padding: 0 1; height: 100%; }
#history { width: 1fr; border: round $primary 50%; padding: 0; }
#left { width: 38; }
"""
COLUMNS = (("#", 2), ("Scenario", 15), ("VPs", 7), ("Winner", 8))
BATTLES = [
    (Text("1"), Text("Hold the Bridge"), Text("8/5"), Text("Raiders")),
    (Text("2"), Text("A scenario name far too long for its column"), Text("10.5/12"), Text("draw")),
    (Text("3"), Text("日本語のシナリオ名です"), Text("3/0"), Text("Knights of the Realm")),
    (Text("4"), Text.assemble(("Night", "bold"), " raid"), Text(""), Text("Raiders")),
]
NONE = [(Text(""), Text("No battles yet", style="dim"), Text(""), Text(""))]


class Host(App[None]):
    CSS = CSS

    def __init__(self, kind: type[Any], rows: list[tuple[Text, ...]], theme: str) -> None:
        super().__init__(ansi_color=theme == "ansi")  # the terminal's own colours (:ansi)
        self.kind, self.rows, self.start_theme = kind, rows, theme

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield Static("track", id="left", classes="panel")
            if self.kind is DataTable:
                yield DataTable(id="history", cursor_type="row", classes="panel")
            else:
                yield RowTable(id="history", classes="panel")

    def on_mount(self) -> None:
        if self.start_theme != "ansi":
            self.theme = self.start_theme
        table = self.query_one("#history")
        table.border_title = "Battles"
        for label, width in COLUMNS:
            table.add_column(Text(label), width=width)  # type: ignore[attr-defined]
        for i, row in enumerate(self.rows):
            table.add_row(*row, key=str(i + 1))  # type: ignore[attr-defined]
        table.focus()


Steps = Callable[[Pilot[None]], Awaitable[None]]


async def drawn(kind: type[Any], rows: list[tuple[Text, ...]], steps: Steps, *, size: tuple[int, int] = (80, 24),
                theme: str = "textual-dark") -> list[list[str]]:  # fmt: skip
    app = Host(kind, rows, theme)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await steps(pilot)
        await pilot.pause()
        await pilot.pause()
        return screen_cells(app)


async def nothing(pilot: Pilot[None]) -> None:
    pass


def keys(*pressed: str) -> Steps:
    async def run(pilot: Pilot[None]) -> None:
        await pilot.press(*pressed)

    return run


def hover(x: int, y: int, *then: str) -> Steps:
    async def run(pilot: Pilot[None]) -> None:
        await pilot.hover("#history", offset=(x, y))
        await pilot.press(*then)

    return run


def click(x: int, y: int, times: int = 1) -> Steps:
    async def run(pilot: Pilot[None]) -> None:
        for _ in range(times):
            await pilot.click("#history", offset=(x, y))
            await pilot.pause()

    return run


async def blurred(pilot: Pilot[None]) -> None:
    pilot.app.set_focus(None)


async def relit(pilot: Pilot[None]) -> None:
    """Drawn once, then the theme and the focus change: drawn again in the new styles."""
    await pilot.press("down")
    await pilot.pause()
    pilot.app.theme = "textual-light"
    await pilot.pause()
    pilot.app.set_focus(None)
    await pilot.pause()
    pilot.app.query_one("#history").focus()
    await pilot.pause()
    pilot.app.theme = "monokai"


MANY = BATTLES * 6  # more rows than the panel shows at 80x24: a scrollbar, scrolling


@pytest.mark.parametrize(
    ("rows", "steps", "size", "theme"),
    [
        (NONE, nothing, (80, 24), "textual-dark"),  # the dashboard before the first battle
        (BATTLES, nothing, (80, 24), "textual-dark"),
        (BATTLES, nothing, (80, 24), "textual-light"),
        (BATTLES, nothing, (80, 24), "ansi"),
        (BATTLES, hover(10, 1), (80, 24), "ansi"),
        (BATTLES, nothing, (80, 24), "monokai"),
        (BATTLES, blurred, (80, 24), "textual-dark"),
        (BATTLES, relit, (80, 24), "textual-dark"),
        (BATTLES, keys("down", "down"), (80, 24), "textual-dark"),
        (BATTLES, keys("down", "down", "down", "down", "up"), (80, 24), "textual-light"),
        (BATTLES, hover(10, 3), (80, 24), "textual-dark"),  # the mouse lights its row
        (BATTLES, hover(10, 1), (80, 24), "textual-dark"),  # ...and the header
        (BATTLES, hover(10, 0), (80, 24), "textual-dark"),  # the border: nothing
        (BATTLES, hover(39, 2), (100, 24), "textual-dark"),  # past the last column
        (BATTLES, hover(10, 3, "down"), (80, 24), "textual-dark"),  # a key puts the mouse's row out
        (BATTLES, click(5, 4), (80, 24), "textual-dark"),
        (BATTLES, click(5, 4, times=2), (80, 24), "textual-light"),
        (BATTLES, click(25, 2), (80, 24), "textual-dark"),
        (MANY, nothing, (80, 24), "textual-dark"),
        (MANY, keys("pagedown"), (80, 24), "textual-dark"),
        (MANY, keys("pagedown", "pagedown", "pageup"), (80, 24), "textual-dark"),
        (MANY, keys("ctrl+end"), (80, 24), "textual-dark"),
        (MANY, keys("ctrl+end", "ctrl+home"), (80, 24), "textual-light"),
        (MANY, keys(*["down"] * 9), (80, 24), "textual-dark"),
        (MANY, keys("end"), (70, 24), "textual-dark"),  # narrower than the table: it scrolls sideways
        (MANY, keys("right", "right"), (70, 24), "textual-dark"),
        (MANY, keys("end", "home"), (70, 24), "textual-dark"),
        (BATTLES, nothing, (120, 30), "textual-dark"),  # wider: the rows fill the panel
    ],
)  # fmt: skip
async def test_the_table_draws_what_textuals_data_table_draws(
    rows: list[tuple[Text, ...]], steps: Steps, size: tuple[int, int], theme: str
) -> None:
    ours = await drawn(RowTable, rows, steps, size=size, theme=theme)
    textuals = await drawn(DataTable, rows, steps, size=size, theme=theme)
    assert ours == textuals


class Chooser(Host):
    def __init__(self) -> None:
        super().__init__(RowTable, BATTLES, "textual-dark")
        self.chosen: list[tuple[int, str | None]] = []

    def on_row_table_row_selected(self, event: RowTable.RowSelected) -> None:
        self.chosen.append((event.cursor_row, event.row_key))


async def test_enter_and_a_second_click_select_the_cursors_row() -> None:
    app = Chooser()
    chosen = app.chosen
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.query_one(RowTable)
        await pilot.press("down", "enter")
        await pilot.pause()
        assert chosen == [(1, "2")]
        await pilot.click("#history", offset=(5, 4))  # the third row (under the border and the header)
        await pilot.pause()
        assert table.cursor_row == 2 and len(chosen) == 1
        await pilot.click("#history", offset=(5, 4))  # again: chosen
        await pilot.pause()
        assert chosen[-1] == (2, "3")
        await pilot.click("#history", offset=(5, 1))  # the header chooses nothing
        await pilot.pause()
        assert table.cursor_row == 2 and len(chosen) == 2
        table.move_cursor(row=99)  # kept in the table
        assert table.cursor_row == 3
        table.clear()
        assert table.row_count == 0 and table.cursor_row == 0
        await pilot.press("enter")  # no rows: nothing to choose
        await pilot.pause()
        assert len(chosen) == 2


async def test_the_cursor_is_kept_in_view() -> None:
    app = Host(RowTable, MANY, "textual-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.query_one(RowTable)
        visible = table.scrollable_content_region.height - 1  # under the header
        await pilot.press(*["down"] * (visible + 2))
        await pilot.pause()
        assert table.cursor_row == visible + 2 and table.scroll_y == 3
        await pilot.press("ctrl+home")
        await pilot.pause()
        assert table.cursor_row == 0 and table.scroll_y == 0
        table.move_cursor(row=len(MANY) - 1)
        await pilot.pause()
        assert table.scroll_y == table.max_scroll_y > 0


async def test_the_dashboard_opens_a_battles_log_from_its_row(tmp_path: Any) -> None:
    """Enter on the battles table, or a click on its cursor's row, opens that battle's log."""
    from tests.tui.campaign_fixture import make_toy_campaign
    from tests.workers import settle
    from tui.app import MusterApp
    from tui.screens.dashboard import DashboardScreen
    from tui.screens.log_viewer import LogViewerScreen

    folder = make_toy_campaign(tmp_path / "toy")
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.open_campaign(folder)
        await settle(pilot)
        dashboard = app.screen
        assert isinstance(dashboard, DashboardScreen) and app.focused is dashboard.query_one("#history", RowTable)
        await pilot.press("down", "enter")  # one battle: the cursor stays on it
        await settle(pilot)
        assert isinstance(app.screen, LogViewerScreen) and "Battle 1: Hold the Bridge" in screen_text(app)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is dashboard
        await pilot.click("#history", offset=(2, 2))  # on the cursor's cell (as DataTable: row and column): chosen
        await settle(pilot)
        assert isinstance(app.screen, LogViewerScreen)
