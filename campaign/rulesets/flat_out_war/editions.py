"""The two Flat Out War editions and the cost parameters that differ between them.

Everything that differs (section 21.2) lives in one record per edition so the
calculator never branches on an edition name.
"""

from __future__ import annotations

from typing import Literal

from campaign.frozen import frozen

V17 = "1.7"
SO = "special-ops"
EDITIONS: tuple[str, ...] = (V17, SO)

# Spellings a user or an older file may use for an edition.
_ALIASES = {
    "1.7": V17,
    "v1.7": V17,
    "17": V17,
    "special-ops": SO,
    "special ops": SO,
    "specialops": SO,
    "special-operations": SO,
    "special operations": SO,
    "so": SO,
}


def normalize_edition(text: str | None) -> str | None:
    """"SO", "Special Ops", "v1.7" -> the canonical edition key; None if unknown."""
    if text is None:
        return None
    return _ALIASES.get(str(text).strip().lower())


@frozen
class EditionCosts:
    """Section 19/21.2 numbers for one edition."""

    key: str
    label: str
    range_step: int  # main ranged weapon: 1DAC per this many inches of range
    ranged_base_dac: int  # default for the A-56 option
    exhaustible_divisor: int  # weapon price divided by this, rounded up
    reload_from: Literal["element", "weapon"]  # where Reload's -1DAC/turn is taken off
    inaccurate_dac: int  # DAC of the weapon die taken off (0 = no value printed, A-58)
    turret: Literal["flat", "weapon"]  # 1.7: +1DAC; SO: priced like an Extra weapon
    vehicle_free_loose_inches: int  # loose range a vehicle gets for nothing


EDITION_COSTS: dict[str, EditionCosts] = {
    V17: EditionCosts(
        key=V17,
        label="Flat Out War v1.7",
        range_step=2,
        ranged_base_dac=2,
        exhaustible_divisor=2,
        reload_from="element",
        inaccurate_dac=0,
        turret="flat",
        vehicle_free_loose_inches=8,
    ),
    SO: EditionCosts(
        key=SO,
        label="Flat Out War: Special Operations",
        range_step=6,
        ranged_base_dac=2,
        exhaustible_divisor=4,
        reload_from="weapon",
        inaccurate_dac=1,
        turret="weapon",
        vehicle_free_loose_inches=0,
    ),
}

# Extra, Sponson, [SO] Turret and Multi-shot shots: 1DAC + 1DAC per 6" in both editions.
ADDON_RANGE_STEP = 6
LOOSE_STEP = 4  # Loose Cohesion: 1DAC per 4"
JUMP_STEP = 4  # Jump: 1DAC per 4"
MOVE_STEP = 2  # MOVE: 1DAC per 2"
DEFAULT_LOOSE_INCHES = 4  # "Loose Cohesion" written without a range
RELOAD_MAX = 2
MAGIC_BUDGET = 6  # total spell difficulty magnitude at most 6
