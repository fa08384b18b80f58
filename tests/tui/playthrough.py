"""A keyboard-only play-through of one campaign battle, counting every key pressed.

The player it plays is simple and deterministic: each activation shoots at the first
target offered (table facts at their defaults) and ends; every other decision takes
the first choice. Keys are what a player would press: arrows to the choice from where
the highlight is, Enter, the form's roll key. The count is the issue 13 measure of how
much typing a campaign night takes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import OptionList
from tests.workers import workers_done
from tui.screens.battle import BattleScreen


class Keys:
    """pilot.press, counted."""

    def __init__(self, pilot: Any) -> None:
        self.pilot = pilot
        self.count = 0

    async def press(self, *keys: str) -> None:
        self.count += len(keys)
        await self.pilot.press(*keys)
        await settle(self.pilot)


async def settle(pilot: Any) -> None:
    """Three rounds of: the app's workers done, then its messages handled."""
    for _ in range(3):
        await workers_done(pilot.app)
        await pilot.pause()


async def open_battle(pilot: Any, app: Any, folder: Path) -> BattleScreen:
    """Start the campaign's next battle and return its screen, once it is quiet."""
    app.start_battle(folder)
    await settle(pilot)
    assert isinstance(app.screen, BattleScreen)
    return app.screen


def labels(app: Any) -> list[str]:
    actions = app.screen.query_one("#battle-actions", OptionList)
    return [str(actions.get_option_at_index(i).prompt) for i in range(actions.option_count)]


async def choose(keys: Keys, index: int) -> None:
    """Move from the highlighted action to `index` the shortest way (arrows, or Home/End
    and arrows), then Enter."""
    actions = keys.pilot.app.screen.query_one("#battle-actions", OptionList)
    here, last = actions.highlighted or 0, actions.option_count - 1
    ways = [
        ["down"] * (index - here) if index >= here else ["up"] * (here - index),
        ["home", *["down"] * index],
        ["end", *["up"] * (last - index)],
    ]
    await keys.press(*min(ways, key=len), "enter")


async def fight(keys: Keys, battle_screen: Any, limit: int = 600) -> None:
    """Play the battle on `battle_screen` to its end and save the post-battle step."""
    from tui.screens.battle_dialogs import CommandForm
    from tui.screens.post_battle import PostBattleScreen

    app = keys.pilot.app
    shot = False
    for _ in range(limit):
        if isinstance(app.screen, CommandForm):
            await keys.press("ctrl+r")
            shot = True
            continue
        if isinstance(app.screen, PostBattleScreen):
            await keys.press("s")
            return
        assert app.screen is battle_screen, f"unexpected screen {app.screen!r}"
        offered = labels(app)
        index = 0
        starts = [i for i, text in enumerate(offered) if text.startswith("Activate ")]
        shoots = [i for i, text in enumerate(offered) if ": shoot at " in text]
        ends = [i for i, text in enumerate(offered) if text.startswith("End activation")]
        if starts:
            index, shot = starts[0], False
        elif shoots and not shot:
            index = shoots[0]
        elif ends:
            index = ends[0]
        await choose(keys, index)
    raise AssertionError(f"the battle did not end within {limit} steps")
