"""Pilot tests of the battle and post-battle screens on the demo campaign (Flat Out War).

Auto dice are the campaign's seeded dice, so every roll below is the same on every run;
table dice are typed. Each step is checked on screen, in the engine and in the battle file.
"""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from textual.widgets import OptionList

from campaign.engine import Battle, CommandSpec, Decision, RollRequest
from campaign.rulesets.flat_out_war.engine.commands import SHOOT_FACTS
from saves.battle_file import load_battle_file
from saves.campaign_file import load_campaign, save_campaign
from scenarios import builtin_scenarios
from scenarios.demo import write_demo
from tests.tui.helpers import screen_text, type_into
from tui.app import MusterApp
from tui.cli.replay import battle_setup
from tui.screens.battle import BattleScreen
from tui.screens.battle_dialogs import CommandForm, FacesScreen, parse
from tui.screens.post_battle import PostBattleScreen
from tests.tui.playthrough import settle

SIZE = (80, 24)


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return write_demo(tmp_path / "demo", seed=11)


def table_mode(folder: Path) -> Path:
    loaded = load_campaign(folder, builtin_scenarios())
    save_campaign(folder, attrs.evolve(loaded.campaign, dice="table"))
    return folder


async def pick(pilot, label: str) -> None:  # type: ignore[no-untyped-def]
    """Highlight the first action whose text starts with `label` and press Enter."""
    actions = pilot.app.screen.query_one("#battle-actions", OptionList)
    for index in range(actions.option_count):
        if str(actions.get_option_at_index(index).prompt).startswith(label):
            actions.focus()
            actions.highlighted = index
            await pilot.press("enter")
            await settle(pilot)
            return
    raise AssertionError(f"no action {label!r} in {[str(actions.get_option_at_index(i).prompt) for i in range(actions.option_count)]}")


def logged(screen: BattleScreen) -> list[dict]:  # type: ignore[type-arg]
    assert screen.session is not None
    return load_battle_file(screen.session.path).log


async def test_activations_odds_undo_and_the_file(demo: Path) -> None:
    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        app.start_battle(demo)
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BattleScreen)
        text = screen_text(app)
        assert "Hot Landing  Round 1/5  deciding: Humans" in text
        assert "Initiative: Humans 6, Aliens 5" in text
        assert len(logged(screen)) == 1  # the start entry, with its initiative dice

        await pick(pilot, "Activate Tactical Squad")
        assert [e["command"]["type"] for e in logged(screen)] == ["start", "activate"]
        # Undo a decision without dice: gone from the engine and from the file.
        await pilot.press("u")
        await settle(pilot)
        assert len(logged(screen)) == 1 and "Undone: activate (unit: Tactical Squad)" in " ".join(" ".join(line.text for line in screen.query_one("#battle-log").lines).split())
        await pick(pilot, "Activate Tactical Squad")

        await pick(pilot, "Tactical Squad: shoot at Ripper Swarm")
        form = app.screen
        assert isinstance(form, CommandForm)
        await settle(pilot)
        text = screen_text(app)
        assert "To hit: 8 x 50%, 1 x 62%" in text  # 8 rifles on d6, the sergeant's d8 (5/8)
        assert "Expected casualties 4.62; at least one 99.9%" in text
        form.query_one("#fact-range_band").value = "long"
        await settle(pilot)
        assert "To hit: 8 x 33%, 1 x 50%" in screen_text(app)  # long range: -1 on every die
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert app.screen is screen
        entry = logged(screen)[-1]
        assert entry["command"] == {"type": "shoot", "unit": "tactical-squad", "target": "ripper-swarm",
                                    "facts": {"range_band": "long"}}
        assert entry["rolls"][0]["faces"] == [5, 2, 2, 4, 3, 6, 6, 2]
        assert "Tactical Squad rolls [5, 2, 2, 4, 3, 6, 6, 2] shooting at Ripper Swarm" in "\n".join(
            e.text for e in screen.session.battle.events)  # type: ignore[union-attr]

        # A roll is a fact: undo is refused and nothing changes on disk.
        before = len(logged(screen))
        await pilot.press("u")
        await settle(pilot)
        assert len(logged(screen)) == before
        assert any("its dice are rolled" in str(n.message) for n in app._notifications)

        # The last answer is remembered for the unit that gave it: its next shooting form
        # starts at long range; another unit's starts at the rules' default.
        spec = CommandSpec("shoot", {"unit": "tactical-squad"}, SHOOT_FACTS)
        band = next(f for f in SHOOT_FACTS if f.name == "range_band")
        assert screen.session.default(spec, band) == "long"  # type: ignore[union-attr]
        other = CommandSpec("shoot", {"unit": "heavy-squad"}, SHOOT_FACTS)
        assert screen.session.default(other, band) == "short"  # type: ignore[union-attr]

        await pick(pilot, "End activation")
        # The file replays to the state on screen.
        saved = load_battle_file(screen.session.path)  # type: ignore[union-attr]
        assert Battle.replay(battle_setup(saved), saved.log).digest() == screen.session.battle.digest()  # type: ignore[union-attr]


