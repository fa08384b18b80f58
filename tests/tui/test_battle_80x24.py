"""Issue 13, during a battle: the screen at 80x24 as players met it (palette, glyphs,
Escape, wrapping, notices, refusals), objectives, remembered answers and templates.

Each test drives the app with Pilot on the demo campaign (seeded auto dice) or a
table-dice copy, and reads what the terminal shows."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.command import CommandList

from scenarios.demo import write_demo
from tests.tui.helpers import screen_text
from tests.tui.playthrough import open_battle
from tests.tui.test_battle import SIZE, pick, settle
from tui.app import MusterApp
from tui.screens.battle import BattleScreen


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return write_demo(tmp_path / "demo", seed=11)


async def until(pilot, ready, tries: int = 100) -> None:  # type: ignore[no-untyped-def]
    """Wait for workers and messages until `ready()` (a loaded machine takes its time)."""
    for _ in range(tries):
        if ready():
            return
        await settle(pilot)
    assert ready()



async def test_the_empty_palette_lists_musters_actions_before_cursor_movement(demo: Path) -> None:
    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot, app, demo)
        await pilot.press("ctrl+p")
        await settle(pilot)
        commands = app.screen.query_one(CommandList)
        labels = [str(commands.get_option_at_index(i).prompt).split("\n")[0] for i in range(commands.option_count)]
        assert labels[:4] == ["Back", "Help", "Undo", "End battle"]
        for textual in ("Down", "Up", "Focus Next", "Quit", "Screenshot"):
            assert labels.index(textual) > labels.index("End battle"), labels
        assert labels.count("Quit") == 1  # Textual's own commands are listed once, after Muster's
        assert "Back" in screen_text(app).split("Search for commands")[1].split("\n")[3]


async def test_the_battle_log_viewer_wraps_long_lines(tmp_path: Path) -> None:
    from tests.tui.campaign_fixture import make_toy_campaign
    from tui import workspace
    from tui.screens.log_viewer import LogViewerScreen

    folder = make_toy_campaign(tmp_path / "toy")
    lines = workspace.battle_log_lines(folder, "battles/01-hold-the-bridge.toml")
    long = next(line for line in lines if len(line) > 80)
    app = MusterApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_campaign(folder)
        await settle(pilot)
        await pilot.press("l")
        await settle(pilot)
        assert isinstance(app.screen, LogViewerScreen)
        shown = " ".join(screen_text(app).split())
        assert " ".join(long.split()) in shown  # all of it, over two lines, nothing cut at column 80


async def test_the_demo_notice_frees_the_forces_panel_within_five_seconds(tmp_path: Path) -> None:
    from tui.app import app_for
    from tui.screens.dashboard import DashboardScreen

    app = app_for(str(tmp_path), demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await settle(pilot)
        await until(pilot, lambda: any("demo campaign was written to" in n.message for n in app._notifications))
        assert isinstance(app.screen, DashboardScreen)
        notice = next(n for n in app._notifications if "demo campaign was written to" in n.message)
        assert notice.timeout <= 5  # over the Forces panel for five seconds at most
        app._unnotify(notice)  # what its timer does then
        await pilot.pause()
        assert "Humans: Humans  5 units, 28/28 elements" in screen_text(app)


def test_a_command_reads_as_words_with_names_never_a_python_list() -> None:
    from campaign.rulesets.flat_out_war.engine.commands import Report

    names = {"tactical-squad": "Tactical Squad", "heavy-squad": "Heavy Squad"}
    said = Report(units=["tactical-squad", "heavy-squad"]).plain(names)
    assert said == "report (units: Tactical Squad, Heavy Squad)"
    assert "[" not in said and "=" not in said


async def test_a_refused_undo_speaks_english_naming_units(demo: Path) -> None:
    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot, app, demo)
        await pick(pilot, "Activate Tactical Squad")
        await pick(pilot, "Tactical Squad: shoot at Ripper Swarm")
        await pilot.press("ctrl+r")
        await settle(pilot)
        await pilot.press("u")
        await until(pilot, lambda: any("cannot undo" in str(n.message) for n in app._notifications))
        said = [str(n.message) for n in app._notifications if "cannot undo" in str(n.message)]
        assert said and said[-1].startswith(
            "cannot undo shoot (unit: Tactical Squad; target: Ripper Swarm): its dice are rolled")
        assert "=" not in said[-1] and "[" not in said[-1]


async def test_recording_an_objective_offers_it_by_name_for_the_deciding_side(demo: Path) -> None:
    from tui.screens.battle_dialogs import ChoiceField, CommandForm

    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_battle(pilot, app, demo)
        await pick(pilot, "Activate Tactical Squad")
        await pick(pilot, "Record a scenario objective achieved")
        form = app.screen
        assert isinstance(form, CommandForm)
        side = form.query_one("#field-side", ChoiceField)
        objective = form.query_one("#field-objective", ChoiceField)
        assert side.value == "humans"  # the side deciding, not the first in the list by chance
        assert objective.value == "Landing zone"
        assert "Landing zone (50 VP)" in screen_text(app)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert app.screen is screen
        assert screen.session.battle.state.data["objectives"] == {"humans": ["Landing zone"]}  # type: ignore[union-attr]
        await pick(pilot, "End activation")

        # The other side cannot hold it too: refused in words, nothing recorded.
        await pick(pilot, "Activate Ripper Swarm")
        await pick(pilot, "Record a scenario objective achieved")
        form = app.screen
        assert isinstance(form, CommandForm)
        assert form.query_one("#field-side", ChoiceField).value == "aliens"
        await pilot.press("ctrl+r")
        await until(pilot, lambda: any("claimed" in str(n.message) for n in app._notifications))
        said = [str(n.message) for n in app._notifications]
        assert "Landing zone is claimed by two sides (Humans and Aliens): one side achieves it" in said[-1]
        assert screen.session.battle.state.data["objectives"] == {"humans": ["Landing zone"]}  # type: ignore[union-attr]


async def test_remembered_answers_belong_to_the_unit_and_never_name_the_dead(demo: Path) -> None:
    from campaign.engine import CommandSpec
    from campaign.rulesets.flat_out_war.engine.commands import SHOOT_FACTS
    from tui.screens.battle_dialogs import ChoiceField, CommandForm

    band = next(f for f in SHOOT_FACTS if f.name == "range_band")
    allocate = next(f for f in SHOOT_FACTS if f.name == "allocate")
    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_battle(pilot, app, demo)
        session = screen.session
        assert session is not None
        rippers = [e.id for e in session.battle.state.unit("ripper-swarm").elements]
        await pick(pilot, "Activate Tactical Squad")
        await pick(pilot, "Tactical Squad: shoot at Ripper Swarm")
        form = app.screen
        assert isinstance(form, CommandForm)
        form.query_one("#fact-range_band", ChoiceField).value = "long"
        form.query_one("#fact-allocate").value = ", ".join(rippers[:3])  # type: ignore[attr-defined]
        await settle(pilot)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert app.screen is screen
        state = session.battle.state
        assert not all(state.element(i).alive for i in rippers[:3])  # hits went to them first

        def spec(unit: str) -> CommandSpec:
            return CommandSpec("shoot", {"unit": unit, "target": "ripper-swarm"}, SHOOT_FACTS)

        # The squad's own next shot starts at long range, but not with a dead Ripper allocated;
        # another unit of the same side starts at the rules' defaults.
        assert session.default(spec("tactical-squad"), band) == "long"
        assert session.default(spec("tactical-squad"), allocate) == []
        assert session.default(spec("heavy-squad"), band) == "short"
        await pick(pilot, "End activation")
        # The other side deciding: the Humans' answers are not theirs.
        assert session.battle.pending.side == "aliens"  # type: ignore[union-attr]
        assert session.default(spec("tactical-squad"), band) == "short"


async def test_a_template_with_nobody_covered_asks_who_else_is_under_it(demo: Path) -> None:
    from tui.screens.battle_dialogs import CommandForm
    from tui.screens.picker import PickerScreen

    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_battle(pilot, app, demo)
        session = screen.session
        assert session is not None
        await pick(pilot, "Activate Hover Tanks")
        await pick(pilot, "Hover Tanks: shoot at Ripper Swarm")
        assert isinstance(app.screen, CommandForm)
        await pilot.press("ctrl+r")  # `covered` left empty
        await settle(pilot)
        prompt = " ".join(str(screen.query_one("#battle-prompt").render()).split())
        assert prompt.startswith("Humans: Which elements are under Hover Tank's 4\" template")
        assert "Report the elements" in screen_text(app)
        await pick(pilot, "Report the elements")
        form = app.screen
        assert isinstance(form, CommandForm)
        form.query_one("#field-elements").focus()
        await pilot.press("f2")
        await settle(pilot)
        assert isinstance(app.screen, PickerScreen)  # the Rippers to choose from, by name
        assert "Alien Ripper" in screen_text(app)
        await pilot.press("escape")
        await settle(pilot)
        rippers = [e.id for e in session.battle.state.unit("ripper-swarm").alive][:3]
        form.query_one("#field-elements").value = ", ".join(rippers)  # type: ignore[attr-defined]
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert app.screen is screen
        entry = session.battle.log_dicts()[-1]
        assert entry["command"] == {"type": "report", "elements": rippers}
        assert any("template attack on Alien Ripper" in roll["purpose"] for roll in entry["rolls"])


async def test_arrow_keys_work_after_escape_from_a_form(demo: Path) -> None:
    from textual.widgets import OptionList

    from tui.screens.battle_dialogs import CommandForm

    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_battle(pilot, app, demo)
        await pick(pilot, "Activate Tactical Squad")
        actions = screen.query_one("#battle-actions", OptionList)
        await pick(pilot, "Tactical Squad: shoot at Ripper Swarm")
        assert isinstance(app.screen, CommandForm)
        chosen = actions.highlighted
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen and screen.focused is actions
        await pilot.press("down")
        assert actions.highlighted == chosen + 1  # type: ignore[operator]
        await pilot.press("up", "up")
        assert actions.highlighted == chosen - 1  # type: ignore[operator]


def visible(widget) -> str:  # type: ignore[no-untyped-def]
    """What a scrolling widget shows now, its lines joined, spaces squeezed."""
    return " ".join(" ".join(widget.render_line(y).text for y in range(widget.size.height)).split())


async def test_the_highlighted_action_has_a_glyph_and_a_wrapped_one_shows_whole(demo: Path) -> None:
    from tui.widgets.action_list import ActionList

    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_battle(pilot, app, demo)
        await pick(pilot, "Activate Tactical Squad")
        actions = screen.query_one("#battle-actions", ActionList)
        text = screen_text(app)
        assert "\u25b6 Move Tactical Squad" in text  # highlighted: the glyph, not only a colour
        assert "  Tactical Squad: melee attack on" in text and "\u25b6 Tactical" not in text
        await pilot.press("down")
        text = screen_text(app)
        assert "\u25b6 Tactical Squad: melee attack on" in text and "\u25b6 Move" not in text
        # Every action, long ones wrapped over two lines, shows whole once highlighted.
        labels = [str(actions.get_option_at_index(i).prompt) for i in range(actions.option_count)]
        assert any(len(label) > 38 for label in labels)  # wider than the list: wrapped
        for index, label in enumerate(labels):
            actions.highlighted = index
            await pilot.pause()
            assert " ".join(label.split()) in visible(actions), label


async def test_the_focused_choice_of_a_form_has_solid_arrows(demo: Path) -> None:
    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot, app, demo)
        await pick(pilot, "Activate Tactical Squad")
        await pick(pilot, "Tactical Squad: shoot at Ripper Swarm")
        text = screen_text(app)
        assert "aspect             \u25c0 front \u25b6  (1/3)" in text
        assert "range band         < short >  (1/3)" in text
        await pilot.press("tab")
        text = screen_text(app)
        assert "aspect             < front >  (1/3)" in text
        assert "range band         \u25c0 short \u25b6  (1/3)" in text


async def test_recovery_lines_show_their_modifier_as_morale_lines_do(demo: Path) -> None:
    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_battle(pilot, app, demo)
        await pick(pilot, "Activate Tactical Squad")
        await pick(pilot, "Tactical Squad: shoot at Ripper Swarm")
        await pilot.press("ctrl+r")
        await settle(pilot)
        said = [e.text for e in screen.session.battle.events]  # type: ignore[union-attr]
        assert "Alien Ripper is destroyed (3 -1)" in said  # a d4 Frail Ripper: the face, then its -1
        log = " ".join(" ".join(line.text for line in screen.query_one("#battle-log").lines).split())
        assert "Alien Ripper is destroyed (3 -1)" in log


async def test_the_track_panel_shows_the_battle_in_progress_and_scrolls_to_the_last_scenario(demo: Path) -> None:
    from textual.containers import VerticalScroll

    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot, app, demo)
        await pilot.press("escape")
        await settle(pilot)
        app.open_campaign(demo)
        await settle(pilot)
        text = screen_text(app)
        assert "\u25b6 Hot Landing" in text
        assert "In progress: 01-demo-landing" in text  # under its step, not below the fold
        track = app.screen.query_one("#track-scroll", VerticalScroll)
        assert "\u00b7 The Rout" not in text  # below the fold at first
        track.focus()
        await pilot.press("end")
        await settle(pilot)
        assert "\u00b7 The Rout" in screen_text(app)  # the last scenario, scrolled to


async def test_a_marker_of_one_activation_ends_with_its_round(demo: Path) -> None:
    """"ran" shows beside the unit in the round it ran, and no longer once the next round
    begins, before the unit activates again (the display rule of FOW's describe_unit)."""
    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_battle(pilot, app, demo)
        await pick(pilot, "Activate Tactical Squad")
        await pick(pilot, "Move Tactical Squad")
        await pilot.press("right")  # run: yes
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert "Tactical Squad  9/9  ran" in screen_text(app)
        await pick(pilot, "End activation")
        await pick(pilot, "Pass")  # the Aliens' turn: round 1 ends
        await settle(pilot)
        assert screen.session is not None and screen.session.battle.state.round == 2
        assert screen.session.battle.state.unit("tactical-squad").markers.get("ran")  # still in the state
        text = screen_text(app)
        assert "Tactical Squad  9/9" in text and "Tactical Squad  9/9  ran" not in text
