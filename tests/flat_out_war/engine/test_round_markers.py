"""Markers that last one activation read as over once the round has moved past the unit
(the state keeps them until the unit's next activation: recorded digests depend on it)."""

from __future__ import annotations

from campaign.engine.battle import Battle
from tests.activation.test_fow_host import SCRIPT, SCRIPT_BLUE, SCRIPT_RED, start

from .battle_helpers import SO, battle, el, expect_roll, force, initiative


def status(b: Battle, unit: str) -> tuple[str, ...]:
    return b.rules.describe_unit(b.state, unit).status


def test_rallied_shows_in_its_round_and_not_in_the_next() -> None:
    red = force("Red", ("Reds", (el("A", count=4),)), edition=SO)
    blue = force("Blue", ("Blues", (el("B", "d10", count=4),)), edition=SO)
    b = battle(red, blue, edition=SO)
    initiative(b, "red")
    b.apply({"type": "activate", "unit": "reds"})
    b.apply({"type": "melee", "unit": "reds", "target": "blues", "facts": {}})
    b.roll([6, 1, 1, 1])
    b.roll([1])  # one Blue falls
    expect_roll(b, 10, 1, "morale")
    b.roll([1])  # broken
    b.apply({"type": "end_activation", "unit": "reds"})
    b.apply({"type": "activate", "unit": "blues"})  # it flees and fails to rally
    b.apply({"type": "move", "unit": "blues", "facts": {"path": "open 8"}})
    b.apply({"type": "rally", "unit": "blues"})
    b.roll([1])
    initiative(b, "blue")  # round 2: last round's try is over before Blues activate again
    blues = b.state.unit("blues")
    assert b.state.round == 2 and blues.markers.get("rally_tried")
    assert "rally tried" not in status(b, "blues") and "fleeing" in status(b, "blues")
    b.apply({"type": "activate", "unit": "blues"})
    b.apply({"type": "move", "unit": "blues", "facts": {"path": "open 8"}})
    b.apply({"type": "rally", "unit": "blues"})
    expect_roll(b, 10, 1, "rally")
    b.roll([10])  # rallies: shown for the rest of round 2
    assert blues.data["morale"] == "rallied" and b.state.round == 2
    assert {"rallied", "rally tried"} <= set(status(b, "blues"))
    b.apply({"type": "pass"})  # Red's turn of round 2
    initiative(b, "red")  # round 3, before Blues activate: the state still says rallied
    assert b.state.round == 3 and blues.data["morale"] == "rallied" and blues.markers.get("rally_tried")
    assert "rallied" not in status(b, "blues") and "rally tried" not in status(b, "blues")
    assert "disordered" in status(b, "blues")  # what lasts beyond the round still shows
    b.apply({"type": "pass"})  # Red
    b.apply({"type": "activate", "unit": "blues"})  # reforms: steady in the state too
    assert blues.data["morale"] == "steady" and "rallied" not in status(b, "blues")


def test_card_turn_markers_end_with_the_turn() -> None:
    """The card scheme: the Orcs' charge shows through turn 1 and not in turn 2 before their card comes up."""
    b = start(SCRIPT_RED, SCRIPT_BLUE)
    charge = SCRIPT.index({"type": "melee", "unit": "orcs", "target": "militia"})
    overwatch = SCRIPT.index({"type": "card_overwatch", "unit": "rangers"})
    for n, step in enumerate(SCRIPT[:overwatch]):
        b.roll(step) if isinstance(step, list) else b.apply(step)
        if charge <= n and b.state.round == 1:
            assert "charging Militia" in status(b, "orcs"), n
    assert b.state.round == 2 and b.state.unit("orcs").markers.get("charged") == "militia"
    assert "charging Militia" not in status(b, "orcs")
    for step in SCRIPT[overwatch:SCRIPT.index({"type": "end_activation", "unit": "orcs"})]:
        b.roll(step) if isinstance(step, list) else b.apply(step)
        assert "charging Militia" not in status(b, "orcs")  # a melee in place, no charge this turn
