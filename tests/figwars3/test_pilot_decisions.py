"""Pilot tests of FigWars 3 decisions on the battle screen, with table dice (every face
typed, so each test scripts its rolls): the models acting apart and a burst's further
targets picked with F2 (not typed; each target's dice, gap and cover set in its own fields), coherency reported with a picker, the margin of a
melee spent on a package, a shot handed on by Heroic Deflection, a drop from reserve and
a sprung ambush."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
from textual.widgets import Input, OptionList, SelectionList

from campaign.campaigns import Side, TrackStep, create_campaign
from campaign.engine.pending import CommandSpec, Decision, RollRequest
from campaign.force import Force
from campaign.rulesets.figwars3.samples import sample_forces
from saves.battle_file import load_battle_file
from saves.campaign_file import create_campaign_folder
from saves.lease import acquire
from scenarios import builtin_scenarios
from tests.tui.helpers import screen_text
from tui.app import MusterApp
from tui.screens.battle import BattleScreen
from tui.screens.battle_dialogs import ChoiceField, CommandForm, FacesScreen
from tui.screens.battle_session import BattleSession
from tui.screens.parts_dialog import PartsField, PartsScreen
from tui.screens.picker import PickerScreen
from tests.workers import workers_done


def with_ability(force: Force, unit_name: str, ability: str) -> Force:
    units = tuple(
        attrs.evolve(u, elements=tuple(attrs.evolve(e, attributes=(*e.attributes, ability)) for e in u.elements))
        if u.name == unit_name else u
        for u in force.units
    )
    return attrs.evolve(force, units=units)


SAMPLES = {f.name: f for f in sample_forces()}


def campaign_folder(folder: Path, first: Force = SAMPLES["USC Strike Group"], second: Force = SAMPLES["Revenant Host"]) -> Path:
    campaign = create_campaign(
        "Table Skirmish", "figwars-3", [Side("one", "Blue"), Side("two", "Red")], [TrackStep("one", "hold-the-bridge")],
        seed=5, dice="table", activation_options={"turn_structure": "alternate_until_all_pass"},
        scenario_ids=set(builtin_scenarios()),
    )  # fmt: skip
    create_campaign_folder(folder, campaign, {"one": first, "two": second})
    return folder


async def settle(pilot: Any) -> None:
    for _ in range(3):
        await workers_done(pilot.app)
        await pilot.pause()


def battle_screen(app: MusterApp) -> BattleScreen:
    return next(s for s in reversed(app.screen_stack) if isinstance(s, BattleScreen))


def pending(app: MusterApp) -> Any:
    session = battle_screen(app).session
    assert session is not None
    return session.pending


async def faces(pilot: Any, *values: int) -> None:
    """Type one table roll's faces."""
    assert isinstance(pilot.app.screen, FacesScreen), pending(pilot.app)
    await pilot.press(*" ".join(map(str, values)), "enter")
    await settle(pilot)


async def choose(pilot: Any, want: Callable[[CommandSpec], bool]) -> CommandSpec:
    """Select, in the actions list, the first legal command `want` accepts."""
    decision = pending(pilot.app)
    assert isinstance(decision, Decision), decision
    index = next((i for i, s in enumerate(decision.legal) if want(s)), None)
    assert index is not None, [s.label for s in decision.legal]
    actions = pilot.app.screen.query_one("#battle-actions", OptionList)
    position = next(i for i in range(actions.option_count) if actions.get_option_at_index(i).id == str(index))
    actions.focus()
    actions.highlighted = position
    await pilot.press("enter")
    await settle(pilot)
    return decision.legal[index]


def labelled(text: str) -> Callable[[CommandSpec], bool]:
    return lambda spec: spec.label.startswith(text)


OFFERED: list[str] = []  # what the last picker offered


