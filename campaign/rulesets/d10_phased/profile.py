"""A d10 model is defined by its profile (section 2): the army-building rules are not in
our sources, so there are no points, and a model is its numbers and specials.

`MODEL_FIELDS`, `WEAPON_FIELDS` and `UNIT_FIELDS` describe every field as typed field specs
(campaign.profiles: type, range, default, help, the rule it comes from), as a force file
keeps it: a model's own numbers in its element's `stats`, its specials as `attributes`,
a weapon's attack dice as its `die` ("2d10"). `PROFILE` gathers them for the core, so
validation, the force builder's editors, force views and `muster cost` are driven by them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

import attrs

from campaign.profiles import FieldSpec, Profile

Grade = Literal["fearless", "average", "cowardly"]
GRADES: tuple[Grade, ...] = ("fearless", "average", "cowardly")
WeaponKind = Literal["ranged", "close"]
WEAPON_KINDS: tuple[WeaponKind, ...] = ("ranged", "close")


@attrs.frozen
class Weapon:
    name: str
    dice: int  # attack dice with this weapon [B]
    kind: WeaponKind = "ranged"
    range: int = 0  # inches; a table fact at play, kept for the players [B]


def _inches(value: object) -> Fraction:
    return Fraction(str(value))  # 1.5 and "3/2" alike, exactly


@attrs.frozen
class Model:
    name: str
    move: int  # inches [B]
    save: int  # save dice [B]
    weapons: tuple[Weapon, ...] = ()
    close: int = 0  # close attack dice [B]
    hits: int = 1  # absorbable hits bought (DP-12.2)
    base: Fraction = attrs.field(default=Fraction(1), converter=_inches)  # inches
    specials: tuple[str, ...] = ()
    count: int = 1  # identical models sharing this entry


@attrs.frozen
class Unit:
    name: str
    models: tuple[Model, ...]
    grade: Grade = "average"  # DP-18.2
    command_radius: int = 6  # inches [B]; the unit type's radius (DP-6)
    leader: int = 0  # index of the leader among the unit's models, counted one by one (DP-7.1)
    character: bool = False  # an independent character: one model, no unit (DP-18.7)
    morale_modifier: int = 0  # race or type modifier on the individual table [B] (DP-18.5)

    @property
    def model_count(self) -> int:
        return sum(m.count for m in self.models)

    def each_model(self) -> list[Model]:
        """The models one by one (an entry with count 3 gives three)."""
        return [m for m in self.models for _ in range(max(m.count, 0))]


@attrs.frozen
class Army:
    name: str
    units: tuple[Unit, ...]
    note: str = ""

    @property
    def model_count(self) -> int:
        return sum(u.model_count for u in self.units)


WEAPON_FIELDS: tuple[FieldSpec, ...] = (
    FieldSpec("kind", "choice", "Kind", "ranged (fire) or melee (close attack)", default="ranged",
              choices=("ranged", "melee"), rule="DP-12.1"),
    FieldSpec("die", "die", "Dice", "attack dice rolled with it", pattern=r"(?i)\s*(\d+)\s*d10\s*", placeholder="2d10",
              rule="DP-12.1"),
    FieldSpec("range", "int", "Range", "in inches; judged on the table", default=0, min=0, max=200, rule="DP-13"),
)
# Range checks of the army's numbers (validation.py) read these by the army's attribute name.
DICE_RANGE = FieldSpec("dice", "int", "dice", "attack dice rolled with it", min=0, max=40, rule="DP-12.1")

MODEL_FIELDS: tuple[FieldSpec, ...] = (
    FieldSpec("count", "int", "count", "identical models in this entry", default=1, min=1, max=200),
    FieldSpec("move", "int", "Move", "movement rate in inches; 0 is immobile", default=6, min=0, max=99, column=3,
              short="Mv", rule="DP-8"),
    FieldSpec("save", "int", "Save", "save dice rolled once against a phase's hits", default=0, min=0, max=20,
              stat=True, column=2, short="Sv", rule="DP-11.2"),
    FieldSpec("close", "int", "Close", "close attack dice", default=0, min=0, max=40, stat=True, column=2, short="CC",
              rule="DP-15.5"),
    FieldSpec("hits", "int", "Hits", "absorbable hits bought; 2 or more absorb", default=1, min=1, max=40, stat=True,
              column=2, short="H", rule="DP-16"),
    FieldSpec("base", "number", "Base", "base size in inches (plunging fire)", default=1, min=0, max=12, stat=True,
              placeholder="1, 1.5 or 3/2", rule="DP-14.3"),
    FieldSpec("attributes", "list", "Specials", "special attributes, comma separated; Tab completes",
              placeholder="Jump 12, Machine", rule="DP-2"),
)

UNIT_FIELDS: tuple[FieldSpec, ...] = (
    FieldSpec("grade", "choice", "Grade", "morale grade", default="average", choices=GRADES, stat=True,
              rule="DP-18.2"),
    FieldSpec("command_radius", "int", "Radius", "command radius: how far a model may stand from its leader, in inches",
              default=6, min=0, max=99, stat=True, rule="DP-6"),
    FieldSpec("leader", "int", "Leader", "which model leads, counted one by one (0 = the first)", default=0, min=0,
              max=200, stat=True, rule="DP-7"),
    FieldSpec("character", "int", "Character", "1: an independent character (one model, no unit)", default=0, min=0,
              max=1, stat=True, rule="DP-18.7"),
    FieldSpec("morale_modifier", "int", "Morale mod", "race or type modifier on individual morale", default=0,
              min=-5, max=5, stat=True, rule="DP-18.5"),
)

# A unit's own fields are its `stats` (forces.py; older files keep them on its first element).
PROFILE = Profile(element=MODEL_FIELDS, weapon=WEAPON_FIELDS, unit=UNIT_FIELDS)
