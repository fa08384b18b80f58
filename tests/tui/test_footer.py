"""The footer's keys as one widget (tui/widgets/footer.py): drawn cell for cell as Textual's
compact FooterKeys were, and clicked, hovered and explained as they were."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from tests.tui.campaign_fixture import make_toy_campaign
from tests.workers import settle
from tui.app import MusterApp
from tui.screens.briefing import BriefingScreen
from tui.screens.dashboard import DashboardScreen
from tui.widgets.footer import FooterKeys, MusterFooter


def textuals_footer(patch: pytest.MonkeyPatch) -> None:
    """Every Muster screen composes Textual's own compact Footer instead (the reference:
    a FooterKey widget a key, built by Textual's choice of bindings)."""
    for name, module in list(sys.modules.items()):
        if name.startswith("tui.") and getattr(module, "MusterFooter", None) is MusterFooter:
            patch.setattr(module, "MusterFooter", lambda: Footer(compact=True))


async def footer_lines(folder: Path, theme: str, size: tuple[int, int]) -> tuple[dict[str, list[tuple[str, str]]], int]:
    """The bottom line of the campaigns list, the dashboard and its edit picker, as segments,
    and how many FooterKey widgets the dashboard has."""
    app = MusterApp(folder.parent)
    shown: dict[str, list[tuple[str, str]]] = {}
    async with app.run_test(size=size) as pilot:
        app.theme = theme
        await settle(pilot)

        def bottom(name: str) -> None:
            shown[name] = [(s.text, repr(s.style)) for s in app.screen._compositor.render_strips()[-1]]

        bottom("campaigns")
        app.open_campaign(folder)
        await settle(pilot)
        assert isinstance(app.screen, DashboardScreen)
        bottom("dashboard")
        widgets = len(app.screen.query(FooterKey))
        await pilot.press("e")  # the side picker: a modal with its own footer
        await settle(pilot)
        bottom("picker")
    return shown, widgets


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
@pytest.mark.parametrize("size", [(80, 24), (120, 30)])
async def test_the_keys_are_drawn_as_textuals_footer_keys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, theme: str, size: tuple[int, int]
) -> None:
    folder = make_toy_campaign(tmp_path / "toy")
    ours, our_widgets = await footer_lines(folder, theme, size)
    with monkeypatch.context() as patch:
        textuals_footer(patch)
        theirs, their_widgets = await footer_lines(folder, theme, size)
    assert ours == theirs
    assert our_widgets == 0 and their_widgets > 5  # no FooterKey widget; a widget a key
    assert "Next battle" in "".join(text for text, _ in ours["dashboard"])


async def test_a_click_on_a_key_presses_it_and_hover_shows_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = make_toy_campaign(tmp_path / "toy")
    app = MusterApp(folder.parent)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.open_campaign(folder)
        await settle(pilot)
        keys = next(k for k in app.screen.query(FooterKeys) if not k.has_class("-command-palette"))
        assert len(app.screen.query(FooterKey)) == 0 and len(app.screen.query(FooterKeys)) == 2  # the palette's too
        names = [key.display for key in keys.keys]
        assert names[:3] == ["esc", "f1", "b"]
        x = keys.keys[0].width + 1 + keys.keys[1].width + 1 + 2  # inside "b Next battle"
        await pilot.hover(FooterKeys, offset=(x, 0))
        await pilot.pause()
        assert keys.hovered == 2
        drawn = {s.text: s.style for s in keys.render_line(0)}
        assert drawn[" Next battle"].bgcolor != drawn[" Help"].bgcolor  # the hovered key stands out
        await pilot.hover(FooterKeys, offset=(keys.keys[0].width, 0))  # the gap after "esc Back"
        await pilot.pause()
        assert keys.hovered is None
        await pilot.click(FooterKeys, offset=(x, 0))
        await settle(pilot)
        assert isinstance(app.screen, BriefingScreen)  # as pressing b


async def palette_line(folder: Path, theme: str) -> list[tuple[str, str]]:
    """The dashboard's bottom line with the mouse on the command palette's key."""
    app = MusterApp(folder.parent)
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = theme
        await settle(pilot)
        app.open_campaign(folder)
        await settle(pilot)
        await pilot.hover(offset=(76, 23))
        await pilot.pause()
        await pilot.pause()
        return [(s.text, repr(s.style)) for s in app.screen._compositor.render_strips()[-1]]


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
async def test_the_palettes_key_lights_up_as_textuals_and_opens_the_palette(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, theme: str
) -> None:
    from textual.command import CommandPalette

    folder = make_toy_campaign(tmp_path / "toy")
    ours = await palette_line(folder, theme)
    with monkeypatch.context() as patch:
        textuals_footer(patch)
        theirs = await palette_line(folder, theme)
    assert ours == theirs
    app = MusterApp(folder.parent)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.open_campaign(folder)
        await settle(pilot)
        await pilot.click(offset=(76, 23))
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette)


async def test_a_disabled_key_rings_the_bell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rung: list[bool] = []
    pressed: list[str] = []
    folder = make_toy_campaign(tmp_path / "toy")
    app = MusterApp(folder.parent)
    monkeypatch.setattr(app, "bell", lambda: rung.append(True))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.open_campaign(folder)
        await settle(pilot)
        keys = app.screen.query_one(FooterKeys)
        keys.keys = [keys.keys[0]._replace(disabled=True), *keys.keys[1:]]
        monkeypatch.setattr(app, "simulate_key", pressed.append)
        await pilot.click(FooterKeys, offset=(0, 0))
        await pilot.click(FooterKeys, offset=(keys.keys[0].width + 1, 0))
        assert rung == [True] and pressed == ["f1"]
        assert all(s.style.dim for s in list(keys.render_line(0))[:2])  # a disabled key is drawn dim


def test_the_keys_measure_what_they_draw() -> None:
    from tui.widgets.footer import Key

    keys = FooterKeys([Key("escape", "esc", "Back", False, ""), Key("p", "p", "", False, "")])
    assert keys.get_content_width(None, None) == len("esc Back p")  # type: ignore[arg-type]
    assert [keys.key_at(x) for x in (0, 7, 8, 9, 10)] == [0, 0, None, 1, None]


async def test_the_footer_stays_under_a_maximized_widget(tmp_path: Path) -> None:
    folder = make_toy_campaign(tmp_path / "toy")
    app = MusterApp(folder.parent)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.open_campaign(folder)
        await settle(pilot)
        screen = app.screen
        widget = next(w for w in screen.query("*") if w.allow_maximize and not isinstance(w, MusterFooter))
        assert screen.maximize(widget, container=False)
        await settle(pilot)
        shown = set(screen._compositor.visible_widgets)
        assert widget in shown and screen.query_one(MusterFooter) in shown
        assert len([w for w in screen.children if w in shown]) < len(screen.children)  # the others are hidden
        assert "Next battle" in screen._compositor.render_strips()[-1].text
