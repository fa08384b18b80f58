"""SVG snapshots at 80x24 of the battle screen, its facts form with odds, and the post-battle screen.

The demo campaign with a fixed seed, so the dice and the pictures are the same on every
run. Update with `pytest tests/tui/test_battle_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets._footer import FooterKey

from scenarios.demo import write_demo
from tests.tui.test_battle import pick, settle
from tui.app import MusterApp
from tui.widgets.footer import FooterKeys

SIZE = (80, 24)


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return write_demo(tmp_path / "demo", seed=11)


def test_battle_screen(snap_compare, demo: Path) -> None:  # type: ignore[no-untyped-def]
    async def run(pilot) -> None:  # type: ignore[no-untyped-def]
        pilot.app.start_battle(demo)
        await settle(pilot)
        await pick(pilot, "Activate Tactical Squad")

    assert snap_compare(MusterApp("."), terminal_size=SIZE, run_before=run)


def test_battle_facts_form_with_odds(snap_compare, demo: Path) -> None:  # type: ignore[no-untyped-def]
    async def run(pilot) -> None:  # type: ignore[no-untyped-def]
        pilot.app.start_battle(demo)
        await settle(pilot)
        await pick(pilot, "Activate Tactical Squad")
        await pick(pilot, "Tactical Squad: shoot at Ripper Swarm")
        await settle(pilot)

    assert snap_compare(MusterApp("."), terminal_size=SIZE, run_before=run)


def test_post_battle_screen(snap_compare, demo: Path) -> None:  # type: ignore[no-untyped-def]
    async def run(pilot) -> None:  # type: ignore[no-untyped-def]
        pilot.app.start_battle(demo)
        await settle(pilot)
        await pick(pilot, "Activate Tactical Squad")
        await pick(pilot, "Tactical Squad: shoot at Ripper Swarm")
        await pilot.press("ctrl+r")
        await settle(pilot)
        await pilot.press("e")
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)

    assert snap_compare(MusterApp("."), terminal_size=SIZE, run_before=run)


async def footers_drawn(pilot: Pilot[object], screens: list[Screen[object]]) -> None:
    """Wait until each screen's Footer shows its keys on two pauses running. A Footer
    recomposes (all its keys removed, then mounted again) after its screen's bindings
    change, which pushing the picker does: a screenshot taken in between shows it empty."""
    steady = 0
    for _ in range(200):
        await pilot.pause()
        footers = [footer for screen in screens for footer in screen.query("Footer, MusterFooter")]
        drawn = all(footer.query(FooterKey) or footer.query(FooterKeys) for footer in footers)
        steady = steady + 1 if drawn else 0
        if steady == 2:
            return
    raise AssertionError("a Footer stayed empty")


def test_battle_picker(snap_compare, demo: Path) -> None:  # type: ignore[no-untyped-def]
    """The F2 picker on a Move's contact: enemy units by name and side, one ticked."""

    async def run(pilot) -> None:  # type: ignore[no-untyped-def]
        pilot.app.start_battle(demo)
        await settle(pilot)
        await pick(pilot, "Activate Tactical Squad")
        await pick(pilot, "Move Tactical Squad")
        form = pilot.app.screen
        form.query_one("#fact-contact").focus()
        await footers_drawn(pilot, [form])
        await pilot.press("f2")
        await settle(pilot)
        await pilot.press("down", "down", "space")
        await settle(pilot)
        assert pilot.app.screen is not form  # the picker, over the form
        await footers_drawn(pilot, [form, pilot.app.screen])

    assert snap_compare(MusterApp("."), terminal_size=SIZE, run_before=run)
