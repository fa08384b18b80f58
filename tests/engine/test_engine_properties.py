"""Properties over many seeded battles: replay reproduces, undo then redo is a no-op."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.engine import AutoDice, Battle, Decision, ReplayError, UndoRefused
from engine_play import play
from toy_rules import ToyRules, toy_setup

import pytest

SIZES = st.tuples(st.lists(st.integers(1, 4), min_size=1, max_size=3), st.lists(st.integers(1, 4), min_size=1, max_size=3))


@settings(max_examples=25, deadline=None)
@given(sizes=SIZES, dice_seed=st.integers(0, 2**32), policy_seed=st.integers(0, 1000), steps=st.integers(0, 60))
def test_replaying_any_prefix_gives_the_same_state(sizes, dice_seed, policy_seed, steps) -> None:
    setup = toy_setup((tuple(sizes[0]), tuple(sizes[1])), rounds=6)
    battle = play(Battle.start(setup, AutoDice(dice_seed), rules=ToyRules()), seed=policy_seed, max_steps=steps)
    again = Battle.replay(setup, battle.log_dicts(), AutoDice(dice_seed), rules=ToyRules())
    assert again.digest() == battle.digest()
    assert again.pending == battle.pending
    assert again.dice.draws == battle.dice.draws
    # Undo then give the same command again: nothing changes. Refused only past a roll.
    if isinstance(battle.pending, Decision) and len(battle.log) > 1:
        last = battle.log[-1]
        before = (battle.digest(), battle.log_dicts())
        if last.rolls:
            with pytest.raises(UndoRefused):
                battle.undo()
        else:
            battle.undo()
            battle.apply(last.command)
        assert (battle.digest(), battle.log_dicts()) == before


def test_a_non_integer_seq_is_refused() -> None:
    with pytest.raises(ReplayError, match="seq must be a whole number"):
        Battle.replay(toy_setup(), [{"seq": "zero", "command": {"type": "start"}}], rules=ToyRules())
