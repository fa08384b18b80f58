"""Pilot tests of part 2 on the battle screen: a vehicle's ram and a caster's teleport,
each chosen from the actions list and confirmed in the command form."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.widgets import OptionList

from campaign.campaigns import Side, TrackStep, create_campaign
from campaign.rulesets.figwars3.samples import sample_forces
from saves.battle_file import load_battle_file
from saves.campaign_file import create_campaign_folder
from scenarios import builtin_scenarios
from tests.figwars3.test_pilot import action_labels, confirm, pick, settle
from tests.tui.playthrough import open_battle
from tests.tui.helpers import type_into
from tui.app import MusterApp
from tui.screens.battle import BattleScreen


def part2_campaign(folder: Path) -> Path:
    forces = {f.name: f for f in sample_forces()}
    sides = [Side("usc", "USC"), Side("circle", "Circle")]
    campaign = create_campaign(
        "Hedgehog and Circle", "figwars-3", sides, [TrackStep("one", "hold-the-bridge")], seed=5,
        activation_options={"turn_structure": "alternate_until_all_pass"}, scenario_ids=set(builtin_scenarios()),
    )  # fmt: skip
    create_campaign_folder(folder, campaign, {"usc": forces["USC Hedgehog Patrol"], "circle": forces["Arcane Circle"]})
    return folder


def prompts(app: MusterApp) -> list[str]:
    return action_labels(app)


def test_a_ram_and_a_teleport_on_the_battle_screen(tmp_path: Path) -> None:
    asyncio.run(_ram_and_teleport(tmp_path))


async def _ram_and_teleport(tmp_path: Path) -> None:
    folder = part2_campaign(tmp_path / "circle")
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_battle(pilot, app, folder)
        while any(p.startswith("Place ") for p in prompts(app)):  # rules revision 2: placement first (5)
            await pick(pilot, "Place ")
        done = set()
        for _ in range(12):
            options = prompts(app)
            if "ram" not in done and any(p.startswith("Activate Hedgehog") for p in options):
                await pick(pilot, "Activate Hedgehog")
                await pick(pilot, "hedgehog: ram")
                await type_into(pilot, "#fact-victims", "wardens/warden")
                await confirm(pilot)
                done.add("ram")
                await pick(pilot, "End activation")
            elif "teleport" not in done and any(p.startswith("Activate Archmage") for p in options):
                await pick(pilot, "Activate Archmage")
                await pick(pilot, "archmage: arcane teleportation")
                await confirm(pilot)
                done.add("teleport")
                if any(p.startswith("End activation") for p in prompts(app)):
                    await pick(pilot, "End activation")
            elif any(p.startswith("Activate") for p in options):
                await pick(pilot, next(p for p in options if p.startswith("Activate")))
                await pick(pilot, "End activation")
            if done == {"ram", "teleport"}:
                break
        assert done == {"ram", "teleport"}
        assert screen.session is not None
        log = load_battle_file(screen.session.path).log
        commands = [entry["command"] for entry in log]
        ram = next(c for c in commands if c["type"] == "ram")
        assert ram["facts"]["victims"] == ["wardens/warden"]
        cast = next(c for c in commands if c["type"] == "cast")
        assert cast["power"] == "teleport"
        kinds = [e.kind for e in screen.session.battle.events]
        assert "ram" in kinds and "teleport" in kinds
