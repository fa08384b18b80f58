"""Flat Out War [1.7] Entrenched in the battle screen: the hidden position goes through the hand-over.

At the start of round 1 the engine asks the owner of an Entrenched unit, as a hidden
Decision, where it is dug in. The screen must hand the keyboard over before the form
shows, keep the written position off the shared screen (log panel, events, the next
player's form) until the unit is revealed, and store it in the engine. Side, unit and
position are typed with markup characters: they must show exactly as typed.
Table dice: every roll below is typed, so the run is the same every time.
"""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, RichLog, Static

from campaign.campaigns import Side, TrackStep, create_campaign
from campaign.engine import Decision, RollRequest
from campaign.force import Element, Force, Unit, Weapon
from campaign.rulesets.flat_out_war.editions import V17
from campaign.rulesets.flat_out_war.engine.entrench import positions
from saves.campaign_file import create_campaign_folder
from scenarios import builtin_scenarios
from tests.tui.helpers import screen_text, type_into
from tests.tui.test_battle import SIZE, pick, settle
from tui.app import MusterApp
from tui.screens.battle import BattleScreen
from tui.screens.battle_dialogs import CommandForm, FacesScreen, HandOverScreen

BLUE = "[b]Blue"  # side and unit names with markup in them: shown as typed, never styled
SAPPERS = "Sappers [i]1[/i]"
REDS = "Reds"
FARM = 'behind the [b]farm[/b], 10" from the north edge'
HILL = "on the hill"
# Looked for word by word too: a panel may wrap the position across lines or cut it at a border.
SECRET_WORDS = ("farm", "north edge", "hill")


def element(entrenched: bool) -> Element:
    return Element("Trooper", count=1, die="d6", move=4, weapons=(Weapon("Sword", "melee", "d6"),),
                   attributes=("Entrenched",) if entrenched else ())


def dig_in_campaign(root: Path, *, red_entrenched: bool = False) -> Path:
    """A [1.7] campaign, table dice: Blue (first side) has an Entrenched unit; Red one too if asked."""
    forces = {
        "blue": Force("Blue Force", "flat-out-war", V17, (Unit(SAPPERS, (element(True),)),)),
        "red": Force("Red Force", "flat-out-war", V17, (Unit(REDS, (element(red_entrenched),)),)),
    }
    campaign = create_campaign(
        "Dig In", "flat-out-war", [Side("blue", BLUE), Side("red", "Red")], [TrackStep("one", "meeting-engagement")],
        edition=V17, dice="table", seed=3, scenario_ids=set(builtin_scenarios()),
    )  # fmt: skip
    return create_campaign_folder(root / "dig-in", campaign, forces)


def log_text(screen: BattleScreen) -> str:
    """The log panel's text with its wrapping undone."""
    return " ".join(" ".join(line.text for line in screen.query_one("#battle-log", RichLog).lines).split())


def prompt_text(screen: BattleScreen) -> str:
    return str(screen.query_one("#battle-prompt", Static).render())


def shared_views(app: MusterApp, screen: BattleScreen) -> list[str]:
    """Everything the other side can read: the terminal, the log panel, the engine's public events."""
    assert screen.session is not None
    return [screen_text(app), log_text(screen), prompt_text(screen), *(e.text for e in screen.session.battle.events)]


def leaks(app: MusterApp, screen: BattleScreen) -> list[str]:
    """The secret words found in what the other side can read."""
    return [word for view in shared_views(app, screen) for word in SECRET_WORDS if word in view]


async def type_faces(pilot, faces: str) -> None:  # type: ignore[no-untyped-def]
    assert isinstance(pilot.app.screen, FacesScreen), type(pilot.app.screen)
    await type_into(pilot, "#faces-input", faces)
    await pilot.press("enter")
    await settle(pilot)