async def pick_in(pilot: Any, field: str, ids: list[str]) -> str:
    """F2 on a form field, tick `ids` in the picker, accept; returns the field's text."""
    form = pilot.app.screen
    assert isinstance(form, CommandForm)
    form.query_one(f"#{field}", Input).focus()
    await pilot.press("f2")
    await settle(pilot)
    picker = pilot.app.screen
    assert isinstance(picker, PickerScreen)
    selection = picker.query_one(SelectionList)
    offered = [str(selection.get_option_at_index(i).value) for i in range(selection.option_count)]
    OFFERED[:] = offered
    for some_id in ids:
        selection.select(selection.get_option_at_index(offered.index(some_id)))
    await pilot.press("enter")
    await settle(pilot)
    assert pilot.app.screen is form
    return form.query_one(f"#{field}", Input).value


async def tick(pilot: Any, ids: list[str]) -> None:
    """In the open picker, tick `ids` and accept."""
    picker = pilot.app.screen
    assert isinstance(picker, PickerScreen)
    selection = picker.query_one(SelectionList)
    offered = [str(selection.get_option_at_index(i).value) for i in range(selection.option_count)]
    OFFERED[:] = offered
    for some_id in ids:
        selection.select(selection.get_option_at_index(offered.index(some_id)))
    await pilot.press("enter")
    await settle(pilot)


async def place_all(pilot: Any) -> None:
    """Rules revision 2 (new campaign battles): the forces go down first (5), a unit at a time."""
    if isinstance(pending(pilot.app), RollRequest) and pending(pilot.app).purpose.startswith("deployment"):
        await faces(pilot, 8, *[1] * (pending(pilot.app).count - 1))  # equal unit counts: 1d8 a side, Blue first
    while isinstance(pending(pilot.app), Decision) and pending(pilot.app).prompt.startswith("Deployment"):
        await choose(pilot, labelled("Place "))


OPENING = (1, 1)  # turn 1's extra actions: Blue, Red
FIRST, SECOND = (8, 1), (1, 8)  # the initiative faces (Blue, Red) that make Blue or Red act first


async def start_on_screen(pilot: Any, app: MusterApp, folder: Path, first: bool = True) -> None:
    """The campaign's next battle on the screen, deployed and past turn 1's extra actions
    and initiative (Blue first unless not `first`), every step played on the screen."""
    app.start_battle(folder)
    await settle(pilot)
    await place_all(pilot)
    for face in (*OPENING, *(FIRST if first else SECOND)):
        await faces(pilot, face)


def deploy(folder: Path, first: bool = True) -> None:
    """What `start_on_screen` plays, played through the battle session the screen uses (its
    verbs write the battle file as the screen's do), without drawing a screen for each step.
    With auto dice only the placing is played (each unit at the first place offered, as
    test_pilot_screens' `play_until` picks them): the dice roll the rest."""
    lease = acquire(folder, "battle")
    try:
        session = BattleSession.open(folder, lease=lease)
        ask = session.pending
        if isinstance(ask, RollRequest) and ask.purpose.startswith("deployment"):
            session.roll([8, *[1] * (ask.count - 1)])
        while isinstance(ask := session.pending, Decision) and ask.prompt.startswith("Deployment"):
            session.apply(session.command(next(s for s in ask.legal if s.label.startswith("Place "))))
        for face in (*OPENING, *(FIRST if first else SECOND)) if session.table_dice else ():
            assert isinstance(session.pending, RollRequest), session.pending
            session.roll([face])
    finally:
        lease.release()


async def start(pilot: Any, app: MusterApp, folder: Path, first: bool = True) -> None:
    """As `start_on_screen` (which the ambush test plays, checking that both write the same
    log), the steps before the first activation played off the screen: the screen then
    resumes the battle from its file, as a player reopening it would see it."""
    deploy(folder, first)
    app.start_battle(folder)
    await settle(pilot)


def log_of(app: MusterApp) -> list[dict[str, Any]]:
    session = battle_screen(app).session
    assert session is not None
    return load_battle_file(session.path).log


def test_apart_and_burst_targets_are_picked_not_typed(tmp_path: Path) -> None:
    asyncio.run(_apart_and_burst(tmp_path))


