"""Weapons as data (spec 4.6, 17.1-17.8): range bands, special letters, ranged weapons
with their ammunition, melee weapons and natural attacks.

Rows are written the way the source's tables read ("4d (1d)", "b, H1, R", "SP") and
parsed once by `ranged()`; the PR-19 quirks (shaped charge "3 (0)" read as 3d, "Ind"
read as In) are handled by the parser and flagged in `note`.
"""

from __future__ import annotations

import re
from typing import Literal, TypedDict

import attrs

# Range bands used by the samples (4.6): long = 2 x short, extreme = 4 x short.
RANGE_BANDS: tuple[tuple[int, int, int], ...] = tuple(
    (s, 2 * s, 4 * s) for s in (2, 3, 4, 5, 6, 8, 10, 12, 15, 18, 20, 25, 30, 40, 50)
)
BAND_MODIFIER: dict[str, int] = {"point_blank": 1, "short": 0, "long": -1, "extreme": -2}
POINT_BLANK_INCHES = 1

# Special letters (4.6); "Ind" is the source's spelling of In (PR-19).
SPECIAL_CODES: dict[str, str] = {
    "A": "autofire (rating)",
    "b": "small blast, 3\" circle",
    "B": "large blast, 5\" circle",
    "G": "hand grenade",
    "H": "heavy",
    "H1": "very heavy (-1\" MOV)",
    "H2": "extremely heavy (-2\" MOV)",
    "In": "indirect fire",
    "P": "pistol",
    "R": "reload after every shot",
    "S": "slow (2 actions to fire)",
    "Sc": "scatter",
    "Sn": "sniper",
    "sp": "small spray template (2.5\")",
    "SP": "large spray template (5.5\")",
}
HEAVY_MOV_PENALTY: dict[str, int] = {"": 0, "H": 0, "H1": 1, "H2": 2}
HEAVY_LEVELS: tuple[str, ...] = ("", "H", "H1", "H2")


@attrs.frozen
class RangedWeapon:
    name: str
    short: int | None = None  # None: a template or grenade weapon
    long: int | None = None
    extreme: int | None = None
    atk: int | None = None  # direct ATK in dice; None: no direct rating
    blast_atk: int | None = None  # the rating in parentheses
    autofire: int = 0
    blast: str = ""  # "", "b", "B"
    heavy: str = ""  # "", "H", "H1", "H2"
    spray: str = ""  # "", "sp", "SP"
    grenade: bool = False
    indirect: bool = False
    pistol: bool = False
    reload: bool = False
    slow: bool = False
    scatter: bool = False
    sniper: bool = False
    ammo: tuple[RangedWeapon, ...] = ()
    note: str = ""

    @property
    def specials(self) -> tuple[str, ...]:
        out = []
        if self.autofire:
            out.append(f"A{self.autofire}")
        for letters in (self.blast, self.spray):
            if letters:
                out.append(letters)
        if self.grenade:
            out.append("G")
        if self.heavy:
            out.append(self.heavy)
        for flag, code in (
            (self.indirect, "In"),
            (self.pistol, "P"),
            (self.reload, "R"),
            (self.slow, "S"),
            (self.scatter, "Sc"),
            (self.sniper, "Sn"),
        ):
            if flag:
                out.append(code)
        return tuple(out)

    def band(self, inches: float) -> str | None:
        """The range band of a measured distance, or None beyond extreme range."""
        if inches <= POINT_BLANK_INCHES:
            return "point_blank"
        if self.grenade:
            return "short" if inches <= 10 else None
        if self.short is None:
            return None
        for name, limit in (("short", self.short), ("long", self.long), ("extreme", self.extreme)):
            if limit is not None and inches <= limit:
                return name
        return None

    def bands(self) -> tuple[str, ...]:
        """The bands this weapon may shoot in."""
        if self.spray:
            return ("point_blank", "short")  # PR-57: the template is the range
        if self.grenade:
            return ("point_blank", "short")
        return ("point_blank", "short", "long", "extreme")


_ATK = re.compile(r"^\s*(?:(?P<direct>\d+)\s*(?P<d>d?))?\s*(?:\(\s*(?P<blast>\d+)\s*d?\s*\))?\s*$")


