"""Pickers for facts that list ids (FactSpec.picks, a report's units/elements) in the battle form.

On the demo campaign ([SO], its seeded dice): a Move's `contact` picked by name charges the
unit picked, and the charged side's "name the elements that turn" answer offers exactly the
elements the engine lists. On a small [1.7] table-dice campaign with hostile names: labels
show as typed, an allocation keeps the order the elements were ticked in, Escape changes nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, SelectionList

from campaign.campaigns import Side, TrackStep, create_campaign
from campaign.engine import Decision, RollRequest
from campaign.force import Element, Force, Unit, Weapon
from campaign.rulesets.flat_out_war.editions import V17
from saves.campaign_file import create_campaign_folder
from scenarios import builtin_scenarios
from scenarios.demo import write_demo
from tests.tui.helpers import screen_text, type_into
from tests.tui.test_battle import SIZE, pick, settle
from tui.app import MusterApp
from tui.screens.battle import BattleScreen
from tui.screens.battle_dialogs import CommandForm, FacesScreen
from tui.screens.picker import PickerScreen
from tui.widgets.battle_panels import units_text

BOLD = "[b]Bold"  # a unit name with markup in it: shown with its brackets, never bold
RED = "Red [i]side"
GUARD = "[i]Guard"  # an element name likewise


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return write_demo(tmp_path / "demo", seed=11)


def battle_screen(app: MusterApp) -> BattleScreen:
    screen = next(s for s in app.screen_stack if isinstance(s, BattleScreen))
    assert screen.session is not None
    return screen


def offered(app: MusterApp) -> list[str]:
    """The ids the open picker offers, top to bottom."""
    assert isinstance(app.screen, PickerScreen), type(app.screen)
    options = app.screen.query_one("#picker-list", SelectionList)
    return [options.get_option_at_index(i).value for i in range(options.option_count)]


def labels(app: MusterApp) -> list[str]:
    options = app.screen.query_one("#picker-list", SelectionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def open_picker(pilot, selector: str) -> None:  # type: ignore[no-untyped-def]
    pilot.app.screen.query_one(selector).focus()
    await pilot.pause()
    await pilot.press("f2")
    await settle(pilot)
    assert isinstance(pilot.app.screen, PickerScreen)


async def tick(pilot, ids: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Tick each id in turn with the arrows and Space, as a player would."""
    values = offered(pilot.app)
    options = pilot.app.screen.query_one("#picker-list", SelectionList)
    for wanted in ids:
        index = values.index(wanted)
        await pilot.press("home", *["down"] * index)
        assert options.highlighted == index
        await pilot.press("space")
    await pilot.pause()


async def test_contact_picked_by_name_charges_that_unit(demo: Path) -> None:
    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        app.start_battle(demo)
        await settle(pilot)
        await pick(pilot, "Activate Tactical Squad")
        await pick(pilot, "Move Tactical Squad")
        assert isinstance(app.screen, CommandForm)
        await open_picker(pilot, "#fact-contact")

        # contact names enemy units only (FactSpec.picks "enemy_units"), by name and side.
        ids = offered(app)
        assert ids == ["ripper-swarm", "ravager-pack", "pukers", "terrors"]
        assert labels(app)[0] == "Ripper Swarm (Aliens)"
        assert "Ripper Swarm (Aliens)" in screen_text(app)

        await tick(pilot, ["pukers"])
        await pilot.press("enter")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, CommandForm)
        assert form.query_one("#fact-contact", Input).value == "pukers"
        assert form.focused is form.query_one("#fact-contact")

        await pilot.press("ctrl+r")
        await settle(pilot)
        state = battle_screen(app).session.battle.state  # type: ignore[union-attr]
        squad = state.unit("tactical-squad")
        assert squad.markers["charging"] is True and squad.markers["charged"] == "pukers"


async def test_a_report_offers_exactly_the_elements_the_engine_names(demo: Path) -> None:
    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        app.start_battle(demo)
        await settle(pilot)
        await pick(pilot, "Activate Tactical Squad")
        await pick(pilot, "Move Tactical Squad")
        # Charge the Rippers; two of them already touch another enemy and may not turn.
        await type_into(pilot, "#fact-contact", "ripper-swarm")
        busy = ["ripper-swarm/alien-ripper-2", "ripper-swarm/alien-ripper-5"]
        await type_into(pilot, "#fact-contact_elsewhere", ", ".join(busy))
        await pilot.press("ctrl+r")
        await settle(pilot)
        battle = battle_screen(app).session.battle  # type: ignore[union-attr]
        pending = battle.pending
        assert isinstance(pending, Decision) and pending.side == "aliens"
        named = pending.data["pick_elements"]
        assert len(named) == 22 and not set(busy) & set(named)

        await pick(pilot, "Name the elements that turn")
        assert isinstance(app.screen, CommandForm)
        await open_picker(pilot, "#field-elements")
        assert offered(app) == named
        assert labels(app)[:2] == ["Alien Ripper #1 \u2014 Ripper Swarm (Aliens)",
                                   "Alien Ripper #3 \u2014 Ripper Swarm (Aliens)"]
        await tick(pilot, [named[1], named[0]])
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.query_one("#field-elements", Input).value == f"{named[1]}, {named[0]}"
        await pilot.press("ctrl+r")
        await settle(pilot)
        rippers = battle.state.unit("ripper-swarm")
        turned = [e.id for e in rippers.elements if e.markers.get("faced")]
        assert turned == [named[0], named[1]]

        # The Units panel names the units in those markers instead of showing their ids.
        panel = units_text(battle).plain
        assert "charging Ripper Swarm" in panel and "charged ripper-swarm" not in panel
        assert "2x Alien Ripper d4: turned to face Tactical Squad" in panel
        assert "tactical-squad" not in panel and "ripper-swarm" not in panel


