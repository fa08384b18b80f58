"""Pilot tests of the briefing and muster screens (issue 13: before a battle; issue 17: forecast)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import SelectionList

from campaign.campaigns import muster, plan_battle
from saves.battle_file import load_battle_file
from saves.campaign_file import load_campaign, start_battle
from scenarios import builtin_scenarios
from scenarios.demo import write_demo
from tests.tui.campaign_fixture import HOSTILE_SIDE, HOSTILE_UNIT, make_toy_campaign
from tests.tui.helpers import screen_text
from tests.tui.playthrough import settle
from tui import battle_briefing
from tui.app import MusterApp
from tui.cli import main as cli
from tui.cli.status import status_dict
from tui.screens import muster as muster_screen
from tui.screens.battle import BattleScreen
from tui.screens.briefing import BriefingScreen
from tui.screens.dashboard import DashboardScreen
from tui.screens.muster import MusterForcesScreen
from tui.screens.post_battle import PostBattleScreen

SIZE = (80, 24)


async def test_b_resumes_a_battle_in_progress_without_a_briefing(tmp_path: Path) -> None:
    demo = write_demo(tmp_path / "demo", seed=11)
    library = builtin_scenarios()
    loaded = load_campaign(demo, library)
    plan = plan_battle(loaded.campaign, library)
    start_battle(loaded, plan, {side: muster(plan, force) for side, force in loaded.forces.items()})
    app = MusterApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_campaign(demo)
        await settle(pilot)
        await pilot.press("b")
        await settle(pilot)
        assert isinstance(app.screen, BattleScreen) and app.screen.session is not None
        assert app.screen.session.path == demo / "battles" / "01-demo-landing.toml"
        await pilot.press("escape")  # the briefing left the stack: straight back to the dashboard
        await settle(pilot)
        assert isinstance(app.screen, DashboardScreen)


async def test_names_are_shown_as_typed_and_a_side_without_units_is_refused(tmp_path: Path) -> None:
    toy = make_toy_campaign(tmp_path / "toy")
    app = MusterApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.brief_battle(toy)
        await settle(pilot)
        assert isinstance(app.screen, BriefingScreen)
        assert f"{HOSTILE_SIDE} (defender): 1 unit, 29 pts · musters whole" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
        text = screen_text(app)
        assert f"╭─ {HOSTILE_SIDE} ─" in text and "  29 [@click=app.quit]Boss[/]" in text
        await pilot.press("o")
        await settle(pilot)
        assert any("Nothing to override" in str(n.message) for n in app._notifications)
        commands = [label for label, _help, _run in app.screen.palette_commands()]  # type: ignore[attr-defined]
        assert commands == ["Leave home: Lances (Knights)", f"Leave home: {HOSTILE_UNIT} ({HOSTILE_SIDE})"]
        app.screen.palette_commands()[0][2]()  # type: ignore[attr-defined]
        await pilot.pause()
        assert "(home)   29 Lances 3/3" in screen_text(app)
        assert app.screen.palette_commands()[0][0] == "Take: Lances (Knights)"  # type: ignore[attr-defined]
        app.screen.palette_commands()[0][2]()  # type: ignore[attr-defined]
        await pilot.pause()
        await pilot.press("tab", "space")  # the raiders leave their only unit home
        await settle(pilot)
        text = screen_text(app)
        assert f"(home)   29 {HOSTILE_UNIT}"[:30] in text and "✗ Raider Band musters no units" in text
        await pilot.press("b")
        await settle(pilot)
        assert isinstance(app.screen, MusterForcesScreen)
        assert any("Raider Band musters no units" in str(n.message) for n in app._notifications)
        assert not load_campaign(toy, builtin_scenarios()).campaign.battle_in_progress  # nothing written


async def test_an_override_is_kept_in_the_battle_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import attrs

    from saves.scenario_file import dump_scenario

    demo = write_demo(tmp_path / "demo", seed=11)
    landing = attrs.evolve(builtin_scenarios()["demo-landing"], points_limit=900)  # the campaign's own, smaller
    (demo / "scenarios").mkdir(exist_ok=True)
    (demo / "scenarios" / "demo-landing.toml").write_text(dump_scenario(landing))
    app = MusterApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.brief_battle(demo)
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MusterForcesScreen)
        assert "996 / 900 pts  (96 over)" in screen_text(app)
        await pilot.press("o")
        await settle(pilot)
        await pilot.press(*"we agreed", "enter")
        await settle(pilot)
        assert "override: we agreed" in screen_text(app)
        await pilot.press("b")
        await settle(pilot)
        battle = next(s for s in app.screen_stack if isinstance(s, BattleScreen))
        assert battle.session is not None
        header = load_battle_file(battle.session.path).header
        assert [(side.id, side.override) for side in header.sides] == [("humans", "we agreed"), ("aliens", "we agreed")]
        in_progress = status_dict(load_campaign(demo, builtin_scenarios()))  # status knows it mid-battle
        assert [(o["battle"], o["name"], o["reason"]) for o in in_progress["overrides"]] == [
            (1, "Humans", "we agreed"), (1, "Aliens", "we agreed")]
        await pilot.press("e")  # the players end it: the post-battle screen says so too
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, PostBattleScreen)
        text = screen_text(app)
        assert "Humans mustered by override: we agreed" in text and "Aliens mustered by override: we agreed" in text
        await pilot.press("s")
        await settle(pilot)
    assert cli(["report", str(demo)]) == 0  # and the campaign's report says so
    report = capsys.readouterr().out
    assert "Humans mustered by override: we agreed." in report and "Aliens mustered by override: we agreed." in report
    assert cli(["status", str(demo), "--json"]) == 0  # and status, once the battle is history
    data = json.loads(capsys.readouterr().out)
    assert data["overrides"] == [{"battle": 1, "side": "humans", "name": "Humans", "reason": "we agreed"},
                                 {"battle": 1, "side": "aliens", "name": "Aliens", "reason": "we agreed"}]
    assert cli(["status", str(demo)]) == 0
    assert "battle 1: Aliens mustered by override: we agreed" in capsys.readouterr().out


async def test_a_forecast_runs_in_the_background(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(muster_screen, "FORECAST_BATTLES", 3)
    demo = write_demo(tmp_path / "demo", seed=11)
    app = MusterApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.brief_battle(demo)
        await settle(pilot)
        await pilot.press("enter", "f")
        await settle(pilot)
        text = screen_text(app)
        assert "Forecast, 3 auto-dice battles" in text
        humans = next(line for line in text.splitlines() if line.startswith(" Humans "))
        aliens = next(line for line in text.splitlines() if line.startswith(" Aliens "))
        assert "win" in humans and "draw" in humans and "loss" in humans
        win = int(humans.split("win")[1].split("%")[0])
        loss = int(aliens.split("loss")[1].split("%")[0])
        assert win == loss  # one side's win is the other's loss
        listing = app.screen.query_one("#muster-list-0", SelectionList)
        listing.focus()
        await pilot.press("space")  # a change of units: the forecast no longer holds
        await pilot.pause()
        assert "Forecast," not in screen_text(app)


def test_the_forecast_bars_are_plain_text() -> None:
    summary = {"battles": 4, "sides": [
        {"win": {"p": 0.75}, "draw": {"p": 0.0}, "loss": {"p": 0.25}},
        {"win": {"p": 0.25}, "draw": {"p": 0.0}, "loss": {"p": 0.75}}]}  # fmt: skip
    text = muster_screen.forecast_text(summary, ["[b]A", "B"]).plain
    assert "[b]A " + "█" * 15 in text and "win  75% draw   0% loss  25%" in text


def test_battle_briefing_prices_and_plans(tmp_path: Path) -> None:
    demo = write_demo(tmp_path / "demo", seed=11)
    ready = battle_briefing.battle_briefing(demo)
    assert ready.plan.number == 1 and ready.briefing.points_limit == 1010
    assert [side.total for side in ready.briefing.sides] == [996, 1002]


def three_side_campaign(folder: Path) -> Path:
    """A Flat Out War campaign of three sides (the demo's forces and a second Human force)."""
    import attrs

    from campaign.campaigns import Side, TrackStep, create_campaign
    from saves.campaign_file import create_campaign_folder
    from scenarios.demo import demo_forces

    sides = [Side("humans", "Humans"), Side("aliens", "Aliens"), Side("rebels", "Rebels")]
    campaign = create_campaign("Three Ways", "flat-out-war", sides, [TrackStep("clash", "meeting-engagement")],
                               edition="special-ops", seed=5, scenario_ids=set(builtin_scenarios()))
    forces = demo_forces()
    forces["rebels"] = attrs.evolve(forces["humans"], name="Rebel Force")
    return create_campaign_folder(folder, campaign, forces)


async def test_a_forecast_of_three_sides_has_a_bar_each(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(muster_screen, "FORECAST_BATTLES", 3)
    folder = three_side_campaign(tmp_path / "three")
    app = MusterApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.brief_battle(folder)
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MusterForcesScreen) and len(app.screen.sides) == 3
        await pilot.press("f")
        await settle(pilot)
        text = screen_text(app)
        assert "Forecast, 3 auto-dice battles" in text, text
        rows = {name: next(line for line in text.splitlines() if line.startswith(f" {name} "))
                for name in ("Humans", "Aliens", "Rebels")}
        shares = {name: [int(row.split(word)[1].split("%")[0]) for word in ("win", "draw", "loss")]
                  for name, row in rows.items()}
        assert all(sum(s) == 100 for s in shares.values())  # (rounded) each side's battles add up
        wins = sum(s[0] for s in shares.values())
        losses = sum(s[2] for s in shares.values())
        assert losses == 2 * wins or abs(losses - 2 * wins) <= 3  # each win is two other sides' loss
        assert not any("No forecast" in str(n.title) for n in app._notifications)