def parse_atk(text: str) -> tuple[int | None, int | None, str]:
    """'4d (1d)' -> (4, 1); '(0)' -> (None, 0); '3 (0)' -> (3, 0) with a PR-19 note."""
    text = text.strip()
    if text in ("", "-", "–"):
        return None, None, ""
    if text == "0":
        return 0, None, ""
    match = _ATK.match(text)
    if not match or (match.group("direct") is None and match.group("blast") is None):
        raise ValueError(f"cannot read ATK {text!r}")
    direct = int(match.group("direct")) if match.group("direct") is not None else None
    blast = int(match.group("blast")) if match.group("blast") is not None else None
    note = ""
    if direct is not None and direct > 0 and not match.group("d"):
        note = f"printed {text!r} without 'd'; read as {direct}d (PR-19)"
    return direct, blast, note


FlagName = Literal["indirect", "pistol", "reload", "slow", "scatter", "sniper"]
_FLAGS: dict[str, FlagName] = {
    "In": "indirect", "P": "pistol", "R": "reload", "S": "slow", "Sc": "scatter", "Sn": "sniper",
}


class Specials(TypedDict, total=False):
    """The keyword arguments of RangedWeapon that special letters set."""

    autofire: int
    blast: str
    spray: str
    heavy: str
    grenade: bool
    indirect: bool
    pistol: bool
    reload: bool
    slow: bool
    scatter: bool
    sniper: bool


def parse_specials(text: str) -> Specials:
    """'A1, H2, In' -> keyword arguments of RangedWeapon."""
    out: Specials = {}
    for raw in re.split(r"[,\s]+", text.strip()):
        code = raw.strip().rstrip("*")
        if code in ("", "-", "–"):
            continue
        if code == "Ind":  # PR-19
            code = "In"
        if re.fullmatch(r"A\d+", code):
            out["autofire"] = int(code[1:])
        elif code in ("b", "B"):
            out["blast"] = code
        elif code in ("sp", "SP"):
            out["spray"] = code
        elif code in ("H", "H1", "H2"):
            out["heavy"] = code
        elif code == "G":
            out["grenade"] = True
        else:
            if code not in _FLAGS:
                raise ValueError(f"unknown weapon special {raw!r} (expected one of {', '.join(SPECIAL_CODES)})")
            out[_FLAGS[code]] = True
    return out


def ranged(
    name: str, s: str, l: str, e: str, atk: str, special: str, note: str = "", ammo: tuple[RangedWeapon, ...] = ()
) -> RangedWeapon:
    """One printed row; S may be SP/sp (a spray template) or G (a hand grenade)."""
    kwargs = parse_specials(special)
    direct, blast, atk_note = parse_atk(atk)
    rng: dict[str, int | None] = {"short": None, "long": None, "extreme": None}
    if s in ("SP", "sp"):
        kwargs["spray"] = s
    elif s == "G":
        kwargs["grenade"] = True
        kwargs["slow"] = True  # every grenade is Slow (11.20)
    elif s not in ("", "-", "–"):
        rng = {"short": int(s), "long": int(l), "extreme": int(e)}
    notes = "; ".join(n for n in (note, atk_note) if n)
    weapon = RangedWeapon(name=name, atk=direct, blast_atk=blast, ammo=ammo, note=notes, **rng, **kwargs)
    return weapon


def ammo(parent: RangedWeapon, rows: tuple[tuple[str, str, str], ...]) -> RangedWeapon:
    """A launcher with its ammunition rows (name, ATK, specials); each round keeps the
    launcher's range and letters and adds its own."""
    rounds = []
    for name, atk, special in rows:
        direct, blast, note = parse_atk(atk)
        extra = parse_specials(special)
        rounds.append(attrs.evolve(parent, name=name, atk=direct, blast_atk=blast, note=note, ammo=(), **extra))
    return attrs.evolve(parent, ammo=tuple(rounds))


def _catalogue(*weapons: RangedWeapon) -> dict[str, RangedWeapon]:
    return {w.name: w for w in weapons}


