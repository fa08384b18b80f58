"""One d10 attack phase on the battle screen (Pilot, 80x24): the header names the phase and
whose pick is next, the sides alternate target picks (the attackers picked among the side's
own models), hits show as pending on the target model and land when the phase ends."""

from __future__ import annotations

from pathlib import Path

import attrs

from textual.widgets import Input, OptionList, SelectionList

from campaign.activation.phased import phase_view
from campaign.campaigns import Side, TrackStep, create_campaign, muster, plan_battle
from campaign.engine import Battle, Decision
from campaign.rulesets import get_ruleset
from campaign.rulesets.d10_phased.autoplay import act
from campaign.rulesets.d10_phased.commands import Declare
from saves.battle_file import append_log, load_battle_file
from saves.campaign_file import create_campaign_folder, load_campaign, start_battle
from scenarios import builtin_scenarios
from tests.d10_phased.phasedplay import step
from tests.tui.helpers import screen_text
from tui.app import MusterApp
from tui.cli.replay import battle_setup
from tui.screens.battle_dialogs import CommandForm
from tui.screens.picker import PickerScreen
from tui.widgets.battle_panels import UnitsPanel
from tests.workers import workers_done

LIB = builtin_scenarios()


def battle_at_an_attack_phase(tmp_path: Path) -> tuple[Path, Battle]:
    """A campaign whose battle is logged up to the first pick of an attack phase."""
    samples = {f.name: f for f in get_ruleset("d10-phased").sample_forces()}
    campaign = create_campaign("d10 screen", "d10-phased", [Side("legion", "Legion"), Side("horde", "Horde")],
                               [TrackStep("death", "sudden-death")], activation="phased", seed=16,
                               scenario_ids=set(LIB))
    folder = create_campaign_folder(tmp_path / "d10", campaign, {"legion": samples["Iron Legion"], "horde": samples["Gnasher Horde"]})
    state = load_campaign(folder, LIB)
    plan = plan_battle(state.campaign, LIB)
    path = start_battle(state, plan, {s: muster(plan, f) for s, f in state.forces.items()})
    battle = Battle.start(battle_setup(load_battle_file(path)))
    assert battle.setup.activation == "phased"  # the ruleset's default turn
    while not (isinstance(battle.pending, Decision) and any(s.type == "declare" for s in battle.pending.legal)):
        step(battle)
    for entry in battle.log_dicts():
        append_log(path, entry)
    return folder, battle


def units_text(screen: object) -> str:
    return str(screen.query_one(UnitsPanel).content)  # type: ignore[attr-defined]


async def settle(app: MusterApp, pilot: object) -> None:
    for _ in range(3):
        await workers_done(app)
        await pilot.pause()  # type: ignore[attr-defined]


