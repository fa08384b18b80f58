"""Build-time checks for a Flat Out War force: findings that explain, never block.

Each finding names the rule it comes from ("FOW 20 Hover", "A-69", "FOW 19.1") and
the key path of the offending entry ("units[2].elements[0].attributes[1]").
"""

from __future__ import annotations

import difflib
from typing import Any

from campaign.findings import Finding
from campaign.force import Element, Force, Mount
from campaign.rulesets.flat_out_war.attributes import (
    ATTRIBUTE_NAMES,
    Requirement,
    attribute,
)
from campaign.rulesets.flat_out_war.fields import COUNT, LOST, MOVE, POINTS_LIMIT, RANGE
from campaign.rulesets.flat_out_war.costs import CostOptions, price_element
from campaign.rulesets.flat_out_war.dice import DIE_NAMES, normalize_die
from campaign.rulesets.flat_out_war.editions import (
    EDITION_COSTS,
    EDITIONS,
    MAGIC_BUDGET,
    RELOAD_MAX,
    SO,
    V17,
    normalize_edition,
)
from campaign.rulesets.flat_out_war.reading import (
    Placed,
    attribute_names_of,
    base_die,
    has_ranged_weapon,
    placed_attributes,
)
from campaign.rulesets.flat_out_war.spells import spell, suggest_spell

_DICE = ", ".join(DIE_NAMES)
_LABEL = {V17: "v1.7", SO: "Special Operations"}
OPTION_CHOICES: dict[str, tuple[Any, ...]] = {"ranged_base_dac": (2, 1)}


