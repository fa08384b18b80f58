"""A whole three-battle demo campaign through the Python API, with scripted outcomes.

The outcomes are written by hand the way a ruleset's `outcome()` would hand them over;
the checks are the campaign's: VP ledger, survivors, recovery rolls, the branch taken,
reinforcements, history and the overall winner, on disk and after reloading.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from campaign.campaigns import campaign_winner, muster, plan_battle, recovery_dice_needed, standings
from campaign.outcome import BattleOutcome, Casualty, SideOutcome, VPLine
from saves.battle_file import load_battle_file
from saves.campaign_file import finish_battle, load_campaign, start_battle
from scenarios import builtin_scenarios
from scenarios.demo import write_demo

LIB = builtin_scenarios()


def _play(folder: Path, outcome: BattleOutcome, faces: dict[str, list[int]], **kw: object):
    state = load_campaign(folder, LIB)
    plan = plan_battle(state.campaign, {**LIB, **state.scenarios})
    mustered = {sid: muster(plan, force) for sid, force in state.forces.items()}
    path = start_battle(state, plan, mustered)
    assert load_battle_file(path).header.sides[0].force == mustered["humans"]
    assert recovery_dice_needed(state.campaign, state.forces, outcome) == {k: len(v) for k, v in faces.items()}
    return plan, finish_battle(state, plan.scenario, outcome, recovery_faces=faces, **kw)


def test_demo_campaign_three_battles(tmp_path: Path) -> None:
    folder = write_demo(tmp_path / "demo")

    # Battle 1, Hot Landing: the Ripper Swarm (24 x 10 points) is wiped out: 60 VP to the
    # humans, who also lose 3 Assault Troops (one recovers on a 4+) and declare the landing zone.
    one = BattleOutcome(
        (
            SideOutcome("humans", (VPLine("Eliminated Ripper Swarm (25% of 240)", 60),),
                        casualties=(Casualty("Assault Squad", "Assault Troop", 0, 3),)),
            SideOutcome("aliens", (), ("Ripper Swarm",), (Casualty("Ripper Swarm", "Alien Ripper", 0, 24),)),
        ),
        rounds_played=5,
    )  # fmt: skip
    plan, done = _play(folder, one, {"humans": [6, 2, 1], "aliens": [1] * 23 + [5]},
                       declared_objectives={"humans": ["Landing zone"]})  # fmt: skip
    assert plan.file == "battles/01-demo-landing.toml" and plan.number == 1
    assert done.entry.vps == {"humans": Fraction(110), "aliens": Fraction(0)}
    assert done.entry.winner == "humans" and done.campaign.position == "bridge"  # the branch
    assert done.entry.losses == {"humans": 2, "aliens": 23} and done.entry.recovered == {"humans": 1, "aliens": 1}

    state = load_campaign(folder, LIB)
    squad = state.forces["humans"].unit("Assault Squad")
    assert squad.elements[0].lost == 2 and squad.elements[0].alive == 7
    assert state.forces["aliens"].unit("Ripper Swarm").elements[0].alive == 1
    # reinforcements: 50 per battle plus 1 per VP
    assert state.campaign.side("humans").reinforcements == 160
    assert state.campaign.side("aliens").reinforcements == 50

    # Battle 2, The Last Bridge: the aliens hold it (a declared strategic win) though the
    # humans score more VPs; one lone Ripper takes the field and dies; a Terror is hurt.
    two = BattleOutcome(
        (
            SideOutcome("humans", (VPLine("Eliminated Ripper Swarm (25% of 10)", "5/2"),),
                        casualties=(Casualty("Tactical Squad", "Tactical Troop", 0, 8),)),
            SideOutcome("aliens", (VPLine("Eliminated Hover Tanks (25% of 176)", 44, "unit"),), ("Ripper Swarm",),
                        (Casualty("Ripper Swarm", "Alien Ripper", 0, 1), Casualty("Terrors", "Alien Terror", 0, 0, {"die": "d8", "scar": "acid"}))),
        ),
        strategic_winner="aliens",
    )  # fmt: skip
    plan, done = _play(folder, two, {"humans": [1] * 8, "aliens": [2]},
                       declared_objectives={"humans": ["Bridge secured"]})  # fmt: skip
    assert plan.scenario.id == "demo-bridge" and plan.file == "battles/02-demo-bridge.toml"
    assert done.entry.winner == "aliens" and done.entry.how == "strategic"
    assert done.entry.vps == {"humans": Fraction(205, 2), "aliens": Fraction(44)}
    assert done.campaign.position == "hive"
    state = load_campaign(folder, LIB)
    terror = state.forces["aliens"].unit("Terrors").elements[0]
    assert terror.state == {"scar": "acid"}  # "die" heals between battles, the scar stays
    assert state.forces["humans"].unit("Tactical Squad").elements[0].alive == 0
    assert state.forces["aliens"].unit("Ripper Swarm").elements[0].alive == 0

    # Battle 3, Into the Hive: wiped-out units stay home; a draw on VPs.
    plan = plan_battle(state.campaign, LIB)
    mustered = muster(plan, state.forces["aliens"])
    assert "Ripper Swarm" not in [u.name for u in mustered.units]
    assert [e.count for e in mustered.unit("Terrors").elements] == [2]
    three = BattleOutcome((SideOutcome("humans", (VPLine("x", 30),)), SideOutcome("aliens", (VPLine("y", 30),))))
    plan, done = _play(folder, three, {"humans": [], "aliens": []})
    assert done.entry.winner == "" and done.campaign.finished

    final = load_campaign(folder, LIB).campaign
    assert [h.scenario for h in final.history] == ["demo-landing", "demo-bridge", "demo-hive"]
    assert final.totals() == {"humans": Fraction(110 + Fraction(205, 2) + 30), "aliens": Fraction(74)}
    assert [s.side for s in standings(final)] == ["humans", "aliens"]
    assert campaign_winner(final) == "humans"
    assert sum(1 for line in final.ledger if line.battle == 1) == 2  # unit VPs + the declared objective
    for entry in final.history:
        battle = load_battle_file(folder / entry.file)
        assert battle.result is not None and battle.result.summary == entry.summary
