"""Optional rules (spec 15, PR-67) as scenario options: formations (with Shield Wall)
and the Hail of Arrows. Mire tests (8.10) are in vehicle_movement.py.

`OPTIONAL_RULES` names the switches a scenario may turn on; a battle reads them from the
ruleset's options (`formations`, `hail_of_arrows`, `mire_tests`).
"""

from __future__ import annotations

from collections.abc import Generator
from fractions import Fraction
from typing import Any

import attrs

from campaign.engine.dice import roll as request_roll
from campaign.engine.errors import IllegalCommand
from campaign.rulesets.figwars3.attack import OpposedRoll, Side, Term
from campaign.rulesets.figwars3.profile import Profile
from campaign.rulesets.figwars3.ranged import COVER_DEF, COVER_ONE_LOWER
from campaign.rulesets.figwars3.weapons import MeleeWeapon, RangedWeapon

OPTIONAL_RULES: dict[str, str] = {
    "formations": "formations in melee and shooting (15.1)",
    "hail_of_arrows": "Hail of Arrows for bow and crossbow units (15.2)",
    "mire_tests": "mire tests for wheeled and tracked vehicles in difficult terrain (8.10)",
}

# --- formations (15.1) -----------------------------------------------------------------------

MIN_WIDTH = {"foot": 4, "mounted": 3}
SIDES = ("front", "left", "right", "rear")  # where a shooter stands against a formation


@attrs.frozen
class Formation:
    ranks: tuple[tuple[str, ...], ...]  # model ids, front rank first (as the players set them)
    mounted: bool = False
    leader: str = ""  # a leader standing detached, within his COM of the formation (players' measure)

    def check(self) -> None:
        width = MIN_WIDTH["mounted" if self.mounted else "foot"]
        if not self.ranks or len(self.ranks[0]) < width:
            raise IllegalCommand("FW3 15.1", f"a formation is at least {width} troopers wide")

    def fighters(self, polearms: dict[str, MeleeWeapon]) -> tuple[str, ...]:
        """Who fights in melee: the front rank, and second-rank models with a medium or long
        polearm (reaching past the friend in front)."""
        self.check()
        second = self.ranks[1] if len(self.ranks) > 1 else ()
        reach = tuple(m for m in second if m in polearms and polearms[m].polearm in ("medium", "long"))
        return self.ranks[0] + reach

    def direct_fire_casualties(self, facing_shooter: int = 0) -> tuple[str, ...]:
        """Direct fire kills only in the two ranks nearest the shooter (rank index
        `facing_shooter` and the one behind it; the rear ranks when shot from behind)."""
        self.check()
        if facing_shooter >= len(self.ranks) - 1:
            return tuple(m for rank in self.ranks[-2:] for m in rank)
        return tuple(m for rank in self.ranks[facing_shooter : facing_shooter + 2] for m in rank)

    def exposed(self, side: str) -> tuple[str, ...]:
        """The models direct fire may hit from `side` (15.1): the two ranks nearest the
        shooter from the front or the rear, two deep from a flank (the two models at
        that end of every rank, ranks listed left to right)."""
        if side == "front":
            ranks = self.ranks[:2]
        elif side == "rear":
            ranks = self.ranks[-2:]
        elif side == "left":
            ranks = tuple(r[:2] for r in self.ranks)
        elif side == "right":
            ranks = tuple(r[-2:] for r in self.ranks)
        else:
            raise IllegalCommand("FW3 15.1", f"a shooter stands at the front, left, right or rear of a formation, not {side!r}")
        return tuple(m for rank in ranks for m in rank)

    def without(self, model: str) -> Formation | None:
        """The formation after a model falls: those behind step up to keep the front (and
        then the second rank) as wide as it was, in the order the rank lists them; None
        when too few are left to stand as a formation (15.1)."""
        ranks = [[m for m in r if m != model] for r in self.ranks]
        width = MIN_WIDTH["mounted" if self.mounted else "foot"]
        if sum(len(r) for r in ranks) < width:
            return None
        wanted = [len(r) for r in self.ranks]
        for i in range(len(ranks) - 1):
            while len(ranks[i]) < wanted[i] and any(ranks[i + 1:]):
                donor = next(r for r in ranks[i + 1:] if r)
                ranks[i].append(donor.pop(0))
        kept = tuple(tuple(r) for r in ranks if r)
        if len(kept[0]) < width:
            return None
        return attrs.evolve(self, ranks=kept)

    def shooters(self, indirect: bool) -> tuple[str, ...]:
        """The front two ranks fire direct; the whole formation fires indirect."""
        self.check()
        ranks = self.ranks if indirect else self.ranks[:2]
        return tuple(m for rank in ranks for m in rank)


