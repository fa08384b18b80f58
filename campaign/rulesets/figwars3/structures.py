"""Structures: doors and walls (spec 12.4, PR-60). A structure is attacked like a model,
ranged or melee; it rolls its DEF only and never hurts a melee attacker. A wall is
built of 2" x 2" sections, each with its own DP; a section at 0 DP is breached.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import Any, Literal

import attrs

from campaign.engine.dice import roll as request_roll
from campaign.engine.errors import IllegalCommand
from campaign.rulesets.figwars3 import margins
from campaign.rulesets.figwars3.pool import dice_count, successes
from campaign.rulesets.figwars3.attack import OpposedRoll, Side, Term
from campaign.rulesets.figwars3.melee import weapons_atk
from campaign.rulesets.figwars3.profile import Profile
from campaign.rulesets.figwars3.ranged import ranged_attack
from campaign.rulesets.figwars3.rerolls import ReRoll
from campaign.rulesets.figwars3.weapons import RangedWeapon

Kind = Literal["door", "wall"]
GRADES: tuple[str, ...] = ("flimsy", "weak", "normal", "reinforced", "heavy")
# (DEF, DP) per grade
DOORS: dict[str, tuple[int, int]] = {"flimsy": (1, 1), "weak": (2, 1), "normal": (3, 1), "reinforced": (4, 2), "heavy": (5, 2)}
WALLS: dict[str, tuple[int, int]] = {"flimsy": (3, 3), "weak": (4, 3), "normal": (5, 3), "reinforced": (6, 4), "heavy": (7, 4)}
SECTION_INCHES = 2
INDESTRUCTIBLE_THICKNESS = 0.5  # thicker terrain stands unless built of small parts


@attrs.frozen
class Structure:
    kind: Kind
    grade: str
    sections: tuple[int, ...]  # DP left in each section (a door has one)

    @property
    def defence(self) -> int:
        return (DOORS if self.kind == "door" else WALLS)[self.grade][0]

    @property
    def breached(self) -> tuple[int, ...]:
        return tuple(i for i, dp in enumerate(self.sections) if dp <= 0)

    def hit(self, section: int, dp: int) -> Structure:
        if not 0 <= section < len(self.sections):
            raise IllegalCommand("FW3 12.4", f"no section {section + 1}: the {self.kind} has {len(self.sections)}")
        out = list(self.sections)
        out[section] -= dp
        return attrs.evolve(self, sections=tuple(out))

    def profile(self) -> Profile:
        """The structure as a target: its DEF, no TQ, never fighting back."""
        return Profile(name=f"{self.grade} {self.kind}", tq=0, mov=0, dp=max(self.sections), defence=self.defence, com=0)


def structure(kind: Kind, grade: str, length_inches: int = SECTION_INCHES) -> Structure:
    table = DOORS if kind == "door" else WALLS
    if grade not in table:
        raise IllegalCommand("FW3 12.4", f"a {kind} is one of {', '.join(table)}, not {grade!r}")
    count = 1 if kind == "door" else max(1, -(-length_inches // SECTION_INCHES))
    return Structure(kind, grade, (table[grade][1],) * count)


def destructible(thickness_inches: float, small_parts: bool = False) -> bool:
    """Terrain over 1/2" thick stands unless it is made of small parts (crates, barrels)."""
    return small_parts or thickness_inches <= INDESTRUCTIBLE_THICKNESS


def strike_structure(attacker: Profile, target: Structure, attacker_weapons: tuple[str, ...] = ()) -> OpposedRoll:
    """A melee attack on a structure: DEF only, no counter, no multiple-attacker bonus."""
    weapons = attacker.melee_weapons(attacker_weapons)
    rerolls = tuple(r for r in (ReRoll("hero") if attacker.hero else None, ReRoll("Master Warrior") if attacker.has("Master Warrior") else None) if r)
    return OpposedRoll(
        kind="melee",
        attacker=Side(attacker.name, (Term("DEF", attacker.defence), Term("ATK", weapons_atk(weapons))), rerolls,
                      strong=attacker.has("Strong"), mighty_blow=attacker.has("Mighty Blow")),
        defender=Side(target.profile().name, (Term("DEF", target.defence),), stun_immune=True),
        counter=False,
        notes=("a structure only defends (12.4)",),
    )


def shoot_structure(shooter: Profile, weapon: RangedWeapon, target: Structure, facts: Mapping[str, Any] | None = None) -> OpposedRoll:
    """A shot at a structure: the ordinary shot against its DEF (no cover for a wall)."""
    f = {k: v for k, v in (facts or {}).items() if k not in ("cover", "prone")}
    return ranged_attack(shooter, weapon, target.profile(), f)


def chainfist_bonus(weapon_rider: str, dp: int) -> int:
    """17.8 Chainfist: +1 DP to a stationary target when the attack already does >= 1 DP."""
    return 1 if weapon_rider == "chainfist" and dp >= 1 else 0


def cover_hit(attack_successes: int, target: Structure) -> Generator[Any, Any, tuple[int, int]]:
    """PR-60: a shot that scored but did not hurt the model behind cover may hit the cover
    instead: the same attack successes against the structure's DEF roll, read on the
    ranged ladder (a structure takes no pins). Returns (its successes, DP)."""
    dice = dice_count(target.defence)
    faces = (yield from request_roll(6, dice, f"{dice}d6: the {target.kind} in the way defends (PR-60)")) if dice else []
    got = successes(list(faces))
    return got, margins.ranged_effects(attack_successes - got).dp
