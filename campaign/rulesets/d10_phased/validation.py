"""Findings on a d10 army: they explain problems, they do not block."""

from __future__ import annotations

from campaign.findings import Finding
from campaign.profiles import FieldSpec
from campaign.rulesets.d10_phased.profile import (
    DICE_RANGE,
    GRADES,
    MODEL_FIELDS,
    UNIT_FIELDS,
    WEAPON_FIELDS,
    WEAPON_KINDS,
    Army,
    Model,
    Unit,
    Weapon,
)
from campaign.rulesets.d10_phased.specials import unknown_specials


def _range(obj: object, fields: tuple[FieldSpec, ...], path: str) -> list[Finding]:
    """The army's numbers against the profile's ranges (the specs of campaign.profiles),
    for the fields the army keeps under the same name."""
    out: list[Finding] = []
    for field in fields:
        if field.type not in ("int", "number") or field.min is None or field.max is None:
            continue
        value = getattr(obj, field.name, None)
        if value is not None and not field.min <= value <= field.max:
            out.append(
                Finding(
                    "error",
                    field.rule or "profile",
                    f"{field.called} must be {field.min} to {field.max}, not {value}",
                    f"{path}.{field.name}",
                )
            )
    return out


def validate_weapon(weapon: Weapon, path: str) -> list[Finding]:
    out = _range(weapon, (DICE_RANGE, *WEAPON_FIELDS), path)
    if weapon.kind not in WEAPON_KINDS:
        out.append(Finding("error", "DP-12.1", f"a weapon is ranged or close, not {weapon.kind!r}", f"{path}.kind"))
    if not weapon.name.strip():
        out.append(Finding("error", "profile", "a weapon needs a name", f"{path}.name"))
    return out


def validate_model(model: Model, path: str) -> list[Finding]:
    out = _range(model, MODEL_FIELDS, path)
    if not model.name.strip():
        out.append(Finding("error", "profile", "a model needs a name", f"{path}.name"))
    names = [w.name for w in model.weapons]
    for i, weapon in enumerate(model.weapons):
        out += validate_weapon(weapon, f"{path}.weapons[{i}]")
        if names.count(weapon.name) > 1 and names.index(weapon.name) == i:
            out.append(Finding("error", "profile", f"two weapons are called {weapon.name!r}", f"{path}.weapons[{i}]"))
    for name in unknown_specials(model.specials):
        out.append(
            Finding(
                "warning",
                "DP-2",
                f"special {name!r} is not in the catalogue: it is kept but changes no rule",
                f"{path}.specials",
            )
        )
    if model.close == 0 and not any(w.dice for w in model.weapons):
        out.append(Finding("info", "profile", f"{model.name} has no attack dice", path))
    return out


def validate_unit(unit: Unit, path: str) -> list[Finding]:
    out = _range(unit, UNIT_FIELDS, path)
    if not unit.name.strip():
        out.append(Finding("error", "profile", "a unit needs a name", f"{path}.name"))
    if unit.grade not in GRADES:
        out.append(Finding("error", "DP-18.2", f"morale grade must be one of {', '.join(GRADES)}", f"{path}.grade"))
    count = unit.model_count
    if count < 1:
        out.append(Finding("error", "profile", "a unit needs at least one model", f"{path}.models"))
    elif unit.character and count != 1:
        out.append(Finding("error", "DP-18.7", "a character is a single model", f"{path}.models"))
    elif not 0 <= unit.leader < count:
        out.append(Finding("error", "DP-7.1", f"leader must name one of the {count} models (0 to {count - 1})", f"{path}.leader"))
    for i, model in enumerate(unit.models):
        out += validate_model(model, f"{path}.models[{i}]")
    return out


def validate_army(army: Army) -> list[Finding]:
    out: list[Finding] = []
    if not army.units:
        out.append(Finding("warning", "profile", "the army has no units", "units"))
    names = [u.name for u in army.units]
    for i, unit in enumerate(army.units):
        out += validate_unit(unit, f"units[{i}]")
        if names.count(unit.name) > 1 and names.index(unit.name) == i:
            out.append(Finding("error", "profile", f"two units are called {unit.name!r}", f"units[{i}].name"))
    return out