async def test_an_attack_phase_with_alternating_picks_and_hits_landing_at_its_end(tmp_path: Path) -> None:
    folder, battle = battle_at_an_attack_phase(tmp_path)
    view = phase_view(battle.state)
    assert view is not None
    first = battle.pending.side  # type: ignore[union-attr]
    names = {s.id: s.name for s in battle.state.sides}
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_battle(folder)
        await settle(app, pilot)
        screen = app.screen
        text = screen_text(app)
        assert f"Phase {view.index + 1}/{len(view.phases)}: {view.phase}" in text
        assert f"next: {names[first]}" in text
        session = screen.session  # type: ignore[attr-defined]
        picks = []
        declared: list[str] = []
        held_seen = 0
        picked_with_f2 = False
        while phase_view(session.battle.state).phase == view.phase:  # type: ignore[union-attr]
            live = session.battle
            pending = live.pending
            assert isinstance(pending, Decision)
            live_game = live.rules.game(live.state)
            command = act(live.rules.play, live_game, live.state.scheme["phased"]["phase"], pending.side)
            actions = screen.query_one("#battle-actions", OptionList)
            if not any(s.type == "declare" for s in pending.legal):
                actions.highlighted = len(pending.legal) - 1  # another question: its last option
            elif isinstance(command, Declare) and len(declared) < 3:
                picks.append(pending.side)
                actions.highlighted = next(i for i, s in enumerate(pending.legal) if s.params.get("target") == command.target)
            else:
                picks.append(pending.side)
                actions.highlighted = next(i for i, s in enumerate(pending.legal) if s.type == "pass")
                command = None
            actions.focus()
            await pilot.press("enter")
            await settle(app, pilot)
            if isinstance(app.screen, CommandForm):
                assert isinstance(command, Declare)
                form = app.screen
                if len(declared) == 2:  # the side's second pick: its attackers picked (F2), the first ones barred
                    form.query_one("#field-attackers", Input).focus()
                    await pilot.pause()
                    await pilot.press("f2")
                    await settle(app, pilot)
                    assert isinstance(app.screen, PickerScreen)
                    options = app.screen.query_one("#picker-list", SelectionList)
                    ids = [options.get_option_at_index(i).value for i in range(options.option_count)]
                    able = [m.id for m in live.rules.play.attackers(live_game, live_game.phase, pending.side)]  # type: ignore[attr-defined]
                    assert ids == able, "only the models DP-10.1 lets attack now are offered"
                    barred = [m.id for m in live_game.roster.side_models(pending.side) if m.id not in able]
                    assert barred, "the models that attacked in the side's first pick are left out"
                    picked_with_f2 = True
                    for attacker in command.attackers:
                        options.select(attacker)
                    await pilot.press("enter")
                    await settle(app, pilot)
                    assert app.screen is form
                    assert form.query_one("#field-attackers", Input).value == ", ".join(command.attackers)
                    # per-attacker weapons and facts, typed as tables in the form
                    first_attacker = live_game.roster.model(command.attackers[0])
                    weapon = next(w for w in first_attacker.attack if w != "close")
                    form.query_one("#field-weapons", Input).value = f"{first_attacker.id} = {weapon}"
                    form.query_one("#field-each", Input).value = f"{first_attacker.id} = {{bonus = 1}}"
                    command = attrs.evolve(command, weapons={first_attacker.id: weapon},
                                           each={first_attacker.id: {"bonus": 1}})
                else:
                    form.query_one("#field-attackers", Input).value = ", ".join(command.attackers)
                await settle(app, pilot)
                assert "Expected hits" in screen_text(app)  # the declaration's odds
                await pilot.press("ctrl+r")
                await settle(app, pilot)
                declared.append(command.target)
                pending_hits = session.battle.rules.game(session.battle.state).ledger.pending.get(command.target)
                if pending_hits and pending_hits.hits:
                    target = session.battle.rules.game(session.battle.state).roster.model(command.target)
                    # the hit is held: the target still stands, its line says what is pending
                    assert target.alive
                    assert f"{pending_hits.hits} hit(s) pending" in units_text(screen)
                    held_seen += 1
            now = phase_view(session.battle.state)
            if now is not None and now.phase == view.phase and now.picking:  # picking: "" while the phase ends
                assert f"next: {names[now.picking]}" in screen_text(app)
        assert declared and held_seen, "the screen declared attacks and showed their hits pending"
        assert picked_with_f2
        logged = [e["command"] for e in session.battle.log_dicts() if e["command"]["type"] == "declare"]
        assert any(c.get("weapons") and c.get("each") == {k: {"bonus": 1} for k in c["weapons"]} for c in logged), \
            "the form's weapons and each went into the declaration"
        assert any(a != b for a, b in zip(picks, picks[1:])), f"picks alternate: {picks}"
        final = session.battle.rules.game(session.battle.state)
        assert final.ledger.pending == {}
        assert "pending" not in units_text(screen)
        landed = [e for e in session.battle.events if e.kind in ("damage", "destroyed") and e.data.get("when") == view.phase]
        assert landed, "the held hits land when the phase ends"
