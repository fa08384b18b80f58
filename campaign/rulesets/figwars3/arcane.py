"""Arcane powers (spec 16, PR-68-PR-73): the caster's affinity and points, and every
power at every level -- assault, blast, spirit strike, barrier, concealment,
conveyance, teleportation, entities and force weapons.

Attacks are `OpposedRoll`s like any shot, so `attack.resolve` rolls them and
`attack.exact_odds` gives their odds. Spirit strike and teleportation read single d6
faces rather than successes; each has a generator and an exact distribution that walk
the same steps.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from fractions import Fraction
from itertools import product
from typing import Any, Literal

import attrs

from campaign.engine.dice import roll as request_roll
from campaign.engine.errors import IllegalCommand
from campaign.rulesets.figwars3.attack import OpposedRoll, Side, Term
from campaign.rulesets.figwars3.checks import p_check, skill_check
from campaign.rulesets.figwars3.fields import ARCANE_POWERS
from campaign.rulesets.figwars3.profile import Profile, derived_com
from campaign.rulesets.figwars3.ranged import COVER_DEF, COVER_ONE_LOWER
from campaign.rulesets.figwars3.rerolls import ReRoll
from campaign.rulesets.figwars3.weapons import MeleeWeapon

LEVELS = (1, 2, 3, 4)
POWERS: tuple[str, ...] = ARCANE_POWERS  # the editor's list (fields.py) is this one
KNOWN_PER_POINT = 2  # a caster normally knows at most two powers per point of ARC rating
UPKEEP_TARGET = 3  # barrier and concealment last while a Hard check on ARC dice passes (PR-71)


class ArcaneError(IllegalCommand):
    def __init__(self, message: str, rule: str = "FW3 16.1") -> None:
        super().__init__(rule, message)


def action_cost(points: int) -> int:
    """1-2 ARC points take 1 action, 3-4 take 2 (16.1)."""
    return 1 if points <= 2 else 2


@attrs.frozen
class ArcanePool:
    """A caster's affinity (rating 1-4) and the points he has now."""

    rating: int
    points: int
    used: tuple[str, ...] = ()  # powers used this turn (each once a turn)
    spent: bool = False  # spent any point this turn (PR-68: no regain)
    entity: bool = False  # an entity of his is on the table: no points on other powers

    def spend(self, power: str, points: int) -> ArcanePool:
        if power not in POWERS and power != "force_weapon":
            raise ArcaneError(f"no arcane power {power!r} (expected one of {', '.join(POWERS)})")
        if points not in LEVELS:
            raise ArcaneError(f"a power is used at level 1 to 4, not {points}")
        if points > self.points:
            raise ArcaneError(f"{points} ARC point(s) wanted, {self.points} left")
        if power in self.used and power != "force_weapon":  # PR-72: not limited to once a turn
            raise ArcaneError(f"{power.replace('_', ' ')} was already used this turn")
        if self.entity and power != "entity":
            raise ArcaneError("while an entity of his exists the caster spends no points on other powers", "FW3 16.8")
        used = self.used if power == "force_weapon" else self.used + (power,)
        return attrs.evolve(self, points=self.points - points, used=used, spent=True)

    def turn_end(self) -> ArcanePool:
        """PR-68: a turn without spending regains 1 point, up to the rating."""
        points = self.points if self.spent else min(self.points + 1, self.rating)
        return attrs.evolve(self, points=points, used=(), spent=False)


def new_pool(rating: int) -> ArcanePool:
    if rating not in LEVELS:
        raise ArcaneError(f"ARC runs from 1 to 4, not {rating}")
    return ArcanePool(rating, rating)


# --- assault and blast (16.2, 16.3, PR-69, PR-70) --------------------------------------

ASSAULT: dict[str, tuple[int, int, int, int]] = {
    "single_los": (2, 4, 6, 8),
    "single_6in": (3, 5, 7, 9),
    "small_blast_los": (0, 2, 4, 6),
    "small_blast_6in": (1, 3, 5, 7),
    "large_blast_los": (-2, 0, 2, 4),
    "large_blast_6in": (-1, 1, 3, 5),
    "spray_full": (2, 4, 6, 8),
    "spray_half": (3, 5, 7, 9),
}
BLAST: dict[str, tuple[int, int, int, int]] = {
    "small_blast_los": (-1, 1, 3, 5),
    "small_blast_6in": (0, 2, 4, 6),
    "large_blast_los": (-3, -1, 1, 3),
    "large_blast_6in": (-2, 0, 2, 4),
}
ARCANE_FACTS: dict[str, tuple[Any, ...]] = {
    "cover": (*COVER_DEF, "obscuring_hard"),
    "aim": (False, True),
    "barrier": (0, 1, 2, 3, 4, 6, 8),  # the target's barrier DEF bonus now
    "concealment": (0, 1, 2, 3, 4),  # the target's concealment: +Nd and N re-rolls
    "target_caster": (False, True),  # spirit strike: the target is a caster (2d6, highest)
}


