"""Pilot tests of part 2's decisions on the battle screen (issue 15), at 80x24 with auto
dice: marines getting into and out of the Hedgehog, a door named by the players and
breached, a hail of arrows with its victims picked, and a unit forming up with its ranks
picked and shown, then faced, consolidated and wheeled; an entity beyond its leash; with
table dice, a machine's damage result on the unit panel, a shot that did not hurt hitting
its cover (PR-60), a passenger taking a dead driver's seat and the hunter's self-destruct
asking each model's cover (rules revision 3, opened on a log prefix) and rolling with it;
the acting unit scrolled into view and the shoot form asking only what the weapon needs.
Each is chosen from the actions list and confirmed in the form, as a player would; the
battle file is read back to see what the engine received."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import attrs
from textual.widgets import RichLog

from campaign.campaigns import Side, TrackStep, create_campaign, muster, plan_battle
from campaign.engine import Battle
from campaign.engine.pending import RollRequest
from campaign.force import Force
from campaign.rulesets.figwars3.samples import sample_forces
from saves.battle_file import BattleFile, dumps_battle, load_battle_file
from saves.battle_replay import battle_setup
from saves.campaign_file import create_campaign_folder, load_campaign, start_battle
from scenarios import builtin_scenarios, scenarios_for
from tests.figwars3.test_pilot import confirm, pick, settle
from tests.figwars3.test_pilot_decisions import OFFERED, deploy, pick_in, tick
from tests.figwars3.test_pilot_part2 import prompts
from tests.tui.playthrough import open_battle
from tests.tui.helpers import screen_text, type_into
from tui.app import MusterApp
from tui.screens.battle import BattleScreen
from tui.screens.battle_dialogs import ChoiceField, CommandForm, FacesScreen
from tui.screens.parts_dialog import PartsField, PartsScreen
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
        deploy(folder)  # placed off the screen: the battle opens at the first activation
        screen = await open_battle(pilot, app, folder)

        assert "hedgehog: DP 8/8, RAM 7, aboard: driver, crew 1" in panel(app)  # a vehicle's DP and crew

        async def marines() -> None:
            await pick(pilot, "marine: get into Hedgehog")
            form = app.screen
            assert isinstance(form, CommandForm)  # inside, or clinging on outside
            assert form.query_one("#fact-outside", ChoiceField).value is False
            await confirm(pilot)
            text = panel(app)
            assert "marine: DP 1/1, aboard Hedgehog, 1 act" in text  # the unit panel, as the rules describe it
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
        deploy(folder)  # placed off the screen: the battle opens at the first activation
        screen = await open_battle(pilot, app, folder)
        wardens = [f"wardens/warden{s}" for s in ("", "-2", "-3", "-4")]
        assert "archmage: DP 3/3, ARC 3/3" in panel(app)  # a caster's arcane points, on the unit panel

        async def form_and_loose() -> None:
            await pick(pilot, "Form up")
            assert await pick_in(pilot, "fact-front", wardens) == ", ".join(wardens)
            assert sorted(OFFERED) == sorted(wardens)  # the unit's own models
            await confirm(pilot)
            text = panel(app)
            assert "in formation 4 wide, 1 deep" in text and "warden-2: DP 1/1, 2 act, front rank" in text

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
        app.start_battle(folder)  # opens on a roll dialog, not the battle screen
        await settle(pilot)
        await faces(pilot, 3, 5)  # two units a side: 1d8 each, the mecha place first
        while not isinstance(app.screen, FacesScreen) and any(p.startswith("Place ") for p in prompts(app)):
            await pick(pilot, "Place ")
        await faces(pilot, 4)  # extra actions: Blue
        await faces(pilot, 4)  # extra actions: Red
        await faces(pilot, 8)  # initiative: Blue
        await faces(pilot, 2)  # initiative: Red
        offered = prompts(app)
        assert "Activate Hedgehog" in offered and "Pass" not in offered  # 6.2: refused, so never offered
        await pick(pilot, "Activate Hedgehog")
        await pick(pilot, "hedgehog: shoot Strider with Anti-Aircraft Gun")
        await confirm(pilot)
        await faces(pilot, 6, 6, 6, 6, 6, 6)  # TQ 1 + ATK 5: twelve successes
        await faces(pilot, 1, 1, 1, 1, 1, 1, 1)  # the Strider's DEF 7d: none
        await faces(pilot, 3)  # the damage table: a movement hit
        assert "strider: DP 1/7, pilot alive, MOV halved, severely damaged" in panel(app)
        shown = [line.strip("│ ") for line in _units_shown(app).splitlines()]
        at = shown.index("strider: DP 1/7, pilot alive,")  # too wide for the column at 80x24: it wraps,
        assert shown[at + 1] == "MOV halved, severely damaged"  # after a comma
        assert "│      MOV halved" in _units_shown(app)  # its rest indented under the model's name


def test_the_units_panel_shows_the_acting_unit(tmp_path: Path) -> None:
    asyncio.run(_acting_unit_in_view(tmp_path))


def _units_shown(app: MusterApp) -> str:
    """The units panel's column of the screen, as the player sees it."""
    return "\n".join(line[:38] for line in screen_text(app).splitlines())