async def test_the_entrenched_position_is_handed_over_kept_hidden_and_revealed(tmp_path: Path) -> None:
    folder = dig_in_campaign(tmp_path)
    app = MusterApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        app.start_battle(folder)
        await settle(pilot)
        screen = app.screen_stack[-2]
        assert isinstance(screen, BattleScreen) and screen.session is not None
        battle = screen.session.battle
        sappers = next(u for u in battle.state.units if u.name == SAPPERS)
        pending = battle.pending
        assert isinstance(pending, Decision) and pending.side == "blue" and pending.data["hidden"]

        # The hand-over names the owning side as typed; the engine's prompt stays off the shared screen.
        assert isinstance(app.screen, HandOverScreen)
        text = screen_text(app)
        assert f"Pass the keyboard to {BLUE}." in text
        assert prompt_text(screen) == f"{BLUE}: a hidden choice; pass the keyboard first."
        assert "write down where" not in text and "Record the hidden position" not in text

        # The owner takes the keyboard: the form says which unit, starts empty, takes the position.
        await pilot.press("enter")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, CommandForm) and form.spec.type == "entrench"
        text = screen_text(app)
        assert "Record the hidden position" in text
        assert f"{SAPPERS} is Entrenched: write down where it is" in text
        assert form.query_one("#fact-location", Input).value == ""
        await type_into(pilot, "#fact-location", FARM)
        assert FARM in screen_text(app)  # the owner sees what they typed, brackets and all
        await pilot.press("enter")
        await settle(pilot)

        # Stored for the owner only; the round goes on to the initiative dice.
        assert positions(battle.state, "blue") == {sappers.id: FARM} and positions(battle.state, "red") == {}
        assert isinstance(battle.pending, RollRequest) and "initiative" in battle.pending.purpose
        assert f"{BLUE} writes down where {SAPPERS} is entrenched" in log_text(screen)
        assert leaks(app, screen) == []

        # Initiative (Blue 1, Red 6), Red passes: the position is still nowhere to be read.
        await type_faces(pilot, "1")
        await type_faces(pilot, "6")
        assert app.screen is screen and "Initiative" in log_text(screen)
        assert leaks(app, screen) == []
        await pick(pilot, "Pass")
        assert battle.pending.side == "blue"  # type: ignore[union-attr]
        assert leaks(app, screen) == []

        # Blue activates the Sappers: revealed, and only now does the position reach the log.
        await pick(pilot, f"Activate {SAPPERS}")
        revealed = f"{SAPPERS} is revealed (its owner reveals it and it acts at once): entrenched at {FARM}"
        assert revealed in [e.text for e in battle.events]
        assert revealed in log_text(screen)
        assert "farm" in leaks(app, screen)  # the same check finds the position once it is public
        assert sappers.data["entrenched_at"] == FARM and positions(battle.state, "blue") == {}


async def test_the_next_players_form_is_not_prefilled_with_a_hidden_answer(tmp_path: Path) -> None:
    folder = dig_in_campaign(tmp_path, red_entrenched=True)
    app = MusterApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        app.start_battle(folder)
        await settle(pilot)
        await pilot.press("enter")  # Blue takes the keyboard
        await settle(pilot)
        await type_into(pilot, "#fact-location", FARM)
        await pilot.press("enter")
        await settle(pilot)

        # Red's turn to write: a fresh hand-over, then a form that knows nothing of Blue's answer.
        assert isinstance(app.screen, HandOverScreen)
        assert "Pass the keyboard to Red." in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, CommandForm)
        assert form.query_one("#fact-location", Input).value == ""
        text = screen_text(app)
        assert f"{REDS} is Entrenched" in text and FARM not in text
        await type_into(pilot, "#fact-location", HILL)
        await pilot.press("enter")
        await settle(pilot)

        screen = app.screen_stack[-2]
        assert isinstance(screen, BattleScreen) and screen.session is not None
        state = screen.session.battle.state
        ids = {u.name: u.id for u in state.units}
        assert positions(state, "blue") == {ids[SAPPERS]: FARM} and positions(state, "red") == {ids[REDS]: HILL}
        assert leaks(app, screen) == []