def listed_atk(power: str, option: str, level: int) -> int:
    table = ASSAULT if power == "assault" else BLAST
    if option not in table:
        raise ArcaneError(f"{power} has no option {option!r} (expected one of {', '.join(table)})", "FW3 16.2")
    if level not in LEVELS:
        raise ArcaneError(f"a power is used at level 1 to 4, not {level}")
    return table[option][level - 1]


def arcane_attack(
    caster: Profile, power: Literal["assault", "blast"], option: str, level: int, target: Profile, facts: Mapping[str, Any] | None = None
) -> OpposedRoll | None:
    """One model attacked by an arcane assault or blast. None: the pool comes to 0 or
    less and nobody is attacked (PR-69). No range modifiers; a blast counts cover one
    level lower and stuns every trooper under it (PR-70; the stun is the caller's)."""
    f = dict(facts or {})
    for name, value in f.items():
        if name not in ARCANE_FACTS or value not in ARCANE_FACTS[name]:
            raise ArcaneError(f"fact {name}={value!r} is not one of the arcane facts ({', '.join(ARCANE_FACTS)})", "FW3 18.2")
    atk = [Term("TQ", caster.tq), Term(f"{power} L{level}", listed_atk(power, option, level))]
    if f.get("aim"):
        atk.append(Term("Aim", 1))
    if sum(t.dice for t in atk) <= 0:
        return None
    cover = f.get("cover", "none")
    if power == "blast":
        cover = COVER_ONE_LOWER[cover]
    if cover == "obscuring_hard":
        raise ArcaneError(f"{target.name} is behind obscuring hard cover", "FW3 11.5")
    dfn = [Term("DEF", target.defence)]
    if COVER_DEF.get(cover, 0):
        dfn.append(Term(cover.replace("_", " ") + " cover", COVER_DEF[cover]))
    if f.get("barrier"):
        dfn.append(Term("arcane barrier", f["barrier"]))
    concealment = f.get("concealment", 0)
    if concealment:
        dfn.append(Term("arcane concealment", concealment))
    stealth = target.has("Stealth")
    if stealth:
        dfn.append(Term("Stealth", 1))
    return OpposedRoll(
        kind="ranged",
        attacker=Side(caster.name, tuple(atk), (ReRoll("hero"),) if caster.hero else ()),
        defender=Side(target.name, tuple(dfn), tuple(ReRoll("concealment") for _ in range(concealment)), aggressive=target.has("Aggressive")),
        stealth=stealth,
        counter=False,
        notes=("an arcane blast stuns every trooper under it (16.3)",) if power == "blast" else (),
    )


# --- spirit strike (16.4, PR-73) --------------------------------------------------------


def _high_with_reroll(faces: list[int], hero: bool) -> Generator[Any, Any, int]:
    if hero and faces:
        low = min(range(len(faces)), key=lambda i: faces[i])
        (new,) = yield from request_roll(6, 1, "re-roll (hero): spirit strike")
        faces[low] = max(faces[low], new)
    return max(faces)


def spirit_strike(level: int, target_caster: bool = False, hero: bool = False) -> Generator[Any, Any, tuple[int, int, int]]:
    """(caster's highest die, target's highest die, DP lost by the target, ignoring DEF)."""
    if level not in LEVELS:
        raise ArcaneError(f"a power is used at level 1 to 4, not {level}")
    mine = list((yield from request_roll(6, level, f"spirit strike: {level}d6, the highest counts")))
    high = yield from _high_with_reroll(mine, hero)
    theirs = list((yield from request_roll(6, 2 if target_caster else 1, "spirit strike: the target resists")))
    low = max(theirs)
    return high, low, max(high - low, 0)


