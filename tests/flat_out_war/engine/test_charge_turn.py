"""[SO] Turning to meet a charge (FOW 8, A-18) and the engine's record of who is in contact.

A-18's order on contact: (1) the charged unit (a loose element for itself) may turn to
face the charger, for free, unless it already touches another enemy; (2) Stand shots;
(3) the charger's Other Action, which then comes from the front of whatever turned.
"""

from fractions import Fraction

import pytest

from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import Decision
from campaign.rulesets.flat_out_war.engine import contact

from .battle_helpers import SO, V17, Weapon, battle, decision, el, expect_roll, force, initiative, texts

BOW = Weapon("Bow", "ranged", "d6", 12)
LOOSE = 'Loose Cohesion 4"'


def setup(blue, *, red=(("Orcs", (el("Orc"),)),), edition=SO, **options):
    b = battle(force("Red", *red, edition=edition), force("Blue", *blue, edition=edition),
               edition=edition, **options)
    initiative(b, "red")
    return b


def charge(b, unit="orcs", target="archers", **facts):
    b.apply({"type": "activate", "unit": unit})
    b.apply({"type": "move", "unit": unit, "facts": {"contact": [target], "distance": 4, **facts}})


def archers(*attributes, count=1):
    return (("Archers", (el("Archer", count=count, weapons=(BOW,), attributes=attributes),)),)


def test_the_charged_unit_turns_first_then_its_stand_shot_then_the_charge_comes_from_the_front() -> None:
    b = setup(archers("Stand"))
    charge(b)
    d = decision(b)
    assert d.side == "blue" and "turn to face" in d.prompt and "Orcs" in d.prompt
    assert {s.params["option"] for s in d.legal} == {"turn", "stay"}
    b.apply({"type": "choose", "option": "turn"})
    assert any("Archers turns to face Orcs" in t and "A-18" in t for t in texts(b))
    assert "Stand shot" in decision(b).prompt  # (2) comes after (1)
    b.apply({"type": "choose", "option": "decline"})
    assert decision(b).side == "red"
    with pytest.raises(IllegalCommand, match="turned to face"):
        b.apply({"type": "melee", "unit": "orcs", "target": "archers", "facts": {"aspect": "rear"}})
    b.apply({"type": "melee", "unit": "orcs", "target": "archers"})
    req = expect_roll(b, 6, 1, "Orcs in melee Archers")
    assert "rear" not in req.purpose


def test_a_unit_that_stays_put_is_hit_in_the_rear_with_the_bonus() -> None:
    b = setup(archers())
    charge(b)
    b.apply({"type": "choose", "option": "stay"})
    assert any("Archers holds its facing" in t for t in texts(b))
    b.apply({"type": "melee", "unit": "orcs", "target": "archers", "facts": {"aspect": "rear"}})
    req = expect_roll(b, 6, 1, "Orcs in melee Archers")
    assert "rear +2" in req.purpose
    b.roll([2])  # 2 + 2 = 4: a hit
    expect_roll(b, 6, 1, "recovery, Archer")


def test_no_turn_for_a_unit_already_touching_another_enemy() -> None:
    red = (("Orcs", (el("Orc"),)), ("Wolves", (el("Wolf"),)))
    b = setup(archers(), red=red)
    charge(b)  # the orcs charge first: the archers may still turn
    b.apply({"type": "choose", "option": "stay"})
    b.apply({"type": "end_activation", "unit": "orcs"})
    b.apply({"type": "pass"})  # blue: the round ends, and the contact lasts into the next one
    initiative(b, "red")
    charge(b, "wolves")  # now the archers touch the orcs: no turn for the wolves' charge
    assert decision(b).side == "red"
    assert any("Archers already touches Orcs" in t and "cannot turn" in t for t in texts(b))
    b.apply({"type": "melee", "unit": "wolves", "target": "archers", "facts": {"aspect": "flank"}})
    assert "flank +1" in expect_roll(b, 6, 1, "Wolves in melee").purpose


@pytest.mark.parametrize("named", ["archers", "archers/archer"])
def test_the_players_say_when_a_charged_unit_already_touches_another_enemy(named) -> None:
    b = setup(archers())
    charge(b, contact_elsewhere=[named])  # the unit, or one of its elements, touches something unrecorded
    assert decision(b).side == "red"
    assert any("cannot turn" in t for t in texts(b))


def test_loose_elements_decide_for_themselves() -> None:
    red = (("Orcs", (el("Orc", count=2),)),)
    b = setup(archers(LOOSE, count=2), red=red)
    first, second = (e.id for e in b.state.unit("archers").elements)
    charge(b)
    d = decision(b)
    assert {s.type for s in d.legal} == {"choose", "report"} and "each element" in d.prompt
    assert d.data["pick_elements"] == [first, second]  # what a UI offers to pick from
    with pytest.raises(IllegalCommand, match="no element"):
        b.apply({"type": "report", "elements": ["orcs/orc-1"]})
    b.apply({"type": "report", "elements": [first]})
    assert b.state.element(first).markers.get("faced") and not b.state.element(second).markers.get("faced")
    # one attack on each: the turned element is attacked from its front, the other in the flank
    b.apply({"type": "melee", "unit": "orcs", "target": "archers",
             "facts": {"aspect": "flank", "allocate": [first, second]}})
    plain = expect_roll(b, 6, 1, "Orcs in melee Archers")
    assert "flank" not in plain.purpose
    b.roll([3])  # 3: a miss from the front
    assert "flank +1" in expect_roll(b, 6, 1, "Orcs in melee Archers").purpose
    b.roll([3])  # 3 + 1: a hit on the element that did not turn
    expect_roll(b, 6, 1, f"recovery, {b.state.element(second).name}")


