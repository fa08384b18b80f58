"""Battle-screen polish: progress while a long log replays, help topics, the card hand review."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import ProgressBar

from campaign.engine import Decision
from scenarios.demo import write_demo
from tests.tui.helpers import screen_text
from tests.tui.test_battle import SIZE, settle
from tui.app import MusterApp
from tui.screens.battle import BattleScreen
from saves.lease import acquire
from tui.screens.battle_session import BattleSession


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return write_demo(tmp_path / "demo", seed=11)


def fight_first_legal(folder: Path, steps: int = 200) -> int:
    """Play the demo battle by always taking the first legal command that needs nothing typed;
    the auto dice are seeded, so the log is the same every run. Returns the log's length."""
    lease = acquire(folder, "battle")
    session = BattleSession.open(folder, lease=lease)
    battle = session.battle
    for _ in range(steps):
        if not isinstance(battle.pending, Decision):
            break
        for spec in battle.pending.legal:
            try:
                battle.apply(battle.command(spec))
                break
            except Exception:  # a command that needs fields or facts: take the next one
                continue
    session.sync()
    lease.release()
    return len(battle.log)


async def test_a_long_log_shows_replay_progress(demo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    total = fight_first_legal(demo)
    assert total > 25  # more than one progress step
    seen: list[tuple[int, int, bool, str]] = []
    original = BattleScreen._replayed

    def spy(self: BattleScreen, done: int, total: int) -> None:
        original(self, done, total)
        bar = self.query_one("#battle-progress", ProgressBar)
        prompt = str(self.query_one("#battle-prompt").render())
        seen.append((int(bar.progress), int(bar.total or 0), bool(bar.display), prompt))

    monkeypatch.setattr(BattleScreen, "_replayed", spy)
    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        app.start_battle(demo)
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BattleScreen) and screen.session is not None
        assert [s[:3] for s in seen] == [(25, total, True), (total, total, True)]
        assert seen[0][3] == f"Replaying the log: 25 of {total} entries"
        # Loaded: the bar is gone and the battle shows as it stands.
        assert not screen.query_one("#battle-progress").display
        assert len(screen.session.battle.log) == total
        assert "Replaying" not in screen_text(app)


async def test_help_on_the_battle_screen_explains_it(demo: Path) -> None:
    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        app.start_battle(demo)
        await settle(pilot)
        await pilot.press("f1")
        await pilot.pause()
        from tui.screens.help import HelpScreen

        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        assert "The header names the scenario, the round" in text
        body = "\n".join(str(s.render()) for s in app.screen.query(".help-para"))
        for words in ("table facts", "type the faces", "It stops at dice", "Card turns", "Flat Out War in brief"):
            assert words in body
        keys = str(app.screen.query_one(".help-keys").render())
        assert "Undo" in keys and "End battle" in keys
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, BattleScreen)


@pytest.fixture
def cards_demo(tmp_path: Path) -> Path:
    import attrs

    from saves.campaign_file import load_campaign, save_campaign
    from scenarios import builtin_scenarios

    folder = write_demo(tmp_path / "demo", seed=11)
    loaded = load_campaign(folder, builtin_scenarios())
    save_campaign(folder, attrs.evolve(loaded.campaign, activation="cards"))
    return folder