async def test_resume_replays_in_a_worker_and_escape_loses_nothing(demo: Path) -> None:
    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        app.start_battle(demo)
        await settle(pilot)
        await pick(pilot, "Activate Heavy Squad")
        digest = app.screen.session.battle.digest()  # type: ignore[attr-defined]
        await pilot.press("escape")
        await settle(pilot)
        app.start_battle(demo)
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BattleScreen) and screen.session is not None
        assert screen.session.plan is None  # resumed, not started again
        assert screen.session.battle.digest() == digest
        assert "Heavy Squad: choose an action" in screen_text(app)


async def test_table_dice_refuse_bad_faces(demo: Path) -> None:
    table_mode(demo)
    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        app.start_battle(demo)
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, FacesScreen)  # round 1 initiative: typed on the table
        assert "Roll 1 x d6" in screen_text(app)
        await type_into(pilot, "#faces-input", "7")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog
        assert "a d6 has faces 1 to 6; 7 is not one of them" in screen_text(app)
        await type_into(pilot, "#faces-input", "")
        await pilot.press("enter")
        await pilot.pause()
        assert "needs 1 face(s), got 0" in screen_text(app)
        await type_into(pilot, "#faces-input", "2 5")  # a handful: the aliens' initiative die too
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BattleScreen) and screen.session is not None
        assert isinstance(screen.session.pending, Decision) and screen.session.pending.side == "aliens"
        assert logged(screen)[0]["rolls"][0]["faces"] == [2]

        await pick(pilot, "Activate Pukers")
        await pick(pilot, "Pukers: shoot at Tactical Squad")
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert isinstance(screen.session.pending, RollRequest)
        # The command waits for its dice: it is not on disk until they are typed.
        assert logged(screen)[-1]["command"]["type"] == "activate"
        first = screen.session.pending.count
        for face in ["1"] * 5:  # every die misses, so no recovery dice follow
            request = screen.session.pending
            if not isinstance(request, RollRequest):
                break
            assert isinstance(app.screen, FacesScreen)
            await type_into(pilot, "#faces-input", " ".join([face] * request.count))
            await pilot.press("enter")
            await settle(pilot)
        assert isinstance(screen.session.pending, Decision)
        assert logged(screen)[-1]["command"]["type"] == "shoot"
        assert logged(screen)[-1]["rolls"][0]["faces"] == [1] * first


async def test_end_by_agreement_post_battle_and_next_scenario(demo: Path) -> None:
    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        app.start_battle(demo)
        await settle(pilot)
        await pick(pilot, "Activate Tactical Squad")
        await pick(pilot, "Tactical Squad: shoot at Ripper Swarm")
        await pilot.press("ctrl+r")
        await settle(pilot)
        await pilot.press("e")
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)
        post = app.screen
        assert isinstance(post, PostBattleScreen)
        text = screen_text(app)
        assert "Battle 1, Hot Landing: Humans 0 VP, Aliens 0 VP; a draw; 0 units lost" in text
        assert "ended by the players' agreement" in text
        assert "Aliens  40 of 43 elements remain (3 lost, 1 recovered)" in text
        assert "Ripper Swarm: 4 x Alien Ripper fell" in text
        assert "Aliens recovery rolls (d6, 4+): 6 2 2 2" in text
        assert "Victory points" in text and "Casualties and survivors" in text
        await pilot.press("s")
        await settle(pilot)
        camp = load_campaign(demo, builtin_scenarios()).campaign
        assert len(camp.history) == 1 and not camp.battle_in_progress
        saved = load_battle_file(demo / camp.history[0].file)
        assert saved.result is not None and saved.result.summary == camp.history[0].summary
        assert "Saved." in screen_text(app)
        forces = load_campaign(demo, builtin_scenarios()).forces
        assert sum(e.alive for u in forces["aliens"].units for e in u.elements) == 40
        await pilot.press("n")  # the next battle's briefing, then its muster, then the battle
        await settle(pilot)
        assert "Battle 2: " in screen_text(app)
        await pilot.press("enter", "b")
        await settle(pilot)
        nxt = app.screen
        assert isinstance(nxt, BattleScreen) and nxt.session is not None
        assert nxt.session.path.name.startswith("02-")
        assert nxt.session.scenario.id == camp.step(camp.position).scenario


def test_parse_fact_text() -> None:
    assert parse("a, b ,c", []) == ["a", "b", "c"]
    assert parse("", 0) == 0 and parse("12", 0) == 12
    with pytest.raises(ValueError, match="not a whole number"):
        parse("twelve", 0)
    assert parse("yes", False) is True


async def test_hostile_unit_name_shows_as_typed(demo: Path) -> None:
    hostile = "[@click=app.quit]Boss[/]"
    loaded = load_campaign(demo, builtin_scenarios())
    aliens = loaded.forces["aliens"]
    units = (attrs.evolve(aliens.units[0], name=hostile), *aliens.units[1:])
    save_campaign(demo, loaded.campaign, {"aliens": attrs.evolve(aliens, units=units)})
    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        app.start_battle(demo)
        await settle(pilot)
        await pick(pilot, "Activate Tactical Squad")
        await pick(pilot, f"Tactical Squad: shoot at {hostile}")
        assert f"Tactical Squad: shoot at {hostile}" in screen_text(app)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert app.is_running and isinstance(app.screen, BattleScreen)
        assert hostile in screen_text(app)
