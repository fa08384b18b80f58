"""A d10 model is defined by its profile (section 2): the army-building rules are not in
our sources, so there are no points, and a model is its numbers and specials.

`MODEL_FIELDS`, `WEAPON_FIELDS` and `UNIT_FIELDS` describe every field as data (type,
range, default, help) so that validation, editors and views can be driven by them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal

import attrs

Grade = Literal["fearless", "average", "cowardly"]
GRADES: tuple[Grade, ...] = ("fearless", "average", "cowardly")
WeaponKind = Literal["ranged", "close"]
WEAPON_KINDS: tuple[WeaponKind, ...] = ("ranged", "close")


@attrs.frozen
class Field:
    """One profile field: its name, kind ("int", "inches", "text", "choice", "list", "bool"),
    allowed range or choices, default and help."""

    name: str
    kind: str
    default: Any
    help: str
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    rule: str = ""


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


WEAPON_FIELDS: tuple[Field, ...] = (
    Field("name", "text", "", "what the weapon is called"),
    Field("dice", "int", 1, "attack dice rolled with it", 0, 40),
    Field("kind", "choice", "ranged", "ranged (fire) or close (melee)", choices=WEAPON_KINDS, rule="DP-12.1"),
    Field("range", "inches", 0, "its range; judged on the table", 0, 200),
)

MODEL_FIELDS: tuple[Field, ...] = (
    Field("name", "text", "", "the model's name"),
    Field("move", "inches", 6, "movement rate in inches; 0 is immobile", 0, 99, rule="DP-8"),
    Field("save", "int", 1, "save dice rolled once against a phase's hits", 0, 20, rule="DP-11.2"),
    Field("close", "int", 1, "close attack dice", 0, 40, rule="DP-15.5"),
    Field("hits", "int", 1, "absorbable hits bought; 2 or more absorb", 1, 40, rule="DP-16"),
    Field("base", "inches", 1, "base size in inches (plunging fire)", 0, 12, rule="DP-14.3"),
    Field("specials", "list", (), "special attributes (Jump, Machine, Mindless ...)", rule="DP-2"),
    Field("count", "int", 1, "identical models in this entry", 1, 200),
)

UNIT_FIELDS: tuple[Field, ...] = (
    Field("name", "text", "", "the unit's name"),
    Field("grade", "choice", "average", "morale grade", choices=GRADES, rule="DP-18.2"),
    Field("command_radius", "inches", 6, "how far a model may stand from its leader", 0, 99, rule="DP-6"),
    Field("leader", "int", 0, "which model leads (0 = the first)", 0, 200, rule="DP-7"),
    Field("character", "bool", False, "an independent character (one model, no unit)", rule="DP-18.7"),
    Field("morale_modifier", "int", 0, "race or type modifier on individual morale", -5, 5, rule="DP-18.5"),
)
