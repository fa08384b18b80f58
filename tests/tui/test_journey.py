"""The whole player journey in one app run at 80x24, keyboard first (issue 5, "Done when").

New campaign (wizard) -> a side's force made invalid, fixed and saved -> battle 1 with
several activations, table facts and odds, undo (and undo refused past a roll) -> end
by agreement -> post-battle (VPs) -> saved -> the dashboard lists the battle and the
next scenario -> battle 2 starts. Dice are the campaign's own auto dice: the wizard's
seed is pinned, so every roll is the same on every run. Checked on screen and on disk.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from textual.widgets import OptionList, Select, Static

from campaign.engine import Battle
from saves.battle_file import load_battle_file
from saves.campaign_file import load_campaign
from scenarios import builtin_scenarios
from tests.tui.helpers import screen_text, type_into
from tests.tui.toy_ruleset import toy_force
from tui.app import MusterApp
from tui.cli.replay import battle_setup
from tui.screens import new_campaign
from tui.screens.battle import BattleScreen
from tui.screens.battle_dialogs import CommandForm
from tui.screens.dashboard import DashboardScreen
from tui.screens.element_editor import ElementEditorScreen
from tui.screens.force_builder import ForceBuilderScreen
from tui.screens.post_battle import PostBattleScreen
from campaign.rulesets.flat_out_war.engine.display import marker_words as _marker_words
from tests.tui.playthrough import settle

SEED = 11


def options(app: MusterApp) -> list[str]:
    actions = app.screen.query_one("#battle-actions", OptionList)
    return [str(actions.get_option_at_index(i).prompt) for i in range(actions.option_count)]


async def pick(pilot, label: str) -> None:  # type: ignore[no-untyped-def]
    """Move the highlight to the first action starting with `label` (arrow keys) and press Enter."""
    labels = options(pilot.app)
    index = next((i for i, text in enumerate(labels) if text.startswith(label)), None)
    assert index is not None, f"no action {label!r} in {labels}"
    actions = pilot.app.screen.query_one("#battle-actions", OptionList)
    actions.focus()
    await pilot.press("home", *["down"] * index, "enter")
    await settle(pilot)


def text_of(app: MusterApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


@pytest.fixture
def pinned_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The wizard draws a campaign seed from the system; pin it so the dice are scripted."""
    fixed = SimpleNamespace(SystemRandom=lambda: SimpleNamespace(randrange=lambda low, high: SEED))
    monkeypatch.setattr(new_campaign, "random", fixed)


async def choose_ruleset(app: MusterApp, pilot: Any, name: str) -> None:
    """Pick a ruleset in the wizard by its display name (others are registered too)."""
    select = app.screen.query_one("#c-ruleset", Select)
    labels = [str(label) for label, _value in select._options]  # noqa: SLF001
    select.value = next(value for label, value in select._options if str(label).startswith(name))  # noqa: SLF001
    assert any(label.startswith(name) for label in labels)
    await pilot.pause()