async def _acting_unit_in_view(tmp_path: Path) -> None:
    folder = campaign(tmp_path / "c", "USC Strike Group", "Revenant Host")
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_battle(pilot, app, folder)
        assert "Hunter Pair" not in _units_shown(app)  # the last unit is far below the panel's 20 lines

        async def hunters() -> None:
            shown = _units_shown(app)
            assert "Hunter Pair" in shown and "hunter: DP" in shown  # scrolled down to the acting unit
            text = panel(app)
            screen = app.screen
            assert isinstance(screen, BattleScreen) and screen.session is not None
            pools = [s.data["extra_pool"] for s in screen.session.battle.state.sides]
            assert pools[0] > 0  # Blue's pool: never shown while Red's unit acts
            said = text.count("extra in the side's pool")
            assert said == (1 if pools[1] else 0)  # only on the unit that may spend it now
            assert text.splitlines()[0] == "Blue" and "Marine Squad  8/8  activated\n" in text
            await pick(pilot, "End activation")
            assert "ODST Team" not in _units_shown(app)
            await pick(pilot, "Activate ODST Team")
            assert "ODST Team" in _units_shown(app)  # and back up for the next one

        await play_until(pilot, "Hunter Pair", hunters)
        # the other tests here place the forces with `deploy`: it writes what the screen wrote
        twin = campaign(tmp_path / "twin", "USC Strike Group", "Revenant Host")
        deploy(twin)
        placed = [load_battle_file(p).log for p in (twin / "battles").glob("*.toml")]
        screen = app.screen
        assert isinstance(screen, BattleScreen) and screen.session is not None
        assert len(placed) == 1 and placed[0] == load_battle_file(screen.session.path).log[: len(placed[0])]


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
        deploy(folder)  # placed off the screen: the battle opens at the first activation
        await open_battle(pilot, app, folder)
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


# --- part 2's decisions on the screen: the cover hit, the leash, wheel and consolidate -----


def test_a_shot_that_did_not_hurt_hits_the_cover_instead(tmp_path: Path) -> None:
    asyncio.run(_cover_hit(tmp_path))


async def _cover_hit(tmp_path: Path) -> None:
    from tests.figwars3.test_pilot_decisions import faces as typed, pending, roll_out, start

    folder = campaign(tmp_path / "c", "USC Strike Group", "Revenant Host", dice="table", cover_hits=True)
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot, app, folder)
        screen = app.screen
        assert isinstance(screen, BattleScreen)
        await pick(pilot, "Activate Marine Squad")
        await pick(pilot, "marine: shoot Grunt Lance with Assault Rifle")
        form = app.screen
        assert isinstance(form, CommandForm)
        form.query_one("#fact-cover", ChoiceField).value = "partial_hard"
        await type_into(pilot, "#field-target_model", "grunt-lance/grunt")
        await confirm(pilot)
        attack = pending(app)
        await typed(pilot, 6, *[1] * (attack.count - 1))  # 2 successes
        defence = pending(app)
        await typed(pilot, 6, *[1] * (defence.count - 1))  # 2: a tie, no DP, but the shot scored
        decision = pending(app)
        assert "hit its cover instead (PR-60)" in decision.prompt
        assert "hit its cover instead" in screen_text(app)  # the question, on the screen
        await pick(pilot, "Yes: the cover is hit")
        await type_into(pilot, "#fact-structure", "[red]crate[/red] stack")  # the players' words: never markup
        form = app.screen
        assert isinstance(form, CommandForm)
        form.query_one("#fact-kind", ChoiceField).value = "door"
        form.query_one("#fact-grade", ChoiceField).value = "weak"
        await confirm(pilot)
        await roll_out(pilot)  # the door's DEF: no success, so the 2 successes break it
        assert screen.session is not None
        report = next(c for c in log(screen) if c["type"] == "report")
        assert report["facts"]["structure"] == "[red]crate[/red] stack" and report["facts"]["grade"] == "weak"
        state = screen.session.battle.state
        assert state.data["structures"]["[red]crate[/red] stack"]["sections"] == [0]
        assert state.element("grunt-lance/grunt").data["pins"] == 0  # the cover took the shot: no pin
        assert "[red]crate[/red] stack" in screen_text(app)


