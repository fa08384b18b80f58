"""DP-EX-4 a-c, e: terrain, the stream, command control, the speed limit, run away."""

from fractions import Fraction

import pytest

from campaign.rulesets.d10_phased.morale import run_away_check
from campaign.rulesets.d10_phased.movement import (
    CROSSES,
    FLOUNDERING,
    SWAMPED,
    IllegalMove,
    run_away,
    speed_cap,
    walk,
    why_cannot_move,
    why_cannot_run_away,
)
from campaign.rulesets.d10_phased.profile import Model, Unit
from campaign.rulesets.d10_phased.state import ROUTED, ModelState, Roster, add_unit

PATH = [("clear", 2), ("rough", 2), ("stream", 1)]


def trooper(move: int = 8, specials: tuple[str, ...] = ()) -> ModelState:
    roster = Roster()
    add_unit(roster, Unit("T", (Model("Trooper", move, 1, specials=specials),)), "red")
    return roster.model("t/trooper-1")


def test_ex4a_rough_costs_double_and_the_stream_flounders() -> None:
    w = walk(trooper(), PATH[:2])
    assert (w.spent, w.left) == (6, 2)
    w = walk(trooper(), PATH, stream_face=4)
    assert w.stream == FLOUNDERING and w.left == 0 and w.moved == 5  # 2" halved to 1", spent in the stream
    with pytest.raises(IllegalMove, match="costs 2"):
        walk(trooper(), [*PATH[:2], ("stream", 2)], stream_face=4)
    w = walk(trooper(), [*PATH[:2], ("stream", 2)], stream_face=7)
    assert w.stream == CROSSES and w.left == 0
    w = walk(trooper(), PATH, stream_face=3)
    assert w.stream == SWAMPED and w.stopped and w.moved == 4


def test_ex4b_out_of_command_halves_unless_straight_to_the_leader() -> None:
    t = trooper()
    t.out_of_command = True
    with pytest.raises(IllegalMove):
        walk(t, [("clear", 5)])
    assert walk(t, [("clear", 4)]).left == 0
    assert walk(t, [("clear", 8)], toward_leader=True).moved == 8


def test_ex4c_the_18_inch_limit_and_its_exemptions() -> None:
    fast = trooper(24)
    assert speed_cap(fast) == 18
    with pytest.raises(IllegalMove, match="DP-8.2"):
        walk(fast, [("road", 20)])
    assert walk(fast, [("rough", 10)]).spent == 20  # 10" covered, within the limit
    for special in ("Jump", "Flyer", "Hover", "Breaks Speed Limit", "Teleport"):
        assert walk(trooper(24, (special,)), [("road", 20)]).moved == 20


def test_impassable_terrain_and_jumping_over_it() -> None:
    with pytest.raises(IllegalMove, match="trees"):
        walk(trooper(), [("trees", 1)])
    with pytest.raises(IllegalMove, match="unknown terrain"):
        walk(trooper(), [("lava", 1)])
    with pytest.raises(IllegalMove, match="bushes"):
        walk(trooper(), [("bushes", 1)], bushes="impassable")
    assert walk(trooper(), [("bushes", 2)]).spent == 4
    jumper = trooper(10, ("Jump",))
    assert walk(jumper, [("trees", 3), ("hostile", 1), ("clear", 4)], jump=True).moved == 8
    with pytest.raises(IllegalMove, match="cannot jump"):
        walk(trooper(), [("clear", 1)], jump=True)
    with pytest.raises(IllegalMove, match="negative"):
        walk(trooper(), [("clear", -1)])


def test_who_may_move() -> None:
    t = trooper()
    assert why_cannot_move(t, in_contact=False) is None
    assert "hostile" in why_cannot_move(t, in_contact=True)
    t.marker = "pinned"
    assert "pinned" in why_cannot_move(t, False)
    t.marker, t.crit_no_move = "", True
    assert "DP-17" in why_cannot_move(t, False)
    assert "move 0" in why_cannot_move(trooper(0), False)


def test_ex4e_run_away_then_the_immediate_check() -> None:
    roster = Roster()
    unit = add_unit(roster, Unit("Goblins", (Model("Goblin", 6, 0, close=1, count=2),)), "blue")
    goblin = roster.model("goblins/goblin-2")
    assert why_cannot_run_away(goblin, fearless=False) is None
    assert run_away(goblin, 6)
    assert run_away_check(goblin, unit, 2) == ROUTED
    assert goblin.marker == ROUTED and goblin.alive and goblin.ran_away and goblin.moved
    assert not goblin.indiv_checked  # the check does not use up the turn's one check
    assert "once a turn" in why_cannot_run_away(goblin, False)
    assert "ran away" in why_cannot_move(goblin, False)
    with pytest.raises(IllegalMove):
        run_away(roster.model("goblins/goblin-1"), Fraction(13, 2))


def test_fearless_runs_away_only_as_a_machine_and_machines_skip_the_check() -> None:
    assert "Fearless" in why_cannot_run_away(trooper(), fearless=True)
    machine = trooper(specials=("Machine",))
    assert why_cannot_run_away(machine, fearless=True) is None
    assert run_away(machine, 8) is False
    assert why_cannot_run_away(trooper(specials=("Mindless",)), False) is not None
