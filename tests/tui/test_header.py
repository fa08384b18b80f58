"""Muster's one-widget header (tui/widgets/header.py) against Textual's four-widget Header:
the same cells in the same styles (so the SVG snapshots stay as they are), and the same
ways: the title follows the app's and the screen's, the icon opens the command palette,
a click elsewhere makes the header tall."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.command import CommandPalette
from textual.screen import Screen
from textual.widgets import Header, Static

from tests.tui.helpers import screen_cells, screen_text
from tui.widgets.header import MusterHeader

SIZE = (80, 24)


class Shown(Screen[None]):
    def __init__(self, header: type[Any], title: str | None, sub_title: str | None) -> None:
        super().__init__()
        self.header, self.start = header, (title, sub_title)

    def compose(self) -> ComposeResult:
        yield self.header()
        yield Static("body")

    def on_mount(self) -> None:
        self.title, self.sub_title = self.start


class Host(App[None]):
    TITLE = "Muster"

    def __init__(self, header: type[Any], title: str | None = None, sub_title: str | None = None, theme: str = "textual-dark") -> None:
        super().__init__()
        self.shown = Shown(header, title, sub_title)
        self.start_theme = theme

    def on_mount(self) -> None:
        self.theme = self.start_theme
        self.push_screen(self.shown)


def header_cells(app: App[None], rows: int) -> list[list[str]]:
    """The top `rows` lines as the SVG snapshots see them."""
    return screen_cells(app)[:rows]


async def drawn(header: type[Any], title: str | None, sub_title: str | None, *, size: tuple[int, int] = SIZE,
                theme: str = "textual-dark", tall: bool = False, hover: bool = False) -> list[list[str]]:  # fmt: skip
    app = Host(header, title, sub_title, theme)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        if tall:
            await pilot.click(offset=(30, 0))
        if hover:
            await pilot.hover(offset=(3, 1 if tall else 0))
        await pilot.pause()
        return header_cells(app, 3)


@pytest.mark.parametrize(
    ("title", "sub_title", "size", "theme", "tall", "hover"),
    [
        ("Demo: The Hive War", "Campaign", SIZE, "textual-dark", False, False),
        (None, None, SIZE, "textual-dark", False, False),  # the app's title
        ("A campaign name long enough to be cut short with an ellipsis, and then some", "Campaign", SIZE, "textual-dark", False, False),
        ("x" * 62, None, SIZE, "textual-light", False, False),  # exactly the title's width
        ("Odd", "", (81, 24), "textual-light", False, False),
        ("Narrow", "Sub", (20, 10), "textual-dark", False, False),
        ("Tall", "Sub", SIZE, "textual-dark", True, False),
        ("Hover", "Sub", SIZE, "textual-dark", False, True),
        ("Tall hover", "Sub", SIZE, "textual-light", True, True),
    ],
)  # fmt: skip
async def test_the_header_draws_what_textuals_header_draws(
    title: str | None, sub_title: str | None, size: tuple[int, int], theme: str, tall: bool, hover: bool
) -> None:
    ours = await drawn(MusterHeader, title, sub_title, size=size, theme=theme, tall=tall, hover=hover)
    textuals = await drawn(Header, title, sub_title, size=size, theme=theme, tall=tall, hover=hover)
    assert ours == textuals


async def test_the_title_follows_the_screen_and_the_app_without_a_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    app = Host(MusterHeader)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        header = app.screen.query_one(MusterHeader)
        assert screen_text(app).splitlines()[0].split() == ["⭘", "Muster"]  # the app's title
        layouts: list[bool] = []
        real = MusterHeader.refresh
        monkeypatch.setattr(MusterHeader, "refresh", lambda self, *a, layout=False, **k: (layouts.append(layout), real(self, *a, layout=layout, **k))[1])
        app.screen.title = "Battle 2"
        app.screen.sub_title = "Battle log"
        await pilot.pause()
        assert "Battle 2 — Battle log" in screen_text(app).splitlines()[0]
        app.screen.title = None  # back to the app's, which changes too
        app.title = "Muster 2"
        await pilot.pause()
        assert "Muster 2 — Battle log" in screen_text(app).splitlines()[0]
        assert layouts and not any(layouts)  # redrawn in place: no layout of the screen
        assert header.region.height == 1


async def test_the_icon_opens_the_command_palette_and_the_rest_makes_the_header_tall() -> None:
    app = Host(MusterHeader, "Title")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        header = app.screen.query_one(MusterHeader)
        await pilot.click(offset=(40, 0))  # the title
        await pilot.pause()
        assert header.has_class("-tall") and header.region.height == 3
        assert screen_text(app).splitlines()[1].strip() == "⭘"  # the icon on the middle line
        await pilot.click(offset=(75, 1))  # the clock's space: back to one line
        await pilot.pause()
        assert not header.has_class("-tall") and header.region.height == 1
        await pilot.click(offset=(1, 0))  # the icon
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        assert not header.has_class("-tall")


async def test_the_icon_lights_up_and_says_what_it_does_under_the_mouse() -> None:
    app = Host(MusterHeader, "Title")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        header = app.screen.query_one(MusterHeader)
        plain = header_cells(app, 1)
        await pilot.hover(offset=(2, 0))
        await pilot.pause()
        assert header.tooltip == "Open the command palette"
        assert header_cells(app, 1) != plain
        await pilot.hover(offset=(40, 0))  # the title: no tooltip, the icon as it was
        await pilot.pause()
        assert header.tooltip is None and header_cells(app, 1) == plain
        await pilot.hover(offset=(2, 0))
        await pilot.hover(offset=(40, 10))  # off the header
        await pilot.pause()
        assert header.tooltip is None and header_cells(app, 1) == plain
