"""Timed effects on the clocks of spec 4.4 (A-07).

Spell durations count player-turns (every player's turn, passes included) starting
with the turn after the casting; misfire lockouts count the caster owner's turns;
Reload counts the element's owner-turns in which it took no Other Action.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Timed:
    """A count of turns still to run. `fresh` skips the turn in which it started."""

    left: int
    fresh: bool = True

    def tick(self) -> "Timed":
        """One counted turn has finished."""
        if self.fresh:
            return Timed(self.left, fresh=False)
        return Timed(self.left - 1, fresh=False)

    @property
    def expired(self) -> bool:
        return self.left <= 0


def tick_reload(left: int, took_other_action: bool, fired_this_turn: bool, reload: int) -> int:
    """Reload counters: a turn with no Other Action counts down; taking one restarts
    the count (spec 20 Reload); the turn of firing sets it."""
    if fired_this_turn:
        return reload
    if left <= 0:
        return 0
    if took_other_action:
        return reload
    return left - 1


# Unit markers that last one activation: cleared as the unit's next activation starts
# (play/activation.py), and no longer shown once the round has moved past the unit
# (display.py), so a marker from last round never reads as current.
PER_ACTIVATION = ("moved", "ran", "charging", "charged", "acted", "attacked", "rally_tried", "held_still")
# Morale states that last until the unit's next activation, shown on the same terms.
PER_ACTIVATION_MORALE = frozenset({"rallied"})