def _two_pistol_jackals() -> Force:
    host = SAMPLES["Revenant Host"]
    units = tuple(
        attrs.evolve(u, elements=tuple(attrs.evolve(e, weapons=(*e.weapons, *[w for w in e.weapons if w.name == "Plasma Pistol"]))
                                       for e in u.elements))
        if u.name == "Jackal Pack" else u
        for u in host.units
    )
    return attrs.evolve(host, units=units)


async def _apart_and_burst(tmp_path: Path) -> None:
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot, app, campaign_folder(tmp_path / "c", SAMPLES["USC Strike Group"], _two_pistol_jackals()))
        await choose(pilot, labelled("Activate Marine Squad"))
        await choose(pilot, lambda s: s.type == "share")
        text = await pick_in(pilot, "field-apart", ["marine-squad/marine-gunner"])
        assert text == "marine-squad/marine-gunner" and all(i.startswith("marine-squad/") for i in OFFERED)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert log_of(app)[-1]["command"]["apart"] == ["marine-squad/marine-gunner"]

        await choose(pilot, lambda s: s.type == "shoot" and s.params["model"] == "marine-squad/marine"
                     and s.params["target"] == "grunt-lance" and s.params["weapon"] == "Assault Rifle")
        # the target model is picked among the target unit's models (one id: the last ticked)
        assert await pick_in(pilot, "field-target_model", ["grunt-lance/grunt-3", "grunt-lance/grunt-4"]) == "grunt-lance/grunt-4"
        assert OFFERED and all(i.startswith("grunt-lance/") for i in OFFERED)
        form = app.screen
        assert isinstance(form, CommandForm)
        form.query_one("#field-target_model", Input).value = ""  # back to the foremost model
        # a burst's further target: picked, then its dice, gap and cover set in their own fields
        burst = form.query_one("#fact-burst", PartsField)
        burst.focus()
        await pilot.press("enter")  # Enter (like F2) opens the picker
        await settle(pilot)
        await tick(pilot, ["grunt-lance/grunt-2"])
        assert OFFERED and all(i.split("/")[0] in ("grunt-lance", "jackal-pack", "elite-lance", "drone-swarm", "hunter-pair")
                               for i in OFFERED)  # enemy models only
        parts = app.screen
        assert isinstance(parts, PartsScreen)
        assert "grunt-2" in screen_text(app) and "Grunt #2" not in screen_text(app)  # as the unit panel names it
        assert parts.query_one("#part-0-0", Input).value == "1"  # the least share (A1), no gap, no cover
        assert parts.query_one("#part-0-1", Input).value == "0"
        assert parts.query_one("#part-0-2", ChoiceField).value == "none"
        parts.query_one("#part-0-1", Input).focus()
        await pilot.press("backspace", "3")
        await pilot.press("tab")
        await pilot.press("right")  # cover: partial soft
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert app.screen is form and burst.value == ["grunt-lance/grunt-2:1:3:partial_soft"]
        assert "gap 3" in screen_text(app) and "partial soft" in screen_text(app)
        # picking again keeps the values set for a model still picked; Escape on the values changes nothing
        await pilot.press("f2")
        await settle(pilot)
        await tick(pilot, [])
        assert app.screen.query_one("#part-0-1", Input).value == "3"
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is form and burst.value == ["grunt-lance/grunt-2:1:3:partial_soft"]
        await pilot.press("ctrl+r")
        await settle(pilot)
        rolls = await misses(pilot)
        # TQ 1 + ATK 2 = 3 dice: 1 for grunt-2, 1 for the 3" gap, 1 left for the first
        # target; grunt-2 defends with 2 + 1 for its partial soft cover
        assert [(r.count, r.die) for r in rolls] == [(1, 6), (2, 6), (1, 6), (3, 6)]
        shot = log_of(app)[-1]["command"]
        assert shot["facts"]["burst"] == ["grunt-lance/grunt-2:1:3:partial_soft"]
        await choose(pilot, labelled("End activation"))

        # a jackal fires both plasma pistols, the second at a model picked (one id, not a list)
        await choose(pilot, labelled("Activate Jackal Pack"))
        await choose(pilot, lambda s: s.type == "shoot" and s.params["model"] == "jackal-pack/jackal"
                     and s.params["target"] == "marine-squad" and s.params["weapon"] == "Plasma Pistol")
        form = app.screen
        assert isinstance(form, CommandForm)
        form.query_one("#fact-second_weapon", ChoiceField).value = "Plasma Pistol"
        assert await pick_in(pilot, "fact-second_target_model", ["odst-team/odst-2", "odst-team/odst"]) == "odst-team/odst"
        await pilot.press("ctrl+r")
        await settle(pilot)
        await roll_out(pilot)
        facts = log_of(app)[-1]["command"]["facts"]
        assert (facts["second_weapon"], facts["second_target_model"]) == ("Plasma Pistol", "odst-team/odst")


