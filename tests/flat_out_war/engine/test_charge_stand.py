"""Charging and Stand (FOW 8, A-17, A-18): the charged unit's free shot comes first,
resolved in full with its recovery roll, before the charger's Other Action."""

from campaign.engine.pending import Decision

from .battle_helpers import Weapon, battle, decision, el, expect_roll, force, initiative, texts

BOW = Weapon("Bow", "ranged", "d6", 12)


def charge(**options):
    b = battle(force("Red", ("Orcs", (el("Orc"),))),
               force("Blue", ("Archers", (el("Archer", weapons=(BOW,), attributes=("Stand",)),))), **options)
    initiative(b, "red")
    b.apply({"type": "activate", "unit": "orcs"})
    b.apply({"type": "move", "unit": "orcs", "facts": {"contact": ["archers"], "distance": 4}})
    return b


def test_the_charged_side_decides_on_the_stand_shot_which_resolves_with_recovery() -> None:
    b = charge()
    d = decision(b)
    assert d.side == "blue" and "Stand shot" in d.prompt
    b.apply({"type": "choose", "option": "stand"})
    expect_roll(b, 6, 1, "Archers shooting at Orcs")
    b.roll([4])  # 4+: a hit
    expect_roll(b, 6, 1, "recovery, Orc hit")
    b.roll([3])  # fails: the charger is gone before it can strike
    assert not b.state.element("orcs/orc").alive
    assert any("takes a Stand shot" in t for t in texts(b))
    assert any("charges Archers" in t for t in texts(b))


def test_a_missed_stand_shot_leaves_the_charger_to_strike_with_its_charge() -> None:
    b = charge()
    b.apply({"type": "choose", "option": "stand"})
    b.roll([3])  # a miss
    assert isinstance(b.pending, Decision) and b.pending.side == "red"
    assert b.state.unit("orcs").markers.get("charging") is True  # charging for this activation
    b.apply({"type": "melee", "unit": "orcs", "target": "archers"})
    expect_roll(b, 6, 1, "Orcs")


def test_declining_or_the_option_off_gives_no_shot() -> None:
    b = charge()
    b.apply({"type": "choose", "option": "decline"})
    assert isinstance(b.pending, Decision) and b.pending.side == "red"
    assert not any("Stand shot at" in t for t in texts(b))
    off = charge(stand_prompt=False)
    assert isinstance(off.pending, Decision) and off.pending.side == "red"  # no question asked
