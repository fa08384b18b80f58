"""d10 armies in the shared force container (campaign.force), and back.

A d10 model is an Element whose numbers the container lacks sit in `stats`, and a
unit's own fields (grade, command radius, leader, character, morale modifier) sit in the
unit's `stats` (profile.py declares both):

    [[units]]
    name = "Legionaries"
    stats = { grade = "average", command_radius = 6 }

    [[units.elements]]
    name = "Legionary"
    count = 7
    move = 6
    attributes = ["Machine"]
    weapons = [{ name = "Rifle", kind = "ranged", die = "2d10", range = 24 }]
    stats = { save = 1, close = 1, hits = 1, base = "1" }

Files written before units had stats keep the unit's fields in its first element's stats;
they are read the same way.

A weapon's attack dice are its `die`, written "<dice>d10". Reading a force never
raises: what cannot be read becomes an error finding naming the key path.
"""

from __future__ import annotations

import re
from fractions import Fraction

from campaign.findings import Finding
from campaign.force import Element, Force, WeaponKind
from campaign.force import Unit as ForceUnit
from campaign.force import Weapon as ForceWeapon
from campaign.rulesets.d10_phased.profile import GRADES, MODEL_FIELDS, UNIT_FIELDS, WEAPON_FIELDS, Army, Model, Unit, Weapon

RULESET_ID = "d10-phased"
MODEL_STATS = tuple(f.name for f in MODEL_FIELDS if f.stat)
UNIT_STATS = tuple(f.name for f in UNIT_FIELDS)
DEFAULTS = {f.name: f.default for f in (*MODEL_FIELDS, *UNIT_FIELDS)}  # what a key left out means
_DICE = re.compile(next(f for f in WEAPON_FIELDS if f.name == "die").pattern)  # "2d10": the count captured


def _base_text(base: Fraction) -> int | str:
    if base.denominator == 1:
        return base.numerator
    return str(float(base)) if (base * 1000).denominator == 1 else f"{base.numerator}/{base.denominator}"


def weapon_to_force(weapon: Weapon) -> ForceWeapon:
    kind: WeaponKind = "ranged" if weapon.kind == "ranged" else "melee"
    return ForceWeapon(weapon.name, kind, f"{weapon.dice}d10", weapon.range)


def model_to_element(model: Model) -> Element:
    stats: dict[str, int | str] = {
        "save": model.save,
        "close": model.close,
        "hits": model.hits,
        "base": _base_text(model.base),
    }
    return Element(
        name=model.name,
        count=model.count,
        move=model.move,
        weapons=tuple(weapon_to_force(w) for w in model.weapons),
        attributes=model.specials,
        stats=stats,
    )


def unit_stats(unit: Unit) -> dict[str, int | str]:
    """A unit's own fields as its `stats`: grade and command radius always, the rest when set."""
    stats: dict[str, int | str] = {"grade": unit.grade, "command_radius": unit.command_radius}
    if unit.leader:
        stats["leader"] = unit.leader
    if unit.character:
        stats["character"] = 1
    if unit.morale_modifier:
        stats["morale_modifier"] = unit.morale_modifier
    return stats


def army_to_force(army: Army) -> Force:
    units = tuple(
        ForceUnit(u.name, tuple(model_to_element(m) for m in u.models), stats=unit_stats(u)) for u in army.units
    )
    return Force(name=army.name, ruleset=RULESET_ID, units=units, note=army.note)


class _Reader:
    def __init__(self) -> None:
        self.findings: list[Finding] = []

    def error(self, path: str, message: str, rule: str = "force file") -> None:
        self.findings.append(Finding("error", rule, message, path))

    def int_stat(self, stats: dict[str, int | str], key: str, default: int, path: str) -> int:
        value = stats.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(f"{path}.stats.{key}", f"{key} must be a whole number, not {value!r}")
            return default
        return value

    def weapon(self, weapon: ForceWeapon, path: str) -> Weapon:
        match = _DICE.fullmatch(weapon.die or "")
        dice = int(match.group(1)) if match else 1
        if not match:
            self.error(f"{path}.die", f"a weapon's dice are written like \"2d10\", not {weapon.die!r}")
        return Weapon(weapon.name, dice, "ranged" if weapon.kind == "ranged" else "close", weapon.range)

    def model(self, element: Element, path: str) -> Model:
        stats = element.stats
        for key in stats:
            if key not in MODEL_STATS + UNIT_STATS:
                self.error(f"{path}.stats.{key}", f"unknown stat {key!r} (stats: {', '.join(MODEL_STATS + UNIT_STATS)})")
        raw_base = stats.get("base", DEFAULTS["base"])
        try:
            base = Fraction(str(raw_base))
        except (ValueError, ZeroDivisionError):
            self.error(f"{path}.stats.base", f"base must be inches, not {raw_base!r}")
            base = Fraction(1)
        return Model(
            name=element.name,
            move=element.move if element.move is not None else 0,
            save=self.int_stat(stats, "save", DEFAULTS["save"], path),
            weapons=tuple(self.weapon(w, f"{path}.weapons[{i}]") for i, w in enumerate(element.weapons)),
            close=self.int_stat(stats, "close", DEFAULTS["close"], path),
            hits=self.int_stat(stats, "hits", DEFAULTS["hits"], path),
            base=base,
            specials=element.attributes,
            count=element.count - element.lost,
        )

    def unit(self, unit: ForceUnit, path: str) -> Unit:
        models = tuple(self.model(e, f"{path}.elements[{i}]") for i, e in enumerate(unit.elements))
        first = unit.elements[0].stats if unit.elements else {}
        for i, element in enumerate(unit.elements[1:], 1):
            for key in UNIT_STATS:
                if key in element.stats:
                    self.error(f"{path}.elements[{i}].stats.{key}", f"{key} belongs to the unit (its stats)")
        for key in unit.stats:
            if key not in UNIT_STATS:
                self.error(f"{path}.stats.{key}", f"unknown unit stat {key!r} (stats: {', '.join(UNIT_STATS)})")
        # each field from the unit's stats, or from its first element's (older files)
        source: dict[str, tuple[dict[str, int | str], str]] = {}
        for key in UNIT_STATS:
            if key in unit.stats:
                if key in first:
                    self.error(f"{path}.elements[0].stats.{key}", f"{key} is given on the unit and on its first element")
                source[key] = (unit.stats, path)
            else:
                source[key] = (first, f"{path}.elements[0]")
        stats, at = source["grade"]
        grade = stats.get("grade", DEFAULTS["grade"])
        if grade not in GRADES:
            self.error(f"{at}.stats.grade", f"grade must be one of {', '.join(GRADES)}, not {grade!r}", "DP-18.2")
            grade = "average"

        def number(key: str) -> int:
            stats, at = source[key]
            return self.int_stat(stats, key, DEFAULTS[key], at)

        return Unit(
            name=unit.name,
            models=models,
            grade=grade,
            command_radius=number("command_radius"),
            leader=number("leader"),
            character=bool(number("character")),
            morale_modifier=number("morale_modifier"),
        )


def force_to_army(force: Force) -> tuple[Army, list[Finding]]:
    """The army a force file describes (losses taken off), and what could not be read."""
    reader = _Reader()
    units = tuple(reader.unit(u, f"units[{i}]") for i, u in enumerate(force.units))
    for i, unit in enumerate(force.units):
        for e, element in enumerate(unit.elements):
            if element.die is not None:
                reader.error(f"units[{i}].elements[{e}].die", "a d10 model has no die of its own (its weapons have dice)")
    return Army(force.name, units, force.note), reader.findings
