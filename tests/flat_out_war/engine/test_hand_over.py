"""The move and shoot checks hand what they worked out to the command's resolution (rules.py
`hand_over`): with `verify_hand_over` set, resolution compares each hand-over with what it
works out afresh, over corpus battles of both activation schemes; a hand-over is used only
by the very command just checked, on an unchanged state."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from campaign.rulesets.flat_out_war.engine.rules import FlatOutWarRules
from tests.flat_out_war.engine.corpus import DATA, battles, fingerprint

from .battle_helpers import battle, el, force, initiative

RECORDED = json.loads(DATA.read_text())
CHECKED = ("auto enlarged Horde v Host seed 5", "random initiative Human Force v Alien Force",
           "random cards Human Force v Alien Force", "random cards 1.7 examples seed 300")


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Verify every hand-over; count the resolutions that were handed one."""
    monkeypatch.setattr(FlatOutWarRules, "verify_hand_over", True)
    used: Counter[str] = Counter()
    for kind in ("move", "shoot"):
        plain = getattr(FlatOutWarRules, f"_do_{kind}")

        def spy(self: Any, state: Any, cmd: Any, ctx: Any, checked: Any = None, _plain: Any = plain,
                _kind: str = kind) -> Any:
            used[_kind] += checked is not None
            used[f"{_kind} unchecked"] += checked is None
            return _plain(self, state, cmd, ctx, checked)

        monkeypatch.setattr(FlatOutWarRules, f"_do_{kind}", spy)
    return used


@pytest.mark.parametrize("name", CHECKED)
def test_corpus_battles_play_as_recorded_with_every_hand_over_verified(name: str, counted: Counter[str]) -> None:
    _, played = dict(battles())[name]()
    assert fingerprint(played) == RECORDED[name]
    assert counted["move"] > 0 and counted["shoot"] > 0 and counted["move"] + counted["shoot"] > 7, counted


def test_a_hand_over_is_for_the_command_just_checked_on_an_unchanged_state(counted: Counter[str]) -> None:
    bt = battle(force("Red", ("Reds", (el("A", count=2),))), force("Blue", ("Blues", (el("B"),)), ("Others", (el("O"),))))
    initiative(bt, "red")
    bt.apply({"type": "activate", "unit": "reds"})
    rules, state = bt.rules, bt.state
    move = bt.types.from_dict({"type": "move", "unit": "reds", "facts": {"path": "open 2"}})
    other = bt.types.from_dict({"type": "move", "unit": "reds", "facts": {"path": "open 2"}})
    rules.check(state, move)
    assert rules._checked is not None and rules._checked[0] is move
    rules.resolve(state, move, None)  # (the spy counts the call: the generator is not run)
    assert counted["move"] == 1 and rules._checked is None  # used once
    rules.resolve(state, move, None)
    assert counted["move unchecked"] == 1
    rules.check(state, move)
    rules.resolve(state, other, None)  # an equal command, not the one checked: worked out afresh
    assert counted["move unchecked"] == 2 and rules._checked is None
    rules.check(state, move)
    state.unit("others").elements[0].alive = False  # the liveness epoch moves
    rules.resolve(state, move, None)
    assert counted["move unchecked"] == 3
    rules.check(state, move)
    rules.check(state, bt.types.from_dict({"type": "end_activation", "unit": "reds"}))  # another check drops it
    rules.resolve(state, move, None)
    assert counted["move unchecked"] == 4 and counted["move"] == 1
