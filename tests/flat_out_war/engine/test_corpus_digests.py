"""Generated Flat Out War battles still play, and replay, to the digests recorded in
corpus_digests.json (made before the engine's speed work: see corpus.py)."""

from __future__ import annotations

import json

import pytest

from campaign.engine.battle import Battle
from tests.flat_out_war.engine.corpus import DATA, battles, fingerprint

RECORDED = json.loads(DATA.read_text())
BATTLES = dict(battles())


def test_the_corpus_is_the_recorded_one() -> None:
    assert sorted(BATTLES) == sorted(RECORDED) and len(BATTLES) >= 30


@pytest.mark.parametrize("name", sorted(BATTLES))
def test_battle_plays_and_replays_to_its_recorded_digest(name: str) -> None:
    setup, battle = BATTLES[name]()
    assert fingerprint(battle) == RECORDED[name]
    assert battle.is_over
    again = Battle.replay(setup, battle.log_dicts())
    assert again.digest() == RECORDED[name]["digest"]
    assert len(again.events) == RECORDED[name]["events"]
