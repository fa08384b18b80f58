"""Three small sample armies, written for Muster (the source prints none).

Each has a different character, so a battle between any two of them exercises
different rules: a steady line with a multi-hit walker (absorption, criticals, Machine),
a cowardly swarm with jumpers (morale, Jump, the unit die on a big unit), and mindless
constructs with smoke (Mindless, the specials interphase, Breaks Speed Limit).
"""

from __future__ import annotations

from campaign.rulesets.d10_phased.profile import Army, Model, Unit, Weapon

RIFLE = Weapon("Rifle", 2, "ranged", 24)
CANNON = Weapon("Autocannon", 3, "ranged", 36)
SLING = Weapon("Sling", 1, "ranged", 12)
SPIKES = Weapon("Spike Thrower", 2, "ranged", 18)

IRON_LEGION = Army(
    "Iron Legion",
    (
        Unit(
            "Legionaries",
            (
                Model("Legion Sergeant", move=6, save=1, weapons=(RIFLE,), close=2),
                Model("Legionary", move=6, save=1, weapons=(RIFLE,), close=1, count=7),
            ),
            grade="average",
            command_radius=6,
        ),
        Unit(
            "Walker",
            (Model("Siege Walker", move=6, save=2, weapons=(CANNON,), close=3, hits=4, base=2, specials=("Machine",)),),
            grade="fearless",
            command_radius=0,
        ),
        Unit(
            "Captain Varro",
            (Model("Captain Varro", move=6, save=2, weapons=(RIFLE,), close=3, hits=2),),
            grade="average",
            command_radius=0,
            character=True,
        ),
    ),
    note="a steady line with a walker",
)

GNASHER_HORDE = Army(
    "Gnasher Horde",
    (
        Unit(
            "Gnasher Pack",
            (Model("Gnasher", move=8, save=0, close=2, count=12),),
            grade="cowardly",
            command_radius=8,
        ),
        Unit(
            "Slingers",
            (Model("Slinger", move=6, save=0, weapons=(SLING,), close=1, count=6),),
            grade="cowardly",
            command_radius=6,
        ),
        Unit(
            "Leapers",
            (Model("Leaper", move=10, save=1, close=2, specials=("Jump",), count=4),),
            grade="average",
            command_radius=8,
        ),
        Unit(
            "Old Tusker",
            (Model("Old Tusker", move=6, save=1, close=4, hits=3, base=2),),
            grade="average",
            command_radius=0,
            character=True,
            morale_modifier=1,
        ),
    ),
    note="a cowardly swarm with jumpers",
)

GHOST_ENGINES = Army(
    "Ghost Engines",
    (
        Unit(
            "Husks",
            (Model("Husk", move=5, save=2, close=2, specials=("Mindless",), count=6),),
            grade="fearless",
            command_radius=6,
        ),
        Unit(
            "Spine Skiffs",
            (
                Model(
                    "Spine Skiff",
                    move=24,
                    save=1,
                    weapons=(SPIKES,),
                    close=1,
                    hits=2,
                    base=2,
                    specials=("Hover", "Smoke"),
                    count=2,
                ),
            ),
            grade="average",
            command_radius=12,
        ),
    ),
    note="mindless constructs with smoke-laying skiffs",
)

SAMPLES: tuple[Army, ...] = (IRON_LEGION, GNASHER_HORDE, GHOST_ENGINES)