async def test_the_deciding_side_reviews_its_own_cards_behind_the_hand_over(cards_demo: Path) -> None:
    from tests.tui.test_battle_cards import hand, shows_card
    from tui.screens.battle_dialogs import AssignCardsScreen, HandOverScreen, HandReviewScreen

    app = MusterApp(cards_demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        app.start_battle(cards_demo)
        await settle(pilot)
        battle_screen = app.screen_stack[-2]
        assert isinstance(battle_screen, BattleScreen) and battle_screen.session is not None
        humans, aliens = hand(battle_screen, "humans"), hand(battle_screen, "aliens")

        # The humans place their cards; while the aliens are to place, h shows nothing yet.
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, AssignCardsScreen)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert isinstance(app.screen, HandOverScreen)
        await pilot.press("escape")  # the aliens' player is not at the keyboard yet
        await settle(pilot)
        assert app.screen is battle_screen
        assert "My cards" in screen_text(app)  # the key is in the footer of a card battle
        await pilot.press("h")
        await settle(pilot)
        assert app.screen is battle_screen  # the aliens have placed nothing: refused with a notice

        # The aliens place theirs; activations begin with a revealed card.
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, HandOverScreen)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert app.screen is battle_screen
        state = battle_screen.session.battle.state
        pending = battle_screen.session.pending
        assert isinstance(pending, Decision)
        side = pending.side
        own, other = (humans, aliens) if side == "humans" else (aliens, humans)
        assigned = state.secret[side]["cards"].assigned
        other_assigned = state.secret["aliens" if side == "humans" else "humans"]["cards"].assigned
        revealed = {state.scheme["cards"].units[u].card for u in state.scheme["cards"].revealed_order}

        # h: the hand-over first, with no card of either hand on screen beyond those revealed.
        await pilot.press("h")
        await settle(pilot)
        assert isinstance(app.screen, HandOverScreen)
        text = screen_text(app)
        assert f"Pass the keyboard to {state.side(side).name}." in text
        assert not any(shows_card(text, c) for c in own + other if c not in revealed)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, HandReviewScreen)
        text = screen_text(app)
        assert f"Hand: {' '.join(own)}" in text
        for unit_id, card in assigned.items():
            assert any(shows_card(line, card) and state.unit(unit_id).name in line for line in text.splitlines())
        hidden_other = [c for u, c in other_assigned.items() if c not in revealed and c not in own]
        assert hidden_other and not any(shows_card(text, c) for c in hidden_other)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is battle_screen
        assert not any(shows_card(screen_text(app), c) for c in assigned.values() if c not in revealed)


async def test_no_card_key_in_an_initiative_battle(demo: Path) -> None:
    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        app.start_battle(demo)
        await settle(pilot)
        assert isinstance(app.screen, BattleScreen)
        assert "My cards" not in screen_text(app)
        await pilot.press("h")
        await settle(pilot)
        assert isinstance(app.screen, BattleScreen)


async def test_post_battle_declares_objectives_and_the_strategic_winner(demo: Path) -> None:
    from saves.campaign_file import load_campaign
    from scenarios import builtin_scenarios
    from tui.screens.objectives_dialog import ObjectivesScreen
    from tui.screens.post_battle import PostBattleScreen

    app = MusterApp(demo.parent)
    async with app.run_test(size=SIZE) as pilot:
        app.start_battle(demo)
        await settle(pilot)
        await pilot.press("e")
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)
        post = app.screen
        assert isinstance(post, PostBattleScreen)
        assert "Declared (o): nothing yet" in screen_text(app)
        assert "Humans  0 VP" in screen_text(app)
        await pilot.press("f1")  # the post-battle topic of help
        await pilot.pause()
        assert "The whole result in one page" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is post

        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.screen, ObjectivesScreen)
        text = screen_text(app)
        # Hot Landing's one objective is open to either side: a row each, then the winner.
        assert "Humans: Landing zone (50 VP)" in text and "Aliens: Landing zone (50 VP)" in text
        assert "Strategic winner" in text and "none declared" in text
        await pilot.press("space")  # Humans took the landing zone
        await pilot.press("tab", "tab", "right")  # the strategic winner: Humans
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is post
        text = screen_text(app)
        assert "Declared (o): Humans: Landing zone; strategic winner Humans" in text
        assert "Humans  50 VP" in text
        assert "50  Landing zone" in text

        # Escape from the dialog changes nothing.
        await pilot.press("o")
        await settle(pilot)
        await pilot.press("space", "escape")
        await settle(pilot)
        assert post.declared == {"humans": ["Landing zone"]} and post.strategic == "humans"

        await pilot.press("s")
        await settle(pilot)
        camp = load_campaign(demo, builtin_scenarios()).campaign
        assert camp.history[0].winner == "humans"
        assert [(line.side, line.vp, line.reason) for line in camp.ledger] == [("humans", 50, "Landing zone")]
        await pilot.press("o")  # saved: nothing more to declare
        await settle(pilot)
        assert app.screen is post
