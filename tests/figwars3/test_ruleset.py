"""figwars-3 through the plug-in contract: found by the registry, samples written as force
files that load back byte for byte, validation through the ruleset, battles by id with a
d8 initiative."""

from __future__ import annotations

from pathlib import Path

from campaign.engine.battle import Battle
from campaign.engine.pending import RollRequest
from campaign.rulesets import get_ruleset, ruleset_class, ruleset_ids
from saves.force_file import dump_force, load_force
from tui.cli import main
from tests.figwars3.test_battle import bot, setup


def test_registered_and_found_by_id_and_alias() -> None:
    assert "figwars-3" in ruleset_ids()
    assert ruleset_class("fw3").id == "figwars-3"
    ruleset = get_ruleset("figwars-3", printed_def=True)
    assert ruleset.options["printed_def"] is True
    assert ruleset.battle_rules().initiative.die == 8


def test_no_points_but_findings() -> None:
    ruleset = get_ruleset("figwars-3")
    rebels = next(f for f in ruleset.sample_forces() if f.name == "Rebel Cell")
    cost = ruleset.price(rebels)
    assert cost.total == 0 and [f.rule for f in cost.findings] == ["PR-11"] * 3


def test_samples_cli_writes_files_that_round_trip(tmp_path: Path) -> None:
    assert main(["samples", "--ruleset", "figwars-3", "--out", str(tmp_path)]) == 0
    files = sorted((tmp_path / "figwars-3").glob("*.toml"))
    assert len(files) == 11  # 17.4-17.8, the vehicle, mecha and caster forces
    for path in files:
        text = path.read_text()
        force = load_force(path)
        assert dump_force(force) == text
        assert force.ruleset == "figwars-3"


def test_battle_by_id_rolls_d8_initiative_and_replays() -> None:
    s = setup(seed=21, rounds=2, dice="table")
    battle = Battle.start(s)
    first = battle.pending
    assert isinstance(first, RollRequest) and first.die == 8  # the extra-action roll
    while isinstance(battle.pending, RollRequest):
        request = battle.pending
        if "initiative" in request.purpose:
            assert request.die == 8
        battle.roll()
    auto = Battle.start(setup(seed=21, rounds=2))
    bot(auto)
    again = Battle.replay(setup(seed=21, rounds=2), auto.log_dicts())
    assert again.digest() == auto.digest()