def _max_dist(dice: int, hero: bool) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for faces in product(range(1, 7), repeat=dice):
        if hero:
            i = min(range(dice), key=lambda k: faces[k])
            for new in range(1, 7):
                after = list(faces)
                after[i] = max(after[i], new)
                out[max(after)] = out.get(max(after), Fraction(0)) + Fraction(1, 6 ** (dice + 1))
        else:
            out[max(faces)] = out.get(max(faces), Fraction(0)) + Fraction(1, 6**dice)
    return out


def spirit_odds(level: int, target_caster: bool = False, hero: bool = False) -> dict[int, Fraction]:
    """The exact distribution of DP a spirit strike takes off its target."""
    out: dict[int, Fraction] = {}
    for a, pa in _max_dist(level, hero).items():
        for d, pd in _max_dist(2 if target_caster else 1, False).items():
            k = max(a - d, 0)
            out[k] = out.get(k, Fraction(0)) + pa * pd
    return {k: out[k] for k in sorted(out)}


# --- barrier and concealment (16.5, 16.6, PR-71) -------------------------------------------

AREAS: tuple[str, ...] = ("caster", "small_blast", "large_blast")
BARRIER: dict[int, tuple[int, int, int]] = {1: (2, 1, 0), 2: (4, 2, 1), 3: (6, 3, 2), 4: (8, 4, 3)}
CONCEALMENT: dict[int, tuple[int, int, int]] = {1: (1, 0, 0), 2: (2, 1, 0), 3: (3, 2, 1), 4: (4, 3, 2)}


def ward(power: Literal["barrier", "concealment"], level: int, area: str) -> int:
    """The DEF bonus (and, for concealment, the number of defence re-rolls) it gives."""
    table = BARRIER if power == "barrier" else CONCEALMENT
    if area not in AREAS:
        raise ArcaneError(f"the {power} covers the caster, a small or a large template, not {area!r}", "FW3 16.5")
    bonus = table[level][AREAS.index(area)]
    if not bonus:
        raise ArcaneError(f"a level {level} {power} cannot cover a {area.replace('_', ' ')} template", "FW3 16.5")
    return bonus


def upkeep(rating: int) -> Generator[Any, Any, bool]:
    """At each later activation of the caster: a free Hard check on ARC-rating dice (PR-71)."""
    ok, _ = yield from skill_check(rating, UPKEEP_TARGET, "arcane upkeep: Hard check on the ARC rating")
    return ok


def p_upkeep(rating: int) -> Fraction:
    return p_check(rating, UPKEEP_TARGET)


# --- conveyance and teleportation (16.7) -------------------------------------------------

CONVEYANCE_INCHES = 12  # flight per ARC point spent


def conveyance_inches(points: int) -> int:
    return CONVEYANCE_INCHES * points


def teleport_dice(level: int, anywhere: bool) -> int:
    """Within the caster's sight: one die per level; anywhere: one point more, no die more."""
    if level not in LEVELS:
        raise ArcaneError(f"a power is used at level 1 to 4, not {level}")
    dice = level - 1 if anywhere else level
    if dice < 1:
        raise ArcaneError("teleporting out of sight needs level 2 or more", "FW3 16.7")
    return dice


LANDINGS: dict[str, str] = {
    "clear": "the caster stands where he lands",
    "solid_terrain": "inside solid terrain: the caster dies",
    "model": "on another model: both die",
    "vehicle": "inside a vehicle: the caster dies, the vehicle takes 1d4 DP",
}


@attrs.frozen
class Teleport:
    result: Literal["killed", "arrived", "deviated"]
    faces: tuple[int, ...]
    direction: int = 0
    inches: int = 0


def _teleport_result(faces: list[int]) -> str:
    if all(f == 1 for f in faces):
        return "killed"
    if any(f >= 4 for f in faces):
        return "arrived"
    return "deviated"


def teleport(level: int, anywhere: bool = False, hero: bool = False) -> Generator[Any, Any, Teleport]:
    """Roll the teleport dice: every die a 1 kills the caster; any 4-6 arrives exactly;
    otherwise it lands 1d8\" away in a 1d8 direction. A hero may re-roll one die (PR-73):
    a 1 when all show 1, else the lowest when none shows 4-6."""
    dice = teleport_dice(level, anywhere)
    faces = list((yield from request_roll(6, dice, f"teleport: {dice}d6, any 4-6 arrives, all 1s kill")))
    if hero and _teleport_result(faces) != "arrived":
        i = min(range(dice), key=lambda k: faces[k])
        (new,) = yield from request_roll(6, 1, "re-roll (hero): teleport")
        faces[i] = max(faces[i], new)
    result = _teleport_result(faces)
    if result != "deviated":
        return Teleport(result, tuple(faces))  # type: ignore[arg-type]
    (direction,) = yield from request_roll(8, 1, "teleport deviation: direction (1d8 arrow)")
    (inches,) = yield from request_roll(8, 1, "teleport deviation: 1d8 inches")
    return Teleport("deviated", tuple(faces), direction, inches)


