"""The dashboard's VP panel: a note before any battle, bars after one, the line chart from two."""

from __future__ import annotations

from pathlib import Path

import attrs

from campaign.campaigns import LedgerLine
from saves.campaign_file import load_campaign, save_campaign
from scenarios import builtin_scenarios
from tests.tui.campaign_fixture import HOSTILE_SIDE, make_toy_campaign
from tests.tui.helpers import screen_text
from tests.tui.test_battle import settle
from tui.app import MusterApp

SIZE = (80, 24)


async def dashboard_text(tmp_path: Path, folder: Path) -> tuple[str, bool, bool]:
    app = MusterApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_campaign(folder)
        await settle(pilot)
        screen = app.screen
        chart = screen.query("#vp-chart")  # mounted with the second battle
        return screen_text(app), bool(chart) and chart.first().display, screen.query_one("#vp-bars").display


def rewrite(folder: Path, change) -> None:  # type: ignore[no-untyped-def]
    loaded = load_campaign(folder, builtin_scenarios())
    save_campaign(folder, change(loaded.campaign))


async def test_no_battles_yet_is_a_note_not_empty_axes(tmp_path: Path) -> None:
    folder = make_toy_campaign(tmp_path / "toy")
    rewrite(folder, lambda c: attrs.evolve(c, history=(), ledger=(), position="bridge"))
    text, chart, bars = await dashboard_text(tmp_path, folder)
    assert (chart, bars) == (False, True)
    assert "No battles yet." in text
    assert "┤" not in text and "battle\n" not in text  # no plot axes


async def test_one_battle_draws_a_bar_per_side(tmp_path: Path) -> None:
    folder = make_toy_campaign(tmp_path / "toy")  # knights 5 VP, raiders 8 VP
    text, chart, bars = await dashboard_text(tmp_path, folder)
    assert (chart, bars) == (False, True)
    assert "After battle 1" in text
    assert "Knights " + "█" * 12 + " 5" in text  # 20 * 5/8 = 12.5 -> 12
    assert HOSTILE_SIDE.ljust(7) + " " + "█" * 20 + " 8" in text  # the name as typed, never markup


async def test_two_battles_draw_the_line_chart(tmp_path: Path) -> None:
    folder = make_toy_campaign(tmp_path / "toy")

    def second(c):  # type: ignore[no-untyped-def]
        first = c.history[0]
        return attrs.evolve(
            c,
            ledger=c.ledger + (LedgerLine(2, "knights", 3, "objective"),),
            history=c.history + (attrs.evolve(first, battle=2, winner="knights", vps={"knights": 3, "raiders": 0}),),
        )

    rewrite(folder, second)
    text, chart, bars = await dashboard_text(tmp_path, folder)
    assert (chart, bars) == (True, False)
    assert "battle" in text and "┤" in text
    assert "No battles yet" not in text and "After battle 1" not in text


async def test_the_chart_panel_is_mounted_only_with_the_second_battle(tmp_path: Path) -> None:
    """Before a second battle the dashboard has no chart widget at all (not just a hidden
    one); the reload after the second battle mounts it beside the bars."""
    folder = make_toy_campaign(tmp_path / "toy")
    app = MusterApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_campaign(folder)
        await settle(pilot)
        screen = app.screen
        assert not screen.query("#vp-chart") and "After battle 1" in screen_text(app)

        def second(c):  # type: ignore[no-untyped-def]
            first = c.history[0]
            return attrs.evolve(c, history=c.history + (attrs.evolve(first, battle=2, winner="knights"),))

        rewrite(folder, second)
        await pilot.press("g")  # reload
        await settle(pilot)
        await settle(pilot)
        chart = screen.query_one("#vp-chart")
        assert chart.display and not screen.query_one("#vp-bars").display
        assert [w.id for w in screen.query_one("#dash-top").children] == ["standings", "vp-chart", "vp-bars"]
        assert "┤" in screen_text(app) and "After battle 1" not in screen_text(app)
