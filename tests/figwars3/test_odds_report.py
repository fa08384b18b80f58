"""FigWars 3 odds through the core's report (`muster odds`, the battle screen) and the
unit display hook."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from campaign.engine.odds import odds_report
from campaign.rulesets.figwars3.attack import exact_odds
from tests.figwars3.test_battle import setup, start
from tui.cli import main


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("fw3")
    assert main(["samples", "--ruleset", "figwars-3", "--out", str(out)]) == 0
    return out / "figwars-3"


def test_muster_odds_ranged_per_model(samples: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["odds", "--attacker", f"{samples / 'usc-strike-group.toml'}:ODST Team",
                 "--target", f"{samples / 'revenant-host.toml'}:Grunt Lance", "--action", "ranged",
                 "--fact", "range_band=long", "--fact", "aim=true", "--json", "--exact"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    models = data["models"]
    assert [m["model"] for m in models][:4] == ["ODST"] * 4 and len(models) == 6
    # ODST: TQ 2 + battle rifle 2 - long 1 + aim 1 = 4 dice against the Grunt's DEF 2
    assert (models[0]["attack_dice"], models[0]["defence_dice"]) == (4, 2)
    assert set(models[0]) >= {"expected_dp", "p_pinned", "expected_counter_dp"}
    assert models[0]["expected_counter_dp"] == "0/1"
    names = [o["name"] for o in data["outcomes"]]
    assert names == ["DP inflicted", "pinned"]


def test_muster_odds_melee_counts_each_further_attacker(samples: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["odds", "--attacker", f"{samples / 'gothic-imperium-battle-group.toml'}:Guard Squad",
                 "--target", f"{samples / 'xenomorph-bugs.toml'}:Bug Brood", "--action", "melee", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    dice = [m["attack_dice"] for m in data["models"]]
    assert dice[:3] == [3, 4, 5]  # DEF 2 + bayonet 1, then +1d, +2d for the 2nd and 3rd
    assert data["expected_counter_dp"] > 0
    assert [o["name"] for o in data["outcomes"]] == ["DP inflicted", "pinned", "counter-attack DP"]


def test_muster_odds_refuses_plainly(samples: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["odds", "--attacker", f"{samples / 'usc-strike-group.toml'}:ODST Team",
            "--target", f"{samples / 'revenant-host.toml'}:Grunt Lance"]
    assert main([*args, "--action", "cast"]) == 2
    assert "ranged and melee" in capsys.readouterr().err
    assert main([*args, "--action", "ranged", "--fact", "cover=lots"]) == 2
    assert "cover" in capsys.readouterr().err


def test_battle_odds_match_the_opposed_roll_and_placement() -> None:
    battle = start(setup())
    battle.apply(battle.command(battle.pending.legal[0]))
    shoot = next(s for s in battle.pending.legal if s.type == "shoot" and s.odds)
    command = battle.command(shoot, facts={"range_band": "long"})
    report = odds_report(battle, command)
    opposed = battle.rules.opposed_for(battle.state, command)
    weapon = battle.rules.shot(battle.state, command)[3]
    expected = exact_odds(opposed).expected_dp
    if not (weapon.grenade or weapon.indirect):
        assert report.outcome("DP inflicted").mean == expected
    else:
        assert report.outcome("DP inflicted").mean < expected
    assert 0 <= report.outcome("pinned").p <= 1


def test_grenade_odds_include_the_placement_roll() -> None:
    battle = start(setup(a="Revenant Host", b="USC Strike Group"))
    rules, state = battle.rules, battle.state
    grunt = next(u for u in state.units if u.name == "Grunt Lance")
    marines = next(u for u in state.units if u.name == "Marine Squad")
    command = rules.odds_query(state, grunt.id, marines.id, "ranged", {"weapon": "Plasma Grenade"})
    model = grunt.elements[0].id
    single = rules.command_from({**command.to_dict(), "model": model})
    plain = exact_odds(rules.opposed_for(state, single))
    placed = rules.odds(state, single).outcome("DP inflicted").mean
    assert placed == plain.expected_dp * Fraction(2, 3)  # TQ 1: one die lands on 3+


def test_describe_unit_shows_statuses_and_actions() -> None:
    battle = start(setup())
    battle.apply(battle.command(battle.pending.legal[0]))
    unit_id = battle.pending.legal[0].params["unit"]
    unit = battle.state.unit(unit_id)
    first = unit.elements[0]
    first.data.update(pins=1, stunned=True)
    unit.data.update(status="falling_back", pl=2, marker=True)
    view = battle.rules.describe_unit(battle.state, unit_id)
    assert view.status[:3] == ("falling back", "PL 2", "morale check due")
    assert "pinned x1" in view.elements[0] and "stunned" in view.elements[0] and "2 act," in view.elements[0]