def test_an_entity_beyond_its_leash_is_named_on_the_screen(tmp_path: Path) -> None:
    asyncio.run(_leash(tmp_path))


def _with_spell(force: Any, element: str, spell: str) -> Any:
    import attrs

    units = tuple(attrs.evolve(u, elements=tuple(attrs.evolve(e, spells=(*e.spells, spell)) if e.name == element else e
                                                 for e in u.elements)) for u in force.units)
    return attrs.evolve(force, units=units)


async def _leash(tmp_path: Path) -> None:
    FORCES["Entity Circle"] = _with_spell(FORCES["Arcane Circle"], "Archmage", "entity")
    folder = campaign(tmp_path / "c", "Entity Circle", "Revenant Host")
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        deploy(folder)  # placed off the screen: the battle opens at the first activation
        screen = await open_battle(pilot, app, folder)
        asked: list[str] = []

        async def summon() -> None:
            await pick(pilot, "archmage: arcane entity")
            await type_into(pilot, "#fact-entities", "0:0:0:0")
            await confirm(pilot)
            await pick(pilot, "End activation")
            assert screen.session is not None
            decision = screen.session.pending
            asked.append(decision.prompt)
            assert "12\"" in screen_text(app) and "(16.8)" in decision.prompt
            await pick(pilot, next(p for p in prompts(app) if "out of Archmage's sight" in p))

        await play_until(pilot, "Archmage", summon)
        assert asked
        assert screen.session is not None
        from campaign.rulesets.figwars3 import entities

        state = screen.session.battle.state
        summoned = {e.id for u in state.units if entities.is_entity_unit(u) for e in u.elements}
        leash = [c for c in log(screen) if c["type"] == "choose"][-1]
        assert summoned and leash["option"] in summoned  # the entity the player named, from the screen
        assert any("breaks its leash" in e.text for e in screen.session.battle.events)


def test_a_formation_faces_consolidates_and_wheels(tmp_path: Path) -> None:
    asyncio.run(_wheel_and_consolidate(tmp_path))


async def _wheel_and_consolidate(tmp_path: Path) -> None:
    folder = campaign(tmp_path / "c", "Arcane Circle", "Revenant Host", formations=True)
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        deploy(folder)  # placed off the screen: the battle opens at the first activation
        screen = await open_battle(pilot, app, folder)
        wardens = [f"wardens/warden{s}" for s in ("", "-2", "-3", "-4")]

        async def drill() -> None:
            await pick(pilot, "Form up")
            assert await pick_in(pilot, "fact-front", wardens) == ", ".join(wardens)
            await confirm(pilot)
            assert not any(p.startswith("Consolidate") for p in prompts(app))  # not before a face or a melee
            await pick(pilot, "Face the formation")
            await pick(pilot, "Consolidate")
            assert await pick_in(pilot, "fact-front", wardens[::-1]) == ", ".join(wardens[::-1])
            await confirm(pilot)
            assert "warden-4: DP 1/1, 1 act, front rank" in panel(app)
            await pick(pilot, "Wheel on a front corner")
            await type_into(pilot, "#fact-inches", "3")
            await confirm(pilot)
            assert "warden-4: DP 1/1, front rank" in panel(app)  # the wheel took every model's last action

        await play_until(pilot, "Wardens", drill)
        commands = log(screen)
        consolidate = next(c for c in commands if c["type"] == "consolidate")
        assert consolidate["facts"]["front"] == wardens[::-1]
        wheel = next(c for c in commands if c["type"] == "wheel")
        assert wheel["facts"]["inches"] == 3
        assert screen.session is not None
        texts = [e.text for e in screen.session.battle.events]
        assert "Wardens consolidates: 4 wide, 1 deep" in texts and any(t.startswith("Wardens wheels 3\"") for t in texts)


def test_a_passenger_takes_a_dead_drivers_seat_on_the_screen(tmp_path: Path) -> None:
    asyncio.run(_seat(tmp_path))