async def test_the_whole_journey(empty_folder: Path, pinned_seed: None) -> None:
    app = MusterApp(empty_folder)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)

        # --- 1. the wizard: Flat Out War, two sides from the sample forces, two scenarios ----------
        await pilot.press("n")
        await pilot.pause()
        await choose_ruleset(app, pilot, "Flat Out War")
        await type_into(pilot, "#c-name", "Journey")
        await pilot.press("ctrl+n")
        await pilot.pause()
        text = screen_text(app)
        assert "sample: Human Force" in text and "sample: Alien Force" in text  # the first two samples
        await type_into(pilot, "#c-side-0", "Humans")
        await type_into(pilot, "#c-side-1", "Aliens")
        await pilot.press("ctrl+n")
        await pilot.pause()
        await pilot.press("down", "space", "up", "space")  # Hold the Bridge first, then Breakthrough
        text = screen_text(app)
        assert "1. Hold the Bridge" in text and "2. Breakthrough" in text
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, DashboardScreen)
        folder = empty_folder / "journey"
        text = screen_text(app)
        assert "▶ Hold the Bridge" in text and "· Breakthrough" in text
        assert "Humans: Human Force  5 units, 28/28 elements, 996 pts" in text
        assert tomllib.loads((folder / "campaign.toml").read_text())["seed"] == SEED

        # --- 2. edit the Humans' force: over the limit (a finding), fixed, saved --------------------
        await pilot.press("e")
        await pilot.pause()
        await pilot.press("enter")  # Humans, the first side
        await pilot.pause()
        builder = app.screen
        assert isinstance(builder, ForceBuilderScreen)
        assert "996 / 1010 pts" in text_of(app, "#force-summary")
        await pilot.press("enter")  # the cursor starts on the Assault Troop (9 x 20)
        await pilot.pause()
        assert isinstance(app.screen, ElementEditorScreen)
        await type_into(pilot, "#f-count", "11", keys=True)
        assert "Force total 1036 / 1010" in text_of(app, "#editor-cost")
        # the editor explains the force-wide finding its edit causes (it used to say "No findings")
        assert "over its limit of 1010 by 26" in text_of(app, "#editor-findings")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is builder
        assert "1036 / 1010 pts  1 errors, 0 warnings" in text_of(app, "#force-summary")
        assert "over its limit of 1010 by 26" in screen_text(app)
        await pilot.press("down", "down", "down")  # Sergeant, the Tactical Squad row, its Tactical Troop
        await pilot.pause()
        assert builder._place() == (1, 0)
        await pilot.press("enter")
        await pilot.pause()
        await type_into(pilot, "#f-count", "6", keys=True)  # 8 -> 6 Tactical Troops, 52 points back
        await pilot.press("ctrl+s")
        await pilot.pause()
        summary = text_of(app, "#force-summary")
        assert "984 / 1010 pts" in summary and "errors" not in summary and "(unsaved)" in summary
        assert text_of(app, "#findings") == "No findings: the force is within the rules."
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "(unsaved)" not in text_of(app, "#force-summary")
        humans = load_campaign(folder, builtin_scenarios()).forces["humans"]
        assert [(e.name, e.count) for e in humans.units[0].elements + humans.units[1].elements] == [
            ("Assault Troop", 11), ("Sergeant", 1), ("Tactical Troop", 6), ("Sergeant", 1)]
        await pilot.press("escape")  # saved: straight back, no question
        await settle(pilot)
        assert isinstance(app.screen, DashboardScreen)
        assert "Humans: Human Force  5 units, 28/28 elements, 984 pts" in screen_text(app)

        # --- 3. the next battle: Hold the Bridge, auto dice from the campaign's seed ---------------
        await pilot.press("b")  # the briefing, then the muster, then the battle
        await settle(pilot)
        text = screen_text(app)
        assert "limit 600 pts · 6 rounds · won by its objectives" in text
        assert "Humans (defender): 5 units, 984 pts · over the limit by 384" in text
        await pilot.press("enter")
        await settle(pilot)
        text = screen_text(app)  # Hold the Bridge is a 600-point battle: both sides are over it
        assert "984 / 600 pts  (384 over)" in text and "1002 / 600 pts  (402 over)" in text
        await pilot.press("b")  # refused, with the reasons
        await settle(pilot)
        assert any("over the scenario's limit of 600 by 384" in str(n.message) for n in app._notifications)
        await pilot.press("o")  # the players agree to fight with everything: a logged house rule
        await settle(pilot)
        await pilot.press(*"full forces tonight", "enter")
        await settle(pilot)
        assert "override: full forces tonight" in screen_text(app)
        await pilot.press("b")
        await settle(pilot)
        battle_screen = app.screen
        assert isinstance(battle_screen, BattleScreen) and battle_screen.session is not None
        session = battle_screen.session
        path = session.path
        assert path == folder / "battles" / "01-hold-the-bridge.toml"
        assert [side.override for side in load_battle_file(path).header.sides] == ["full forces tonight"] * 2
        text = screen_text(app)
        assert "Hold the Bridge  Round 1/6  deciding: Humans" in text
        assert "Initiative: Humans 6, Aliens 5" in text
        assert "6x Tactical Troop d6" in text  # the fixed force took the field

        # A decision without dice is undone, on screen and in the file.
        await pick(pilot, "Activate Tactical Squad")
        assert "Humans: Tactical Squad: choose an action" in screen_text(app)
        assert [e["command"]["type"] for e in load_battle_file(path).log] == ["start", "activate"]
        await pilot.press("u")
        await settle(pilot)
        assert "Undone: activate (unit: Tactical Squad)" in " ".join(" ".join(line.text for line in app.screen.query_one("#battle-log").lines).split())
        assert "Humans: activate a unit or pass" in screen_text(app)
        assert [e["command"]["type"] for e in load_battle_file(path).log] == ["start"]

        # An attack: the table facts, the exact odds before rolling, then the roll.
        await pick(pilot, "Activate Tactical Squad")
        await pick(pilot, "Tactical Squad: shoot at Ripper Swarm")
        form = app.screen
        assert isinstance(form, CommandForm)
        await settle(pilot)
        text = screen_text(app)
        assert "range band         < short >  (1/3)" in text
        assert "To hit: 6 x 50%, 1 x 62%" in text  # 6 rifles on d6 (4+), the sergeant's d8
        assert "Expected casualties 3.62; at least one 99.4%" in text
        await pilot.press("tab", "right")  # range band, measured on the table: short -> long
        await settle(pilot)
        text = screen_text(app)
        assert "range band         \u25c0 long \u25b6  (2/3)" in text  # the focused choice: solid arrows
        assert "To hit: 6 x 33%, 1 x 50%" in text  # long range: -1 on every die
        assert "Expected casualties 2.50; at least one 95.6%" in text
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert app.screen is battle_screen
        shot = load_battle_file(path).log[-1]
        assert shot["command"] == {"type": "shoot", "unit": "tactical-squad", "target": "ripper-swarm",
                                    "facts": {"range_band": "long"}}
        assert [(r["die"], r["faces"]) for r in shot["rolls"]] == [(6, [5, 2, 2, 4, 3, 6]), (8, [8]), (4, [1]), (4, [2]), (4, [4])]
        text = screen_text(app)
        assert "Ripper Swarm  21/24" in text  # 5-1 and 6-1 hit, the sergeant's 8-1 too; 3 fail recovery
        assert "attacked" not in text  # per-activation bookkeeping, once shown as a list of ids

        # A roll is a fact: undo is refused, nothing changes on disk.
        await pilot.press("u")
        await settle(pilot)
        assert any("its dice are rolled" in str(n.message) for n in app._notifications)
        assert load_battle_file(path).log[-1] == shot
        assert "Humans: Tactical Squad: choose an action" in screen_text(app)
        await pick(pilot, "End activation")
        assert "Aliens: activate a unit or pass" in screen_text(app)

        # The aliens answer: their odds, their roll.
        await pick(pilot, "Activate Pukers")
        await pick(pilot, "Pukers: shoot at Tactical Squad")
        # the humans' answers are theirs: the aliens' form starts at the rules' defaults
        assert "range band         < short >  (1/3)" in screen_text(app)
        await pilot.press("tab", "right")
        await settle(pilot)
        assert "To hit: 5 x 60%" in screen_text(app)  # 5 Acid Spewers on d10, long range
        await pilot.press("ctrl+r")
        await settle(pilot)
        await pick(pilot, "End activation")
        text = screen_text(app)
        assert "Hold the Bridge  Round 2/6  deciding: Aliens" in text
        assert "Tactical Squad  5/7" in text
        await pick(pilot, "Activate Ripper Swarm")  # round 2: a third activation
        await pick(pilot, "End activation")
        assert "Humans: activate a unit or pass" in screen_text(app)

        # --- 4. end the battle by agreement; post-battle shows the VPs -----------------------------
        await pilot.press("e")
        await pilot.pause()
        assert "End the battle now, as the players agree?" in screen_text(app)
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, PostBattleScreen)
        body = text_of(app, "#post-body")
        assert "Battle 1, Hold the Bridge: Humans 0 VP, Aliens 0 VP; a draw; 0 units lost" in body
        assert "Rounds played: 2; ended by the players' agreement" in body
        assert "Victory points\n Humans  0 VP\n Aliens  0 VP" in body
        assert "Humans  26 of 28 elements remain (2 lost, 0 recovered)" in body
        assert "Tactical Squad: 2 x Tactical Troop fell" in body
        assert "Aliens  40 of 43 elements remain (3 lost, 0 recovered)" in body
        assert "Ripper Swarm: 3 x Alien Ripper fell" in body
        # The players say the Humans took an objective: the VPs follow.
        await pilot.press("o")
        await pilot.pause()
        text = screen_text(app)
        assert "Humans: Bridge held (100 VP)" in text and "Aliens: Bridge taken (100 VP)" in text
        await pilot.press("space", "ctrl+s")  # the first row, the Humans' objective: yes
        await settle(pilot)
        body = text_of(app, "#post-body")
        assert "Battle 1, Hold the Bridge: Humans 100 VP, Aliens 0 VP; Humans win (vp)" in body
        assert "Victory points\n Humans  100 VP\n       100  Bridge held\n Aliens  0 VP" in body
        await pilot.press("s")
        await settle(pilot)
        assert "Saved. N starts the next battle" in screen_text(app)

        # On disk: campaign.toml has the battle in its history; the battle file its log and result.
        raw = tomllib.loads((folder / "campaign.toml").read_text())
        assert [(h["battle"], h["scenario"], h["file"], h["winner"]) for h in raw["history"]] == [
            (1, "hold-the-bridge", "battles/01-hold-the-bridge.toml", "humans")]
        assert raw["position"] == "breakthrough" and "battle_in_progress" not in raw
        saved = load_battle_file(path)
        assert [e["command"]["type"] for e in saved.log] == [
            "start", "activate", "shoot", "end_activation", "activate", "shoot", "end_activation",
            "activate", "end_activation"]
        assert saved.result is not None and saved.result.summary == raw["history"][0]["summary"]
        assert Battle.replay(battle_setup(saved), saved.log).digest() == session.battle.digest()

        # --- 5. the dashboard: the battle in history, the next scenario; then battle 2 ------------
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, DashboardScreen)
        text = screen_text(app)
        assert "✓ Hold the Bridge" in text and "▶ Breakthrough" in text
        assert "1   Hold the Bridge  100/0    Humans" in text  # once clipped to "100"
        assert "100 VP  Humans  1 won" in text and "0 VP  Aliens  0 won" in text
        assert "Humans: Human Force  5 units, 26/28 elements" in text
        assert "Aliens: Alien Force  4 units, 40/43 elements" in text
        await pilot.press("b")
        await settle(pilot)
        await pilot.press("enter", "o", *"as before", "enter", "b")  # Breakthrough's limit: the house rule again
        await settle(pilot)
        second = app.screen
        assert isinstance(second, BattleScreen) and second.session is not None
        text = screen_text(app)
        assert "Breakthrough  Round 1/7" in text
        assert "Ripper Swarm  21/21" in text  # the survivors carried over
        assert second.session.path == folder / "battles" / "02-breakthrough.toml"
        camp = load_campaign(folder, builtin_scenarios()).campaign
        assert camp.battle_in_progress == "battles/02-breakthrough.toml" and len(camp.history) == 1


def test_list_markers_show_a_count_not_a_python_list() -> None:
    """Regression: a marker holding ids was drawn as "['a/b', 'a/c']" in the units panel."""
    assert _marker_words({"attacked": ["u/a", "u/b"], "acted": "shoot"}) == []  # bookkeeping: quiet
    assert _marker_words({"pinned_by": ("u/a", "u/b", "u/c")}) == ["pinned by (3)"]


async def test_element_editor_shows_the_points_limit_its_edit_breaks(app: MusterApp) -> None:
    """Regression: over the limit, the editor said "No findings: the force is within the rules"."""
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_force(toy_force(limit=30), None)  # 29 points
        await pilot.pause()
        await pilot.press("enter")  # the Trooper: 2 x 8
        await pilot.pause()
        await type_into(pilot, "#f-count", "3")
        findings = text_of(app, "#editor-findings")
        assert "37 points is over the limit of 30" in findings
        assert "No findings" not in findings
