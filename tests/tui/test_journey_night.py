"""A campaign night as players live it (issue 13, "Done when"), keyboard only, at 80x24.

The wizard with the players' names and table dice -> the briefing -> each side musters
within Hold the Bridge's 600 points (refused first, with the reason) -> a table-dice
battle, its shot typed as one handful of faces -> post-battle -> the bank shown and
spent in the force builder -> the roster printed -> `muster report` names the players.
Then the keystrokes of a play-through of the demo's first battle, counted.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest
from textual.widgets import Log, Select, Static

from campaign.engine import Decision, RollRequest
from saves.battle_file import load_battle_file
from saves.campaign_file import load_campaign
from scenarios import builtin_scenarios
from scenarios.demo import write_demo
from tests.tui.helpers import screen_text, type_into
from tests.tui.playthrough import Keys, choose, fight, labels, settle
from tui.app import MusterApp
from tui.cli import main as cli
from tui.screens import new_campaign
from tui.screens.battle import BattleScreen
from tui.screens.battle_dialogs import CommandForm, FacesScreen
from tui.screens.briefing import BriefingScreen
from tui.screens.dashboard import DashboardScreen
from tui.screens.element_editor import ElementEditorScreen
from tui.screens.force_builder import ForceBuilderScreen
from tui.screens.log_viewer import LogViewerScreen
from tui.screens.muster import MusterForcesScreen
from tui.screens.post_battle import PostBattleScreen

# Keys a play-through of the demo's first battle took before the briefing and muster
# screens and the remembered choices (measured with tests/tui/playthrough.py on main at
# da98c1c: `b`, then the same player, arrows taking the shortest way, Home and End too).
KEYS_BEFORE = 68


@pytest.fixture
def pinned_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    fixed = SimpleNamespace(SystemRandom=lambda: SimpleNamespace(randrange=lambda low, high: 11))
    monkeypatch.setattr(new_campaign, "random", fixed)


def text_of(app: MusterApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def said(app: MusterApp, words: str) -> bool:
    return any(words in str(n.message) for n in app._notifications)


async def test_a_campaign_night(empty_folder: Path, pinned_seed: None, capsys: pytest.CaptureFixture[str]) -> None:
    app = MusterApp(empty_folder)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)

        # --- the wizard: table dice, the players of each side, 100 reinforcement points a battle
        await pilot.press("n")
        await pilot.pause()
        select = app.screen.query_one("#c-ruleset", Select)
        select.value = next(v for label, v in select._options if str(label).startswith("Flat Out War"))  # noqa: SLF001
        app.screen.query_one("#c-dice", Select).value = "table"
        await type_into(pilot, "#c-name", "Night")
        await pilot.press("ctrl+n")
        await type_into(pilot, "#c-side-0", "Humans")
        await type_into(pilot, "#c-players-0", "Ann, Bo")
        await type_into(pilot, "#c-side-1", "Aliens")
        await type_into(pilot, "#c-players-1", "Cy")
        assert "players" in screen_text(app)
        await pilot.press("ctrl+n")
        await pilot.press("down", "space", "up", "space")  # Hold the Bridge, then Breakthrough
        await pilot.press("ctrl+n")
        await type_into(pilot, "#c-reinf-battle", "100")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, DashboardScreen)
        folder = empty_folder / "night"
        raw = tomllib.loads((folder / "campaign.toml").read_text())
        assert [(s["name"], s.get("players")) for s in raw["sides"]] == [("Humans", ["Ann", "Bo"]), ("Aliens", ["Cy"])]

        # --- the briefing: Hold the Bridge, 600 points, and neither side fits whole
        await pilot.press("b")
        await settle(pilot)
        assert isinstance(app.screen, BriefingScreen)
        text = screen_text(app)
        assert "Battle 1: Hold the Bridge" in text
        assert "limit 600 pts · 6 rounds · won by its objectives · activation: initiative" in text
        assert "Humans (defender): 5 units, 996 pts · over the limit by 396" in text
        assert "Aliens (attacker): 4 units, 1002 pts · over the limit by 402" in text
        body = text_of(app, "#brief-body")
        assert "Deployment\n" in body and "Objectives\n" in body
        assert "  100 VP  Bridge held (Humans)" in body and "  100 VP  Bridge taken (Aliens)" in body

        # --- the muster: refused over the limit, then within it by leaving units home
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MusterForcesScreen)
        assert "996 / 600 pts  (396 over)" in screen_text(app)
        await pilot.press("b")
        await settle(pilot)
        assert isinstance(app.screen, MusterForcesScreen)  # refused, and why
        assert said(app, "Humans: Human Force musters 996 points, over the scenario's limit of 600 by 396")
        await pilot.press("space", "down", "down", "down", "down", "space")  # Assault Squad, Hover Tanks stay home
        await pilot.press("tab", "down", "space", "down", "down", "space")  # Ravager Pack, Terrors stay home
        text = screen_text(app)
        assert "(home)  220 Assault Squad 10/10" in text and "(home)  152 Terrors 2/2" in text
        assert "3 units  600 / 600 pts  (0 left)" in text and "2 units  490 / 600 pts  (110 left)" in text
        assert text.count("✓ may take the field") == 2
        await pilot.press("b")
        await settle(pilot)

        # --- the battle, with table dice: the initiative, then a shot typed as one handful
        assert isinstance(app.screen, FacesScreen)  # the initiative dice, asked for at once
        battle = app.screen_stack[-2]
        assert isinstance(battle, BattleScreen) and battle.session is not None
        setup = load_battle_file(battle.session.path).header
        assert [[u.name for u in side.force.units] for side in setup.sides] == [
            ["Tactical Squad", "Heavy Squad", "Hover APCs"], ["Ripper Swarm", "Pukers"]]
        assert [side.override for side in setup.sides] == ["", ""]
        await pilot.press("5", "space", "2", "enter")
        await settle(pilot)
        assert "deciding: Humans" in screen_text(app)
        await pick(pilot, "Activate Tactical Squad")
        await pick(pilot, "Tactical Squad: shoot at Ripper Swarm")
        assert isinstance(app.screen, CommandForm)
        await pilot.press("ctrl+r")
        await settle(pilot)
        request = battle.session.pending
        assert isinstance(request, RollRequest) and isinstance(app.screen, FacesScreen)
        assert (request.count, request.die) == (8, 6)
        # 8 rifles, the sergeant's d8, then a recovery d4 for each of the 5 hits: one prompt
        await pilot.press(*" ".join("6 6 6 6 1 1 1 1 8 1 1 1 1 1"), "enter")
        await settle(pilot)
        assert isinstance(battle.session.pending, Decision) and app.screen is battle
        rolls = load_battle_file(battle.session.path).log[-1]["rolls"]
        assert [(r["die"], r["faces"]) for r in rolls] == [
            (6, [6, 6, 6, 6, 1, 1, 1, 1]), (8, [8]), *[(4, [1])] * 5]
        assert "Ripper Swarm  19/24" in screen_text(app)
        await pick(pilot, "End activation")

        # --- post-battle: the Humans held the bridge; the bank grows
        await pilot.press("e", "y")
        await settle(pilot)
        assert isinstance(app.screen, PostBattleScreen)
        await pilot.press("o")
        await settle(pilot)
        await pilot.press("space", "ctrl+s")
        await settle(pilot)
        body = text_of(app, "#post-body")
        assert "Humans win" in body and "Humans: +100 reinforcement points (now 100)" in body
        await pilot.press("s")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, DashboardScreen)

        # --- between battles: the bank in the builder, before and after spending
        await pilot.press("e", "enter")
        await settle(pilot)
        builder = app.screen
        assert isinstance(builder, ForceBuilderScreen)
        assert text_of(app, "#force-bank") == "Reinforcement bank: 100 pts; the changes cost nothing"
        await pilot.press("enter")  # the Assault Troop: 9 x 20 points
        await pilot.pause()
        assert isinstance(app.screen, ElementEditorScreen)
        await type_into(pilot, "#f-count", "11", keys=True)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert text_of(app, "#force-bank") == "Reinforcement bank: 100 pts; saving spends 40, leaving 60"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert said(app, "Spent 40 reinforcement points (60 left).")
        camp = load_campaign(folder, builtin_scenarios()).campaign
        assert camp.side("humans").reinforcements == 60 and [s.points for s in camp.spent] == [40]

        # --- the roster, as the players take it to the table
        await pilot.press("p")
        await settle(pilot)
        assert isinstance(app.screen, LogViewerScreen)
        lines = app.screen.query_one(Log).lines
        assert lines[0] == "Human Force" and any(line.startswith("Assault Squad") for line in lines)
        assert (folder / "forces" / "humans-roster.md").is_file()
        await pilot.press("escape", "escape")
        await settle(pilot)

    # --- the report names the players
    assert cli(["report", str(folder)]) == 0
    report = capsys.readouterr().out
    assert "| Humans | Ann, Bo |" in report and "| Aliens | Cy |" in report


async def pick(pilot, label: str) -> None:  # type: ignore[no-untyped-def]
    """The first action starting with `label`, reached with the arrows, then Enter."""
    offered = labels(pilot.app)
    index = next((i for i, text in enumerate(offered) if text.startswith(label)), None)
    assert index is not None, f"no action {label!r} in {offered}"
    await choose(Keys(pilot), index)


async def test_keystrokes_of_the_demos_first_battle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The demo's first battle from the dashboard to the saved post-battle step, counted."""
    demo = write_demo(tmp_path / "demo", seed=11)
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.open_campaign(demo)
        await settle(pilot)
        keys = Keys(pilot)
        await keys.press("b")  # the briefing
        assert isinstance(app.screen, BriefingScreen)
        await keys.press("enter")  # the muster: every survivor fits Hot Landing's 1010 points
        assert isinstance(app.screen, MusterForcesScreen)
        await keys.press("b")
        assert isinstance(app.screen, BattleScreen)
        await fight(keys, app.screen)
        assert "Saved." in screen_text(app)
        assert "Battle 1, Hot Landing: Humans 0 VP, Aliens 0 VP; a draw" in text_of(app, "#post-body")
    with capsys.disabled():
        print(f"\nkeystrokes, the demo's first battle: {keys.count} (before: {KEYS_BEFORE})")
    assert keys.count < KEYS_BEFORE
    assert keys.count == 42  # fewer would be welcome: then lower this
