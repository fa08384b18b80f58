from campaign.engine.errors import IllegalCommand
import pytest

from .battle_helpers import SO, V17, Weapon, battle, decision, el, expect_roll, force, initiative, texts


def two_units(edition=V17, red=None, blue=None):
    a = force("Red", ("Orcs", red or (el("Orc", count=2),)), edition=edition)
    b = force("Blue", ("Elves", blue or (el("Elf", count=2),)), edition=edition)
    return battle(a, b, edition=edition)


def test_melee_batch_roll_then_recovery_per_hit() -> None:
    b = two_units()
    initiative(b, "red")
    b.apply({"type": "activate", "unit": "orcs"})
    b.apply({"type": "melee", "unit": "orcs", "target": "elves", "facts": {"aspect": "flank"}})
    req = expect_roll(b, 6, 2, "to hit")
    assert "flank +1" in req.purpose
    b.roll([3, 2])  # 3 + 1 = 4 hits, 2 + 1 misses
    expect_roll(b, 6, 1, "recovery")
    b.roll([3])  # fails: destroyed
    assert any("is destroyed" in t for t in texts(b))
    elves = b.state.unit("elves")
    assert [e.alive for e in elves.elements] == [False, True]
    # 1 of 2 lost: passes the 25% and 50% thresholds: one morale roll at -2
    req = expect_roll(b, 6, 1, "morale")
    assert "2 x 25% lost -2" in req.purpose
    b.roll([5])  # 5 - 2 = 3: fails
    assert elves.data["morale"] == "broken"


def test_heavy_armour_melee_makes_no_roll() -> None:
    b = two_units(blue=(el("Knight", "d12", attributes=("Heavy Armour",)),))
    initiative(b, "red")
    b.apply({"type": "activate", "unit": "orcs"})
    b.apply({"type": "melee", "unit": "orcs", "target": "elves"})
    assert any("cannot harm" in t and "A-19" in t for t in texts(b))
    assert decision(b).side == "red"  # no dice were asked for


def test_melee_needs_contact_and_no_flank_on_two_facing_target() -> None:
    b = two_units(blue=(el("Scout", attributes=('Loose Cohesion 4"',)),))
    initiative(b, "red")
    b.apply({"type": "activate", "unit": "orcs"})
    with pytest.raises(IllegalCommand, match="base contact"):
        b.apply({"type": "melee", "unit": "orcs", "target": "elves", "facts": {"in_contact": False}})
    with pytest.raises(IllegalCommand, match="two facings"):
        b.apply({"type": "melee", "unit": "orcs", "target": "elves", "facts": {"aspect": "flank"}})


def test_so_melee_uses_weapon_die_and_charge_bonus() -> None:
    red = (el("Brute", "d6", weapons=(Weapon("Maul", "melee", "d10"),), attributes=("Charge",)),)
    b = two_units(SO, red=red)
    initiative(b, "red")
    b.apply({"type": "activate", "unit": "orcs"})
    b.apply({"type": "move", "unit": "orcs", "facts": {"contact": ["elves"], "path": "open 4"}})
    b.apply({"type": "choose", "option": "turn"})  # the elves turn to meet the charge
    b.apply({"type": "melee", "unit": "orcs", "target": "elves"})
    req = expect_roll(b, 10, 1, "to hit")
    assert "Charge +1" in req.purpose