_GL_AMMO = (
    ("concussion grenade ammo", "(0)", "b"),
    ("fragmentation grenade ammo", "(1d)", "b"),
    ("shaped charge grenade ammo", "3 (0)", "b"),
)

GENERIC_RANGED = _catalogue(
    ranged("thrown object", "2", "4", "8", "0", "-"),
    ranged("sling", "3", "6", "12", "0", "R"),
    ranged("shortbow", "4", "8", "16", "0", "-"),
    ranged("longbow", "6", "12", "24", "0", "-"),
    ranged("crossbow", "8", "16", "32", "1d", "R"),
    ranged("crossbow pistol", "3", "6", "12", "0", "P, R"),
    ranged("muzzle-loading pistol", "5", "10", "20", "0", "P, R"),
    ranged("muzzle-loading rifle", "10", "20", "40", "0", "R"),
    ranged("sport pistol", "5", "10", "20", "0", "P"),
    ranged('snub-nosed "pocket" pistol', "4", "8", "16", "1d", "P"),
    ranged("pistol", "6", "12", "24", "1d", "P"),
    ranged("carbine", "12", "24", "48", "1d", "-"),
    ranged("sport rifle", "12", "24", "48", "0", "-"),
    ranged("rifle", "15", "30", "60", "1d", "-"),
    ranged("sniper rifle", "20", "40", "80", "1d", "Sn"),
    ranged("sniper cannon", "25", "50", "100", "2d", "H1, Sn"),
    ranged("combat shotgun", "5", "10", "20", "2d", "Sc"),
    ranged("hunting shotgun", "6", "12", "24", "2d", "R, Sc"),
    ranged('"sawed-off" hunting shotgun', "3", "6", "12", "2d", "R, Sc"),
    ranged("auto/machine pistol", "5", "10", "20", "2d", "A1, P"),
    ranged("sub machine gun", "8", "16", "32", "2d", "A1"),
    ranged("assault rifle", "12", "24", "48", "2d", "A1"),
    ranged("battle rifle", "15", "30", "60", "2d", "A1"),
    ranged("light machine gun", "15", "30", "60", "3d", "A1, H"),
    ranged("rotary light machinegun", "15", "30", "60", "4d", "A1, H1"),
    ranged("heavy machine gun", "20", "40", "80", "4d", "A1, H2"),
    ranged('"classic" flamethrower', "SP", "-", "-", "1d", "H1, S"),
    ranged("modern flame unit", "SP", "-", "-", "1d", "S"),
    ranged("hand flame unit", "sp", "-", "-", "1d", "P, S"),
    ammo(ranged("rifle-mounted grenade launcher", "12", "24", "48", "-", "In, R"), _GL_AMMO),
    ammo(ranged("repeating grenade launcher", "15", "30", "60", "-", "In"), _GL_AMMO),
    ranged("hand grenade - concussion", "G", "-", "-", "(0)", "b"),
    ranged("hand grenade - fragmentation", "G", "-", "-", "(1d)", "b"),
    ranged("light anti-armor weapon", "12", "24", "48", "4d (1d)", "b, H, R,", "printed with a trailing comma"),
    ranged("rocket-propelled grenade", "15", "30", "60", "4d (1d)", "b, H1, R"),
    ranged("light mortar", "20", "40", "80", "(2d)", "b, H1, Ind, S", "printed Ind; read as In (PR-19)"),
    ranged("heavy mortar", "30", "60", "120", "(2d)", "B, H2, Ind, S", "printed Ind; read as In (PR-19)"),
)

