"""The activation scheme per scenario, with the campaign's as the default (issue 6)."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from campaign.campaigns import CampaignError, Scenario, Side, TrackStep, create_campaign, plan_battle
from saves.battle_file import load_battle_file
from saves.campaign_file import create_campaign_folder, load_campaign, start_battle
from saves.errors import SaveError
from scenarios import builtin_scenarios
from scenarios.demo import demo_campaign

PLAIN = Scenario("plain", "Plain", rounds=4)
CARDS = Scenario("decked", "Decked", rounds=4, activation="cards", activation_options={"card_order": "rank_major"})
SCEN = {s.id: s for s in (PLAIN, CARDS)}


def _campaign(**kw: object):
    return create_campaign(
        "T", "flat-out-war", [Side("a", "A"), Side("b", "B")],
        [TrackStep("one", "plain"), TrackStep("two", "decked")], scenario_ids=set(SCEN), **kw,  # type: ignore[arg-type]
    )  # fmt: skip


def test_the_campaign_default_applies_unless_the_scenario_names_a_scheme() -> None:
    campaign = _campaign(activation="cards", activation_options={"jokers": 2})
    first = plan_battle(campaign, SCEN)
    assert (first.activation, first.activation_options) == ("cards", {"jokers": 2})
    second = plan_battle(attrs.evolve(campaign, position="two"), SCEN)
    assert (second.activation, second.activation_options) == ("cards", {"card_order": "rank_major"})
    initiative = _campaign()
    assert plan_battle(initiative, SCEN).activation == "initiative"
    assert plan_battle(attrs.evolve(initiative, position="two"), SCEN).activation == "cards"


def test_bad_activation_options_are_refused_with_the_reason() -> None:
    with pytest.raises(CampaignError, match="card_order must be one of"):
        _campaign(activation="cards", activation_options={"card_order": "sideways"})
    bad = {"plain": PLAIN, "decked": attrs.evolve(CARDS, activation_options={"jokers": 7})}
    with pytest.raises(CampaignError, match="scenario 'decked'"):
        plan_battle(attrs.evolve(_campaign(), position="two"), bad)


def test_the_battle_file_records_the_scheme_the_plan_chose(tmp_path: Path) -> None:
    campaign, forces = demo_campaign()
    library = builtin_scenarios()
    first = library[campaign.step(campaign.position).scenario]
    decked = attrs.evolve(first, activation="cards", activation_options={"card_order": "rank_major"})
    create_campaign_folder(tmp_path / "c", campaign, forces, scenarios=[decked])
    folder = load_campaign(tmp_path / "c", library)
    plan = plan_battle(folder.campaign, {**library, **folder.scenarios})
    path = start_battle(folder, plan, {side.id: forces[side.id] for side in campaign.sides})
    header = load_battle_file(path).header
    assert (header.activation, header.activation_options) == ("cards", {"card_order": "rank_major"})


def test_a_hand_edited_campaign_with_a_bad_scheme_option_names_the_key(tmp_path: Path) -> None:
    campaign, forces = demo_campaign()
    create_campaign_folder(tmp_path / "c", campaign, forces)
    toml = tmp_path / "c" / "campaign.toml"
    # a table must come after the top-level keys, so the options go at the end
    text = toml.read_text().replace('activation = "initiative"', 'activation = "cards"', 1) + "\n[activation_options]\njokers = 9\n"
    toml.write_text(text)
    with pytest.raises(SaveError) as err:
        load_campaign(tmp_path / "c", builtin_scenarios())
    assert "activation_options" in str(err.value) and "jokers" in str(err.value)
    assert toml.read_text() == text
