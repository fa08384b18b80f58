"""The sample forces of spec 17.4-17.8, with the Hedgehog, and Muster's vehicles and mecha.

The source prints troop types and weapon lists, not squads: how many of each, and who
carries what, is Muster's choice so that the forces can be played. Profiles are as
printed; where the printed DEF disagrees with TQ + armour (the two "Galaxy" troopers,
PR-11) the entry keeps the printed number and validation says so.
"""

from __future__ import annotations

from campaign.force import Element, Force, Unit, Weapon

Stats = dict[str, int | str]  # a profile's TQ/MOV/DEF/DP and its armour words


def _el(
    name: str,
    count: int,
    stats: Stats,
    ranged: tuple[str, ...] = (),
    melee: tuple[str, ...] = (),
    attributes: tuple[str, ...] = (),
    note: str = "",
) -> Element:
    weapons = tuple(Weapon(w, "ranged") for w in ranged) + tuple(Weapon(w, "melee") for w in melee)
    return Element(name=name, count=count, stats=stats, weapons=weapons, attributes=attributes, note=note)


def _machine(name: str, stats: Stats, weapons: tuple[Weapon, ...], attributes: tuple[str, ...] = (), note: str = "") -> Unit:
    """A vehicle or mecha: always a unit of its own (4.1)."""
    return Unit(name, (Element(name=name, kind="vehicle", stats=stats, weapons=weapons, attributes=attributes, note=note),))


def _force(name: str, *units: Unit, note: str = "") -> Force:
    return Force(name=name, ruleset="figwars-3", units=units, note=note)


REBEL: Stats = {"tq": 1, "mov": 4, "def": 1, "dp": 2, "armour": "flak vest"}
STORM: Stats = {"tq": 3, "mov": 4, "def": 2, "dp": 2, "armour": "full combat armor"}
HUNTER: Stats = {"tq": 3, "mov": 5, "def": 4, "dp": 2}
XENO: Stats = {"tq": 2, "mov": 6, "def": 4, "dp": 2, "natural": "full carapace"}
MARINE: Stats = {"tq": 1, "mov": 4, "def": 2, "dp": 1, "armour": "light combat armor"}
ODST: Stats = {"tq": 2, "mov": 4, "def": 4, "dp": 1, "armour": "full combat armor"}
SPARTAN: Stats = {"tq": 3, "mov": 5, "def": 6, "dp": 2, "armour": "powered armor"}
GRUNT: Stats = {"tq": 1, "mov": 3, "def": 2, "dp": 1}
JACKAL: Stats = {"tq": 2, "mov": 5, "def": 4, "dp": 1, "shield": "large shield"}
ELITE: Stats = {"tq": 3, "mov": 5, "def": 6, "dp": 2}
DRONE: Stats = {"tq": 1, "mov": 6, "def": 2, "dp": 1}
REV_HUNTER: Stats = {"tq": 2, "mov": 4, "def": 7, "dp": 3}
GUARD: Stats = {"tq": 1, "mov": 4, "def": 2, "dp": 1, "armour": "flak armor"}
SHOCK: Stats = {"tq": 2, "mov": 4, "def": 4, "dp": 1, "armour": "full combat armor"}
SCOUT: Stats = {"tq": 2, "mov": 5, "def": 4, "dp": 2, "armour": "full combat armor"}
IMP_MARINE: Stats = {"tq": 2, "mov": 5, "def": 5, "dp": 2, "armour": "powered armor"}
TERMINATOR: Stats = {"tq": 3, "mov": 4, "def": 7, "dp": 2, "armour": "heavy powered armor"}
# 17.6 prints the Hedgehog without a crew TQ: 1 by PR-19; one gunner of its CAP 4 (PR-27).
HEDGEHOG: Stats = {
    "siz": 8, "tq": 1, "locomotion": "wheeled", "armour": "light battle armor", "role": "battle vehicle",
    "open_topped": 1, "crew": 1, "mov": 9, "def": 5, "ram": 7, "cap": 4, "dp": 8,
}
# Muster's designs from the 4.4 / 4.5 tables (the source prints no other vehicle or mecha).
CARRIER: Stats = {"siz": 10, "tq": 1, "locomotion": "tracked", "armour": "light battle armor", "role": "troop carrier", "crew": 1}
BATTLE_TANK: Stats = {"siz": 10, "tq": 2, "locomotion": "tracked", "armour": "heavy battle armor", "role": "battle vehicle", "crew": 2}
STRIDER: Stats = {"build": "stocky", "siz": 6, "tq": 2, "armour": "medium battle armor"}
VANGUARD: Stats = {"build": "normal", "siz": 5, "tq": 3, "armour": "light battle armor", "shield": 1, "jump_jets": 1}