async def _seat(tmp_path: Path) -> None:
    """Turn 1 through the battle session (the screen's own verbs, every face scripted): two
    marines get into the Hedgehog, the hunters kill its crew member and then its driver;
    in turn 2 the Hedgehog's owner is asked on the screen which marine drives."""
    from campaign.engine.pending import RollRequest
    from campaign.rulesets.figwars3 import machine_play

    folder = campaign(tmp_path / "c", "USC Hedgehog Patrol", "Revenant Host", dice="table")
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_battle(pilot, app, folder)
        screen = app.screen
        assert isinstance(screen, BattleScreen) and screen.session is not None
        session = screen.session
        battle = session.battle
        damage = {"vehicle/mecha damage": [[5], [5]], "crew casualty": [[1], [7]], "which crew": [[1]]}  # crew, then the driver

        def rolls() -> None:
            while isinstance(battle.pending, RollRequest):
                purpose = battle.pending.purpose
                count = battle.pending.count
                if "initiative" in purpose:
                    faces = [8] if "Blue" in purpose else [1]  # Blue first
                elif "attacks" in purpose:
                    faces = [6] + [1] * (count - 1)  # 2 successes against none: 1 DP
                else:
                    faces = next((plan.pop(0) for key, plan in damage.items() if purpose.startswith(key) and plan), [1] * count)
                session.roll(faces)

        def do(label: str) -> None:
            session.apply(battle.command(next(s for s in battle.pending.legal if s.label.startswith(label))))
            rolls()

        while battle.pending.prompt.startswith("Deployment"):
            do("Place ")
        rolls()
        for step in ("Activate Marine Fireteam", "marine: get into", "marine-2: get into", "End activation",
                     "Activate Hunter Pair", "hunter: shoot Hedgehog", "hunter-2: shoot Hedgehog", "End activation"):
            do(step)
        hedgehog = battle.state.element("hedgehog/hedgehog")
        assert not machine_play.record(hedgehog).driver_alive  # the driver is dead, no crew left
        for _ in range(12):  # the rest of turn 1, then turn 2 up to the Hedgehog
            labels = [s.label for s in battle.pending.legal]
            if "Activate Hedgehog" in labels and battle.state.round == 2:
                do("Activate Hedgehog")
                break
            do(next(w for w in ("Activate Hedgehog", "End activation", "Activate") if any(lb.startswith(w) for lb in labels)))
        screen.show()
        await settle(pilot)
        assert "Hedgehog has no driver" in screen_text(app)
        assert prompts(app)[:3] == ["marine takes the controls", "marine-2 takes the controls", "Nobody yet"]  # one name form
        await pick(pilot, "marine-2 takes the controls")
        assert log(screen)[-1] == {"type": "choose", "option": "marine-fireteam/marine-2"}
        assert hedgehog.data["driver"] == "marine-fireteam/marine-2" and machine_play.record(hedgehog).driver_alive
        assert any("Marine takes over as driver" in e.text for e in battle.events)


def countdown_battle(folder: Path) -> None:
    """A campaign whose battle in progress stands at the self-destruct's report (rules
    revision 3, table dice): a lone hunter with four rebel scouts against a storm patrol
    (Breaking Point: 8 turns). The patrol shoots the hunter down in turn 1 (its dice 6s,
    the hunter's 1s; other dice from a fixed seed), then every unit ends its activation
    at once until the body goes off at the start of turn 7. Written as a log prefix, so
    the screen opens on the report (a replay) instead of playing seven turns."""
    party = FORCES["Intergalactic Hunters"].units[0]
    hunter = attrs.evolve(party, elements=(attrs.evolve(party.elements[0], count=1),))
    one = Force("Hunter and Scouts", "figwars-3", units=(hunter, FORCES["Rebel Cell"].units[1]))
    two = Force("Storm Patrol", "figwars-3", units=(FORCES["Storm Trooper Detachment"].units[1],))
    made = create_campaign(
        "Countdown", "figwars-3", [Side("one", "Blue"), Side("two", "Red")], [TrackStep("one", "fw-breaking-point")], seed=5,
        dice="table", activation_options={"turn_structure": "alternate_until_all_pass"}, scenario_ids=set(builtin_scenarios()),
    )  # fmt: skip
    create_campaign_folder(folder, made, {"one": one, "two": two})
    library = scenarios_for(folder)
    loaded = load_campaign(folder, library, write=True)
    plan = plan_battle(loaded.campaign, library | loaded.scenarios)
    path = start_battle(loaded, plan, {side: muster(plan, force) for side, force in loaded.forces.items()})
    file = load_battle_file(path)
    battle = Battle.start(battle_setup(file))
    rng = random.Random(1)
    while "self-destructs" not in getattr(battle.pending, "prompt", ""):
        pending = battle.pending
        if isinstance(pending, RollRequest):
            hit = pending.purpose.endswith("attacks") or "(Stealth)" in pending.purpose
            miss = "Hunter defends" in pending.purpose
            battle.roll([6 if hit else 1 if miss else rng.randint(1, pending.die) for _ in range(pending.count)])
            continue
        assert pending is not None and battle.state.round < 8
        legal = list(pending.legal)
        want = [lambda s: s.type == "shoot" and s.params["target"] == "hunting-party",
                lambda s: s.type == "end_activation", lambda s: s.type == "done", lambda s: True]
        battle.apply(battle.command(next(s for w in want for s in legal if w(s))))
    path.write_text(dumps_battle(BattleFile(path, file.header, battle.log_dicts())), encoding="utf-8")


