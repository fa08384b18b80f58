"""The built-in scenario library: every file loads, is canonical, and the victory types are covered."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.campaigns import Objective, Scenario
from saves.errors import SaveError
from saves.scenario_file import dump_scenario, load_scenario, parse_scenario
from scenarios import LIBRARY, builtin_scenarios, scenarios_for
from scenarios.loader import DEMO

FILES = sorted(LIBRARY.glob("*.toml")) + sorted(DEMO.glob("*.toml"))


def test_at_least_eight_library_scenarios_cover_every_victory_type() -> None:
    library = [load_scenario(p) for p in sorted(LIBRARY.glob("*.toml"))]
    assert len(library) >= 8
    assert {s.victory for s in library} == {"strategic", "vp", "position", "objectives", "sudden-death"}
    names = {s.id for s in library}
    assert {"hold-the-bridge", "breakthrough", "rescue", "last-stand"} <= names
    d10 = {s.victory: s for s in library if "d10-phased" in s.rulesets}
    assert d10["position"].rounds == 8 and d10["objectives"].rounds == 8
    assert len(d10["objectives"].objectives) == 4 and d10["sudden-death"].rounds is None


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_files_are_canonical(path: Path) -> None:
    scenario = load_scenario(path)
    assert path.stem == scenario.id
    assert dump_scenario(scenario) == path.read_text()


def test_meeting_engagement_objective_vps() -> None:
    s = builtin_scenarios()["meeting-engagement"]
    assert s.victory == "vp" and s.objective("Hill").vp == 50 and s.objective("Crossroads").vp == 25


def test_campaign_scenarios_win_over_builtins(tmp_path: Path) -> None:
    own = tmp_path / "scenarios"
    own.mkdir()
    mine = Scenario("rescue", "Our Rescue", rounds=3)
    (own / "rescue.toml").write_text(dump_scenario(mine))
    (own / "ambush.toml").write_text(dump_scenario(Scenario("ambush", "Ambush", victory="strategic", rounds=4)))
    found = scenarios_for(tmp_path)
    assert found["rescue"] == mine and found["ambush"].name == "Ambush" and "last-stand" in found


def test_two_files_with_one_id_are_refused(tmp_path: Path) -> None:
    own = tmp_path / "scenarios"
    own.mkdir()
    for name in ("a", "b"):
        (own / f"{name}.toml").write_text(dump_scenario(Scenario("same", "Same", rounds=3)))
    with pytest.raises(SaveError, match="also used by a.toml"):
        scenarios_for(tmp_path)


BAD = [
    ('id = "Bad Id"', "not a scenario id"),
    ('victory = "luck"', "'luck' is not allowed"),
    ("rounds = 0", "not a number of rounds"),
    ("deploy_within = 0", "not a distance in inches"),
    ("points_limit = -5", "not a points limit"),
    ('objectives = [{ name = "A" }, { name = "A" }]', "appears twice"),
    ('objectives = [{ name = "A", vp = -1 }]', "negative VPs"),
    ('roles = ["x"]\nobjectives = [{ name = "A", side = "y" }]', "not one of the roles"),
    ('objectives = [{ name = "A", vp = 1.5 }]', "fraction in quotes"),
    ("colour = 3", "unknown key 'colour'"),
]


@pytest.mark.parametrize("line,words", BAD)
def test_bad_scenarios(line: str, words: str) -> None:
    base = {"format": '"muster/1"', "kind": '"scenario"', "id": '"x"', "name": '"X"', "rounds": "4"}
    key = line.split("=")[0].strip()
    lines = [f"{k} = {v}" for k, v in base.items() if k != key] + [line]
    with pytest.raises(SaveError) as err:
        parse_scenario("\n".join(lines) + "\n", "mine.toml")
    assert words in str(err.value) and "mine.toml" in str(err.value)


names = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=10)


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    roles = tuple(draw(st.lists(st.sampled_from(["attacker", "defender", "rescuer"]), unique=True, max_size=2)))
    objectives = tuple(
        Objective(n, draw(st.fractions(0, 500, max_denominator=4)), draw(st.sampled_from(["", *roles])), draw(names))
        for n in draw(st.lists(names, unique=True, max_size=3))
    )
    rounds = draw(st.none() | st.integers(1, 12))
    return Scenario(
        draw(st.from_regex(r"[a-z0-9][a-z0-9-]{0,12}", fullmatch=True)), draw(names), draw(names),
        draw(st.sampled_from(["strategic", "vp", "position", "objectives", "sudden-death"])),
        draw(st.none() | st.integers(1, 5000)), rounds, draw(names) if rounds is None else draw(st.just("") | names),
        roles, objectives, draw(names), tuple(draw(st.lists(names, max_size=2))),
        tuple(draw(st.lists(st.sampled_from(["flat-out-war", "d10-phased"]), unique=True))),
        deploy_within=draw(st.none() | st.integers(1, 24)),
    )  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(scenarios())
def test_scenario_round_trip(scenario: Scenario) -> None:
    text = dump_scenario(scenario)
    assert parse_scenario(text) == scenario
    assert dump_scenario(parse_scenario(text)) == text


def test_the_ids_and_the_named_scenarios_agree_with_the_whole_library(tmp_path: Path) -> None:
    from scenarios import builtin_scenario_ids, scenarios_named

    library = builtin_scenarios()
    assert builtin_scenario_ids() == set(library)  # from the file names alone
    assert scenarios_named(None, ["demo-landing", "rescue", "no-such"]) == {
        "demo-landing": library["demo-landing"], "rescue": library["rescue"],
    }  # fmt: skip
    own = tmp_path / "scenarios"
    own.mkdir()
    mine = Scenario("rescue", "Our Rescue", "vp", rounds=3)
    (own / "ours.toml").write_text(dump_scenario(mine))
    assert scenarios_named(tmp_path, ["rescue", "demo-landing"]) == {
        "rescue": mine, "demo-landing": library["demo-landing"],
    }  # fmt: skip
    assert scenarios_for(tmp_path)["rescue"] == mine  # the folder's own wins, as there
