"""Recovery replacements, morale and flight, officers, movement, Lucky, Sticky, VPs and undo in play."""

from fractions import Fraction

import pytest

from campaign.engine.errors import IllegalCommand, UndoRefused
from campaign.engine.pending import RollRequest

from .battle_helpers import SO, V17, Objective, Weapon, battle, decision, el, expect_roll, force, initiative, texts


def duel(red, blue, edition=SO, **opts):
    a = force("Red", *red, edition=edition)
    b = force("Blue", *blue, edition=edition)
    bt = battle(a, b, edition=edition, **opts)
    initiative(bt, "red")
    return bt


def melee(b, unit="reds", target="blues", **facts):
    b.apply({"type": "activate", "unit": unit})
    b.apply({"type": "melee", "unit": unit, "target": target, "facts": facts})


def test_hit_points_then_removal() -> None:
    b = duel([("Reds", (el("A", count=2),))], [("Blues", (el("Ogre", "d8", attributes=("Hit Points 1",)),))])
    melee(b)
    b.roll([6, 6])
    b.roll([1])  # fails: loses its Hit Point
    assert b.state.element("blues/ogre").data["hp"] == 0
    b.roll([1])  # fails again: removed
    assert not b.state.element("blues/ogre").alive


def test_resilient_steps_down_and_reliant_goes_down_then_gets_up() -> None:
    b = duel([("Reds", (el("A", count=2),))],
             [("Blues", (el("Golem", "d6", attributes=("Resilient", "Reliant")),))])
    melee(b)
    b.roll([6, 6])
    b.roll([2])
    golem = b.state.element("blues/golem")
    assert golem.data["die"] == 4
    expect_roll(b, 4, 1, "recovery")  # the second hit: rolled on the smaller die
    b.roll([1])
    assert golem.markers["down"] and golem.alive  # d4 cannot step: Reliant keeps it, down
    # blue's turn starts: the down element rolls again
    b.apply({"type": "end_activation", "unit": "reds"})
    expect_roll(b, 4, 1, "recovery (Reliant)")
    b.roll([4])
    assert "down" not in golem.markers


def test_airborne_flyer_crashes_on_a_natural_one() -> None:
    b = duel([("Reds", (el("Gunner", weapons=(Weapon("Gun", "ranged", "d8", 12),)),))],
             [("Blues", (el("Bat", "d6", attributes=("Flying", "Tough")),))])
    b.state.element("blues/bat").markers["airborne"] = True
    b.apply({"type": "activate", "unit": "reds"})
    b.apply({"type": "shoot", "unit": "reds", "target": "blues"})
    b.roll([8])
    b.roll([1])  # natural 1 in the air
    assert "crashes" in texts(b)[-1]
    expect_roll(b, 6, 1, "crash recovery")
    b.roll([3])  # 3 + 1 = 4: survives, landed
    bat = b.state.element("blues/bat")
    assert bat.alive and "airborne" not in bat.markers


def test_flee_rally_and_reform() -> None:
    b = duel([("Reds", (el("A", count=4),))], [("Blues", (el("B", count=4),))])
    melee(b)
    b.roll([6, 1, 1, 1])
    b.roll([1])  # one of four lost: 25%
    req = expect_roll(b, 6, 1, "morale")
    assert "1 x 25% lost -1" in req.purpose
    b.roll([4])  # 4 - 1 = 3: broken
    blues = b.state.unit("blues")
    assert blues.data["morale"] == "broken"
    b.apply({"type": "end_activation", "unit": "reds"})
    d = decision(b)
    assert d.side == "blue"
    b.apply({"type": "activate", "unit": "blues"})
    assert blues.data["morale"] == "fleeing" and blues.data["disordered"]
    legal = {s.type for s in decision(b).legal}
    assert "melee" not in legal and "shoot" not in legal and "move" in legal
    b.apply({"type": "move", "unit": "blues", "facts": {"path": "open 8"}})  # flight: a run
    b.apply({"type": "rally", "unit": "blues"})
    req = expect_roll(b, 6, 1, "rally")
    assert "Frightened -2" in req.purpose
    b.roll([6])  # 6 - 1 - 2 = 3: fails, still fleeing
    assert blues.data["morale"] == "fleeing"
    initiative(b, "blue")
    b.apply({"type": "activate", "unit": "blues"})
    b.apply({"type": "move", "unit": "blues", "facts": {"path": "open 8"}})
    b.apply({"type": "rally", "unit": "blues"})
    b.roll([6])
    assert blues.data["morale"] == "fleeing"
    b.apply({"type": "pass"})  # red
    initiative(b, "blue")
    b.apply({"type": "activate", "unit": "blues"})
    b.apply({"type": "move", "unit": "blues", "facts": {"path": "open 8", "left_table": True}})
    assert blues.eliminated and "lost for the game" in " ".join(texts(b))
    assert b.rules.victory_points(b.state)["red"] == blues.data["cost"] / 4


