"""Trait catalogues (spec 3.2-3.3, 4.2): TQ grades, MOV labels, DEF tables, mounts, heroes.

Every DEF entry is a number of d6 added to a trooper's DEF; names are the source's.
"""

from __future__ import annotations

import attrs

TQ_GRADES: dict[int, str] = {0: "Green", 1: "Grunt", 2: "Veteran", 3: "Elite"}

MOV_LABELS: dict[int, str] = {2: "slow", 3: "impaired", 4: "normal", 5: "quick", 6: "fast"}
MOV_MIN = 2
MOV_MAX_TROOP = 6


@attrs.frozen
class DefEntry:
    name: str
    dice: int
    table: str  # "modern armour", "ancient armour", "shield", "natural"


def _table(table: str, rows: tuple[tuple[str, int], ...]) -> dict[str, DefEntry]:
    return {name: DefEntry(name, dice, table) for name, dice in rows}


MODERN_ARMOUR = _table(
    "modern armour",
    (
        ("none", 0),
        ("flak vest", 1),
        ("flak armor", 1),
        ("partial combat armor", 1),
        ("light combat armor", 1),
        ("full combat armor", 2),
        ("powered armor", 3),
        ("heavy powered armor", 4),
    ),
)
ANCIENT_ARMOUR = _table(
    "ancient armour",
    (("light ancient armor", 1), ("medium ancient armor", 2), ("heavy ancient armor", 3)),
)
ARMOUR: dict[str, DefEntry] = {**MODERN_ARMOUR, **ANCIENT_ARMOUR}

SHIELDS = _table("shield", (("none", 0), ("small shield", 0), ("normal shield", 1), ("large shield", 2)))

NATURAL = _table(
    "natural",
    (
        ("none", 0),
        ("skittering critters", 1),
        ("tough hide", 1),
        ("full carapace", 2),
        ("thick carapace", 3),
        ("chitinous carapace", 4),
        ("massive chitinous carapace", 5),
    ),
)
GENETIC_ENHANCEMENT = 1  # "genetic enhancements" add +1d on top of natural defence

# Mounts (3.3): MOV by mount type; a mount adds +1d DEF and +1d on morale checks.
MOUNT_MOV: dict[str, int] = {
    "normal mount": 6,
    "quick mount": 7,
    "fast mount": 8,
    "wheeled mount": 9,
    "flying mount": 12,  # PR-18: moves as Flight for terrain purposes
}
MOUNTED_DEF = 1
MOUNTED_MORALE = 1

# Heroes (4.2): hard to kill, a re-roll, three built-in abilities, +1 to the extra-action roll.
HERO_DEF = 1
HERO_DP = 1
HERO_ABILITIES: tuple[str, ...] = ("Heroic Deflection", "Inspires Bravery", "Fearless")
HERO_EXTRA_ACTION_BONUS = 1

# COM (3.2): 2 x TQ inches, TQ 0 gives 1; Comms +4, Grizzled +1.
COMMS_BONUS = 4
GRIZZLED_BONUS = 1

# Skill check difficulties (2.4): successes needed.
DIFFICULTY: dict[str, int] = {"easy": 1, "moderate": 2, "hard": 3, "very_hard": 4, "impossible": 5}
