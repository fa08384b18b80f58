"""The demo campaign played through the real Flat Out War engine, seeded dice, end to end.

Each battle is started from its battle file, played by the deterministic autoplayer
with every log entry appended as it happens, then handed to the post-battle step.
Checks: the ledger holds exactly the engine's VP lines, the survivors in the force
files match the outcome's casualties less recoveries, the branch follows the winner,
and every saved log replays to the recorded digest.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from campaign.campaigns import muster, plan_battle, recovery_dice_needed
from saves.battle_file import append_log, load_battle_file
from saves.campaign_file import finish_battle, load_campaign, start_battle
from scenarios import builtin_scenarios
from scenarios.demo import write_demo

engine = pytest.importorskip("campaign.engine")
autoplay = pytest.importorskip("campaign.rulesets.flat_out_war.engine.autoplay")
replay = pytest.importorskip("tui.cli.replay")

LIB = builtin_scenarios()


def _alive(force) -> int:
    return sum(e.alive for u in force.units for e in u.elements)


def test_demo_campaign_with_real_battles(tmp_path: Path) -> None:
    folder = write_demo(tmp_path / "demo", seed=11)
    steps = []
    for number in (1, 2, 3):
        state = load_campaign(folder, LIB)
        plan = plan_battle(state.campaign, LIB)
        steps.append(plan.step)
        path = start_battle(state, plan, {s: muster(plan, f) for s, f in state.forces.items()})
        battle = engine.Battle.start(replay.battle_setup(load_battle_file(path)))
        player = autoplay.AutoPlayer(plan.seed)
        written = 0
        while isinstance(battle.pending, engine.Decision):
            battle.apply(player.answer(battle))
            for entry in battle.log_dicts()[written:]:  # save after every command: append only
                append_log(path, entry)
            written = len(battle.log_dicts())
        outcome = battle.outcome()
        needed = recovery_dice_needed(state.campaign, state.forces, outcome)
        rng = random.Random(plan.seed)
        faces = {side: [int(rng.random() * 6) + 1 for _ in range(n)] for side, n in needed.items()}
        before = {s: _alive(f) for s, f in state.forces.items()}
        done = finish_battle(state, plan.scenario, outcome, recovery_faces=faces)

        entry = done.entry
        assert entry.battle == number and entry.winner == (outcome.winner() or "")
        ledger = [(l.side, l.vp, l.reason) for l in done.campaign.ledger if l.battle == number]
        assert ledger == [(s.side, v.vp, v.label) for s in outcome.sides for v in s.vp_lines]
        after = load_campaign(folder, LIB)
        for side in before:
            lost = sum(min(c.lost, 10**6) for c in outcome.side(side).casualties)
            assert before[side] - _alive(after.forces[side]) == entry.losses[side] == lost - entry.recovered[side]
        saved = load_battle_file(path)
        assert saved.result is not None and saved.result.digest == outcome.digest
        assert engine.Battle.replay(replay.battle_setup(saved), saved.log).digest() == outcome.digest
        if number == 1:
            assert done.campaign.position == ("bridge" if entry.winner == "humans" else "rout")
    final = load_campaign(folder, LIB).campaign
    assert final.finished and steps[0] == "landing" and steps[2] == "hive"
    assert [h.step for h in final.history] == steps