def test_rallied_tight_unit_reforms_with_its_move() -> None:
    b = duel([("Reds", (el("A"),))], [("Blues", (el("B", count=2),))])
    blues = b.state.unit("blues")
    blues.data.update(morale="rallied", disordered=True)
    b.apply({"type": "pass"})
    b.apply({"type": "activate", "unit": "blues"})
    assert blues.data["morale"] == "steady"
    legal = {s.type for s in decision(b).legal}
    assert "move" not in legal and "melee" in legal


def test_seeing_a_unit_fail_makes_witnesses_roll() -> None:
    b = duel([("Reds", (el("A", count=4),))], [("Blues", (el("B", count=4),)), ("Others", (el("C"),))],
             ask_witnesses=True)
    melee(b)
    b.roll([6, 1, 1, 1])
    b.roll([1])
    b.roll([1])  # morale fails
    d = decision(b)
    assert d.side == "blue" and "saw" in d.prompt
    b.apply({"type": "report", "units": ["others"]})
    req = expect_roll(b, 6, 1, "morale, Others (saw Blues fail)")
    b.roll([6])


def test_fearsome_unit_makes_enemies_roll_once_per_pair() -> None:
    b = duel([("Reds", (el("Dragon", "d12", attributes=("Fearsome",)),))], [("Blues", (el("B", count=2),))])
    b.apply({"type": "activate", "unit": "reds"})
    b.apply({"type": "move", "unit": "reds", "facts": {"near": ["blues"]}})
    expect_roll(b, 6, 1, "fear of Reds")
    b.roll([5])
    b.apply({"type": "end_activation", "unit": "reds"})
    b.apply({"type": "activate", "unit": "blues"})
    b.apply({"type": "move", "unit": "blues", "facts": {"near": ["reds"]}})
    assert not isinstance(b.pending, RollRequest)  # the pair has already rolled


def test_officer_attaches_and_gives_plus_two() -> None:
    b = duel([("Captain", (el("Captain", "d8", attributes=("Command",)),)), ("Reds", (el("A", count=2),))],
             [("Blues", (el("B"),))])
    b.apply({"type": "activate", "unit": "captain"})
    legal = {s.type for s in decision(b).legal}
    assert "attach" in legal and "melee" in legal  # on its own an officer may still fight
    b.apply({"type": "attach", "unit": "captain", "target": "reds"})
    roll, _ = b.rules._morale_roll(b.state, b.state.unit("reds"), rally=False)
    assert roll.die == 8 and roll.modifier == 2
    assert not b.rules.can_activate(b.state, "captain")


def test_running_a13_and_light_terrain_tests() -> None:
    b = duel([("Reds", (el("A", count=2),))], [("Blues", (el("B"),))], edition=V17)
    b.apply({"type": "activate", "unit": "reds"})
    b.apply({"type": "melee", "unit": "reds", "target": "blues"})
    b.roll([1, 1])
    with pytest.raises(IllegalCommand, match="A-13"):
        b.apply({"type": "move", "unit": "reds", "facts": {"run": True}})


def test_run_declared_with_the_action_applies_minus_one_and_light_terrain_hits() -> None:
    b = duel([("Reds", (el("A", count=2),))], [("Blues", (el("B"),))], edition=V17)
    b.apply({"type": "activate", "unit": "reds"})
    b.apply({"type": "melee", "unit": "reds", "target": "blues", "facts": {"will_run": True}})
    assert "ran -1" in b.pending.purpose
    b.roll([1, 1])
    b.apply({"type": "move", "unit": "reds", "facts": {"run": True, "path": "open 6, light 1",
                                                      "light_terrain": ["reds/a"]}})
    expect_roll(b, 6, 1, "running through light terrain")
    b.roll([2])  # fails: a hit, then recovery
    expect_roll(b, 6, 1, "recovery")


