"""Pilot tests of issue 13's screens: the roster key in the force builder, the campaigns
list naming a battle in progress."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Log, Static

from campaign.campaigns import muster, plan_battle
from campaign.rulesets import get_ruleset
from saves.campaign_file import load_campaign, save_campaign, start_battle
from saves.force_file import save_force
from scenarios import builtin_scenarios
from tests.tui.campaign_fixture import make_toy_campaign
from tests.tui.helpers import notices, screen_text
from tui.app import MusterApp
from tui.screens.force_builder import ForceBuilderScreen
from tui.screens.log_viewer import LogViewerScreen
from tests.workers import settle


async def test_p_in_the_builder_shows_the_roster_and_writes_it(app: MusterApp, empty_folder: Path) -> None:
    humans = get_ruleset("flat-out-war", "special-ops").sample_forces()[0]
    path = empty_folder / "humans.toml"
    save_force(path, humans)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_force(humans, path)
        await pilot.pause()
        assert isinstance(app.screen, ForceBuilderScreen)
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, LogViewerScreen)
        lines = app.screen.query_one(Log).lines
        assert lines[0] == humans.name
        assert any(line.startswith(humans.units[0].name) for line in lines)
        assert any(line.strip().startswith("Brave: ") for line in lines)  # the rule in a line
        assert max(len(line) for line in lines if "error" not in line) <= 74
        text = screen_text(app)
        assert "Roster: " + humans.name in text and "written to" in text
        written = (empty_folder / "humans-roster.md").read_text()
        assert written.startswith(f"# {humans.name}")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ForceBuilderScreen)


async def test_the_campaigns_list_says_a_battle_is_in_progress(empty_folder: Path) -> None:
    folder = make_toy_campaign(empty_folder / "war")
    library = builtin_scenarios()
    loaded = load_campaign(folder, library)
    plan = plan_battle(loaded.campaign, library)
    start_battle(loaded, plan, {side: muster(plan, force) for side, force in loaded.forces.items()})
    app = MusterApp(empty_folder)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "battle 2 in progress" in text and "battle 2 next" not in text


def _after_one_battle(folder: Path, bank: int) -> None:
    """The demo as if its first battle were fought: the track moved on, points banked."""
    import attrs

    from campaign.campaigns import HistoryEntry
    from saves.campaign_file import save_campaign

    camp = load_campaign(folder, builtin_scenarios()).campaign
    done = HistoryEntry(1, "landing", "demo-landing", "Hot Landing", "battles/01-demo-landing.toml")
    camp = attrs.evolve(camp, sides=tuple(attrs.evolve(s, reinforcements=bank) for s in camp.sides),
                        history=(done,), position="bridge")  # fmt: skip
    save_campaign(folder, camp)


def _two_more_troops(force):  # type: ignore[no-untyped-def]
    import attrs

    squad = force.units[0]
    more = attrs.evolve(squad.elements[0], count=squad.elements[0].count + 2)
    return attrs.evolve(force, units=(attrs.evolve(squad, elements=(more, *squad.elements[1:])), *force.units[1:]))


async def test_saving_a_grown_force_spends_banked_reinforcements(empty_folder: Path) -> None:
    from scenarios.demo import write_demo

    folder = write_demo(empty_folder / "demo")
    _after_one_battle(folder, 50)
    app = MusterApp(empty_folder)
    told = notices(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.open_campaign(folder)
        await settle(pilot)
        await pilot.press("e")
        await pilot.pause()
        await pilot.press("enter")  # the first side: Humans
        await settle(pilot)
        builder = app.screen
        assert isinstance(builder, ForceBuilderScreen)
        bank = str(builder.query_one("#force-bank", Static).render())
        assert bank == "Reinforcement bank: 50 pts; the changes cost nothing"  # shown before spending
        builder.set_force(_two_more_troops(builder.force))
        await pilot.pause()
        assert "Reinforcement bank: 50 pts; saving spends 40, leaving 10" in screen_text(app)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert any("Spent 40 reinforcement points (10 left)." in message for message in told)
        camp = load_campaign(folder, builtin_scenarios()).campaign
        assert camp.side("humans").reinforcements == 10 and camp.spent[0].points == 40
        builder.set_force(_two_more_troops(builder.force))  # 40 more: the bank has 10
        await pilot.pause()
        assert "Reinforcement bank: 10 pts; changes cost 40, 30 over: saving is refused" in screen_text(app)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert any("have 10 reinforcement points banked; this costs 40" in message for message in told)
        assert load_campaign(folder, builtin_scenarios()).campaign.side("humans").reinforcements == 10


async def test_table_dice_by_the_handful(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """One prompt takes the to-hit dice and every recovery die after them, in reading order."""
    import attrs

    import tui.screens.battle as battle_screen
    from campaign.engine import Decision, RollRequest
    from saves.battle_file import load_battle_file
    from saves.campaign_file import save_campaign
    from scenarios.demo import write_demo
    from tests.tui.test_battle import pick, settle as settle_battle
    from tui.screens.battle import BattleScreen
    from tui.screens.battle_dialogs import FacesScreen

    opened: list[RollRequest] = []

    class CountedFaces(FacesScreen):
        def __init__(self, request: RollRequest, ahead: list[int] | None = None) -> None:
            opened.append(request)
            super().__init__(request, ahead)

    monkeypatch.setattr(battle_screen, "FacesScreen", CountedFaces)
    demo = write_demo(tmp_path / "demo", seed=11)
    loaded = load_campaign(demo, builtin_scenarios())
    save_campaign(demo, attrs.evolve(loaded.campaign, dice="table"))
    app = MusterApp(demo.parent)
    told = notices(app)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_battle(demo)
        await settle_battle(pilot)
        field = app.screen.query_one("#faces-input")
        field.value = "2 5 7"  # both initiative dice, and one too many: the 7 is checked by no roll
        await pilot.press("enter")
        await settle_battle(pilot)
        screen = app.screen
        assert isinstance(screen, BattleScreen) and screen.session is not None
        assert len(opened) == 1 and isinstance(screen.session.pending, Decision)
        assert any("not needed: 7" in message for message in told)
        await pick(pilot, "Activate Pukers")
        await pick(pilot, "Pukers: shoot at Tactical Squad")
        await pilot.press("ctrl+r")
        await settle_battle(pilot)
        first = screen.session.pending
        assert isinstance(first, RollRequest) and isinstance(app.screen, CountedFaces)
        app.screen.query_one("#faces-input").value = " ".join(["6"] * first.count + ["1"] * 40)
        await pilot.press("enter")
        await settle_battle(pilot)
        assert len(opened) == 2  # every roll of the shot answered from the one handful
        assert isinstance(screen.session.pending, Decision)
        rolls = load_battle_file(screen.session.path).log[-1]["rolls"]
        recovery = [r for r in rolls if "recovery" in r.get("purpose", "")]
        assert rolls[0]["faces"] == [6] * first.count and len(recovery) >= 2
        assert all(r["faces"] == [1] for r in recovery)


async def test_the_builder_says_a_battle_is_in_progress(empty_folder: Path) -> None:
    from scenarios.demo import write_demo

    folder = write_demo(empty_folder / "demo")
    library = builtin_scenarios()
    loaded = load_campaign(folder, library)
    plan = plan_battle(loaded.campaign, library)
    start_battle(loaded, plan, {side: muster(plan, force) for side, force in loaded.forces.items()})
    app = MusterApp(empty_folder)
    # Notifications are captured as they are sent: on a slow machine one may expire
    # before the assertion if it were read back from the screen.
    told: list[str] = []
    send = app.notify
    app.notify = lambda message, *a, **k: (told.append(str(message)), send(message, *a, **k))[1]  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.open_campaign(folder)
        await settle(pilot)
        app.screen.edit_side("humans")  # type: ignore[attr-defined]
        await settle(pilot)
        assert isinstance(app.screen, ForceBuilderScreen)
        assert any("Battle 1 is in progress: it fights the units it mustered; changes saved now apply after it."
                   in message for message in told)  # fmt: skip


async def test_table_card_deals_take_a_whole_hand_in_one_prompt(tmp_path: Path) -> None:
    """Card activation with table dice: each side types every card it drew in one dialog."""
    import attrs

    from saves.battle_file import load_battle_file
    from saves.campaign_file import save_campaign
    from scenarios.demo import write_demo
    from tests.tui.playthrough import settle as idle
    from tui.screens.battle import BattleScreen
    from tui.screens.battle_dialogs import DealCardsScreen, HandOverScreen

    demo = write_demo(tmp_path / "demo", seed=11)
    loaded = load_campaign(demo, builtin_scenarios())
    save_campaign(demo, attrs.evolve(loaded.campaign, activation="cards", dice="table"))
    app = MusterApp(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_battle(demo)
        await idle(pilot)
        battle = next(s for s in app.screen_stack if isinstance(s, BattleScreen))
        assert battle.session is not None
        dealt = []
        for side, suit in (("humans", "H"), ("aliens", "S")):
            assert isinstance(app.screen, HandOverScreen)
            await pilot.press("enter")
            await idle(pilot)
            assert isinstance(app.screen, DealCardsScreen)
            count = app.screen.count
            cards = [f"{rank}{suit}" for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")[:count]]
            app.screen.query_one("#deal-input").value = " ".join(cards)
            await pilot.press("enter")
            await idle(pilot)
            dealt.append((side, count))
        assert [side for side, _ in dealt] == ["humans", "aliens"]  # one dialog per side, not per card
        deals = [e["command"] for e in load_battle_file(battle.session.path).log if e["command"]["type"] == "deal_cards"]
        assert [len(d["cards"]) for d in deals] == [count for _, count in dealt]


async def test_the_recovery_dialog_owns_its_keys(tmp_path: Path) -> None:
    """Post-battle with table dice: S and N typed while the recovery dice are asked for
    neither save nor go on, and are not typed into the faces; the dialog says why."""
    import attrs

    from campaign.engine import RollRequest
    from scenarios.demo import write_demo
    from tests.tui.test_battle import pick, settle as settle_battle
    from tui.screens.battle import BattleScreen
    from tui.screens.battle_dialogs import FacesScreen
    from tui.screens.post_battle import PostBattleScreen

    demo = write_demo(tmp_path / "demo", seed=11)
    loaded = load_campaign(demo, builtin_scenarios())
    save_campaign(demo, attrs.evolve(loaded.campaign, dice="table"))
    app = MusterApp(demo.parent)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_battle(demo)
        await settle_battle(pilot)
        app.screen.query_one("#faces-input", Input).value = "2 5"  # initiative: the Aliens first
        await pilot.press("enter")
        await settle_battle(pilot)
        screen = app.screen
        assert isinstance(screen, BattleScreen) and screen.session is not None
        await pick(pilot, "Activate Pukers")
        await pick(pilot, "Pukers: shoot at Tactical Squad")
        await pilot.press("ctrl+r")
        await settle_battle(pilot)
        first = screen.session.pending
        assert isinstance(first, RollRequest)
        app.screen.query_one("#faces-input", Input).value = " ".join(["6"] * first.count + ["1"] * 40)
        await pilot.press("enter")  # hits, and every recovery roll fails: Humans lose marines
        await settle_battle(pilot)
        await pilot.press("e")
        await pilot.pause()
        await pilot.press("y")
        await settle_battle(pilot)
        dialog = app.screen
        assert isinstance(dialog, FacesScreen) and "recovery rolls for Humans" in dialog.request.purpose
        post = app.screen_stack[-2]
        assert isinstance(post, PostBattleScreen)
        field = dialog.query_one("#faces-input", Input)
        field.focus()
        await pilot.press("4", "s", "n", "space", "5")
        await pilot.pause()
        assert app.screen is dialog and field.value == "4 5"  # the letters went nowhere
        assert "Only dice faces go here" in screen_text(app)
        assert post.saved is None and load_campaign(demo, builtin_scenarios()).campaign.battle_in_progress
        await pilot.press("escape")  # the dice left for later: S says what is missing
        await settle_battle(pilot)
        assert app.screen is post and "Recovery dice still to type: press R." in screen_text(app)
        told: list[str] = []
        send = app.notify
        app.notify = lambda message, *a, **k: (told.append(str(message)), send(message, *a, **k))[1]  # type: ignore[method-assign]
        await pilot.press("s")
        await pilot.pause()
        assert "Type the recovery dice first (R)." in told and post.saved is None
        await pilot.press("r")
        await settle_battle(pilot)
        dialog = app.screen
        assert isinstance(dialog, FacesScreen)
        dialog.query_one("#faces-input", Input).value = " ".join(["6"] * dialog.request.count)
        await pilot.press("enter")
        await settle_battle(pilot)
        assert app.screen is post and post.preview is not None
        await pilot.press("s")
        await settle_battle(pilot)
        assert post.saved is not None and "Saved." in screen_text(app)

