"""Mustering within the scenario's points limit: refused with the reason, or let through by an
override whose reason is logged in the battle file (issue 13)."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from campaign.campaigns import CampaignError, check_muster, muster, plan_battle, ruleset_price
from campaign.rulesets import get_ruleset
from saves.battle_file import load_battle_file
from saves.campaign_file import load_campaign, start_battle
from scenarios import scenarios_for
from scenarios.demo import demo_campaign, write_demo


def _plan(limit: int):  # type: ignore[no-untyped-def]
    campaign, forces = demo_campaign()
    library = scenarios_for(None)
    plan = plan_battle(campaign, library)
    return campaign, forces, attrs.evolve(plan, scenario=attrs.evolve(plan.scenario, points_limit=limit))


def test_within_the_limit_musters() -> None:
    campaign, forces, plan = _plan(600)
    price = ruleset_price(campaign)
    picked = muster(plan, forces["humans"], ["Tactical Squad", "Heavy Squad"], price)
    check = check_muster(plan, picked, price)
    assert check.ok and check.total == 248 + 208 and check.limit == 600


def test_over_the_limit_is_refused_with_the_reason() -> None:
    campaign, forces, plan = _plan(600)
    with pytest.raises(CampaignError) as refused:
        muster(plan, forces["humans"], None, ruleset_price(campaign))
    message = str(refused.value)
    assert "Humans musters 996 points, over the scenario's limit of 600 by 396" in message
    assert "an override with a reason lets it muster" in message


def test_error_findings_are_refused_naming_unit_and_element() -> None:
    campaign, forces, plan = _plan(2000)
    ruleset = get_ruleset("flat-out-war", "special-ops")
    squad = forces["humans"].units[0]
    odd = attrs.evolve(squad.elements[1], move=3)
    force = attrs.evolve(forces["humans"], units=(attrs.evolve(squad, elements=(squad.elements[0], odd)), *forces["humans"].units[1:]))
    check = check_muster(plan, muster(plan, force, override="checking"), ruleset_price(campaign), ruleset.validate)
    assert not check.ok
    assert any(r.startswith("Assault Squad / Sergeant: MOVE must be a multiple of 2") for r in check.refusals)
    with pytest.raises(CampaignError, match="Assault Squad / Sergeant: MOVE"):
        muster(plan, force, None, ruleset_price(campaign), findings=ruleset.validate)
    with pytest.raises(CampaignError):
        muster(plan, force, None, ruleset_price(campaign), findings=ruleset.validate, override="   ")  # blank is no reason


def test_an_override_musters_and_is_logged_in_the_battle_file(tmp_path: Path) -> None:
    folder = write_demo(tmp_path / "demo")
    library = scenarios_for(folder)
    state = load_campaign(folder, library)
    plan = plan_battle(state.campaign, library)
    plan = attrs.evolve(plan, scenario=attrs.evolve(plan.scenario, points_limit=600))
    price = ruleset_price(state.campaign)
    reason = "house rule: the Humans defend with everything"
    mustered = {
        "humans": muster(plan, state.forces["humans"], None, price, override=reason),
        "aliens": muster(plan, state.forces["aliens"], ["Ripper Swarm"], price),
    }
    path = start_battle(state, plan, mustered, overrides={"humans": reason})
    sides = {s.id: s for s in load_battle_file(path).header.sides}
    assert sides["humans"].override == reason and sides["aliens"].override == ""
    assert "override = " in path.read_text()