def test_no_running_through_heavy_terrain_or_for_unfeeling_or_v17_vehicles() -> None:
    b = duel([("Reds", (el("A"),)), ("Bots", (el("Bot", attributes=("Unfeeling",)),)),
              ("Cars", (el("Car", kind="vehicle"),))], [("Blues", (el("B"),))], edition=V17)
    b.apply({"type": "activate", "unit": "reds"})
    with pytest.raises(IllegalCommand, match="heavy"):
        b.apply({"type": "move", "unit": "reds", "facts": {"run": True, "path": "heavy 1"}})
    with pytest.raises(IllegalCommand, match="only 4"):
        b.apply({"type": "move", "unit": "reds", "facts": {"path": "heavy 2"}})
    b.apply({"type": "move", "unit": "reds", "facts": {"path": "light 2", "prone": "down"}})
    assert b.state.element("reds/a").markers["prone"]


def test_vehicles_never_go_prone_and_prone_targets_are_easier_in_melee() -> None:
    b = duel([("Cars", (el("Car", kind="vehicle"),)), ("Reds", (el("A"),))], [("Blues", (el("B"),))], edition=SO)
    b.apply({"type": "activate", "unit": "cars"})
    with pytest.raises(IllegalCommand, match="vehicles never go prone"):
        b.apply({"type": "move", "unit": "cars", "facts": {"prone": "down"}})


def test_lucky_reroll_keeps_the_better_face() -> None:
    b = duel([("Reds", (el("Hero", attributes=("Lucky",)),))], [("Blues", (el("B"),))], lucky_prompt=True)
    melee(b)
    b.roll([2])
    d = decision(b)
    assert d.side == "red" and "Lucky" in d.prompt
    b.apply({"type": "reroll", "reason": "lucky"})
    b.roll([5])
    assert any("keeps 5" in t for t in texts(b))
    expect_roll(b, 6, 1, "recovery")
    assert b.state.element("reds/hero").data["lucky_used"] is True  # [SO] once per game


def test_sticky_marker_follows_up_and_steps_down() -> None:
    b = duel([("Reds", (el("Goo", "d8", attributes=("Sticky",), weapons=(Weapon("Slime", "melee", "d8"),)),))],
             [("Blues", (el("B", "d8"),))])
    melee(b)
    b.roll([6])
    b.roll([5])  # survives
    target = b.state.element("blues/b")
    assert target.markers["sticky"]["die"] == 6
    b.apply({"type": "end_activation", "unit": "reds"})
    b.apply({"type": "pass"})
    initiative(b, "red")
    expect_roll(b, 6, 1, "Sticky follow-up")  # at the start of red's next turn
    b.roll([5])
    b.roll([6])  # recovers
    assert target.markers["sticky"]["die"] == 4
    b.apply({"type": "pass"})
    b.apply({"type": "pass"})
    initiative(b, "red")
    b.roll([2])  # a miss leaves the marker
    assert target.markers["sticky"]["die"] == 4


def test_vps_objectives_and_strategic_victory() -> None:
    b = duel([("Reds", (el("A", count=2),))], [("Blues", (el("B"),)), ("Others", (el("C"),))],
             objectives=(Objective("Hill", 10),))
    melee(b)
    b.roll([6, 6])
    b.roll([1])  # the Blue element is destroyed: unit eliminated
    cost = b.state.unit("blues").data["cost"]
    assert cost == 12  # d6 base 4 + sword 2DAC 4 + MOVE 4" 4
    assert b.rules.victory_points(b.state) == {"red": Fraction(3), "blue": Fraction(0)}
    with pytest.raises(IllegalCommand, match="no objective 'Tower'"):
        b.apply({"type": "objective", "side": "red", "objective": "Tower"})
    b.apply({"type": "objective", "side": "red", "objective": "Hill"})
    assert b.rules.victory_points(b.state)["red"] == 13
    b.apply({"type": "strategic_victory", "side": "red"})
    assert b.is_over
    out = b.outcome()
    assert out.strategic_winner == "red" and out.side("red").vp == 13
    assert out.side("blue").units_eliminated == ("Blues",)
    assert out.side("blue").casualties[0].lost == 1


def test_battle_ends_when_one_side_is_left() -> None:
    b = duel([("Reds", (el("A"),))], [("Blues", (el("B"),))])
    melee(b)
    b.roll([6])
    b.roll([1])
    assert b.is_over and "only Red" in b.state.end_reason


def test_undo_takes_back_a_decision_but_not_rolled_dice() -> None:
    b = duel([("Reds", (el("A"),))], [("Blues", (el("B"),))])
    before = b.digest()
    b.apply({"type": "activate", "unit": "reds"})
    b.undo()
    assert b.digest() == before
    melee(b)
    b.roll([3])
    with pytest.raises(UndoRefused):
        b.undo()