def sample_forces() -> list[Force]:
    return [
        _force(
            "Rebel Cell",
            Unit("Rebel Squad", (
                _el("Rebel Trooper", 6, REBEL, ("blaster rifle",), ("light weapon",)),
                _el("Rebel Gunner", 1, REBEL, ("repeating blaster",)),
            )),
            Unit("Rebel Scouts", (_el("Rebel Scout", 4, REBEL, ("blaster carbine", "blaster pistol")),)),
            note="17.4: rebel troopers in blast vests (printed DEF 1, PR-11)",
        ),
        _force(
            "Storm Trooper Detachment",
            Unit("Storm Squad", (
                _el("Storm Trooper", 5, STORM, ("blaster rifle", "thermal detonator")),
                _el("Storm Gunner", 1, STORM, ("heavy repeating blaster",)),
            )),
            Unit("Storm Patrol", (_el("Storm Trooper", 4, STORM, ("blaster carbine", "blaster pistol")),)),
            note="17.4: storm troopers in combat armour (printed DEF 2, PR-11)",
        ),
        _force(
            "Intergalactic Hunters",
            Unit("Hunting Party", (
                _el(
                    "Intergalactic Hunter", 3, HUNTER,
                    ("hunter's shoulder blaster", 'hunter\'s "returning" thrown weapon'),
                    ("hunter's claw", "hunter's spear"),
                    ("Climbing", "Scanner", "Stealth", "Targeter", "Self-Destruct"),
                ),
            )),
            note="17.5: the last hunter's body self-destructs six turns after it falls (PR-74)",
        ),
        _force(
            "Xenomorph Bugs",
            Unit("Bug Brood", (_el("Xenomorph Bug", 6, XENO, (), ("fangs & claws: medium",), ("Climbing", "Leap", "Acid Blood")),)),
            Unit("Bug Swarm", (_el("Xenomorph Bug", 6, XENO, (), ("fangs & claws: medium",), ("Climbing", "Leap", "Acid Blood")),)),
        ),
        _force(
            "USC Strike Group",
            Unit("Marine Squad", (
                _el("Marine", 7, MARINE, ("Assault Rifle", "Fragmentation Grenade"), ("light weapon",)),
                _el("Marine Gunner", 1, MARINE, ("Rocket Launcher",)),
            )),
            Unit("ODST Team", (
                _el("ODST", 4, ODST, ("Battle Rifle", "Magnum Pistol"), ("light weapon",)),
                _el("ODST Breacher", 1, ODST, ("Shotgun",), ("light weapon",)),
                _el("ODST Sniper", 1, ODST, ("Sniper Rifle",), attributes=("Trained Sniper",)),
            )),
            Unit("Spartan Fireteam", (
                _el("Spartan", 2, SPARTAN, ("Assault Rifle", "Magnum Pistol"), ("HTH combat skills",)),
            )),
            note="17.6: USC infantry; the Hedgehog is in the USC Hedgehog Patrol",
        ),
        _force(
            "Revenant Host",
            Unit("Grunt Lance", (
                _el("Grunt", 6, GRUNT, ("Plasma Pistol", "Plasma Grenade")),
                _el("Grunt", 2, GRUNT, ("Needler",)),
            )),
            Unit("Jackal Pack", (_el("Jackal", 5, JACKAL, ("Plasma Pistol",), note="with energy shield: DEF 4d"),)),
            Unit("Elite Lance", (
                _el("Elite", 2, ELITE, ("Plasma Rifle", "Plasma Grenade")),
                _el("Elite Blademaster", 1, ELITE, ("Plasma Rifle",), ("Energy Sword",)),
            )),
            Unit("Drone Swarm", (_el("Drone", 6, DRONE, ("Plasma Pistol",), attributes=('Flight 6"',)),)),
            Unit("Hunter Pair", (_el("Hunter", 2, REV_HUNTER, ("Fuel Rod Gun",), ("heavy weapon",)),)),
            note="17.7: the drone's 6 is its flight movement (PR-19)",
        ),
        _force(
            "Gothic Imperium Battle Group",
            Unit("Guard Squad", (
                _el("Guardsman", 9, GUARD, ("Laser Gun",), ("fixed bayonet",)),
                _el("Guard Sergeant", 1, GUARD, ("Laser Pistol",), ("Chain Sword",)),
            )),
            Unit("Shock Troops", (_el("Shock Trooper", 5, SHOCK, ("Hi-(powered) Laser Gun",), ("light weapon",)),)),
            Unit("Scout Squad", (
                _el("Imperial Scout", 3, SCOUT, ("Rocket Slug Gun",), ("light weapon",)),
                _el("Scout Sniper", 1, SCOUT, ("sniper rifle",), attributes=("Trained Sniper",)),
            )),
            Unit("Marine Squad", (
                _el("Imperial Marine", 4, IMP_MARINE, ("Rocket Slug Gun",), ("Chain Sword",), ("Strong",)),
                _el("Marine Gunner", 1, IMP_MARINE, ("Heavy Slugger",), (), ("Strong",)),
            )),
            Unit("Terminator Squad", (
                _el("Terminator Marine", 3, TERMINATOR, ("Storm Slugger",), ("Power Weapon",), ("Strong",)),
            )),
            Unit("Marine Captain", (
                _el("Captain", 1, IMP_MARINE, ("Rocket Slug Pistol",), ("Power Weapon",), ("Hero", "Strong")),
            )),
            note="17.8: all powered armour includes Strong (PR-19)",
        ),
        _force(
            "USC Hedgehog Patrol",
            _machine("Hedgehog", HEDGEHOG, (Weapon("Anti-Aircraft Gun", "ranged", mount="turret"),), note="open-topped battle vehicle; turret"),
            Unit("Marine Fireteam", (_el("Marine", 4, MARINE, ("Assault Rifle",), ("light weapon",)),)),
            note="17.6: the Hedgehog (crew TQ 1, PR-19) with marines to ride in it",
        ),
        _force(
            "Imperial Armour",
            _machine("Armoured Carrier", CARRIER, (Weapon("Storm Slugger", "ranged", traits=("pintle",)),), note="Muster's design: troop carrier"),
            _machine(
                "Battle Tank", BATTLE_TANK,
                (Weapon("heavy cannon", "ranged", mount="turret"), Weapon("Laser Cannon", "ranged", mount="sponson")),
                note="Muster's design: battle vehicle, turret free, sponson paid in DP",
            ),
            Unit("Guard Squad", (_el("Guardsman", 6, GUARD, ("Laser Gun",), ("fixed bayonet",)),)),
            note="Muster's vehicle designs from the 4.4 tables with Imperial weapons (17.8)",
        ),
        _force(
            "Arcane Circle",
            Unit("Archmage", (Element(
                name="Archmage", stats={"tq": 3, "mov": 4, "dp": 2, "armour": "light ancient armor", "arc": 3},
                weapons=(Weapon("Force Weapon", "melee"),), attributes=("Hero",),
                spells=("assault", "blast", "barrier", "teleport", "spirit_strike", "concealment"),
                note="hero caster, ARC 3",
            ),)),
            Unit("Acolytes", (Element(
                name="Acolyte", count=3, stats={"tq": 1, "mov": 4, "dp": 1, "armour": "light ancient armor", "arc": 1},
                weapons=(Weapon("light weapon", "melee"),), spells=("assault", "conveyance"), note="ARC 1",
            ),)),
            Unit("Wardens", (_el("Warden", 4, {"tq": 2, "mov": 4, "dp": 1, "armour": "medium ancient armor", "shield": "normal shield"}, ("crossbow",), ("medium weapon",)),)),
            note="Muster's casters (16): the source prints no arcane force",
        ),
        _force(
            "Mecha Lance",
            _machine("Strider", STRIDER, (Weapon("light autocannon", "ranged"), Weapon("Power Weapon", "melee")), note="stocky: SIZ + 1 DP (PR-14)"),
            _machine("Vanguard", VANGUARD, (Weapon("Laser Cannon", "ranged", mount="turret"),), ("Hero",), note="hero pilot (PR-16), mecha shield, jump jets"),
            note="Muster's mecha designs from the 4.5 tables",
        ),
    ]
