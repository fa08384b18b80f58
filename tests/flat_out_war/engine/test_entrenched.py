"""[1.7] Entrenched (setup 3.5, section 20): a secret written position, revealed by the
owner's activation or an enemy within 6"; hidden from the other side in state and log."""

import pytest

from campaign.engine.battle import Battle
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import Decision
from campaign.rulesets.flat_out_war.engine.entrench import HIDDEN, positions, visible_log

from .battle_helpers import SO, V17, battle, decision, el, force, initiative, texts

FARM = "behind the ruined farm, 10 inches from the north edge"


def setup(edition=V17):
    return battle(force("Red", ("Reds", (el("A"),)), edition=edition),
                  force("Blue", ("Sappers", (el("Sapper", attributes=("Entrenched",)),)), edition=edition),
                  edition=edition)


def dug_in():
    b = setup()
    d = decision(b)  # before the first initiative roll
    assert d.side == "blue" and d.data["hidden"] and [s.type for s in d.legal] == ["entrench"]
    b.apply({"type": "entrench", "unit": "sappers", "facts": {"location": FARM}})
    initiative(b, "red")
    return b


def location_seen_by(b, viewer):
    entry = next(e for e in visible_log(b.log_dicts(), b.state, viewer) if e["command"]["type"] == "entrench")
    return entry["command"]["facts"]["location"]


def test_the_position_is_secret_to_the_owner_and_masked_in_the_log() -> None:
    b = dug_in()
    assert positions(b.state, "blue") == {"sappers": FARM} and positions(b.state, "red") == {}
    assert not any(FARM in t for t in texts(b))  # events are public: no location in them
    assert "Blue writes down where Sappers is entrenched" in texts(b)
    assert location_seen_by(b, "red") == HIDDEN and location_seen_by(b, None) == HIDDEN
    assert location_seen_by(b, "blue") == FARM
    b.apply({"type": "activate", "unit": "reds"})
    with pytest.raises(IllegalCommand, match="entrenched and hidden"):
        b.apply({"type": "melee", "unit": "reds", "target": "sappers"})


def test_an_enemy_within_6_inches_reveals_it() -> None:
    b = dug_in()
    b.apply({"type": "activate", "unit": "reds"})
    b.apply({"type": "move", "unit": "reds", "facts": {"path": "open 2", "within_6": ["sappers"]}})
    assert texts(b)[-1] == f'Sappers is revealed (an enemy came within 6"): entrenched at {FARM}'
    assert b.state.unit("sappers").data["entrenched_at"] == FARM and positions(b.state, "blue") == {}
    assert location_seen_by(b, "red") == FARM  # public once revealed
    b.apply({"type": "melee", "unit": "reds", "target": "sappers"})


def test_the_owner_reveals_it_by_activating_it_at_once() -> None:
    b = dug_in()
    b.apply({"type": "pass"})
    b.apply({"type": "activate", "unit": "sappers"})
    assert any(t.startswith("Sappers is revealed (its owner reveals it and it acts at once)") for t in texts(b))
    assert "entrenched" not in b.state.unit("sappers").markers


def test_replay_keeps_the_secret_and_the_digest() -> None:
    b = dug_in()
    again = Battle.replay(b.setup, b.log_dicts(), rules=type(b.rules)(dict(b.setup.options), edition=V17))
    assert again.digest() == b.digest() and positions(again.state, "blue") == {"sappers": FARM}


def test_the_location_must_be_text_and_so_has_no_entrenching() -> None:
    b = setup()
    with pytest.raises(IllegalCommand, match="location must be text"):
        b.apply({"type": "entrench", "unit": "sappers", "facts": {"location": 12}})
    so = setup(SO)
    assert not isinstance(so.pending, Decision)  # [SO] has no Entrenched
