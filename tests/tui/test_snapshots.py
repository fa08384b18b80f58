"""SVG snapshots of every screen at 80x24 (pytest-textual-snapshot).

The data comes from the toy ruleset and the toy campaign, so the pictures change
only when the screens do. Update with `pytest tests/tui/test_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from campaign.force import Force
from tests.tui.campaign_fixture import make_toy_campaign
from tests.tui.toy_ruleset import ToyWar, toy_force
from tui import workspace
from tui.app import MusterApp
from tui.screens.log_viewer import LogViewerScreen
from tests.workers import workers_done

SIZE = (80, 24)


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with the toy campaign; Muster started inside it; only the toy samples."""
    make_toy_campaign(tmp_path / "toy")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(workspace, "all_sample_forces", lambda: ToyWar("1").sample_forces())
    return tmp_path


async def idle(pilot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(3):
        await workers_done(pilot.app)
        await pilot.pause()


def opened(action):  # type: ignore[no-untyped-def]
    """A run_before that waits for start-up work, does `action(app)` and waits again."""

    async def run(pilot) -> None:  # type: ignore[no-untyped-def]
        await idle(pilot)
        if action is not None:
            action(pilot.app)
        await idle(pilot)

    return run


def test_campaigns_screen(snap_compare, table: Path) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(MusterApp("."), terminal_size=SIZE, run_before=opened(None))


def test_dashboard(snap_compare, table: Path) -> None:  # type: ignore[no-untyped-def]
    app = MusterApp(".")
    assert snap_compare(app, terminal_size=SIZE, run_before=opened(lambda a: a.open_campaign(table / "toy")))


def test_dashboard_light_theme(snap_compare, table: Path) -> None:  # type: ignore[no-untyped-def]
    def light(app: MusterApp) -> None:
        app.theme = "textual-light"
        app.open_campaign(table / "toy")

    assert snap_compare(MusterApp("."), terminal_size=SIZE, run_before=opened(light))


def test_battle_log(snap_compare, table: Path) -> None:  # type: ignore[no-untyped-def]
    def show(app: MusterApp) -> None:
        lines = workspace.battle_log_lines(table / "toy", "battles/01-hold-the-bridge.toml")
        app.push_screen(LogViewerScreen("Battle 1: Hold the Bridge", "Raiders win 8 to 5", lines, wrap=True))

    assert snap_compare(MusterApp("."), terminal_size=SIZE, run_before=opened(show))


def test_force_builder(snap_compare, table: Path) -> None:  # type: ignore[no-untyped-def]
    app = MusterApp(".")
    assert snap_compare(app, terminal_size=SIZE, run_before=opened(lambda a: a.open_force(toy_force(limit=20), None)))


def test_force_builder_figwars_weapons_wrap(snap_compare, table: Path) -> None:  # type: ignore[no-untyped-def]
    """FigWars' long weapon names wrap in the force table at 80 columns (issue 11)."""
    from campaign.rulesets import get_ruleset

    force = next(f for f in get_ruleset("figwars-3").sample_forces() if f.name == "Gothic Imperium Battle Group")
    assert snap_compare(MusterApp("."), terminal_size=SIZE, run_before=opened(lambda a: a.open_force(force, None)))


def test_element_editor(snap_compare, table: Path) -> None:  # type: ignore[no-untyped-def]
    app = MusterApp(".")
    assert snap_compare(
        app, terminal_size=SIZE, press=["down", "enter"],
        run_before=opened(lambda a: a.open_force(toy_force(), None)),
    )  # fmt: skip


def test_weapon_editor(snap_compare, table: Path) -> None:  # type: ignore[no-untyped-def]
    app = MusterApp(".")
    assert snap_compare(
        app, terminal_size=SIZE, press=["enter", "ctrl+o"],
        run_before=opened(lambda a: a.open_force(toy_force(), None)),
    )  # fmt: skip


def test_delete_confirmation(snap_compare, table: Path) -> None:  # type: ignore[no-untyped-def]
    app = MusterApp(".")
    assert snap_compare(
        app, terminal_size=SIZE, press=["up", "x"], run_before=opened(lambda a: a.open_force(toy_force(), None))
    )


def test_help(snap_compare, table: Path) -> None:  # type: ignore[no-untyped-def]
    empty = Force("Empty", "flat-out-war", "special-ops")
    app = MusterApp(".")
    assert snap_compare(app, terminal_size=SIZE, press=["f1"], run_before=opened(lambda a: a.open_force(empty, None)))


def test_new_campaign_wizard(snap_compare, table: Path) -> None:  # type: ignore[no-untyped-def]
    app = MusterApp(".")
    assert snap_compare(app, terminal_size=SIZE, press=["n"], run_before=opened(None))


def test_new_campaign_wizard_sides(snap_compare, table: Path) -> None:  # type: ignore[no-untyped-def]
    app = MusterApp(".")
    assert snap_compare(app, terminal_size=SIZE, press=["n", "ctrl+n"], run_before=opened(None))


def test_terminal_too_small(snap_compare, table: Path) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(MusterApp("."), terminal_size=(70, 20), run_before=opened(None))


def test_briefing(snap_compare, table: Path) -> None:  # type: ignore[no-untyped-def]
    app = MusterApp(".")
    assert snap_compare(app, terminal_size=SIZE, run_before=opened(lambda a: a.brief_battle(table / "toy")))


def test_muster(snap_compare, table: Path) -> None:  # type: ignore[no-untyped-def]
    """Enter from the briefing; the first unit left home (a word as well as a colour says so)."""
    app = MusterApp(".")
    assert snap_compare(
        app, terminal_size=SIZE, press=["enter", "tab", "space"], run_before=opened(lambda a: a.brief_battle(table / "toy"))
    )
