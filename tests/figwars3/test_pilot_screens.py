"""Pilot tests of part 2's decisions on the battle screen (issue 15), at 80x24 with auto
dice: marines getting into and out of the Hedgehog, a door named by the players and
breached, a hail of arrows with its victims picked, and a unit forming up with its ranks
picked and shown; with table dice, a machine's damage result on the unit panel. Each is chosen from the actions list and confirmed in the form, as a
player would; the battle file is read back to see what the engine received."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from campaign.campaigns import Side, TrackStep, create_campaign
from campaign.rulesets.figwars3.samples import sample_forces
from saves.battle_file import load_battle_file
from saves.campaign_file import create_campaign_folder
from scenarios import builtin_scenarios
from tests.figwars3.test_pilot import confirm, pick, settle
from tests.figwars3.test_pilot_decisions import OFFERED, pick_in
from tests.figwars3.test_pilot_part2 import prompts
from tests.tui.helpers import screen_text, type_into
from tui.app import MusterApp
from tui.screens.battle import BattleScreen
from tui.screens.battle_dialogs import ChoiceField, CommandForm, FacesScreen
from tui.widgets.battle_panels import UnitsPanel

FORCES = {f.name: f for f in sample_forces()}


def campaign(folder: Path, first: str, second: str, dice: str = "auto", **options: Any) -> Path:
    sides = [Side("one", "Blue"), Side("two", "Red")]
    made = create_campaign(
        "Screens", "figwars-3", sides, [TrackStep("one", "hold-the-bridge")], seed=5, options=options, dice=dice,
        activation_options={"turn_structure": "alternate_until_all_pass"}, scenario_ids=set(builtin_scenarios()),
    )  # fmt: skip
    create_campaign_folder(folder, made, {"one": FORCES[first], "two": FORCES[second]})
    return folder


def panel(app: MusterApp) -> str:
    """The units panel's text as shown (scrolled or not)."""
    return str(app.screen.query_one(UnitsPanel).content)


def log(screen: BattleScreen) -> list[dict[str, Any]]:
    assert screen.session is not None
    return [entry["command"] for entry in load_battle_file(screen.session.path).log]


async def play_until(pilot: Any, unit: str, turn: Callable[[], Awaitable[None]]) -> None:
    """Place the forces (rules revision 2), then let the other units activate and end at
    once until `unit` may activate; then `turn`."""
    while any(p.startswith("Place ") for p in prompts(pilot.app)):
        await pick(pilot, "Place ")
    for _ in range(12):
        options = prompts(pilot.app)
        if any(p.startswith(f"Activate {unit}") for p in options):
            await pick(pilot, f"Activate {unit}")
            await turn()
            return
        await pick(pilot, next(p for p in options if p.startswith("Activate")))
        await pick(pilot, "End activation")
    raise AssertionError(f"{unit} never activated")


def test_embark_disembark_and_a_breach(tmp_path: Path) -> None:
    asyncio.run(_embark_and_breach(tmp_path))