def test_the_self_destruct_asks_each_models_cover_and_rolls_with_it(tmp_path: Path) -> None:
    asyncio.run(_self_destruct_cover(tmp_path))


async def _self_destruct_cover(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    countdown_battle(folder)
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_battle(pilot, app, folder)
        assert screen.session is not None
        battle = screen.session.battle
        assert battle.state.round == 7 and battle.rules.revision >= 3
        text = screen_text(app)  # the prompt, wrapped in its column
        assert "Blue: Intergalactic Hunter's body" in text and "the large template, and which see it?" in text
        await pick(pilot, "Report the models hit")
        form = app.screen
        assert isinstance(form, CommandForm)
        scout, trooper = "rebel-scouts/rebel-scout", "storm-patrol/storm-trooper-2"
        covers = []
        for field, model, steps in (("fact-under_template", scout, 2), ("fact-in_sight", trooper, 4)):
            form.query_one(f"#{field}", PartsField).focus()
            await pilot.press("enter")  # the picker: any model on the table
            await settle(pilot)
            await tick(pilot, [model])
            assert scout in OFFERED and trooper in OFFERED
            parts = app.screen
            assert isinstance(parts, PartsScreen)  # each picked model's own cover
            cover = parts.query_one("#part-0-0", ChoiceField)
            assert cover.value == "none"
            cover.focus()
            await pilot.press(*["right"] * steps)
            covers.append(cover.value)
            await pilot.press("ctrl+r")
            await settle(pilot)
            assert app.screen is form
        assert covers == ["full_hard", "obscuring_soft"]
        text = screen_text(app)
        assert "full hard" in text and "obscuring soft" in text  # as the form shows each model's cover
        await confirm(pilot)
        state = battle.state
        dfn = {m: battle.rules._defender(state.element(m)).defence for m in (scout, trooper)}
        asked = []
        for _ in range(4):  # the 9d and 2d rolls and their defences; the turn's own rolls follow
            assert isinstance(app.screen, FacesScreen)
            request = screen.session.pending
            assert isinstance(request, RollRequest)
            assert request.purpose in screen_text(app)  # the dice dialog says what is rolled
            asked.append((request.count, request.purpose))
            await faces(pilot, *[1] * request.count)  # no success either way
        # full hard counts as partial hard, obscuring soft as full soft: +2d each, the 2d roll too
        assert asked == [(9, "9d6: self-destruct attacks"), (dfn[scout] + 2, f"{dfn[scout] + 2}d6: Rebel Scout defends"),
                         (2, "2d6: self-destruct attacks"), (dfn[trooper] + 2, f"{dfn[trooper] + 2}d6: Storm Trooper defends")]
        # the battle screen under the turn's next dice: its log and units panel
        shown = " ".join(" ".join(line.text.split()) for line in screen.query_one("#battle-log", RichLog).lines)
        assert ("Intergalactic Hunter's self-destruct goes off the self-destruct hits Rebel Scout: 0 against 0"
                " the self-destruct hits Storm Trooper: 0 against 0 every model on the table is stunned") in shown
        assert "rebel-scout: DP 2/2, stunned" in str(screen.query_one(UnitsPanel).content)
        report = battle.log_dicts()[-1]["command"]  # (on file once the turn's dice are in)
        assert report["facts"] == {"under_template": [f"{scout}:full_hard"], "in_sight": [f"{trooper}:obscuring_soft"]}
