"""A battle fights a frozen roster: the force file may change during the battle and the
post-battle step still writes the losses (issue 13)."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from campaign.campaigns import CampaignError, muster, plan_battle
from campaign.outcome import BattleOutcome, Casualty, SideOutcome, VPLine
from saves.battle_file import load_battle_file
from saves.campaign_file import finish_battle, load_campaign, start_battle
from saves.force_file import save_force
from scenarios import builtin_scenarios, scenarios_for
from scenarios.demo import write_demo

LIB = builtin_scenarios()


def _start(tmp_path: Path) -> Path:
    folder = write_demo(tmp_path / "demo")
    state = load_campaign(folder, scenarios_for(folder))
    plan = plan_battle(state.campaign, scenarios_for(folder))
    start_battle(state, plan, {s: muster(plan, f) for s, f in state.forces.items()})
    return folder


def _edit_humans(folder: Path, edit) -> None:  # type: ignore[no-untyped-def]
    """Change the Humans' force file in the middle of the battle, as the builder or a hand would."""
    state = load_campaign(folder, scenarios_for(folder))
    save_force(state.force_path("humans"), edit(state.forces["humans"]))


def _outcome() -> BattleOutcome:
    """The Assault Squad's Sergeant (its second entry) and 3 Assault Troops fell."""
    return BattleOutcome((
        SideOutcome("humans", casualties=(Casualty("Assault Squad", "Sergeant", 1, 1),
                                          Casualty("Assault Squad", "Assault Troop", 0, 3))),
        SideOutcome("aliens", (VPLine("Eliminated Assault Squad", 10),)),
    ))  # fmt: skip


def _finish(folder: Path, faces: int):  # type: ignore[no-untyped-def]
    """The post-battle step; the demo rolls recovery, every die here fails (a 1)."""
    state = load_campaign(folder, scenarios_for(folder))
    scenario = scenarios_for(folder)[state.campaign.step(state.campaign.position).scenario]
    return finish_battle(state, scenario, _outcome(), recovery_faces={"humans": [1] * faces, "aliens": []})


def test_the_battle_file_holds_the_mustered_units(tmp_path: Path) -> None:
    folder = _start(tmp_path)
    state = load_campaign(folder, LIB)
    battle = load_battle_file(folder / state.campaign.battle_in_progress)
    humans = next(s for s in battle.header.sides if s.id == "humans")
    assert humans.force is not None
    assert [u.name for u in humans.force.units] == [u.name for u in state.forces["humans"].units]


def test_an_element_renamed_mid_battle_still_takes_its_losses(tmp_path: Path) -> None:
    folder = _start(tmp_path)

    def rename(force):  # type: ignore[no-untyped-def]
        squad = force.units[0]
        sergeant = attrs.evolve(squad.elements[1], name="Sergeant Kovacs")
        return attrs.evolve(force, units=(attrs.evolve(squad, elements=(squad.elements[0], sergeant)), *force.units[1:]))

    _edit_humans(folder, rename)
    done = _finish(folder, 4)
    squad = load_campaign(folder, LIB).forces["humans"].units[0]
    assert [(e.name, e.lost) for e in squad.elements] == [("Assault Troop", 3), ("Sergeant Kovacs", 1)]
    assert done.entry.losses["humans"] == 4
    assert load_campaign(folder, LIB).campaign.battle_in_progress == ""


def test_a_unit_removed_mid_battle_is_reported_not_refused(tmp_path: Path) -> None:
    folder = _start(tmp_path)
    _edit_humans(folder, lambda force: attrs.evolve(force, units=force.units[1:]))
    done = _finish(folder, 0)  # nothing left to recover: the squad is gone from the file
    assert any("Assault Troop lost from Assault Squad not written" in e for e in done.events)
    assert done.entry.losses["humans"] == 0


def test_without_the_roster_a_renamed_element_is_still_refused(tmp_path: Path) -> None:
    """What the frozen roster fixes: post_battle on the edited force alone cannot place the loss."""
    from campaign.campaigns import post_battle

    folder = _start(tmp_path)
    _edit_humans(folder, lambda force: attrs.evolve(force, units=force.units[1:]))
    state = load_campaign(folder, scenarios_for(folder))
    scenario = scenarios_for(folder)[state.campaign.step(state.campaign.position).scenario]
    with pytest.raises(CampaignError, match="does not have"):
        post_battle(state.campaign, scenario, state.forces, _outcome())
