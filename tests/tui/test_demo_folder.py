"""`muster --demo`: each copy is fresh, kept in the user's data folder unless a folder is named.

XDG_DATA_HOME points platformdirs at a temporary folder, so no test writes to the real one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tui.helpers import screen_text
from tests.tui.test_battle import settle
from tui import workspace
from tui.app import app_for
from tui.cli import _app_parser, _subcommands
from tui.screens.campaigns import CampaignsScreen
from tui.screens.dashboard import DashboardScreen


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "xdg-data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


def test_demo_home_is_the_user_data_folder(data_home: Path) -> None:
    assert workspace.demo_home() == data_home / "muster" / "demos"


def test_each_demo_copy_gets_a_folder_of_its_own(tmp_path: Path) -> None:
    first = workspace.write_demo(tmp_path)
    second = workspace.write_demo(tmp_path)
    assert (first.name, second.name) == ("demo-campaign", "demo-campaign-2")
    assert (first / "campaign.toml").is_file() and (second / "campaign.toml").is_file()


def test_the_command_line_names_no_folder_by_default(tmp_path: Path) -> None:
    parser = _app_parser(_subcommands())
    assert parser.parse_args(["--demo"]).dir is None
    assert app_for(None, demo=True).demo_root is None  # -> the user data folder
    assert app_for(str(tmp_path), demo=True).demo_root == tmp_path
    assert app_for(str(tmp_path), demo=False).demo_root is None


async def test_demo_without_a_folder_goes_to_the_data_folder_and_says_where(
    data_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = tmp_path / "cwd"
    here.mkdir()
    monkeypatch.chdir(here)
    for expected in ("demo-campaign", "demo-campaign-2"):
        app = app_for(None, demo=True)
        said: list[str] = []
        original = app.notify

        def notify(message: str, **kw) -> None:  # type: ignore[no-untyped-def]
            said.append(message)
            original(message, **kw)

        app.notify = notify  # type: ignore[method-assign]
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await settle(pilot)
            folder = data_home / "muster" / "demos" / expected
            assert isinstance(app.screen, DashboardScreen) and app.screen.folder == folder
            assert f"A fresh demo campaign was written to {folder}" in said
            await pilot.press("escape")
            await settle(pilot)
            assert isinstance(app.screen, CampaignsScreen)
            assert "Demo: The Hive War" in screen_text(app)
        assert (folder / "campaign.toml").is_file()
    assert list(here.iterdir()) == []  # nothing written where the terminal was


def test_serve_passes_a_demo_on_without_a_folder() -> None:
    import shlex

    from tui.cli.serve import app_command

    words = shlex.split(app_command(None, True))
    assert len(words) == 4 and words[1] == "-c" and words[-1] == "--demo"  # no folder: the data folder
    assert shlex.split(app_command(None, False))[-1] == str(Path(".").resolve())


def test_demo_takes_a_ruleset_and_still_takes_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tui.cli import _demo_args, main

    parser = _app_parser(_subcommands())
    args = parser.parse_args(["--demo", "figwars-3"])
    assert _demo_args(args.demo, args.dir) == ("figwars-3", None)
    args = parser.parse_args(["--demo"])
    assert _demo_args(args.demo, args.dir) == ("", None)  # Flat Out War's, as before
    args = parser.parse_args(["--demo", str(tmp_path)])  # `muster --demo DIR` still means a folder
    assert _demo_args(args.demo, args.dir) == ("", str(tmp_path))
    args = parser.parse_args([str(tmp_path), "--demo", "fw3"])
    assert _demo_args(args.demo, args.dir) == ("fw3", str(tmp_path))
    assert main([str(tmp_path), "--demo", "no-such-rules"]) == 2
    assert "no demo campaign for 'no-such-rules'" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


async def test_the_figwars_demo_opens_in_the_tui(tmp_path: Path) -> None:
    app = app_for(str(tmp_path), demo=True, demo_ruleset="figwars-3")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await settle(pilot)
        folder = tmp_path / "demo-figwars-3"
        assert isinstance(app.screen, DashboardScreen) and app.screen.folder == folder
        await pilot.press("escape")
        await settle(pilot)
        assert "figwars-3" in screen_text(app)  # the list names the folder and its ruleset
    assert 'ruleset = "figwars-3"' in (folder / "campaign.toml").read_text()


async def test_a_slow_demo_shows_its_dashboard_loading_then_the_campaign(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Usually the demo is written before the dashboard is first drawn, and the dashboard is
    # drawn once, with it; on a slow disk the dashboard comes anyway, loading until it is.
    import threading

    import tui.app

    written = threading.Event()
    create = workspace.create_demo

    def slow(*args, **kwargs):  # type: ignore[no-untyped-def]
        written.wait(10)
        return create(*args, **kwargs)

    monkeypatch.setattr(workspace, "create_demo", slow)
    monkeypatch.setattr(tui.app, "DEMO_BLANK_SECONDS", 0.01)
    app = app_for(str(tmp_path), demo=True)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(100):  # the dashboard comes after DEMO_BLANK_SECONDS (later on a busy machine)
            await pilot.pause(0.05)
            if isinstance(app.screen, DashboardScreen) and app.screen.is_mounted:
                break
        dashboard = app.screen
        assert isinstance(dashboard, DashboardScreen) and dashboard.loaded is None
        assert dashboard.query_one("#standings").loading
        await pilot.press("g")  # no reading of a folder still being written
        written.set()
        await settle(pilot)
        await settle(pilot)
        assert app.screen is dashboard and not dashboard.query_one("#standings").loading
        assert "Demo: The Hive War" in screen_text(app) and "▶ Hot Landing" in screen_text(app)


async def test_a_failed_demo_leaves_the_campaigns_list_and_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise PermissionError("cannot write here")

    monkeypatch.setattr(workspace, "create_demo", refuse)
    app = app_for(str(tmp_path), demo=True)
    said: list[str] = []
    original = app.notify

    def notify(message: str, **kw) -> None:  # type: ignore[no-untyped-def]
        said.append(message)
        original(message, **kw)

    app.notify = notify  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await settle(pilot)
        assert isinstance(app.screen, CampaignsScreen)
        assert any("cannot write here" in message for message in said)