def resolve_options(defaults: dict[str, Any], force: Force) -> tuple[CostOptions, list[Finding]]:
    """Cost options for a force: the ruleset's options overridden by Force.options."""
    findings: list[Finding] = []
    merged = dict(defaults)
    for key, value in force.options.items():
        if key not in defaults:
            known = ", ".join(sorted(defaults))
            findings.append(Finding("error", "options", f"unknown Flat Out War option {key!r} (known: {known})",
                                    f"options.{key}"))
            continue
        choices = OPTION_CHOICES.get(key)
        if choices and (isinstance(value, bool) or value not in choices):
            findings.append(Finding("error", "A-56", f"option {key} must be one of "
                                    f"{', '.join(map(str, choices))}, not {value!r}", f"options.{key}"))
            continue
        merged[key] = value
    free: set[str] = set()
    raw = merged.get("free_attributes") or ""
    if not isinstance(raw, str):
        findings.append(Finding("error", "FOW 19.1", "free_attributes must be attribute names separated by commas",
                                "options.free_attributes"))
        raw = ""
    for name in filter(None, (part.strip() for part in raw.split(","))):
        try:
            free.add(attribute(name).name)
        except KeyError:
            close = difflib.get_close_matches(name, list(ATTRIBUTE_NAMES), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            findings.append(Finding("error", "FOW 19.1", f"free_attributes names unknown attribute {name!r}{hint}",
                                    "options.free_attributes"))
    ranged = merged.get("ranged_base_dac", 2)
    return CostOptions(ranged_base_dac=int(ranged), free_attributes=frozenset(free)), findings


def _requirement_met(req: Requirement, element: Element, names: set[str]) -> bool:
    if req.kind == "any_attribute":
        return any(n in names for n in req.names)
    if req.kind == "ranged_weapon":
        return has_ranged_weapon(element)
    if req.kind == "extra_weapon":
        return any(w.mount == "extra" for w in element.weapons)
    return element.kind == "vehicle"


def _check_attribute(p: Placed, element: Element, edition: str, names: set[str], path: str) -> list[Finding]:
    out: list[Finding] = []
    spec, params = p.parsed.spec, p.parsed.params
    where = f"{path}.{p.path}"
    specs = [spec] + ([params.linked.spec] if params.linked is not None else [])
    for s in specs:
        if not s.in_edition(edition):
            other = ", ".join(_LABEL[e] for e in s.editions)
            out.append(Finding("error", "FOW 21.4",
                               f"{s.name} is not an attribute of {_LABEL[edition]} (only in {other})", where))
    for req in spec.requires:
        if edition not in req.editions or _requirement_met(req, element, names):
            continue
        if req.kind == "vehicle":
            msg = f"{spec.name} is for vehicles only ({_LABEL[edition]}); {element.name} is a {element.kind}"
        else:
            msg = f"{spec.name} needs {req.describe()}"
        out.append(Finding("error", req.ruling or f"FOW 20 {spec.name}", msg, where))
    if spec.name == "Reload" and params.turns is not None and not 1 <= params.turns <= RELOAD_MAX:
        out.append(Finding("error", "FOW 20 Reload",
                           f"Reload must be 1 or 2 turns (nothing takes more than {RELOAD_MAX}), not {params.turns}",
                           where))
    if spec.weapon_bound and p.weapon is None and spec.name not in ("Multi-shot", "Capture", "Ensnare"):
        if not spec.requires:  # requirement findings already explain the ranged ones
            out.append(Finding("error", f"FOW 20 {spec.name}", f"{spec.name} needs a weapon to apply to", where))
    return out


# the attribute that pays for a weapon on that mount
_MOUNT_OF_ATTRIBUTE: dict[str, Mount] = {"Extra weapon": "extra", "Sponson": "sponson", "Turret": "turret"}


def _check_mounts(element: Element, placed: list[Placed], edition: str, path: str) -> list[Finding]:
    out: list[Finding] = []
    mounts = [w.mount for w in element.weapons]
    for p in placed:
        name = p.parsed.spec.name
        mount = _MOUNT_OF_ATTRIBUTE.get(name)
        if mount is None or (name == "Turret" and EDITION_COSTS[edition].turret == "flat"):
            continue
        have = mounts.count(mount)
        wanted = p.parsed.params.count or 1
        if have == 0:
            out.append(Finding("error", f"FOW 19.5 {name}",
                               f"{p.parsed.text}: give the weapon itself, with mount = {mount}, so it can be priced",
                               f"{path}.{p.path}"))
        elif have != wanted:
            out.append(Finding("warning", f"FOW 19.5 {name}",
                               f"{p.parsed.text} but {have} weapon(s) have mount = {mount}; the weapons are priced",
                               f"{path}.{p.path}"))
    return out


def _check_weapons(element: Element, edition: str, path: str) -> list[Finding]:
    out: list[Finding] = []
    for w, weapon in enumerate(element.weapons):
        where = f"{path}.weapons[{w}]"
        if weapon.kind not in ("melee", "ranged"):
            out.append(Finding("error", "FOW 19.4", f"weapon kind must be melee or ranged, not {weapon.kind!r}",
                               f"{where}.kind"))
        if weapon.mount not in ("main", "extra", "sponson", "turret"):
            out.append(Finding("error", "FOW 19.4",
                               f"weapon mount must be main, extra, sponson or turret, not {weapon.mount!r}",
                               f"{where}.mount"))
        if weapon.die is not None and normalize_die(weapon.die) is None:
            out.append(Finding("error", "FOW 19.2", f"weapon die {weapon.die!r} is not on the ladder (one of {_DICE})",
                               f"{where}.die"))
        problem = RANGE.check(weapon.range)
        if problem:
            out.append(Finding("error", RANGE.rule, problem, f"{where}.range"))
        if weapon.kind == "ranged" and weapon.range == 0 and weapon.mount == "main":
            out.append(Finding("warning", "FOW 11", f"{weapon.name} is ranged but has range 0", f"{where}.range"))
    mains = [w for w in element.weapons if w.mount == "main"]
    if edition == SO and {w.kind for w in mains} == {"melee", "ranged"}:
        out.append(Finding("warning", "FOW 19.1",
                           "Special Operations gives an element a melee weapon, a ranged weapon or none, "
                           "not both (an element with a ranged weapon fights in melee with its base die)",
                           f"{path}.weapons"))
    if edition == V17 and not element.weapons:
        out.append(Finding("warning", "FOW 19.1", "v1.7 elements carry a melee and/or a ranged weapon",
                           f"{path}.weapons"))
    return out


def _check_magic(element: Element, names: set[str], path: str) -> list[Finding]:
    out: list[Finding] = []
    for s, name in enumerate(element.spells):
        try:
            spell(name)
        except KeyError:
            close = suggest_spell(name)
            hint = f" (did you mean {close!r}?)" if close else ""
            out.append(Finding("error", "FOW 14.1", f"unknown spell {name!r}{hint}", f"{path}.spells[{s}]"))
    if element.spells and "Magic" not in names:
        out.append(Finding("error", "FOW 20 Magic", "only an element with Magic can know spells", f"{path}.spells"))
    known = [n for n in element.spells if _known_spell(n)]
    used = sum(spell(n).budget_cost for n in known)
    if used > MAGIC_BUDGET:
        detail = " + ".join(f"{spell(n).name} {spell(n).budget_cost}" for n in known)
        out.append(Finding("error", "A-36",
                           f"spells use {used} of the Magic budget of {MAGIC_BUDGET} ({detail}; -0 counts as 1)",
                           f"{path}.spells"))
    if len({n.strip().lower() for n in known}) != len(known):
        out.append(Finding("warning", "FOW 14", "a spell is listed twice", f"{path}.spells"))
    if "Magic" in names and not element.spells:
        out.append(Finding("warning", "FOW 14", "Magic element has no spells chosen", f"{path}.spells"))
    return out


def _known_spell(name: str) -> bool:
    try:
        spell(name)
    except KeyError:
        return False
    return True


def validate_element(element: Element, edition: str, path: str = "") -> list[Finding]:
    """Every finding about one element (path is its key path in the force)."""
    out: list[Finding] = []
    if element.die is None:
        out.append(Finding("error", "FOW 19.1", f"no base die (one of {_DICE})", f"{path}.die"))
    elif base_die(element) is None:
        out.append(Finding("error", "FOW 19.2", f"base die {element.die!r} is not on the ladder (one of {_DICE})",
                           f"{path}.die"))
    for spec in (COUNT, MOVE, LOST):
        problem = spec.check(getattr(element, spec.name))
        if problem:
            out.append(Finding("error", spec.rule, problem, f"{path}.{spec.name}"))
    if element.move is None:
        out.append(Finding("warning", "FOW 19.1", "no MOVE given; 0 assumed", f"{path}.move"))
    elif MOVE.check(element.move):
        pass  # said above
    elif element.move % 2:
        out.append(Finding("error", "FOW 19.1",
                           f"MOVE must be a multiple of 2 inches, not {element.move} (priced rounding up)",
                           f"{path}.move"))
    placed, bad = placed_attributes(element)
    for b in bad:
        out.append(Finding("error", "FOW 20", str(b.error), f"{path}.{b.path}"))
    names = attribute_names_of(element)
    for p in placed:
        out.extend(_check_attribute(p, element, edition, names, path))
    out.extend(_check_mounts(element, placed, edition, path))
    out.extend(_check_weapons(element, edition, path))
    out.extend(_check_magic(element, names, path))
    if edition == V17 and "Sharpshooter" in names and "Heavy Ranged Weapon" in names:
        out.append(Finding("warning", "FOW 20 Sharpshooter",
                           "in v1.7 Sharpshooter gives nothing to an element with Heavy Ranged Weapon", path))
    return out


def validate_force(force: Force, edition: str | None, defaults: dict[str, Any]) -> list[Finding]:
    """All findings for a force; `edition` is the ruleset's when the force names none."""
    findings: list[Finding] = []
    chosen = normalize_edition(force.edition) if force.edition is not None else edition
    if chosen is None:
        findings.append(Finding("error", "FOW 0.1",
                                f"unknown edition {force.edition!r} (one of {', '.join(EDITIONS)}); "
                                f"checked as {edition}", "edition"))
        chosen = edition or SO
    opts, option_findings = resolve_options(defaults, force)
    findings.extend(option_findings)
    if not force.units:
        findings.append(Finding("warning", "FOW 1", "the force has no units", "units"))
    for u, unit in enumerate(force.units):
        if not unit.elements:
            findings.append(Finding("warning", "FOW 1", f"unit {unit.name!r} has no elements",
                                    f"units[{u}].elements"))
        for e, element in enumerate(unit.elements):
            findings.extend(validate_element(element, chosen, f"units[{u}].elements[{e}]"))
    problem = POINTS_LIMIT.check(force.points_limit)
    if problem:
        findings.append(Finding("error", POINTS_LIMIT.rule, problem, "points_limit"))
    elif force.points_limit is not None:
        total = sum(price_element(el, chosen, opts).total for unit in force.units for el in unit.elements)
        if total > force.points_limit:
            findings.append(Finding("error", "FOW 19 points limit",
                                    f"the force costs {total:g} points, over its limit of {force.points_limit} "
                                    f"by {total - force.points_limit:g}", "points_limit"))
    return findings