async def _embark_and_breach(tmp_path: Path) -> None:
    folder = campaign(tmp_path / "c", "USC Hedgehog Patrol", "Revenant Host")
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_battle(folder)
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BattleScreen)

        assert "hedgehog: DP 8/8, RAM 7, aboard: driver, crew 1" in panel(app)  # a vehicle's DP and crew

        async def marines() -> None:
            await pick(pilot, "marine: get into Hedgehog")
            form = app.screen
            assert isinstance(form, CommandForm)  # inside, or clinging on outside
            assert form.query_one("#fact-outside", ChoiceField).value is False
            await confirm(pilot)
            text = panel(app)
            assert "marine: DP 1/1, aboard Hedgehog, 1 action" in text  # the unit panel, as the rules describe it
            assert "aboard: driver, crew 1, marine" in text  # the vehicle's panel names those inside
            assert not any(p.startswith("marine: get into") for p in prompts(app))
            await pick(pilot, "marine: get off Hedgehog")
            assert "aboard: driver, crew 1," not in panel(app)

            # a door the players name (their own words: never read as markup)
            await pick(pilot, "marine-2: attack a door or wall")
            await type_into(pilot, "#fact-structure", "[b]Bunker[/b] door")
            form = app.screen
            assert isinstance(form, CommandForm)
            form.query_one("#fact-grade", ChoiceField).value = "flimsy"
            await settle(pilot)
            assert "[b]Bunker[/b] door" in screen_text(app)
            await confirm(pilot)

        await play_until(pilot, "Marine Fireteam", marines)
        commands = log(screen)
        embark = next(c for c in commands if c["type"] == "embark")
        assert (embark["model"], embark["vehicle"], embark.get("facts", {}).get("outside", False)) == ("marine-fireteam/marine", "hedgehog/hedgehog", False)
        assert any(c["type"] == "disembark" and c["model"] == "marine-fireteam/marine" for c in commands)
        breach = next(c for c in commands if c["type"] == "breach")
        assert breach["facts"]["structure"] == "[b]Bunker[/b] door" and breach["facts"]["grade"] == "flimsy"
        assert screen.session is not None
        assert "[b]Bunker[/b] door" in screen.session.battle.state.data["structures"]
        assert any("[b]Bunker[/b] door" in e.text for e in screen.session.battle.events)
        assert "[b]Bunker[/b] door" in screen_text(app)  # the log line, as typed


def test_a_hail_of_arrows_and_a_formation(tmp_path: Path) -> None:
    asyncio.run(_hail_and_formation(tmp_path))


async def _hail_and_formation(tmp_path: Path) -> None:
    folder = campaign(tmp_path / "c", "Arcane Circle", "Revenant Host", hail_of_arrows=True, formations=True)
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_battle(folder)
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BattleScreen)
        wardens = [f"wardens/warden{s}" for s in ("", "-2", "-3", "-4")]
        assert "archmage: DP 3/3, ARC 3/3" in panel(app)  # a caster's arcane points, on the unit panel

        async def form_and_loose() -> None:
            await pick(pilot, "Form up")
            assert await pick_in(pilot, "fact-front", wardens) == ", ".join(wardens)
            assert sorted(OFFERED) == sorted(wardens)  # the unit's own models
            await confirm(pilot)
            text = panel(app)
            assert "in formation 4 wide, 1 deep" in text and "warden-2: DP 1/1, 2 actions, front rank" in text

            await pick(pilot, "warden: lead a hail of arrows")
            text = await pick_in(pilot, "fact-victims", ["grunt-lance/grunt-3", "grunt-lance/grunt"])
            assert text == "grunt-lance/grunt-3, grunt-lance/grunt"  # nearest the centre first: the order picked
            assert "grunt-lance/grunt" in OFFERED and "jackal-pack/jackal" in OFFERED  # any model may lie under it
            await type_into(pilot, "#fact-inches", "20")
            await confirm(pilot)

        await play_until(pilot, "Wardens", form_and_loose)
        commands = log(screen)
        form = next(c for c in commands if c["type"] == "form")
        assert form["facts"]["front"] == wardens and form["facts"].get("second", []) == []
        hail = next(c for c in commands if c["type"] == "hail")
        assert hail["facts"]["victims"] == ["grunt-lance/grunt-3", "grunt-lance/grunt"] and hail["facts"]["inches"] == 20
        assert screen.session is not None
        assert any(e.kind == "hail" for e in screen.session.battle.events)
        state = screen.session.battle.state
        assert all("crossbow" in state.element(w).data["unloaded"] for w in wardens)  # each loosed its shot


def test_a_machines_damage_result_on_the_unit_panel(tmp_path: Path) -> None:
    asyncio.run(_damage_result(tmp_path))


async def faces(pilot: Any, *values: int) -> None:
    assert isinstance(pilot.app.screen, FacesScreen)
    await pilot.press(*" ".join(map(str, values)), "enter")
    await settle(pilot)


