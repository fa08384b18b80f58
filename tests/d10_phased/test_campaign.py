"""A d10 campaign of the three victory conditions through the Python API: each battle
started from its battle file, played on the phased turn (the ruleset's default) or under
the card deck by a bot with every log entry appended, then handed to the post-battle step;
each saved log replays to its digest."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest

from campaign.campaigns import CampaignRules, Side, TrackStep, create_campaign, muster, plan_battle, recovery_dice_needed
from campaign.engine import Battle, Decision
from campaign.rulesets import get_ruleset
from saves.battle_file import append_log, load_battle_file
from saves.campaign_file import create_campaign_folder, finish_battle, load_campaign, start_battle
from scenarios import builtin_scenarios
from tests.d10_phased import cardplay, phasedplay
from tui.cli.replay import battle_setup

LIB = builtin_scenarios()
TRACK = (
    TrackStep("position", "battle-of-position"),
    TrackStep("markers", "four-markers"),
    TrackStep("death", "sudden-death"),
)


@pytest.mark.parametrize("activation", ["phased", "cards"])
def test_a_campaign_of_the_three_victory_conditions(activation: str, tmp_path: Path) -> None:
    step = phasedplay.step if activation == "phased" else cardplay.step
    samples = {f.name: f for f in get_ruleset("d10-phased").sample_forces()}
    forces = {"legion": samples["Iron Legion"], "horde": samples["Gnasher Horde"]}
    campaign = create_campaign(
        "d10: Three Fields",
        "d10-phased",
        [Side("legion", "Legion"), Side("horde", "Horde")],
        TRACK,
        activation=activation,
        rules=CampaignRules(recovery_rolls=True),
        seed=16,
        scenario_ids=set(LIB),
    )
    folder = create_campaign_folder(tmp_path / "three-fields", campaign, forces)
    reasons = play_through(folder, step, activation)
    final = load_campaign(folder, LIB).campaign
    assert final.finished and [h.step for h in final.history] == ["position", "markers", "death"]
    assert "Q1" in reasons[0] and "markers held" in reasons[1] and "half" in reasons[2]
    assert attrs.has(type(final))


def play_through(folder: Path, step: Callable[[Battle], None], activation: str = "phased") -> list[str]:
    """Play every battle of a campaign folder by the bot through the API, appending each log
    entry to the battle file, then the post-battle step; each saved log replays to its
    digest. Returns the verdicts' reasons."""
    reasons = []
    number = 0
    while not load_campaign(folder, LIB).campaign.finished:
        number += 1
        state = load_campaign(folder, LIB)
        plan = plan_battle(state.campaign, LIB)
        path = start_battle(state, plan, {s: muster(plan, f) for s, f in state.forces.items()})
        battle = Battle.start(battle_setup(load_battle_file(path)))
        assert battle.setup.activation == activation
        written = 0
        while isinstance(battle.pending, Decision):
            step(battle)
            for entry in battle.log_dicts()[written:]:
                append_log(path, entry)
            written = len(battle.log_dicts())
        game = battle.rules.game(battle.state)  # type: ignore[attr-defined]
        assert game.victory == plan.scenario.victory and game.verdict is not None, battle.state.end_reason
        reasons.append(game.verdict.reason)
        outcome = battle.outcome()
        needed = recovery_dice_needed(state.campaign, state.forces, outcome)
        rng = random.Random(plan.seed)
        faces = {side: [int(rng.random() * 10) + 1 for _ in range(n)] for side, n in needed.items()}
        done = finish_battle(state, plan.scenario, outcome, recovery_faces=faces)
        assert done.entry.battle == number and done.entry.winner == (game.verdict.winner or "")
        saved = load_battle_file(path)
        assert saved.result is not None and Battle.replay(battle_setup(saved), saved.log).digest() == outcome.digest
    return reasons
