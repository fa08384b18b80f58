"""A card turn in the TUI: the keyboard hand-over, the hidden placement, the revealed order.

The demo campaign switched to the card scheme; auto dice deal the same hands every run.
While one side places its cards, the other side's hand must not be anywhere on screen.
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest

from campaign.engine import Decision
from saves.battle_file import load_battle_file
from saves.campaign_file import load_campaign, save_campaign
from scenarios import builtin_scenarios
from scenarios.demo import write_demo
from tests.tui.helpers import screen_text
from tests.tui.test_battle import SIZE, pick, settle
from tui.app import MusterApp
from tui.screens.battle import BattleScreen
from tui.screens.battle_dialogs import AssignCardsScreen, HandOverScreen


@pytest.fixture
def cards_demo(tmp_path: Path) -> Path:
    folder = write_demo(tmp_path / "demo", seed=11)
    loaded = load_campaign(folder, builtin_scenarios())
    save_campaign(folder, attrs.evolve(loaded.campaign, activation="cards"))
    return folder


def hand(screen: BattleScreen, side: str) -> list[str]:
    assert screen.session is not None
    return list(screen.session.battle.state.secret[side]["cards"].hand)


def shows_card(text: str, card: str) -> bool:
    return re.search(rf"(?<![0-9A-Z]){re.escape(card)}(?![0-9A-Z])", text) is not None


async def test_card_turn_with_hidden_placement(cards_demo: Path) -> None:
    app = MusterApp(cards_demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        app.start_battle(cards_demo)
        await settle(pilot)
        battle_screen = app.screen.app.screen_stack[-2]
        assert isinstance(battle_screen, BattleScreen)
        humans, aliens = hand(battle_screen, "humans"), hand(battle_screen, "aliens")
        assert humans and aliens

        # Before any hand is shown: the hand-over, with no card of either side on screen.
        assert isinstance(app.screen, HandOverScreen)
        text = screen_text(app)
        assert "Pass the keyboard to Humans." in text
        assert not any(shows_card(text, c) for c in humans + aliens)

        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, AssignCardsScreen)
        text = screen_text(app)
        assert f"Hand: {' '.join(humans)}" in text
        assert not any(shows_card(text, c) for c in aliens if c not in humans)
        # Two units on the same card are refused before the engine sees them.
        app.screen.query_one("#card-1").value = app.screen.query_one("#card-0").value
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(app.screen, AssignCardsScreen) and "placed twice" in screen_text(app)
        app.screen.query_one("#card-1").value = humans[1]
        await pilot.press("ctrl+r")
        await settle(pilot)

        # The aliens' turn to place: hand-over first; the humans' cards are gone from view.
        assert isinstance(app.screen, HandOverScreen)
        assert "Pass the keyboard to Aliens." in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
        text = screen_text(app)
        assert f"Hand: {' '.join(aliens)}" in text
        assert not any(shows_card(text, c) for c in humans if c not in aliens)
        await pilot.press("ctrl+r")
        await settle(pilot)

        # Activations: the revealed card heads the order; face-down cards stay hidden.
        assert app.screen is battle_screen and battle_screen.session is not None
        state = battle_screen.session.battle.state
        view_up = state.scheme["cards"].revealed_order
        assert len(view_up) == 1
        first = state.scheme["cards"].units[view_up[0]]
        text = screen_text(app)
        assert f"Cards (activations): {first.card} {state.unit(view_up[0]).name}" in text
        placed = [state.secret[s]["cards"].assigned for s in ("humans", "aliens")]
        hidden = [c for p in placed for u, c in p.items() if u != view_up[0]]
        assert not any(shows_card(text, c) for c in hidden)
        pending = battle_screen.session.pending
        assert isinstance(pending, Decision) and "2 AP" in pending.prompt
        assert "2 AP" in text

        # One action spends an AP; the file holds both placements for the replay.
        unit = state.unit(view_up[0]).name
        await pick(pilot, f"Move {unit}")
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert "1 AP" in str(battle_screen.session.pending.prompt)  # type: ignore[union-attr]
        logged = load_battle_file(battle_screen.session.path).log
        assert [e["command"]["type"] for e in logged].count("assign_cards") == 2
        assert logged[-1]["command"]["type"] == "move"
