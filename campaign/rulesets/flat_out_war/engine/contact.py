"""Which units are in base contact, as far as the engine has been told.

The engine never measures, but it hears of contact: a charge names the units it
touches (section 8), a Capture pulls two elements together (A-63), and a melee
attack is made on the players' word that the units touch (section 10). Each unit keeps
the ids of the enemy units it touches in `unit.data["engaged"]`, both ways round.

Contact ends when either unit moves without naming the other as contacted (it broke
off; touching again is a new charge, A-17), flees, is teleported away, or is gone.
"""

from __future__ import annotations

from collections.abc import Iterable

from campaign.engine.state import BattleState, UnitState

KEY = "engaged"


def engage(a: UnitState, b: UnitState) -> None:
    """Record that `a` and `b` touch (kept in the order contact was made)."""
    for one, other in ((a, b), (b, a)):
        ids = one.data.setdefault(KEY, [])
        if other.id not in ids:
            ids.append(other.id)


def break_off(state: BattleState, unit: UnitState, keep: Iterable[str] = ()) -> list[UnitState]:
    """`unit` leaves contact with every unit it touches except those in `keep`.
    Returns the units it left."""
    kept = set(keep)
    left = [state.unit(uid) for uid in unit.data.get(KEY, []) if uid not in kept]
    for other in left:
        _drop(unit, other.id)
        _drop(other, unit.id)
    return left


def _drop(unit: UnitState, other_id: str) -> None:
    ids = unit.data.get(KEY, [])
    if other_id in ids:
        ids.remove(other_id)
    if not ids:
        unit.data.pop(KEY, None)  # no empty list left behind: the state reads the same as before contact


def touching(state: BattleState, unit: UnitState) -> list[UnitState]:
    """The units still on the table that `unit` is in contact with."""
    return [u for u in (state.unit(uid) for uid in unit.data.get(KEY, [])) if not u.eliminated]