# Faction weapons (17.4-17.8), each list keyed by the faction's sample force.
GALAXY_RANGED = _catalogue(
    ranged("blaster pistol", "6", "12", "24", "1d", "P"),
    ranged("heavy blaster pistol", "6", "12", "24", "2d", "P"),
    ranged("blaster carbine", "12", "24", "48", "1d", "-"),
    ranged("blaster rifle", "15", "30", "60", "1d", "-"),
    ranged("heavy blaster rifle", "15", "30", "60", "2d", "-"),
    ranged("repeating blaster", "15", "30", "60", "3d", "A1, H"),
    ranged("heavy repeating blaster", "20", "40", "80", "5d", "A1, H2"),
    ranged("thermal detonator", "G", "-", "-", "(2d)", "B"),
)
BUG_RANGED = _catalogue(
    ranged("hunter's shoulder blaster", "15", "30", "60", "3d", "-"),
    ranged("hunter's \"returning\" thrown weapon", "5", "10", "20", "2d", "A1"),
)
USC_RANGED = _catalogue(
    ranged("Magnum Pistol", "6", "12", "24", "1d", "P"),
    ranged("Sub Machine Gun", "8", "16", "32", "2d", "A1"),
    ranged("Assault Rifle", "12", "24", "48", "2d", "A1"),
    ranged("Battle Rifle", "15", "30", "60", "2d", "-"),
    ranged("Sniper Rifle", "25", "50", "100", "2d", "Sn"),
    ranged("Shotgun", "5", "10", "20", "2d", "Sc"),
    ranged("Flamethrower", "SP", "-", "-", "1d", "S"),
    ranged("Rocket Launcher", "25", "50", "100", "4d (1d)", "b, H1, R"),
    ranged("Laser", "25", "50", "100", "5d", "H1"),
    ranged("Anti-Aircraft Gun", "20", "40", "80", "5d", "A2, H2", "turret"),
    ranged("Fragmentation Grenade", "G", "-", "-", "(1d)", "b"),
)
REVENANT_RANGED = _catalogue(
    ranged("Plasma Pistol", "6", "12", "24", "1d", "P, R*", "2 actions on one shot: ATK 4d, then Reload"),
    ranged("Plasma Rifle", "12", "24", "48", "3d", "A1, R*", "a second shot in a turn empties it"),
    ranged("Plasma Cannon", "20", "40", "80", "4d", "A1, H1", "stationary"),
    ranged("Needler", "12", "24", "48", "2d", "A1"),
    ranged("Carbine", "15", "30", "60", "1d", "-"),
    ranged("Beam Rifle", "25", "50", "100", "2d", "Sn"),
    ranged("Fuel Rod Gun", "20", "40", "80", "3d (2d)", "b, H1"),
    attrs.evolve(
        ranged("Fuel Rod Cannon", "-", "-", "-", "-", "H1"),
        ammo=(
            ranged("single shot", "20", "40", "80", "3d (2d)", "b, H1"),
            ranged("spray shot", "15", "30", "60", "(2d)", "B, H1"),
        ),
    ),
    ranged("Plasma Grenade", "G", "-", "-", "2d (1d)", "b", "a successfully placed grenade attacks its target model at 2d"),
)
IMPERIAL_RANGED = _catalogue(
    ranged("Rocket Slug Pistol", "5", "10", "20", "2d", "P"),
    ranged("Rocket Slug Gun", "8", "16", "32", "2d", "-"),
    ranged("Storm Slugger", "8", "16", "32", "3d", "A1"),
    ranged("Heavy Slugger", "12", "24", "48", "4d", "A2, H1"),
    ranged("Rotary Attack Cannon", "10", "20", "40", "4d", "A1, H1"),
    ranged("Advanced Flame Unit", "SP", "-", "-", "2d", "S"),
    ranged("Hand Flamer", "sp", "-", "-", "2d", "P, S"),
    ranged("Heavy (Dual) Flamer", "SP", "-", "-", "3d", "H1, S"),
    ranged("Autopistol", "6", "12", "24", "1d", "P"),
    ranged("Laser Pistol", "6", "12", "24", "1d", "P"),
    ranged("Autogun", "12", "24", "48", "1d", "-"),
    ranged("Laser Gun", "12", "24", "48", "1d", "-"),
    ranged("Autocannon", "15", "30", "60", "4d", "A2, H2"),
    ranged("Laser Cannon", "20", "40", "80", "6d", "H2"),
    ranged("Hi-(powered) Laser Pistol", "6", "12", "24", "2d", "P"),
    ranged("Hi-(powered) Laser Gun", "12", "24", "48", "2d", "-"),
    ranged("Plasma Pistol (Imperial)", "6", "12", "24", "3d", "P"),
    ranged("Plasma Gun", "12", "24", "48", "3d", "-"),
    ranged("Heavy Plasma Gun", "15", "30", "60", "4d (2d)", "b, H2"),
    ranged("Microwave \"Melter\" Gun", "3", "6", "12", "4d", "-"),
    ranged("Heavy \"Melter\" Gun", "5", "10", "20", "5d", "H2"),
    ammo(
        ranged("Missile Launcher", "20", "40", "80", "-", "H1"),
        (("fragmentation missile ammo", "2d (1d)", "b"), ("shaped charge missile ammo", "4d (0)", "b")),
    ),
)

