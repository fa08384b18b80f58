"""[SO] Reliant (A-29): the element it relies on, named as `Reliant: NAME`."""

from campaign.force import Element
from campaign.rulesets.flat_out_war.engine.reliant import Piece, orphaned, reliant_on, resolve_link

from .battle_helpers import SO, el, force, battle, initiative, texts


def duel(red, blue):
    b = battle(force("Red", *red, edition=SO), force("Blue", *blue, edition=SO), edition=SO)
    initiative(b, "red")
    return b


def kill_node(b, target="hive"):
    b.apply({"type": "activate", "unit": "reds"})
    b.apply({"type": "melee", "unit": "reds", "target": target})
    b.roll([6])  # a hit
    b.roll([1])  # the node fails its recovery


def test_the_link_is_read_from_the_attribute_text() -> None:
    assert reliant_on(Element("Drone", die="d6", attributes=("Reliant: Hive Node",))) == "Hive Node"
    assert reliant_on(Element("Drone", die="d6", attributes=("Reliant",))) == ""
    own = Piece("drones/drone-1", "Drone", "drones", "Drones")
    side = [own, Piece("hive/hive-node", "Hive Node", "hive", "Hive"),
            Piece("drones/hive-node", "hive node", "drones", "Drones"), Piece("x/y", "Y", "x", "Brood")]
    assert resolve_link("Hive Node", own, side) == ("drones/hive-node",)  # its own unit's copy first
    assert resolve_link("brood", own, side) == ("x/y",)  # else a unit by name
    assert resolve_link("Nothing", own, side) == ()
    assert orphaned(["a", "b"], ["b"]) is False and orphaned(["a"], []) is True and orphaned([], []) is False


def test_reliant_elements_go_when_the_element_they_rely_on_is_destroyed() -> None:
    b = duel([("Reds", (el("A"),))],
             [("Hive", (el("Hive Node"),)), ("Drones", (el("Drone", count=2, attributes=("Reliant: Hive Node",)),))])
    drones = b.state.unit("drones")
    assert drones.elements[0].data["reliant_on"] == ["hive/hive-node"]
    kill_node(b)
    assert not any(e.alive for e in drones.elements)
    assert sum("relies on has left the game" in t for t in texts(b)) == 2
    assert drones.data["eliminated_by"] == "red"  # the VPs go to whoever removed the node
    assert b.rules.victory_points(b.state)["red"] > 0


def test_a_down_reliant_element_is_removed_with_its_link_and_a_plain_one_stays() -> None:
    b = duel([("Reds", (el("A"),))],
             [("Hive", (el("Hive Node"),)),
              ("Drones", (el("Drone", attributes=("Reliant: Hive",)), el("Loner", attributes=("Reliant",))))])
    drone, loner = b.state.unit("drones").elements
    drone.markers["down"] = True
    kill_node(b)
    assert not drone.alive  # linked by unit name; down or not, it goes
    assert loner.alive and "reliant_on" not in loner.data


def test_a_link_to_nothing_is_reported_once_and_never_removes() -> None:
    b = duel([("Reds", (el("A"),))], [("Hive", (el("Hive Node"),)), ("Drones", (el("Drone", attributes=("Reliant: Queen",)),))])
    assert sum("Reliant on 'Queen', which is not on its side" in t for t in texts(b)) == 1
    kill_node(b)
    assert b.state.element("drones/drone").alive
