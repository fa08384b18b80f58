"""FigWars 3 scenarios (PR-26): the built-in ones, their victory conditions and turn
limits played by the engine, models down at 0 DP when a battle ends (option
down_at_end), and the demo campaign (`muster new DIR --demo figwars-3`)."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from campaign.campaigns.after_battle import post_battle
from campaign.engine.battle import Battle
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import Decision
from campaign.engine.setup import BattleSetup, SideSetup
from campaign.rulesets.figwars3 import victory
from campaign.rulesets.figwars3.play import FigWarsRules
from scenarios import builtin_scenarios
from scenarios.demo import demo_for
from tests.figwars3.test_battle import ALTERNATE, bot, sample

LIB = builtin_scenarios()
FW = {sid: s for sid, s in LIB.items() if "figwars-3" in s.rulesets and sid.startswith("fw-")}  # part 1's


def _setup(scenario_id: str, seed: int = 7, a: str = "USC Strike Group", b: str = "Revenant Host", **options: object) -> BattleSetup:
    scenario = LIB[scenario_id]
    return BattleSetup(
        ruleset="figwars-3",
        sides=(SideSetup("a", "Side A", sample(a)), SideSetup("b", "Side B", sample(b))),
        scenario=scenario,
        activation=scenario.activation,
        activation_options=dict(scenario.activation_options),
        options=dict(options),
        seed=seed,
    )


def test_at_least_three_figwars_scenarios_with_their_own_conditions_and_turn_limits() -> None:
    assert len(FW) >= 3
    assert {s.victory for s in FW.values()} == {"vp", "sudden-death", "objectives"}
    for s in FW.values():
        assert s.rounds and s.end_condition and s.deployment, s.id
        # FigWars sides alternate unit by unit until every unit has gone (6.2)
        assert (s.activation, s.activation_options) == ("initiative", ALTERNATE), s.id


def test_sudden_death_verdicts() -> None:
    assert victory.sudden_death({"a": 10, "b": 6}, {"a": 4, "b": 2}) is None
    assert victory.sudden_death({"a": 10, "b": 6}, {"a": 4, "b": 3}) == victory.Verdict("a", "b lost half its models")
    assert victory.sudden_death({"a": 10, "b": 6}, {"a": 5, "b": 3}).winner == victory.DRAW
    held = victory.held_objectives({"West": "a", "East": "b", "Centre": "a"}, ["West", "East", "Centre"], ["a", "b"])
    assert victory.most_objectives(held) == victory.Verdict("a", "a holds 2 objective(s)")
    assert victory.most_objectives({"a": ["x"], "b": ["y"]}).winner == victory.DRAW
    with pytest.raises(ValueError, match="no objective"):
        victory.held_objectives({"North": "a"}, ["West"], ["a", "b"])
    with pytest.raises(ValueError, match="not a side"):
        victory.held_objectives({"West": "c"}, ["West"], ["a", "b"])


def test_breaking_point_ends_when_a_side_has_lost_half_its_models() -> None:
    verdicts = 0
    for seed in (3, 7, 11):
        battle = Battle.start(_setup("fw-breaking-point", seed=seed), rules=FigWarsRules())
        bot(battle)
        outcome = battle.outcome()
        verdict = battle.state.data["verdict"]
        lost = battle.rules._lost(battle.state)
        started = battle.state.data["started"]
        broken = [s for s in started if 2 * lost[s] >= started[s]]
        if verdict is not None:
            verdicts += 1
            assert broken and battle.state.round <= 8
            assert outcome.strategic_winner == (verdict["winner"] or None)
            assert battle.state.end_reason.startswith("sudden death: Side ")
            if verdict["winner"]:
                assert verdict["winner"] not in broken
        else:  # a side wiped out mid-turn, or the turn limit with nobody broken
            assert battle.state.round == 8 or outcome.strategic_winner is not None
    assert verdicts

def test_uplink_asks_who_holds_each_objective_after_the_last_turn() -> None:
    battle = Battle.start(_setup("fw-uplink", seed=5), rules=FigWarsRules())
    while battle.pending is not None and not battle.pending.prompt.startswith("The last turn is over"):
        spec = battle.pending.legal[0]
        if spec.type == "share":
            spec = next(s for s in battle.pending.legal if s.type == "end_activation")
        battle.apply(battle.command(spec))
    assert battle.state.round == 5  # nobody was shot: the turn limit came
    ask = battle.pending
    assert isinstance(ask, Decision) and [s.type for s in ask.legal] == ["report"]
    with pytest.raises(IllegalCommand, match="no objective"):
        battle.apply({"type": "report", "facts": {"held": {"North uplink": "a"}}})
    battle.apply({"type": "report", "facts": {"held": {"West uplink": "b", "Centre uplink": "b", "East uplink": "a"}}})
    assert battle.is_over and battle.state.data["verdict"]["winner"] == "b"
    outcome = battle.outcome()
    assert outcome.strategic_winner == "b"
    lines = {s.side: [(l.label, l.vp) for l in s.vp_lines if l.kind == "objective"] for s in outcome.sides}
    assert lines == {"a": [("objective East uplink", 3)], "b": [("objective West uplink", 3), ("objective Centre uplink", 3)]}


def test_salvage_scores_the_wreck_on_top_of_casualties() -> None:
    battle = Battle.start(_setup("fw-salvage", seed=5), rules=FigWarsRules())
    while battle.pending is not None and not battle.pending.prompt.startswith("The last turn is over"):
        spec = battle.pending.legal[0]
        if spec.type == "share":
            spec = next(s for s in battle.pending.legal if s.type == "end_activation")
        battle.apply(battle.command(spec))
    battle.apply({"type": "report", "facts": {"held": {"The wreck": "a"}}})
    outcome = battle.outcome()
    assert outcome.strategic_winner is None  # won on VPs
    assert outcome.side("a").vp == 5 and outcome.side("b").vp == 0


@pytest.mark.parametrize(("rule", "medic", "dead"), [("medic", True, 0), ("medic", False, 1), ("dead", True, 1), ("saved", False, 0)])
def test_a_model_down_at_the_end_lives_on_as_the_option_says(rule: str, medic: bool, dead: int) -> None:
    battle = Battle.start(_setup("fw-firefight", down_at_end=rule))
    rules = battle.rules
    unit = battle.state.units_of("a")[0]
    down, other = unit.elements[0], unit.elements[1]
    down.data.update(dp=0, incap=1)
    for el in (e for u in battle.state.units_of("a") for e in u.elements):
        has = el is other and medic
        p = rules.profile(el.id)
        rules._profiles[el.id] = attrs.evolve(p, abilities=(p.abilities | {"Medic"}) if has else (p.abilities - {"Medic"}))
    lost = sum(c.lost for c in battle.outcome().side("a").casualties)
    assert lost == dead
    assert battle.outcome().side("b").vp == 1  # a model down counts as a casualty inflicted (PR-41)


def test_figwars_demo_campaign(tmp_path: Path) -> None:
    from saves.campaign_file import load_campaign
    from tui.cli import main

    assert main(["new", str(tmp_path / "ring"), "--demo", "figwars-3"]) == 0
    state = load_campaign(tmp_path / "ring", LIB)
    c = state.campaign
    assert c.ruleset == "figwars-3" and c.options == {"down_at_end": "medic"} and c.name == "Demo: The Uplink War"
    assert [step.scenario for step in c.track] == ["fw-firefight", "fw-salvage", "fw-breaking-point", "fw-uplink"]
    assert c.rules.recovery_rolls and c.rules.heals == ("dp",) and (c.rules.recovery_die, c.rules.recovery_target) == (6, 4)
    assert sorted(f.name for f in state.forces.values()) == ["Revenant", "USC Marines"]
    assert main(["new", str(tmp_path / "bad"), "--demo", "no-such-rules"]) == 2
    assert not (tmp_path / "bad").exists()
    assert demo_for("fw3") is demo_for("figwars-3")


def test_the_demos_first_battle_branches_on_its_winner(tmp_path: Path) -> None:
    campaign, forces = demo_for("figwars-3")(2026)
    scenario = LIB["fw-firefight"]
    battle = Battle.start(
        BattleSetup("figwars-3", tuple(SideSetup(s.id, s.name, forces[s.id]) for s in campaign.sides), scenario=scenario,
                    activation=scenario.activation, activation_options=dict(scenario.activation_options), seed=4),
    )
    bot(battle)
    outcome = battle.outcome()
    done = post_battle(campaign, scenario, forces, outcome,
                       recovery_faces={s.side: [1] * sum(c.lost for c in s.casualties) for s in outcome.sides})
    expected = {"usc": "salvage", "revenant": "breaking", "": "breaking"}[done.entry.winner]
    assert done.campaign.position == expected


def test_a_side_wiped_out_early_is_asked_the_objectives_first() -> None:
    from campaign.rulesets.figwars3.commands import Report, Shoot
    from tests.figwars3.test_interrupts import run

    battle = Battle.start(_setup("fw-salvage", seed=5), rules=FigWarsRules())
    rules, state = battle.rules, battle.state
    last = state.units_of("b")[0].elements[0]
    for unit in state.units_of("b"):
        for el in unit.elements:
            el.alive = el is last
    last.data["dp"] = 1
    shooter = state.units_of("a")[0]
    model = shooter.elements[0]
    weapon = rules.profile(model.id).ranged[0].name
    shot = Shoot(unit=shooter.id, model=model.id, target=last.unit, target_model=last.id, weapon=weapon, facts={"range_band": "short"})
    end = Report(facts={"held": {"The wreck": "a"}})
    roll = rules.shot(state, shot)[0]
    seen = run(rules.activation(state, shooter.id, battle.ctx), [shot, end], [[6] * roll.attacker.dice, [1] * roll.defender.dice])
    asks = [r for r in seen if isinstance(r, Decision)]
    assert asks[-1].prompt == "A side is wiped out: which side holds each objective?"
    assert rules.is_over(state) and state.data["held"] == {"The wreck": "a"}
    outcome = rules.outcome(state)
    assert [l.label for l in outcome.side("a").vp_lines if l.kind == "objective"] == ["objective The wreck"]