async def misses(pilot: Any) -> list[RollRequest]:
    """Answer every roll asked now with ones (no success); returns the requests."""
    seen = []
    while isinstance(pilot.app.screen, FacesScreen):
        request = pending(pilot.app)
        seen.append(request)
        await faces(pilot, *[1] * request.count)
    return seen


async def roll_out(pilot: Any, *first: list[int]) -> list[RollRequest]:
    """Answer the rolls asked now: `first` for the first ones, then ones (no success)."""
    seen, scripted = [], list(first)
    while isinstance(pilot.app.screen, FacesScreen):
        request = pending(pilot.app)
        seen.append(request)
        await faces(pilot, *(scripted.pop(0) if scripted else [1] * request.count))
    return seen


CAPTAIN, GUARD3 = "marine-captain/captain", "guard-squad/guardsman-3"


def test_deflection_coherency_and_a_margin_package(tmp_path: Path) -> None:
    asyncio.run(_deflection_coherency_package(tmp_path))


async def _deflection_coherency_package(tmp_path: Path) -> None:
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot, app, campaign_folder(tmp_path / "c", SAMPLES["Gothic Imperium Battle Group"]), first=False)
        # Red's grunt shoots the Imperial captain; Blue hands the shot on (Heroic Deflection)
        await choose(pilot, labelled("Activate Grunt Lance"))
        await choose(pilot, lambda s: s.type == "shoot" and s.params["model"] == "grunt-lance/grunt"
                     and s.params["target"] == "marine-captain" and s.params["weapon"] == "Plasma Pistol")
        await pilot.press("ctrl+r")
        await settle(pilot)
        ask = pending(app)
        assert isinstance(ask, Decision) and ask.side == "one" and "Heroic Deflection" in ask.prompt
        assert "deciding: Blue" in screen_text(app)
        await choose(pilot, lambda s: s.type == "deflect" and s.params["model"] == "guard-squad/guardsman")
        form = app.screen
        assert isinstance(form, CommandForm)  # the new target's own range and cover
        await pilot.press("ctrl+r")
        await settle(pilot)
        await roll_out(pilot)
        deflect = log_of(app)[-1]
        assert deflect["command"]["type"] == "deflect" and deflect["command"]["model"] == "guard-squad/guardsman"
        session = battle_screen(app).session
        assert session is not None
        shot = [e for e in session.battle.events if e.kind == "shot"][-1]
        assert shot.data["target"] == "guard-squad/guardsman"
        await choose(pilot, labelled("End activation"))

        # Blue's guards report a model out of coherency with the picker; it fails its check
        await choose(pilot, labelled("Activate Guard Squad"))
        await choose(pilot, lambda s: s.type == "coherency")
        assert await pick_in(pilot, "fact-out_of_coherency", [GUARD3]) == GUARD3
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert len(await roll_out(pilot)) == 1
        legal = pending(app).legal
        assert {s.type for s in legal if s.params.get("model") == GUARD3} == {"walk", "run"}  # back into coherency first

        # a guardsman strikes a grunt and wins by a margin it spends on a package of its choice
        await choose(pilot, lambda s: s.type == "strike" and s.params["model"] == "guard-squad/guardsman"
                     and s.params["target"] == "grunt-lance")
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert "defensive Focus" in pending(app).prompt  # Red may focus; it does not
        await choose(pilot, lambda s: s.type == "choose" and s.params["option"] != "focus")
        request = pending(app)
        assert isinstance(request, RollRequest)
        await roll_out(pilot, [6] + [1] * (request.count - 1))  # two successes against none: a margin of 2
        ask = pending(app)
        assert isinstance(ask, Decision) and "wins the melee by" in ask.prompt and "spend the margin" in ask.prompt
        assert ask.legal[0].label.endswith("(default)")
        spent = await choose(pilot, lambda s: s.type == "choose" and str(s.params["option"]) == "push+follow")  # no DP: it stays
        await roll_out(pilot)
        assert log_of(app)[-1]["command"] == {"type": "choose", "option": spent.params["option"]}
        # the push: Blue says where the grunt ends up: against a wall, an extra pin (PR-4)
        assert "is forced back 1\"" in pending(app).prompt
        await choose(pilot, lambda s: s.type == "report")
        form = app.screen
        assert isinstance(form, CommandForm)
        form.query_one("#fact-against_solid", ChoiceField).value = True
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert log_of(app)[-1]["command"]["facts"] == {"against_solid": True}
        assert any(e.kind == "push" for e in session.battle.events)
        assert session.battle.state.element("grunt-lance/grunt").data["pins"] >= 1