def test_a_loose_element_already_touching_another_enemy_may_not_turn() -> None:
    b = setup(archers(LOOSE, count=2))
    first, second = (e.id for e in b.state.unit("archers").elements)
    charge(b, contact_elsewhere=[first])
    with pytest.raises(IllegalCommand, match="already touches another enemy"):
        b.apply({"type": "report", "elements": [first]})
    b.apply({"type": "choose", "option": "all"})
    assert not b.state.element(first).markers.get("faced")
    assert b.state.element(second).markers.get("faced")


def test_every_element_turned_refuses_a_flank_attack_and_the_turn_lasts_one_activation() -> None:
    b = setup(archers(LOOSE, count=2))
    charge(b)
    b.apply({"type": "choose", "option": "all"})
    with pytest.raises(IllegalCommand, match="turned to face"):
        b.apply({"type": "melee", "unit": "orcs", "target": "archers", "facts": {"aspect": "flank"}})
    b.apply({"type": "end_activation", "unit": "orcs"})
    assert not any(e.markers.get("faced") for e in b.state.unit("archers").elements)


def test_odds_see_the_turn() -> None:
    b = setup(archers("Stand", LOOSE, count=2))
    first, _ = (e.id for e in b.state.unit("archers").elements)
    charge(b)
    b.apply({"type": "report", "elements": [first]})
    b.apply({"type": "choose", "option": "decline"})  # no Stand shot
    facts = {"aspect": "rear", "allocate": [first]}
    odds = b.rules.odds(b.state, b.types.from_dict({"type": "melee", "unit": "orcs", "target": "archers",
                                                    "facts": facts}))
    assert odds.p_hit == (Fraction(1, 2),)  # d6 from the front, no rear +2: 4+


def test_flat_out_war_1_7_and_the_option_off_ask_nothing() -> None:
    old = setup(archers(), edition=V17)
    charge(old)
    assert isinstance(old.pending, Decision) and old.pending.side == "red"
    off = setup(archers(), face_charge_prompt=False)
    charge(off)
    assert off.pending.side == "red"
    assert not any("turn to face" in t for t in texts(off))


# --- contact --------------------------------------------------------------------------


def test_a_charge_records_contact_both_ways_and_moving_away_breaks_it() -> None:
    red = (("Orcs", (el("Orc"),)), ("Wolves", (el("Wolf"),)))
    b = setup(archers(), red=red, face_charge_prompt=False)
    orcs, arch = b.state.unit("orcs"), b.state.unit("archers")
    charge(b)
    assert orcs.data["engaged"] == ["archers"] and arch.data["engaged"] == ["orcs"]
    b.apply({"type": "end_activation", "unit": "orcs"})
    b.apply({"type": "activate", "unit": "archers"})
    b.apply({"type": "move", "unit": "archers", "facts": {"distance": 3}})  # walks away
    assert "engaged" not in orcs.data and "engaged" not in arch.data
    assert any("Archers breaks off from Orcs" in t for t in texts(b))


def test_a_melee_on_the_players_word_records_contact_and_a_gone_unit_touches_nobody() -> None:
    b = setup(archers(), face_charge_prompt=False)
    b.apply({"type": "activate", "unit": "orcs"})
    b.apply({"type": "melee", "unit": "orcs", "target": "archers"})  # in_contact: the players' word
    assert contact.touching(b.state, b.state.unit("orcs")) == [b.state.unit("archers")]
    b.roll([6])
    b.roll([1])  # the only archer fails its recovery: the unit is gone
    assert b.state.unit("archers").eliminated
    assert contact.touching(b.state, b.state.unit("orcs")) == []


def test_contact_elsewhere_must_name_a_charged_unit_or_one_of_its_elements() -> None:
    b = setup(archers(), red=(("Orcs", (el("Orc"),)), ("Wolves", (el("Wolf"),))))
    b.apply({"type": "activate", "unit": "orcs"})
    with pytest.raises(IllegalCommand, match="Wolves is on the same side"):
        b.apply({"type": "move", "unit": "orcs", "facts": {"contact": ["wolves"]}})
    with pytest.raises(IllegalCommand, match="not a unit this move contacts"):
        b.apply({"type": "move", "unit": "orcs", "facts": {"contact": ["archers"], "contact_elsewhere": ["orcs"]}})
    with pytest.raises(IllegalCommand, match="not a unit this move contacts"):
        b.apply({"type": "move", "unit": "orcs", "facts": {"contact": ["archers"],
                                                            "contact_elsewhere": ["archers/nobody"]}})


def test_a_teleported_unit_leaves_contact() -> None:
    red = (("Orcs", (el("Orc"),)), ("Coven", (el("Mage", "d8", attributes=("Magic",), spells=("Teleport",)),)))
    b = setup(archers(), red=red, face_charge_prompt=False)
    charge(b)
    b.apply({"type": "end_activation", "unit": "orcs"})
    b.apply({"type": "pass"})
    initiative(b, "red")
    b.apply({"type": "activate", "unit": "coven"})
    b.apply({"type": "cast", "unit": "coven", "element": "coven/mage", "spell": "Teleport", "target": "archers"})
    b.roll([8])
    assert any("Archers is no longer in contact with Orcs" in t for t in texts(b))
    assert contact.touching(b.state, b.state.unit("orcs")) == []