async def _damage_result(tmp_path: Path) -> None:
    folder = campaign(tmp_path / "c", "USC Hedgehog Patrol", "Mecha Lance", dice="table")
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_battle(folder)
        await settle(pilot)
        await faces(pilot, 3, 5)  # two units a side: 1d8 each, the mecha place first
        while not isinstance(app.screen, FacesScreen) and any(p.startswith("Place ") for p in prompts(app)):
            await pick(pilot, "Place ")
        await faces(pilot, 4)  # extra actions: Blue
        await faces(pilot, 4)  # extra actions: Red
        await faces(pilot, 8)  # initiative: Blue
        await faces(pilot, 2)  # initiative: Red
        await pick(pilot, "Activate Hedgehog")
        await pick(pilot, "hedgehog: shoot Strider with Anti-Aircraft Gun")
        await confirm(pilot)
        await faces(pilot, 6, 6, 6, 6, 6, 6)  # TQ 1 + ATK 5: twelve successes
        await faces(pilot, 1, 1, 1, 1, 1, 1, 1)  # the Strider's DEF 7d: none
        await faces(pilot, 3)  # the damage table: a movement hit
        assert "strider: DP 1/7, pilot alive, MOV halved, severely damaged" in panel(app)


def test_the_units_panel_shows_the_acting_unit(tmp_path: Path) -> None:
    asyncio.run(_acting_unit_in_view(tmp_path))


def _units_shown(app: MusterApp) -> str:
    """The units panel's column of the screen, as the player sees it."""
    return "\n".join(line[:38] for line in screen_text(app).splitlines())


async def _acting_unit_in_view(tmp_path: Path) -> None:
    folder = campaign(tmp_path / "c", "USC Strike Group", "Revenant Host")
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_battle(folder)
        await settle(pilot)
        assert "Hunter Pair" not in _units_shown(app)  # the last unit is far below the panel's 20 lines

        async def hunters() -> None:
            shown = _units_shown(app)
            assert "Hunter Pair" in shown and "hunter: DP" in shown  # scrolled down to the acting unit
            await pick(pilot, "End activation")
            assert "ODST Team" not in _units_shown(app)
            await pick(pilot, "Activate ODST Team")
            assert "ODST Team" in _units_shown(app)  # and back up for the next one

        await play_until(pilot, "Hunter Pair", hunters)


def test_the_shoot_form_asks_only_what_the_weapon_needs(tmp_path: Path) -> None:
    asyncio.run(_shoot_forms(tmp_path))


def _asked(app: MusterApp) -> set[str]:
    form = app.screen
    assert isinstance(form, CommandForm)
    return {str(w.id)[len("fact-"):] for w in form.query("#form-fields .form-row > *") if str(w.id).startswith("fact-")}


async def _shoot_forms(tmp_path: Path) -> None:
    folder = campaign(tmp_path / "c", "USC Strike Group", "Revenant Host")
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_battle(folder)
        await settle(pilot)
        seen: dict[str, set[str]] = {}

        async def shoot() -> None:
            for weapon in ("Assault Rifle", "Fragmentation Grenade"):
                await pick(pilot, f"marine: shoot Grunt Lance with {weapon}")
                seen[weapon] = _asked(app)
                await pilot.press("escape")
                await settle(pilot)
            await pick(pilot, "marine-gunner: shoot Grunt Lance with Rocket Launcher")
            seen["Rocket Launcher"] = _asked(app)
            await pilot.press("escape")
            await settle(pilot)

        await play_until(pilot, "Marine Squad", shoot)
        common = {"cover", "prone", "aim", "in_melee", "fast_target"}
        never = {"target_entangled", "shield_wall_front", "spotter", "sniper_option"}  # no entangler, no shield wall, nothing indirect
        rifle, grenade, rocket = seen["Assault Rifle"], seen["Fragmentation Grenade"], seen["Rocket Launcher"]
        assert common <= rifle and {"range_band", "shooter_cover", "burst"} <= rifle
        assert not rifle & (never | {"thrower_sees", "under_template"})
        assert common <= grenade and {"thrower_sees", "under_template"} <= grenade and not grenade & never
        assert common <= rocket and "under_template" in rocket and not rocket & (never | {"thrower_sees"})