RANGED: dict[str, RangedWeapon] = {
    **GENERIC_RANGED,
    **GALAXY_RANGED,
    **BUG_RANGED,
    **USC_RANGED,
    **REVENANT_RANGED,
    **IMPERIAL_RANGED,
}


@attrs.frozen
class MeleeWeapon:
    name: str
    atk: int
    polearm: str = ""  # "", "short", "medium", "long" (10.5)
    entangling: bool = False
    natural: bool = False  # an animal's fangs & claws
    rider: str = ""  # "chainfist", "storm_hammer", "force", "acid_immune"
    note: str = ""


POLEARM_REACH: dict[str, int] = {"": 0, "short": 0, "medium": 1, "long": 2}
POLEARM_ORDER: tuple[str, ...] = ("", "short", "medium", "long")


def _melee(*weapons: MeleeWeapon) -> dict[str, MeleeWeapon]:
    return {w.name: w for w in weapons}


MELEE = _melee(
    MeleeWeapon("unarmed", 0),
    MeleeWeapon("HTH combat skills", 1),
    MeleeWeapon("advanced HTH combat skills", 2),
    MeleeWeapon("light weapon", 1),
    MeleeWeapon("fixed bayonet", 1, polearm="short"),
    MeleeWeapon("medium weapon", 2),
    MeleeWeapon("spear", 2, polearm="medium"),
    MeleeWeapon("halberd", 2, polearm="medium"),
    MeleeWeapon("pike", 2, polearm="long"),
    MeleeWeapon("whip", 1, entangling=True),
    MeleeWeapon("heavy weapon", 3),
    MeleeWeapon("hi-tech weapon", 3),
    MeleeWeapon("energized weapon", 4),
    MeleeWeapon("beam-type weapon", 5),
    MeleeWeapon("fangs & claws: small", 1, natural=True),
    MeleeWeapon("fangs & claws: medium", 2, natural=True),
    MeleeWeapon("fangs & claws: large", 3, natural=True),
    MeleeWeapon("fangs & claws: huge", 4, natural=True),
    MeleeWeapon("fangs & claws: giant", 5, natural=True),
    MeleeWeapon("hunter's claw", 1, rider="acid_immune"),
    MeleeWeapon("hunter's spear", 1, polearm="medium", rider="acid_immune", note="length not given; medium (PR-19)"),
    MeleeWeapon("Energy Sword", 5),
    MeleeWeapon("Chain Sword", 3),
    MeleeWeapon("Chain Axe", 3),
    MeleeWeapon("Power Weapon", 4),
    MeleeWeapon("Power Claws", 5),
    MeleeWeapon("Chainfist", 4, rider="chainfist"),
    MeleeWeapon("Storm Hammer", 4, rider="storm_hammer"),
    MeleeWeapon("Force Weapon", 1, rider="force"),
)
UNARMED = MELEE["unarmed"]


def paired_atk(first: int, second: int) -> int:
    """Two melee weapons (10.4): the stronger's ATK plus half the weaker's, rounded up."""
    high, low = max(first, second), min(first, second)
    return high + (low + 1) // 2


def pistol_as_melee(weapon: RangedWeapon) -> MeleeWeapon:
    """A pistol in a melee pair fights with its ranged ATK (PR-44), no point-blank bonus."""
    if not weapon.pistol:
        raise ValueError(f"{weapon.name} is not a pistol (P)")
    return MeleeWeapon(weapon.name, weapon.atk or 0)
