"""Resuming from a snapshot gives the very battle a whole replay gives (campaign/engine/snapshot.py)."""

from __future__ import annotations

import attrs
import pytest

from campaign.engine.battle import Battle
from campaign.engine.pending import Decision
from campaign.engine.snapshot import SnapshotError, dumps, encode, loads
from campaign.rulesets.flat_out_war.engine.autoplay import play_out
from tests.flat_out_war.engine.corpus import battles

CORPUS = dict(battles())
NAMES = ["auto Human Force v Alien Force seed 1", "auto 1.7 examples seed 2", "auto enlarged Horde v Host seed 5",
         "random initiative Orc & Ghoblin Force v Demonic Force", "random initiative 1.7 examples seed 300"]


@pytest.fixture(autouse=True)
def often(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Battle, "CHECKPOINT_EVERY", 6)  # checkpoints all through these short battles


def same(a: Battle, b: Battle) -> None:
    assert a.digest() == b.digest()
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]
    assert a.log_dicts() == b.log_dicts()
    assert repr(a.pending) == repr(b.pending)


@pytest.mark.parametrize("name", NAMES)
def test_a_resumed_battle_is_the_replayed_one_and_plays_on_alike(name: str) -> None:
    setup, battle = CORPUS[name]()
    log = battle.log_dicts()
    for cut in (len(log) // 2, len(log) - 3, len(log)):
        replayed = Battle.replay(setup, log[:cut], checkpoints=True)
        snapshot = replayed.snapshot()
        assert snapshot is not None and 0 < snapshot.entry < cut
        resumed = Battle.resume(setup, log[:cut], loads(dumps(snapshot)))
        same(resumed, replayed)
        if setup.dice == "auto" and isinstance(resumed.pending, Decision):
            play_out(resumed, seed=9, max_steps=15)
            play_out(replayed, seed=9, max_steps=15)
            same(resumed, replayed)


def test_undo_rebuilds_from_the_checkpoint_to_the_replayed_battle() -> None:
    setup, battle = CORPUS["random initiative Human Force v Alien Force"]()
    log = battle.log_dicts()
    cuts = [n for n in range(20, len(log)) if not log[n - 1]["rolls"]]  # a last entry without dice can be undone
    assert cuts
    for cut in cuts[-3:]:
        played = Battle.replay(setup, log[:cut], checkpoints=True)
        assert played.checkpoint_entry is not None and played.checkpoint_entry > 0
        played.undo()
        same(played, Battle.replay(setup, log[: cut - 1]))


def test_a_snapshot_of_another_log_or_state_is_refused() -> None:
    setup, battle = CORPUS["auto Human Force v Alien Force seed 2"]()
    log = battle.log_dicts()
    snapshot = Battle.replay(setup, log, checkpoints=True).snapshot()
    assert snapshot is not None
    other = [dict(e) for e in log]
    other[1] = {**other[1], "side": "b" if other[1]["side"] == "a" else "a"}
    with pytest.raises(SnapshotError, match="another log"):
        Battle.resume(setup, other, snapshot)
    state = loads(dumps(snapshot)).state
    state.round += 1  # a state that is not the one the snapshot's digest names
    with pytest.raises(SnapshotError, match="not the one"):
        Battle.resume(setup, log, attrs.evolve(snapshot, state=encode(state)))
    with pytest.raises(SnapshotError):
        loads(dumps(snapshot).replace('"__event"', '"__bogus"', 1))  # a damaged cache file
