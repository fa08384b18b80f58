"""Command control (DP-6), turn upkeep and Senseless Slaughter."""

import pytest

from campaign.rulesets.d10_phased.command import command_check
from campaign.rulesets.d10_phased.movement import why_cannot_run_away
from campaign.rulesets.d10_phased.samples import GNASHER_HORDE, IRON_LEGION
from campaign.rulesets.d10_phased.state import roster_of
from campaign.rulesets.d10_phased.upkeep import end_movement_phase, senseless_slaughter, start_turn


def test_command_check_flags_only_the_named_sides_and_never_the_leader() -> None:
    roster = roster_of({"red": IRON_LEGION, "blue": GNASHER_HORDE})
    leader, man = "legionaries/legion-sergeant-1", "legionaries/legionary-3"
    gnasher = "gnasher-pack/gnasher-2"
    assert command_check(roster, {"red"}, {leader, man, gnasher}) == [man]
    assert not roster.model(gnasher).out_of_command
    assert command_check(roster, {"red", "blue"}, {gnasher, "captain-varro/captain-varro-1"}) == [gnasher]
    assert not roster.model(man).out_of_command  # each check replaces the last
    with pytest.raises(ValueError, match="no such"):
        command_check(roster, {"red"}, {"nobody"})


def test_turn_start_clears_the_turn_flags() -> None:
    roster = roster_of({"red": IRON_LEGION})
    m = roster.model("legionaries/legionary-1")
    m.moved = m.attacked = m.indiv_checked = m.crit_no_move = True
    roster.units["legionaries"].checked_this_turn = True
    start_turn(roster)
    assert not (m.moved or m.attacked or m.indiv_checked or roster.units["legionaries"].checked_this_turn)
    assert m.crit_no_move  # lasts until its next own movement phase
    end_movement_phase(roster, "red")
    assert not m.crit_no_move


def test_senseless_slaughter_spares_one_model_per_unit() -> None:
    roster = roster_of({"red": IRON_LEGION})
    senseless_slaughter(roster, {"legionaries/legionary-2"})
    mindless = {m.id for m in roster.models.values() if m.mindless}
    assert "legionaries/legionary-2" not in mindless and "legionaries/legionary-1" in mindless
    assert "captain-varro/captain-varro-1" not in mindless  # a character is its own spared model
    assert "walker/siege-walker-1" in mindless  # nobody picked: all of it
    assert why_cannot_run_away(roster.model("legionaries/legionary-1"), False)
    with pytest.raises(ValueError):
        senseless_slaughter(roster, {"legionaries/legionary-1", "legionaries/legionary-2"})
    start_turn(roster)
    assert not any(m.mindless for m in roster.models.values())
