"""A two-battle FigWars 3 campaign through the Python API: battles played by the engine
with the campaign's auto dice (Firefight, then Seize the Uplinks), the dead written back to the forces, survivors healed
(`dp` heals), the second battle fought by the survivors."""

from __future__ import annotations

from pathlib import Path

from campaign.campaigns import CampaignRules, Side, TrackStep, create_campaign, muster, plan_battle, recovery_dice_needed
from campaign.engine.battle import Battle
from saves.battle_file import load_battle_file
from saves.battle_replay import battle_setup
from saves.campaign_file import create_campaign_folder, finish_battle, load_campaign, start_battle
from scenarios import builtin_scenarios
from campaign.rulesets.figwars3.samples import sample_forces
from tests.figwars3.test_battle import bot

LIB = builtin_scenarios()


def _campaign(folder: Path) -> Path:
    forces = {f.name: f for f in sample_forces()}
    sides = [Side("imperium", "Imperium"), Side("bugs", "Bugs")]
    track = [TrackStep("one", "fw-firefight"), TrackStep("two", "fw-uplink")]  # the FigWars scenarios
    campaign = create_campaign("Bug Hunt", "figwars-3", sides, track, seed=9, rules=CampaignRules(recovery_rolls=True),
                               activation_options={"turn_structure": "alternate_until_all_pass"},
                               scenario_ids=set(LIB))
    create_campaign_folder(folder, campaign, {"imperium": forces["Gothic Imperium Battle Group"], "bugs": forces["Xenomorph Bugs"]})
    return folder


def _fight(folder: Path) -> tuple[object, object]:
    state = load_campaign(folder, LIB)
    plan = plan_battle(state.campaign, {**LIB, **state.scenarios})
    mustered = {sid: muster(plan, force) for sid, force in state.forces.items()}
    path = start_battle(state, plan, mustered)
    battle = Battle.start(battle_setup(load_battle_file(path)))
    bot(battle)
    outcome = battle.outcome()
    needed = recovery_dice_needed(state.campaign, state.forces, outcome)
    faces = {side: [6 if i % 2 == 0 else 1 for i in range(n)] for side, n in needed.items()}  # every other one recovers
    return outcome, finish_battle(state, plan.scenario, outcome, recovery_faces=faces)


def test_two_battles_carry_the_dead_and_heal_the_living(tmp_path: Path) -> None:
    folder = _campaign(tmp_path / "hunt")
    first, done = _fight(folder)
    lost = {s.side: sum(c.lost for c in s.casualties) for s in first.sides}
    assert sum(lost.values()) > 0
    state = load_campaign(folder, LIB)
    for side_id, force in state.forces.items():
        recovered = done.entry.recovered.get(side_id, 0)
        assert sum(el.lost for u in force.units for el in u.elements) == lost[side_id] - recovered
    assert state.campaign.position == "two" and len(state.campaign.history) == 1
    alive_after_one = {sid: sum(el.alive for u in f.units for el in u.elements) for sid, f in state.forces.items()}
    second, _ = _fight(folder)
    state = load_campaign(folder, LIB)
    assert [h.scenario for h in state.campaign.history] == ["fw-firefight", "fw-uplink"]
    # the second battle fielded exactly the survivors of the first
    fielded = load_battle_file(folder / state.campaign.history[1].file).header.sides
    assert {side.id: sum(el.alive for u in side.force.units for el in u.elements) for side in fielded} == alive_after_one
    assert {s.side for s in second.sides} == {"imperium", "bugs"}
