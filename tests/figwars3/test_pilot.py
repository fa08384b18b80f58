"""Pilot test of a FigWars 3 activation on the battle screen: a share group, an extra
action, a sentry held, and the sentry fired as an interrupt when an enemy model acts."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.widgets import OptionList

from campaign.campaigns import Side, TrackStep, create_campaign
from campaign.engine.pending import Decision
from campaign.rulesets.figwars3.samples import sample_forces
from saves.battle_file import load_battle_file
from saves.campaign_file import create_campaign_folder
from scenarios import builtin_scenarios
from tests.tui.helpers import screen_text, type_into
from tui.app import MusterApp
from tui.screens.battle import BattleScreen
from tui.screens.battle_dialogs import CommandForm
from tests.tui.playthrough import open_battle, settle


def figwars_campaign(folder: Path) -> Path:
    forces = {f.name: f for f in sample_forces()}
    sides = [Side("usc", "USC"), Side("rev", "Revenant")]
    campaign = create_campaign(
        "Ring Skirmish", "figwars-3", sides, [TrackStep("one", "hold-the-bridge")], seed=5,
        activation_options={"turn_structure": "alternate_until_all_pass"}, scenario_ids=set(builtin_scenarios()),
    )  # fmt: skip
    create_campaign_folder(folder, campaign, {"usc": forces["USC Strike Group"], "rev": forces["Revenant Host"]})
    return folder


def action_labels(app) -> list[str]:  # type: ignore[no-untyped-def]
    """Each option of the actions list as the engine labels its command ("marine: shoot
    ..."), though the list shows a model's commands under a heading; "" for a heading."""
    actions = app.screen.query_one("#battle-actions", OptionList)
    pending = app.screen.session.pending if app.screen.session is not None else None
    legal = pending.legal if isinstance(pending, Decision) else ()
    out = []
    for i in range(actions.option_count):
        option = actions.get_option_at_index(i)
        ident = option.id or ""
        out.append("" if option.disabled else legal[int(ident)].label if ident.isdigit() and legal else str(option.prompt))
    return out


async def pick(pilot, label: str) -> None:  # type: ignore[no-untyped-def]
    actions = pilot.app.screen.query_one("#battle-actions", OptionList)
    prompts = action_labels(pilot.app)
    index = next((i for i, p in enumerate(prompts) if p.startswith(label)), None)
    assert index is not None, f"no action {label!r} in {prompts}"
    actions.focus()
    actions.highlighted = index
    await pilot.press("enter")
    await settle(pilot)


async def confirm(pilot) -> None:  # type: ignore[no-untyped-def]
    assert isinstance(pilot.app.screen, CommandForm)
    await pilot.press("ctrl+r")
    await settle(pilot)


def test_share_group_extra_action_and_sentry_interrupt(tmp_path: Path) -> None:
    asyncio.run(_activation(tmp_path))


async def _activation(tmp_path: Path) -> None:
    folder = figwars_campaign(tmp_path / "ring")
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_battle(pilot, app, folder)
        placed = 0  # rules revision 2: the forces go down first, Revenant (more units) first (5)
        while "Deployment:" in screen_text(app):
            await pick(pilot, "Place ")
            placed += 1
        assert placed == 6  # the last unit of a side goes down without asking
        assert "2 extra" in screen_text(app)  # the USC pool, shown with its units

        await pick(pilot, "Activate Marine Squad")
        await pick(pilot, "Name the models that act apart")
        await type_into(pilot, "#field-apart", "marine-squad/marine-gunner")
        await confirm(pilot)
        await pick(pilot, "marine: take an extra action")
        await pick(pilot, "marine: sentry with Assault Rifle")
        await pick(pilot, "End activation")

        await pick(pilot, "Activate Grunt Lance")
        assert "Grunt Lance activates: release" in screen_text(app)  # 7.2: offered as the unit activates too
        await pick(pilot, "Hold the sentry")
        await pick(pilot, "grunt: walk")
        await confirm(pilot)
        text = screen_text(app)
        assert "deciding: USC" in text and "sentry" in text  # the interrupt: USC answers mid-turn
        await pick(pilot, "Marine: fire the sentry shot at Grunt")
        await confirm(pilot)

        assert screen.session is not None
        log = load_battle_file(screen.session.path).log
        types = [entry["command"]["type"] for entry in log]
        assert types[:7] == ["start"] + ["choose"] * 6
        log, types = log[:1] + log[7:], types[:1] + types[7:]  # without the placements
        assert types[:9] == ["start", "activate", "share", "extra", "sentry", "end_activation", "activate", "choose", "walk"]
        assert types[9] == "shoot" and log[9]["command"]["model"] == "marine-squad/marine"
        assert log[9]["command"]["target_model"] == "grunt-lance/grunt"
        kinds = [e.kind for e in screen.session.battle.events]
        assert "sentry_fire" in kinds and "share" in kinds and "extra_action" in kinds
