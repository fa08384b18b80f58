"""The force builder's structural edits, as pure functions."""

from __future__ import annotations

from campaign.force import Element, Unit
from tests.tui.toy_ruleset import toy_force
from tui import force_edits as edits


def names(force) -> list[list[str]]:  # type: ignore[no-untyped-def]
    return [[u.name, *(e.name for e in u.elements)] for u in force.units]


def test_unique_name_counts_up() -> None:
    assert edits.unique_name("Squad", set()) == "Squad"
    assert edits.unique_name("Squad", {"Squad", "Squad (2)"}) == "Squad (3)"


def test_add_unit_after_a_place_and_renames_a_clash() -> None:
    force, place = edits.add_unit(toy_force(), Unit("Squad"), after=0)
    assert place == (1, None)
    assert [u.name for u in force.units] == ["Squad", "Squad (2)"]


def test_duplicate_element_lands_right_after_it() -> None:
    force, place = edits.duplicate(toy_force(), (0, 0))
    assert place == (0, 1)
    assert names(force) == [["Squad", "Trooper", "Trooper", "Sergeant"]]


def test_move_stops_at_the_ends() -> None:
    force = toy_force()
    same, place = edits.move(force, (0, 0), -1)
    assert same is force and place == (0, 0)
    moved, place = edits.move(force, (0, 0), 1)
    assert names(moved) == [["Squad", "Sergeant", "Trooper"]] and place == (0, 1)


def test_delete_the_last_element_leaves_the_cursor_on_its_unit() -> None:
    force, _ = edits.delete(toy_force(), (0, 1))
    force, place = edits.delete(force, (0, 0))
    assert names(force) == [["Squad"]] and place == (0, None)
    force, place = edits.delete(force, (0, None))
    assert force.units == () and place is None


def test_replace_element_and_paths() -> None:
    force = edits.replace_element(toy_force(), 0, 1, Element("Captain", die="d10"))
    assert names(force) == [["Squad", "Trooper", "Captain"]]
    assert edits.path_of((2, None)) == "units[2]" and edits.path_of((2, 0)) == "units[2].elements[0]"
    assert edits.describe((0, 1), force) == "element Captain of Squad"
