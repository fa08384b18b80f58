"""Screens open without redoing work (issue 17's start-up): a new screen carries the app's
breakpoint classes from the start, so its first Resize restyles nothing, and the too-small
notice still follows the terminal's size."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tui.helpers import screen_text
from tests.workers import settle
from tui.app import MusterApp
from tui.screens.base import MusterModal
from tui.screens.log_viewer import LogViewerScreen


@pytest.mark.parametrize(
    ("size", "classes", "notice"),
    [((80, 24), {"-wide-enough", "-tall-enough"}, False), ((60, 20), {"-too-narrow", "-too-short"}, True),
     ((100, 20), {"-wide-enough", "-too-short"}, True)],
)  # fmt: skip
async def test_a_new_screen_has_the_size_classes_before_it_opens(
    app: MusterApp, size: tuple[int, int], classes: set[str], notice: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = LogViewerScreen("Battle 1", "a draw", ["one line"])
        modal = MusterModal()
        assert screen.classes == classes and modal.classes == classes
        restyled: list[Any] = []
        real = type(app).update_styles
        monkeypatch.setattr(type(app), "update_styles", lambda self, node, animate=True: (restyled.append(node), real(self, node, animate))[1])
        app.push_screen(screen)
        await pilot.pause()
        await pilot.pause()
        # ScreenResume styles the screen once; the first Resize finds its classes in place
        assert restyled.count(screen) <= 1
        assert ("Terminal too small" in screen_text(app)) is notice
        await pilot.resize_terminal(80, 24)  # the classes still follow the terminal
        await pilot.pause()
        await pilot.pause()
        assert {"-wide-enough", "-tall-enough"} <= screen.classes and "Terminal too small" not in screen_text(app)


def test_a_screen_made_outside_an_app_has_no_size_classes() -> None:
    assert LogViewerScreen("Battle 1", "a draw", []).classes == frozenset()  # Textual adds them at its first Resize


async def test_the_header_title_is_redrawn_only_when_it_changes(app: MusterApp, monkeypatch: pytest.MonkeyPatch) -> None:
    from tui.widgets.header import MusterHeader

    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = LogViewerScreen("Battle 1", "a draw", ["one line"])
        app.push_screen(screen)
        await pilot.pause()
        header = screen.query_one(MusterHeader)
        assert header.content_region.width == 80 - 8 - 10  # between the icon and the clock's space
        drawn: list[bool] = []
        real = MusterHeader.refresh
        monkeypatch.setattr(MusterHeader, "refresh", lambda self, *a, layout=False, **k: (drawn.append(layout), real(self, *a, layout=layout, **k))[1])
        screen.title = "Battle 2"
        screen.sub_title = "Battle log"
        await pilot.pause()
        await pilot.pause()
        assert "Battle 2 — Battle log" in screen_text(app).splitlines()[0]
        assert drawn and not any(drawn)  # redrawn in place: no layout of the screen
        before = len(drawn)
        screen.title = "Battle 2"  # the same title again: the reactive does not fire, nothing to redraw
        screen.sub_title = "Battle log"
        await pilot.pause()
        assert len(drawn) == before


async def test_the_dashboard_gives_the_battles_table_the_focus_first(app: MusterApp, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from textual.screen import Screen

    from tests.tui.campaign_fixture import make_toy_campaign
    from tui.screens.dashboard import DashboardScreen

    folder = make_toy_campaign(tmp_path / "toy")
    focused: list[str | None] = []
    real = Screen.set_focus
    monkeypatch.setattr(Screen, "set_focus", lambda self, widget, *a, **k: (focused.append(widget and widget.id), real(self, widget, *a, **k))[1])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        focused.clear()
        app.open_campaign(folder)
        await settle(pilot)
        assert isinstance(app.screen, DashboardScreen) and app.focused is not None and app.focused.id == "history"
        assert "track-scroll" not in focused  # never focused on the way (each move restyles both widgets)


async def test_a_screen_is_laid_out_again_only_for_a_new_size(app: MusterApp, monkeypatch: pytest.MonkeyPatch) -> None:
    from textual.screen import Screen

    from tui.widgets.header import MusterHeader

    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = LogViewerScreen("Battle 1", "a draw", ["one line"])
        resized: list[Any] = []
        real = Screen._refresh_layout
        monkeypatch.setattr(Screen, "_refresh_layout", lambda self, size=None, scroll=False: (resized.append((self, size)), real(self, size, scroll))[1])
        app.push_screen(screen)
        await pilot.pause()
        await pilot.pause()
        # laid out as it opens (ScreenResume) and for what its widgets asked since; its own
        # first Resize (same size) lays nothing out again
        assert [size for shown, size in resized if shown is screen].count(app.size) == 1
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        await pilot.pause()
        assert screen.query_one(MusterHeader).region.width == 100
        assert "one line" in screen_text(app)


async def test_a_screen_is_restyled_when_it_resumes_but_not_as_it_opens(app: MusterApp, monkeypatch: pytest.MonkeyPatch) -> None:
    from textual.dom import DOMNode

    from tui.widgets.header import MusterHeader

    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = LogViewerScreen("Battle 1", "a draw", ["one line"])
        restyled: list[Any] = []
        real = DOMNode.update_node_styles
        monkeypatch.setattr(DOMNode, "update_node_styles", lambda self, animate=True: (restyled.append(self), real(self, animate))[1])
        app.push_screen(screen)
        await pilot.pause()
        await pilot.pause()
        assert screen not in restyled  # styled as its widgets mounted, not all again as it resumes
        dark = screen.query_one(MusterHeader).rich_style.bgcolor
        app.pop_screen()
        await pilot.pause()
        app.theme = "textual-light"  # changed while the screen is off the stack
        await pilot.pause()
        app.push_screen(screen)  # resumed again: restyled, in the new theme
        await pilot.pause()
        await pilot.pause()
        assert screen in restyled
        light = screen.query_one(MusterHeader).rich_style.bgcolor
        assert light != dark
        fresh = LogViewerScreen("Battle 3", "a draw", ["a third line"])
        app.push_screen(fresh)
        await pilot.pause()
        await pilot.pause()
        assert fresh.query_one(MusterHeader).rich_style.bgcolor == light


async def test_a_new_screen_is_drawn_whole_once_and_the_first_screen_is_not_laid_out_again(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`muster --demo`: the dashboard's first layout draws all of it (Textual would draw it
    whole again at the next refresh); the blank screen beneath keeps its layout."""
    from textual._compositor import Compositor
    from textual.screen import Screen

    import tui.app
    from tui.screens.base import BlankScreen
    from tui.screens.dashboard import DashboardScreen

    monkeypatch.setattr(tui.app, "DEMO_BLANK_SECONDS", 60)  # the dashboard comes with its campaign
    whole: list[Compositor] = []
    real_full = Compositor.render_full_update
    monkeypatch.setattr(Compositor, "render_full_update", lambda self, *a, **k: (whole.append(self), real_full(self, *a, **k))[1])
    laid_out: list[Screen[Any]] = []
    real_layout = Screen._refresh_layout
    monkeypatch.setattr(Screen, "_refresh_layout", lambda self, size=None, scroll=False: (laid_out.append(self), real_layout(self, size, scroll))[1])
    app = tui.app.app_for(str(tmp_path), demo=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        first, dashboard = app.screen_stack
        assert isinstance(first, BlankScreen) and isinstance(dashboard, DashboardScreen)
        assert "Hot Landing" in screen_text(app)
        assert whole.count(dashboard._compositor) == 1
        # laid out as the app started, not again when the dashboard came
        assert first not in laid_out[laid_out.index(dashboard):]
        await pilot.resize_terminal(100, 30)  # a new size: both laid out again, and drawn whole
        await settle(pilot)
        for _ in range(100):  # the screen beneath is laid out after the top one: a loaded machine may lag
            if first._compositor.size == (100, 30):
                break
            await pilot.pause(0.02)
        assert first in laid_out[laid_out.index(dashboard):] and first._compositor.size == (100, 30)
        assert whole.count(dashboard._compositor) >= 2 and dashboard.query_one("#forces").region.width == 100


async def test_the_demo_parses_screens_and_widgets_default_styles_once(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The blank first screen sits as deep in the class tree as the dashboard: Textual does
    not parse Screen's and Widget's default styles again when the dashboard opens."""
    from textual.css.stylesheet import Stylesheet

    import tui.app
    from tui.screens.dashboard import DashboardScreen

    monkeypatch.setattr(tui.app, "DEMO_BLANK_SECONDS", 60)
    parsed: list[str] = []
    real = Stylesheet._parse_rules

    def parse(self: Stylesheet, css: str, read_from: Any, is_default_rules: bool = False, tie_breaker: int = 0, scope: str = "") -> Any:
        if (css, read_from, is_default_rules, tie_breaker, scope) not in self._parse_cache:  # parsed, not found
            parsed.append(read_from[1])
        return real(self, css, read_from, is_default_rules, tie_breaker, scope)

    monkeypatch.setattr(Stylesheet, "_parse_rules", parse)
    app = tui.app.app_for(str(tmp_path), demo=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, DashboardScreen)
    assert parsed.count("Screen.DEFAULT_CSS") == 1 and parsed.count("Widget.DEFAULT_CSS") == 1