# --- Hail of Arrows (15.2, PR-67) -----------------------------------------------------------

HAIL_RANGE = (10, 30)
# (highest total arrows, faces for a miss up to, 1 hit up to, 2 hits up to); above: 3 hits
HAIL_TABLE: tuple[tuple[int, int, int, int], ...] = (
    (5, 6, 8, 8),
    (10, 5, 7, 8),
    (15, 4, 7, 8),
    (20, 3, 6, 7),
)


def hail_row(arrows: int) -> tuple[int, int, int, int]:
    for row in HAIL_TABLE:
        if arrows <= row[0]:
            return row
    raise IllegalCommand("FW3 15.2", f"the table stops at 20 arrows, not {arrows}")


def hits_for(face: int, arrows: int) -> int:
    _, miss, one, two = hail_row(arrows)
    if face <= miss:
        return 0
    if face <= one:
        return 1
    return 2 if face <= two else 3


def hail_deviation(average_tq: float) -> Generator[Any, Any, tuple[int, int]]:
    """(direction, inches): 1d4 - the archers' average TQ rounded down, never below 0 (PR-67)."""
    (face,) = yield from request_roll(8, 1, "hail of arrows: 1d4 deviation (a d8 halved)")
    (direction,) = yield from request_roll(8, 1, "hail of arrows: deviation direction (1d8 arrow)")
    return direction, max((face + 1) // 2 - int(average_tq), 0)


def hail_hits(models: int, arrows: int) -> Generator[Any, Any, tuple[int, ...]]:
    """Hits on each model under the template, nearest the centre first, until every model
    was rolled for or the arrows run out (a model never gets more than are left)."""
    if arrows < 1:
        raise IllegalCommand("FW3 15.2", "a hail of arrows needs at least one archer")
    left = arrows
    out: list[int] = []
    for i in range(models):
        if left <= 0:
            out.append(0)
            continue
        (face,) = yield from request_roll(8, 1, f"hail of arrows: model {i + 1}")
        got = min(hits_for(face, arrows), left)
        left -= got
        out.append(got)
    return tuple(out)


def p_hits(arrows: int) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for face in range(1, 9):
        k = hits_for(face, arrows)
        out[k] = out.get(k, Fraction(0)) + Fraction(1, 8)
    return out


def hail_damage(weapon: RangedWeapon, target: Profile, cover: str = "none") -> OpposedRoll:
    """One arrow's damage roll: the weapon's ATK only, at least 1d (PR-67), against DEF and
    cover one level lower; no stun."""
    if weapon.name.lower().find("bow") < 0:
        raise IllegalCommand("FW3 15.2", f"Hail of Arrows is for bows and crossbows, not {weapon.name}")
    att = Side("arrow", (Term("ATK", max(weapon.atk or 0, 1)),))
    dfn = [Term("DEF", target.defence)]
    lower = COVER_ONE_LOWER[cover]
    if COVER_DEF.get(lower, 0):
        dfn.append(Term(lower.replace("_", " ") + " cover", COVER_DEF[lower]))
    return OpposedRoll("ranged", att, Side(target.name, tuple(dfn), aggressive=target.has("Aggressive")), counter=False)


def check_hail_range(inches: int) -> None:
    low, high = HAIL_RANGE
    if not low <= inches <= high:
        raise IllegalCommand("FW3 15.2", f"a hail of arrows lands {low}\" to {high}\" from the lead model, not {inches}\"")
