import pytest

from campaign.rulesets.flat_out_war.editions import SO, V17
from campaign.rulesets.flat_out_war.engine.morale import (
    after_morale,
    after_rally,
    casualty_trigger,
    morale_roll,
    on_activation,
    threshold,
    thresholds_passed,
)

from .helpers import fighter


def test_thresholds_are_ceil_quarters() -> None:
    assert [threshold(k, 10) for k in range(1, 5)] == [3, 5, 8, 10]
    assert [threshold(k, 4) for k in range(1, 5)] == [1, 2, 3, 4]
    assert [threshold(k, 1) for k in range(1, 5)] == [1, 1, 1, 1]
    assert thresholds_passed(0, 10) == 0 and thresholds_passed(5, 10) == 2
    for start in range(0, 30):  # the count without a loop is the count of thresholds reached
        for lost in range(-1, start + 3):
            assert thresholds_passed(lost, start) == sum(1 for k in range(1, 5) if start > 0 and lost >= threshold(k, start))


def test_one_roll_per_event_even_past_several_thresholds() -> None:
    assert casualty_trigger(0, 5, 10)  # passes two at once: one roll
    assert not casualty_trigger(3, 4, 10)
    assert casualty_trigger(4, 5, 10)


def test_roll_uses_highest_die_and_counts_every_threshold_passed() -> None:
    unit = [fighter("a", 6), fighter("b", 8), fighter("c", 6)]
    roll = morale_roll(unit, start=4, lost=2, edition=V17)
    assert roll.die == 8 and roll.roller == "b" and roll.modifier == -2  # A-44, triggering loss included


def test_brave_only_if_roller_has_it_ties_go_owners_way() -> None:
    assert morale_roll([fighter("a", 8), fighter("b", 6, attrs=("Brave",))], 2, 0, edition=V17).modifier == 0
    roll = morale_roll([fighter("a", 8), fighter("b", 8, attrs=("Brave",))], 2, 0, edition=V17)
    assert roll.roller == "b" and roll.modifier == 1


def test_officer_ironwill_terrify_frightened() -> None:
    unit = [fighter("a", 6)]
    officer = fighter("capt", 10, attrs=("Command",))
    roll = morale_roll(unit, 1, 0, edition=V17, officer=officer)
    assert roll.die == 10 and roll.modifier == 2  # officer's die counts and +2
    assert morale_roll(unit, 1, 0, edition=V17, effects=frozenset({"Ironwill"})).modifier == 2
    assert morale_roll(unit, 1, 0, edition=V17, effects=frozenset({"Terrify"})).modifier == -2
    assert morale_roll(unit, 1, 0, edition=V17, rally=True).modifier == -2


def test_unfeeling_and_officers_never_roll() -> None:
    assert morale_roll([fighter(attrs=("Unfeeling",))], 1, 0, edition=SO) is None
    assert morale_roll([fighter(attrs=("Command",))], 1, 0, edition=SO) is None
    # one ordinary element makes the unit roll, with the highest die of all
    mixed = [fighter("bot", 10, attrs=("Unfeeling",)), fighter("man", 6)]
    roll = morale_roll(mixed, 2, 0, edition=SO, effects=frozenset({"Terrify"}))
    assert roll.die == 10 and roll.modifier == 0  # [SO] Terrify: no effect on Unfeeling
    assert morale_roll(mixed, 2, 0, edition=V17, effects=frozenset({"Terrify"})).modifier == -2


def test_flee_rally_state_machine() -> None:
    s = after_morale("steady", passed=False)
    assert s == "broken"
    s = on_activation(s)
    assert s == "fleeing"
    assert after_rally(s, passed=False) == "fleeing"
    s = after_rally(s, passed=True)
    assert s == "rallied"
    assert on_activation(s) == "steady"
    assert after_morale("steady", passed=True) == "steady"
    assert after_morale("fleeing", passed=False) == "fleeing"
    with pytest.raises(ValueError):
        after_rally("steady", passed=True)