def test_an_ambush_sprung_and_a_drop_from_reserve(tmp_path: Path) -> None:
    asyncio.run(_ambush_and_drop(tmp_path))


async def _ambush_and_drop(tmp_path: Path) -> None:
    gothic, revenant = SAMPLES["Gothic Imperium Battle Group"], SAMPLES["Revenant Host"]
    blue = with_ability(attrs.evolve(gothic, units=tuple(u for u in gothic.units if u.name in ("Scout Squad", "Guard Squad"))),
                        "Scout Squad", "Ambush")
    red = with_ability(attrs.evolve(revenant, units=tuple(u for u in revenant.units if u.name in ("Grunt Lance", "Elite Lance"))),
                       "Elite Lance", "Drop Deployment")
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start_on_screen(pilot, app, campaign_folder(tmp_path / "c", blue, red))
        # the other tests start with `deploy`: it writes what the screen wrote
        twin = campaign_folder(tmp_path / "twin", blue, red)
        deploy(twin)
        assert [load_battle_file(p).log for p in (twin / "battles").glob("*.toml")] == [log_of(app)]
        # the elites wait in reserve: turn 1 offers no activation of them
        assert not any("Elite Lance" in s.label for s in pending(app).legal)
        await choose(pilot, labelled("Activate Scout Squad"))
        ask = pending(app)
        assert "spring the ambush now?" in ask.prompt
        await choose(pilot, labelled("Spring the ambush"))
        session = battle_screen(app).session
        assert session is not None and "revealed" in {e.kind for e in session.battle.events}
        await choose(pilot, labelled("End activation"))
        await choose(pilot, labelled("Activate Grunt Lance"))
        await choose(pilot, labelled("End activation"))
        await choose(pilot, labelled("Activate Guard Squad"))
        await choose(pilot, labelled("End activation"))
        # turn 2: the extra actions and the initiative (Red first), then the drop
        await roll_out(pilot, [1], [1], [1], [8])
        await choose(pilot, labelled("Activate Elite Lance"))
        assert "arrive by drop now?" in pending(app).prompt
        await choose(pilot, labelled("Arrive by drop"))
        rolls = await roll_out(pilot, [3, 3, 3])  # a Hard check on the elites' TQ 3: three successes
        assert [(r.count, r.die) for r in rolls] == [(3, 6)]
        arrival = [e for e in session.battle.events if e.kind == "arrives"][-1]
        assert "deviates" not in arrival.text
        assert any(s.params.get("model", "").startswith("elite-lance/") for s in pending(app).legal)
