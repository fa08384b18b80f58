"""A second rule system that lives only in tests (tests/rulesets/duel.py) runs through the
whole core: the engine (a battle to its end, replayed), `muster odds`, the force builder and
the battle screen. Nothing outside its own file names it."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Input, OptionList

from campaign.campaigns import Side, TrackStep, create_campaign
from campaign.engine import AutoDice, Battle, BattleSetup, SideSetup
from campaign.rulesets import get_ruleset, register, unregister
from saves.campaign_file import create_campaign_folder
from saves.force_file import save_force
from scenarios import builtin_scenarios
from tests.rulesets.duel import Duel, DuelRules, Strike, p_beats
from tests.tui.helpers import editor_findings, screen_text
from tests.workers import settle
from tui.app import MusterApp
from tui.cli import main
from tui.screens.battle_dialogs import CommandForm

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from engine_play import play  # noqa: E402

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def duel() -> Iterator[None]:
    register(Duel)
    yield
    unregister(Duel)


def setup(seed: int = 0) -> BattleSetup:
    forces = get_ruleset("duel").sample_forces()
    return BattleSetup("duel", tuple(SideSetup(f"s{i}", f.name, f) for i, f in enumerate(forces)), seed=seed)


def test_a_battle_plays_to_its_end_and_replays_to_the_same_digest() -> None:
    battle = play(Battle.start(setup(), AutoDice(3)), seed=4)
    assert battle.is_over
    texts = [e.text for e in battle.events]
    assert "Volley phase" in texts and "Strike phase" in texts
    assert any(e.kind == "initiative_roll" for e in battle.events)
    initiative = [r.die for e in battle.log for r in e.rolls if "initiative" in r.purpose]
    assert initiative and set(initiative) == {8}  # Initiative(die=8)
    assert Battle.replay(setup(), battle.log_dicts()).digest() == battle.digest()


def test_odds_agree_with_the_resolution_within_three_sigma() -> None:
    rules = DuelRules(ruleset=Duel())
    state = rules.new_state(setup())
    strike = Strike(unit=state.units[0].id, target=state.units[1].id)
    p = float(rules.odds(state, strike).outcome("removed").dist[1])
    assert p == float(p_beats(2, 2))

    class Ctx:
        def emit(self, *args: object, **kw: object) -> None: ...

    rng, n, wins = random.Random(8), 2000, 0
    for _ in range(n):
        trial = rules.new_state(setup())
        gen = rules.resolve(trial, strike, Ctx())
        next(gen)
        try:
            gen.send([1 + int(rng.random() * 6), 1 + int(rng.random() * 6)])
        except StopIteration:
            pass
        wins += len(trial.units[1].alive) < 3
    sigma = (p * (1 - p) / n) ** 0.5
    assert abs(wins / n - p) < 3 * sigma


def test_muster_odds_shows_the_rules_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = (tmp_path / "a.toml", tmp_path / "b.toml")
    blades, shields = get_ruleset("duel").sample_forces()
    save_force(a, blades)
    save_force(b, shields)
    code = main(["odds", "--attacker", f"{a}:Red Blades", "--target", f"{b}:Blue Shields", "--action", "strike",
                 "--exact"])
    out = capsys.readouterr().out
    assert code == 0
    assert "d6+skill beats d6+guard: 42%" in out
    assert f"removed: 0: {1 - p_beats(2, 2)}  1: {p_beats(2, 2)}" in out
    code = main(["odds", "--attacker", f"{a}:Red Blades", "--target", f"{b}:Blue Shields", "--action", "shoot"])
    assert code == 2 and "actions with odds: strike" in capsys.readouterr().err


async def test_the_force_builder_shows_and_edits_the_profile() -> None:
    force = get_ruleset("duel").sample_forces()[0]
    app = MusterApp(".")
    async with app.run_test(size=SIZE) as pilot:
        app.open_force(force, None)
        await pilot.pause()
        text = screen_text(app)
        assert "Skill" in text and "Guard" in text and "Die" not in text
        assert "9 pts" in text  # Duel has points: skill 2 + guard 1, three models
        await pilot.press("down", "enter")  # the element editor
        await pilot.pause()
        skill = app.screen.query_one("#f-stat-skill", Input)
        assert skill.value == "2"
        skill.value = "9"
        await pilot.pause()
        assert "Skill must be at most 5, not 9" in editor_findings(app)
        skill.value = "4"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen.force.units[0].elements[0].stats == {"skill": 4, "guard": 1}  # type: ignore[attr-defined]


async def test_the_battle_screen_plays_a_strike_with_its_odds(tmp_path: Path) -> None:
    blades, shields = get_ruleset("duel").sample_forces()
    campaign = create_campaign("Duel night", "duel", [Side("red", "Red"), Side("blue", "Blue")],
                               [TrackStep("one", "hold-the-bridge")], seed=5, scenario_ids=set(builtin_scenarios()))
    folder = tmp_path / "duel"
    create_campaign_folder(folder, campaign, {"red": blades, "blue": shields})
    app = MusterApp(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        app.start_battle(folder)
        await settle(pilot)
        assert "Volley phase" in screen_text(app) or "Strike phase" in screen_text(app)
        actions = app.screen.query_one("#battle-actions", OptionList)
        labels = [str(actions.get_option_at_index(i).prompt) for i in range(actions.option_count)]
        first = next(i for i, label in enumerate(labels) if label.startswith("Activate"))
        actions.focus()
        actions.highlighted = first
        await pilot.press("enter")
        await settle(pilot)
        labels = [str(actions.get_option_at_index(i).prompt) for i in range(actions.option_count)]
        strike = next(i for i, label in enumerate(labels) if ": strike " in label)
        actions.highlighted = strike
        await pilot.press("enter")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, CommandForm)
        assert "Expected removed 0.42; at least one 41.7%" in screen_text(app)
        form.query_one("#fact-charged").value = True  # +1: the odds follow
        await settle(pilot)
        assert "Expected removed 0.58; at least one 58.3%" in screen_text(app)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert app.screen is not form and ("removes one of" in screen_text(app) or "holds" in screen_text(app))