def test_trigger_attacks_back_outside_its_activation() -> None:
    armour = el("Knight", "d6", attributes=("Trigger: strikes back when attacked in melee",),
                weapons=(Weapon("Spikes", "melee", "d8"),))
    b = duel([("Reds", (el("A"),))], [("Blues", (armour,))])
    melee(b)
    b.roll([1])  # the attack misses
    d = decision(b)
    assert d.side == "blue" and "strikes back when attacked in melee" in d.prompt
    b.apply({"type": "choose", "option": "trigger"})
    expect_roll(b, 8, 1, "(Trigger) in melee")


def test_destroyed_transport_passengers_roll_recovery() -> None:
    b = duel([("Reds", (el("Gunner", "d12", weapons=(Weapon("AT", "ranged", "d12", 24),)),))],
             [("Blues", (el("Truck", "d8", kind="vehicle", attributes=("Transport 4 x d6",)),)),
              ("Riders", (el("Rider", count=2),))])
    b.apply({"type": "pass"})  # red passes; blue boards
    b.apply({"type": "activate", "unit": "riders"})
    b.apply({"type": "move", "unit": "riders", "facts": {"embark": "blues/truck"}})
    b.apply({"type": "end_activation", "unit": "riders"})
    initiative(b, "red")
    b.apply({"type": "activate", "unit": "reds"})
    b.apply({"type": "shoot", "unit": "reds", "target": "blues"})
    b.roll([10])
    b.roll([1])  # the truck is destroyed
    expect_roll(b, 6, 1, "Truck destroyed")
    b.roll([5])
    expect_roll(b, 6, 1, "Truck destroyed")
    b.roll([2])
    riders = b.state.unit("riders")
    assert [e.alive for e in riders.elements] == [True, False]


def test_v17_extra_weapon_fires_only_with_the_main_weapon() -> None:
    tank = el("Tank", "d10", kind="vehicle", weapons=(Weapon("Gun", "ranged", "d10", 24),
                                                      Weapon("MG", "ranged", "d6", 12, mount="extra")))
    b = duel([("Reds", (tank,))], [("Blues", (el("B"),))], edition=V17)
    b.apply({"type": "activate", "unit": "reds"})
    with pytest.raises(IllegalCommand, match="alongside the main weapon"):
        b.apply({"type": "shoot", "unit": "reds", "target": "blues", "facts": {"weapons": ["MG"]}})
    b.apply({"type": "shoot", "unit": "reds", "target": "blues", "facts": {"weapons": ["Gun", "MG"]}})
    expect_roll(b, 10, 1, "to hit")


def test_activate_linked_attribute_starts_off_and_switching_uses_the_action() -> None:
    cloak = el("Spy", attributes=("Activate: Stealth",))
    b = duel([("Reds", (cloak,))], [("Blues", (el("B"),))])
    spy = b.state.element("reds/spy")
    assert not b.rules.combatant(b.state, spy).has("stealth")
    b.apply({"type": "activate", "unit": "reds"})
    b.apply({"type": "switch", "unit": "reds", "element": "reds/spy"})
    assert b.rules.combatant(b.state, spy).has("stealth")
    legal = {s.type for s in decision(b).legal}
    assert "melee" not in legal and "switch" not in legal  # the Other Action is spent


def test_landing_takes_the_whole_move_and_jumps_are_limited() -> None:
    b = duel([("Birds", (el("Bird", attributes=("Flying",)),)), ("Frogs", (el("Frog", attributes=('Jump 4"',)),))],
             [("Blues", (el("B"),))])
    b.apply({"type": "activate", "unit": "frogs"})
    with pytest.raises(IllegalCommand, match='at most 4"'):
        b.apply({"type": "move", "unit": "frogs", "facts": {"jump": True, "distance": 6}})
    with pytest.raises(IllegalCommand, match="only Flying"):
        b.apply({"type": "move", "unit": "frogs", "facts": {"fly": "take_off"}})
    b.apply({"type": "move", "unit": "frogs", "facts": {"jump": True, "distance": 4,
                                                       "jump_heavy": ["frogs/frog"]}})
    expect_roll(b, 6, 1, "jump in heavy terrain")
    b.roll([4])
    assert b.state.element("frogs/frog").markers["jumped"]  # counts as Jumping for Anti-flyer
    b.apply({"type": "end_activation", "unit": "frogs"})
    b.apply({"type": "pass"})
    initiative(b, "red")
    b.apply({"type": "activate", "unit": "birds"})
    b.apply({"type": "move", "unit": "birds", "facts": {"fly": "take_off", "path": "open 3"}})
    b.apply({"type": "end_activation", "unit": "birds"})
    b.apply({"type": "pass"})
    initiative(b, "red")
    b.apply({"type": "activate", "unit": "birds"})
    with pytest.raises(IllegalCommand, match="at least 2"):
        b.apply({"type": "move", "unit": "birds", "facts": {"path": "open 1"}})
    with pytest.raises(IllegalCommand, match="whole move"):
        b.apply({"type": "move", "unit": "birds", "facts": {"fly": "land", "path": "open 2"}})
    b.apply({"type": "move", "unit": "birds", "facts": {"fly": "land"}})
    assert "airborne" not in b.state.element("birds/bird").markers