def teleport_odds(level: int, anywhere: bool = False, hero: bool = False) -> dict[str, Fraction]:
    dice = teleport_dice(level, anywhere)
    out: dict[str, Fraction] = {}
    for faces in product(range(1, 7), repeat=dice):
        p = Fraction(1, 6**dice)
        if hero and _teleport_result(list(faces)) != "arrived":
            i = min(range(dice), key=lambda k: faces[k])
            for new in range(1, 7):
                after = list(faces)
                after[i] = max(after[i], new)
                key = _teleport_result(after)
                out[key] = out.get(key, Fraction(0)) + p / 6
            continue
        key = _teleport_result(list(faces))
        out[key] = out.get(key, Fraction(0)) + p
    return {k: out[k] for k in sorted(out)}


# --- entities (16.8, PR-73) ------------------------------------------------------------------

CP_PER_POINT = 3
ENTITY_BASE = {"mov": 2, "def": 0, "atk": 1, "dp": 1}
ENTITY_STEP = {"mov": 2, "def": 1, "atk": 1, "dp": 1}
ENTITY_MAX = {"mov": 12, "def": 5, "atk": 6, "dp": 6}
ROAM_CP = 5
ENTITY_RANGE = 12  # placed, and (unless roaming) kept, within 12" and sight of the caster
LOOSE_DISPELLED_MIN = 3  # a loose entity is dispelled on 3-8, else goes for the nearest model


@attrs.frozen
class EntityDesign:
    mov: int = 0  # purchases of each
    defence: int = 0
    atk: int = 0
    dp: int = 0
    roam: bool = False

    @property
    def cp(self) -> int:
        return 1 + self.mov + self.defence + self.atk + self.dp + (ROAM_CP if self.roam else 0)

    def values(self) -> dict[str, int]:
        bought = {"mov": self.mov, "def": self.defence, "atk": self.atk, "dp": self.dp}
        return {k: ENTITY_BASE[k] + ENTITY_STEP[k] * n for k, n in bought.items()}


def check_entities(designs: tuple[EntityDesign, ...], points: int) -> None:
    """Every entity within its maxima, and their CP within 3 per ARC point (unspent CP lost)."""
    for i, design in enumerate(designs):
        for key, value in design.values().items():
            if value > ENTITY_MAX[key]:
                raise ArcaneError(f"entity {i + 1}: {key.upper()} {value} is over its maximum {ENTITY_MAX[key]}", "FW3 16.8")
    total = sum(d.cp for d in designs)
    if total > CP_PER_POINT * points:
        raise ArcaneError(f"the entities cost {total} CP; {points} ARC point(s) give {CP_PER_POINT * points}", "FW3 16.8")


def entity_profile(design: EntityDesign, caster_tq: int, name: str = "arcane entity") -> Profile:
    """PR-73: the bought DEF is its whole DEF, its melee pool DEF + ATK; TQ = caster's - 1;
    immune to morale (Fearless)."""
    v = design.values()
    tq = max(caster_tq - 1, 0)
    return Profile(
        name=name,
        tq=tq,
        mov=v["mov"],
        dp=v["dp"],
        defence=v["def"],
        com=derived_com(tq),
        abilities=frozenset({"Fearless"}),
        melee=(MeleeWeapon("entity's attack", v["atk"]),),
    )


def loose_entity() -> Generator[Any, Any, bool]:
    """True when a loose entity is dispelled (1d8 of 3-8); else it stays and attacks the
    nearest model that is not an entity. Rolled again at every turn start while loose."""
    (face,) = yield from request_roll(8, 1, "loose entity: 3-8 dispelled, 1-2 it runs wild")
    return face >= LOOSE_DISPELLED_MIN


# --- force weapons (16.9, PR-72) ---------------------------------------------------------------


def force_weapon_atk(weapon_atk: int, rating: int, points: int = 0) -> int:
    """The ARC rating free, plus +1d per ARC point spent on the strike."""
    return weapon_atk + rating + points
