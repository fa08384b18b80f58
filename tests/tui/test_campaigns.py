"""Pilot tests: the campaigns screen, the new-campaign wizard, the dashboard, navigation."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from saves.campaign_file import load_campaign
from tests.tui.helpers import screen_text, type_into
from tests.tui.test_journey import choose_ruleset
from tui.app import MusterApp
from tui.screens.campaigns import CampaignsScreen
from tui.screens.dashboard import DashboardScreen
from tui.widgets.row_table import RowTable
from tui.screens.force_builder import ForceBuilderScreen
from tui.screens.help import HelpScreen
from tui.screens.new_campaign import NewCampaignScreen
from tests.workers import settle


async def test_wizard_creates_a_campaign_and_opens_its_dashboard(app: MusterApp, empty_folder: Path) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewCampaignScreen)
        await choose_ruleset(app, pilot, "Flat Out War")  # other rulesets are registered too
        await type_into(pilot, "#c-name", "Hive War")
        await pilot.press("ctrl+n")
        await pilot.pause()
        await type_into(pilot, "#c-side-0", "Humans")
        await type_into(pilot, "#c-side-1", "Aliens")
        await pilot.press("ctrl+n")
        await pilot.pause()
        await pilot.press("down", "space", "up", "space")  # Hold the Bridge first, then Breakthrough
        await pilot.press("ctrl+n")
        await pilot.pause()
        await type_into(pilot, "#c-reinf-battle", "50")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, DashboardScreen)
        loaded = load_campaign(empty_folder / "hive-war")
        camp = loaded.campaign
        assert camp.name == "Hive War"
        assert [s.name for s in camp.sides] == ["Humans", "Aliens"]
        assert [step.scenario for step in camp.track] == ["hold-the-bridge", "breakthrough"]
        assert camp.rules.reinforcement_per_battle == 50
        text = screen_text(app)
        assert "▶ Hold the Bridge" in text and "· Breakthrough" in text
        assert "0 VP  Humans" in text


async def test_wizard_explains_what_is_missing_and_writes_nothing(app: MusterApp, empty_folder: Path) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "the campaign needs a name" in str(app.screen.query_one("#wizard-problem", Static).render())
        await type_into(pilot, "#c-name", "Lonely")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "at least two sides" in str(app.screen.query_one("#wizard-problem", Static).render())
        assert list(empty_folder.iterdir()) == []
        await pilot.press("escape")  # typed a name: the wizard asks before dropping it
        await pilot.pause()
        assert "There are unsaved changes." in screen_text(app)
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, CampaignsScreen)


async def test_demo_opens_the_dashboard_of_a_fresh_demo_campaign(tmp_path: Path) -> None:
    app = MusterApp(tmp_path, demo=True, demo_root=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await settle(pilot)
        assert isinstance(app.screen, DashboardScreen)
        text = screen_text(app)
        assert "Demo: The Hive War" in text
        assert "▶ Hot Landing" in text
        assert "Humans → The Last Bridge" in text  # the branch on the result
        assert "No battles yet" in text
        assert (tmp_path / "demo-campaign" / "campaign.toml").is_file()
        # escape goes back to the campaigns list, which now lists the demo
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, CampaignsScreen)
        assert "Demo: The Hive War" in screen_text(app)


async def test_dashboard_edits_a_side_force_and_saves_it_into_the_campaign(tmp_path: Path) -> None:
    app = MusterApp(tmp_path, demo=True, demo_root=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await settle(pilot)
        await pilot.press("e")
        await pilot.pause()
        await pilot.press("enter")  # Humans
        await pilot.pause()
        builder = app.screen
        assert isinstance(builder, ForceBuilderScreen)
        await pilot.press("r")  # the cursor is on an element: rename the force
        await pilot.pause()
        field = app.screen.query_one("#prompt-input")
        field.value = ""
        await pilot.press(*"Iron Guard", "enter", "ctrl+s")
        await pilot.pause()
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, DashboardScreen)
        assert "Humans: Iron Guard" in screen_text(app)
        assert load_campaign(tmp_path / "demo-campaign").forces["humans"].name == "Iron Guard"


async def test_next_battle_is_handed_to_the_app_hook(tmp_path: Path) -> None:
    calls = []
    app = MusterApp(tmp_path, demo=True, demo_root=tmp_path)
    app.brief_battle = calls.append  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await settle(pilot)
        await pilot.press("b")
        await pilot.pause()
        assert calls == [tmp_path / "demo-campaign"]


async def test_report_writes_markdown_and_history_is_empty(tmp_path: Path) -> None:
    app = MusterApp(tmp_path, demo=True, demo_root=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await settle(pilot)
        await pilot.press("r")
        await pilot.pause()
        report = (tmp_path / "demo-campaign" / "report.md").read_text()
        assert report.startswith("# Demo: The Hive War")
        assert app.screen.query_one("#history", RowTable).row_count == 1  # the "no battles yet" row
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, DashboardScreen)  # nothing to show: a notice, no crash


async def test_campaigns_screen_lists_force_files_and_broken_files(app: MusterApp, empty_folder: Path) -> None:
    from saves.force_file import save_force
    from tests.tui.toy_ruleset import toy_force

    save_force(empty_folder / "squad.toml", toy_force("My Squad"))
    (empty_folder / "broken.toml").write_text("format = 'muster/1'\nname = [\n")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "My Squad" in text
        assert "broken.toml" in text
        await pilot.press("enter")  # the broken file comes first (sorted): a notice, no crash
        await pilot.pause()
        assert isinstance(app.screen, CampaignsScreen)
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ForceBuilderScreen)
        assert app.screen.force.name == "My Squad"


async def test_help_shows_keys_and_ruleset_reference(tmp_path: Path) -> None:
    app = MusterApp(tmp_path, demo=True, demo_root=tmp_path)
    async with app.run_test(size=(80, 40)) as pilot:
        await settle(pilot)
        await settle(pilot)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        assert "Next battle" in text and "Edit forces" in text
        assert "Flat Out War in brief" in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, DashboardScreen)


async def test_quit_from_the_first_screen_asks(app: MusterApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert "Quit Muster?" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, CampaignsScreen)
        await pilot.press("escape", "y")
        await pilot.pause()
        assert app.return_code == 0 or not app.is_running


async def test_too_small_terminal_shows_a_notice(app: MusterApp) -> None:
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "Terminal too small" in text
        assert "this one is 60 x 20" in text
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert "Terminal too small" not in screen_text(app)


async def test_theme_toggles_between_dark_and_light(app: MusterApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        first = app.theme
        await pilot.press("ctrl+t")
        assert app.theme != first and app.theme in ("textual-dark", "textual-light")
        await pilot.press("ctrl+t")
        assert app.theme == first


async def test_palette_lists_the_screen_actions(app: MusterApp) -> None:
    from tui.commands import screen_commands

    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        labels = [label for label, _help, _run in screen_commands(app.screen, app)]
        assert "New campaign" in labels and "Rescan" in labels and "Toggle light / dark theme" in labels
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"new camp")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert isinstance(app.screen, NewCampaignScreen)


async def test_no_color_draws_plain_ascii_panels(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from tests.tui.campaign_fixture import make_toy_campaign

    folder = make_toy_campaign(tmp_path / "toy")
    monkeypatch.setenv("NO_COLOR", "1")
    app = MusterApp(tmp_path)
    assert app.no_color
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.open_campaign(folder)
        await settle(pilot)
        text = screen_text(app)
        assert "+- Sides -" in text  # App:nocolor swaps rounded borders for ASCII ones
        assert "8 VP  [bold]x" in text


async def test_a_damaged_campaign_is_listed_and_explained_not_a_crash(app: MusterApp, empty_folder: Path) -> None:
    from tests.tui.campaign_fixture import make_toy_campaign

    folder = make_toy_campaign(empty_folder / "toy")
    (folder / "campaign.toml").write_text('format = "muster/1"\nname = "Broken\n')
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "✖ toy" in screen_text(app)
        app.open_campaign(folder)  # straight to the dashboard anyway: it says what is wrong
        await settle(pilot)
        assert isinstance(app.screen, DashboardScreen)
        # on screen, the panel wraps the message where the (tmp) path's length puts it:
        # joined back without the panel's borders, it names the file and the line
        shown = "".join(line.strip(" \u2502") for line in screen_text(app).splitlines()[2:8])
        assert "campaign.toml:2" in shown


def test_hidden_files_in_a_campaign_folder_are_not_listed_as_broken(empty_folder: Path) -> None:
    from tui.folder_scan import scan

    (empty_folder / ".muster-lease.toml").write_text('holder = "another Muster"\n')
    (empty_folder / ".notes.toml").write_text("not = [a force\n")
    assert scan(empty_folder) == []