def test_attacker_allocates_hits_in_a_declared_order() -> None:
    b = duel([("Reds", (el("A"),))], [("Blues", (el("Trooper", count=2), el("Leader", "d8")))])
    b.apply({"type": "activate", "unit": "reds"})
    b.apply({"type": "melee", "unit": "reds", "target": "blues", "facts": {"allocate": ["blues/leader"]}})
    b.roll([5])
    expect_roll(b, 8, 1, "recovery, Leader")


def test_sailed_wind_roll_headings_and_turning_out_of_the_wind() -> None:
    a = force("Red", ("Ships", (el("Ship", "d10", kind="vehicle", move=8, attributes=("Sailed",)),)), edition=V17)
    b_ = force("Blue", ("Blues", (el("B"),)), edition=V17)
    b = battle(a, b_, edition=V17)
    expect_roll(b, 8, 1, "wind direction")
    b.roll([3])
    assert b.state.data["wind"] == "E"
    initiative(b, "red")
    b.apply({"type": "activate", "unit": "ships"})
    with pytest.raises(IllegalCommand, match="never head straight into the wind"):
        b.apply({"type": "move", "unit": "ships", "facts": {"heading": "into_wind", "path": "open 1"}})
    with pytest.raises(IllegalCommand, match="only 2"):
        b.apply({"type": "move", "unit": "ships", "facts": {"heading": "upwind", "path": "open 3"}})
    b.apply({"type": "move", "unit": "ships", "facts": {"heading": "crosswind", "path": "open 4",
                                                       "ends_into_wind": True}})
    b.apply({"type": "end_activation", "unit": "ships"})
    b.apply({"type": "pass"})
    initiative(b, "red")
    b.apply({"type": "activate", "unit": "ships"})
    b.apply({"type": "move", "unit": "ships", "facts": {"heading": "downwind", "path": "open 8"}})
    expect_roll(b, 4, 1, "turn out of the wind")  # [1.7] d4 points, left or right


def test_units_lost_in_an_earlier_battle_are_absent_and_worth_nothing() -> None:
    import attrs

    gone = attrs.evolve(el("Ghost", count=2), lost=2)
    b = duel([("Reds", (el("A"),))], [("Blues", (el("B"),)), ("Ghosts", (gone,))])
    assert b.state.unit("ghosts").data["absent"]
    assert b.rules.victory_points(b.state) == {"red": 0, "blue": 0}


def test_a_resilient_die_carries_over_from_element_state() -> None:
    import attrs

    worn = attrs.evolve(el("Golem", "d8", attributes=("Resilient",)), state={"die": "d6"})
    b = duel([("Reds", (el("A"),))], [("Blues", (worn,))])
    assert b.state.element("blues/golem").data["die"] == 6
    melee(b)
    b.roll([6])
    expect_roll(b, 6, 1, "recovery")
    b.roll([1])  # steps to d4
    out = b.rules.outcome(b.state)
    assert out.side("blue").casualties[0].state == {"die": "d4"}


def test_formation_change_costs_half_the_move() -> None:
    b = duel([("Reds", (el("A", count=6),))], [("Blues", (el("B"),))])
    b.apply({"type": "activate", "unit": "reds"})
    with pytest.raises(IllegalCommand, match="only 2"):
        b.apply({"type": "move", "unit": "reds", "facts": {"formation": "column", "path": "open 3"}})
    b.apply({"type": "move", "unit": "reds", "facts": {"formation": "column", "path": "open 2", "pivot_start": 90}})
    assert b.state.unit("reds").data["formation"] == "column"