def hostile_campaign(root: Path) -> Path:
    """[1.7], table dice: Blue's gunners against a Red unit named with markup, of three Guards."""
    blue = Unit("Gunners", (Element("Gunner", count=2, die="d6", move=4,
                                    weapons=(Weapon("Rifle", "ranged", "d6", range=12),)),))
    red = Unit(BOLD, (Element(GUARD, count=3, die="d6", move=4, weapons=(Weapon("Sword", "melee", "d6"),)),))
    forces = {
        "blue": Force("Blue Force", "flat-out-war", V17, (blue,)),
        "red": Force("Red Force", "flat-out-war", V17, (red,)),
    }
    campaign = create_campaign(
        "Picks", "flat-out-war", [Side("blue", "Blue"), Side("red", RED)], [TrackStep("one", "meeting-engagement")],
        edition=V17, dice="table", seed=3, scenario_ids=set(builtin_scenarios()),
    )  # fmt: skip
    return create_campaign_folder(root / "picks", campaign, forces)


async def blue_activates(pilot, folder: Path) -> None:  # type: ignore[no-untyped-def]
    """Start the battle, type the initiative (Blue 6, Red 1) and activate Blue's gunners."""
    pilot.app.start_battle(folder)
    await settle(pilot)
    for faces in ("6", "1"):
        assert isinstance(pilot.app.screen, FacesScreen), type(pilot.app.screen)
        await type_into(pilot, "#faces-input", faces)
        await pilot.press("enter")
        await settle(pilot)
    await pick(pilot, "Activate Gunners")


async def test_hostile_names_show_as_typed_and_escape_changes_nothing(tmp_path: Path) -> None:
    folder = hostile_campaign(tmp_path)
    app = MusterApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await blue_activates(pilot, folder)
        await pick(pilot, "Move Gunners")
        await type_into(pilot, "#fact-near", "typed-by-hand")
        await open_picker(pilot, "#fact-near")
        assert labels(app) == [f"{BOLD} ({RED})"]
        assert f"{BOLD} ({RED})" in screen_text(app)
        await tick(pilot, offered(app))
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, CommandForm)
        assert app.screen.query_one("#fact-near", Input).value == "typed-by-hand"

        # A typed id the picker does not offer is kept in front of what is picked.
        await open_picker(pilot, "#fact-near")
        await tick(pilot, offered(app))
        await pilot.press("enter")
        await settle(pilot)
        bold_id = battle_screen(app).session.battle.state.units[1].id  # type: ignore[union-attr]
        assert app.screen.query_one("#fact-near", Input).value == f"typed-by-hand, {bold_id}"


async def test_an_allocation_keeps_the_order_ticked(tmp_path: Path) -> None:
    folder = hostile_campaign(tmp_path)
    app = MusterApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await blue_activates(pilot, folder)
        await pick(pilot, "Gunners: shoot at")
        form = app.screen
        assert isinstance(form, CommandForm)
        await open_picker(pilot, "#fact-allocate")
        guards = offered(app)
        assert labels(app) == [f"{GUARD} #{n} \u2014 {BOLD} ({RED})" for n in (1, 2, 3)]
        assert f"{GUARD} #3 \u2014 {BOLD} ({RED})" in screen_text(app)

        await tick(pilot, [guards[2], guards[0]])
        assert "Chosen, in order: 1. [i]Guard #3  2. [i]Guard #1" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
        allocate = form.query_one("#fact-allocate", Input)
        assert allocate.value == f"{guards[2]}, {guards[0]}"

        # Reopened: the typed order stands; a further tick goes last, a cleared one drops out.
        await open_picker(pilot, "#fact-allocate")
        assert app.screen.order == [guards[2], guards[0]]  # type: ignore[attr-defined]
        await tick(pilot, [guards[1], guards[2]])
        await pilot.press("enter")
        await settle(pilot)
        assert allocate.value == f"{guards[0]}, {guards[1]}"
        assert form.values()[1]["allocate"] == [guards[0], guards[1]]

        # Confirmed: the command carries the allocation in that order, then waits for its dice.
        await pilot.press("ctrl+r")
        await settle(pilot)
        session = battle_screen(app).session
        assert session is not None and isinstance(session.battle.pending, RollRequest)
        assert session.battle.log[-1].command["facts"]["allocate"] == [guards[0], guards[1]]
