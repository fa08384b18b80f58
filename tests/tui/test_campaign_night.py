"""Pilot tests of issue 13's screens: the roster key in the force builder, the campaigns
list naming a battle in progress."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Log

from campaign.campaigns import muster, plan_battle
from campaign.rulesets import get_ruleset
from saves.campaign_file import load_campaign, start_battle
from saves.force_file import save_force
from scenarios import builtin_scenarios
from tests.tui.campaign_fixture import make_toy_campaign
from tests.tui.helpers import screen_text
from tui.app import MusterApp
from tui.screens.force_builder import ForceBuilderScreen
from tui.screens.log_viewer import LogViewerScreen


async def settle(pilot, times: int = 10) -> None:  # type: ignore[no-untyped-def]
    for _ in range(times):
        await pilot.pause(0.02)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def test_p_in_the_builder_shows_the_roster_and_writes_it(app: MusterApp, empty_folder: Path) -> None:
    humans = get_ruleset("flat-out-war", "special-ops").sample_forces()[0]
    path = empty_folder / "humans.toml"
    save_force(path, humans)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_force(humans, path)
        await pilot.pause()
        assert isinstance(app.screen, ForceBuilderScreen)
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, LogViewerScreen)
        lines = app.screen.query_one(Log).lines
        assert lines[0] == humans.name
        assert any(line.startswith(humans.units[0].name) for line in lines)
        assert any(line.strip().startswith("Brave: ") for line in lines)  # the rule in a line
        assert max(len(line) for line in lines if "error" not in line) <= 74
        text = screen_text(app)
        assert "Roster: " + humans.name in text and "written to" in text
        written = (empty_folder / "humans-roster.md").read_text()
        assert written.startswith(f"# {humans.name}")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ForceBuilderScreen)


async def test_the_campaigns_list_says_a_battle_is_in_progress(empty_folder: Path) -> None:
    folder = make_toy_campaign(empty_folder / "war")
    library = builtin_scenarios()
    loaded = load_campaign(folder, library)
    plan = plan_battle(loaded.campaign, library)
    start_battle(loaded, plan, {side: muster(plan, force) for side, force in loaded.forces.items()})
    app = MusterApp(empty_folder)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "battle 2 in progress" in text and "battle 2 next" not in text
