"""Checking a FigWars 3 force (spec 3.2, 4.1-4.3, PR-11, PR-12): findings, never a block.

There are no points: the force is agreed per scenario. What is checked is what the
rules fix -- unit sizes, solo units, heroes, legal values and combinations -- and the
printed DEF of an entry against the DEF its equipment adds up to.
"""

from __future__ import annotations

import attrs

from campaign.findings import Finding
from campaign.force import Force, Unit
from campaign.profiles import check_element
from campaign.rulesets.figwars3 import control, traits
from campaign.rulesets.figwars3.abilities import BY_NAME
from campaign.rulesets.figwars3.fields import PROFILE
from campaign.rulesets.figwars3.profile import Profile, ProfileError, profile_of
from campaign.rulesets.figwars3.arcane_play import caster_findings
from campaign.rulesets.figwars3.vehicles import is_machine, machine_of

UNIT_MIN = 2
UNIT_MAX = 20
SOLO_SHARE = 0.2  # PR-12: solo units at most a fifth of the force's models


def profiles(force: Force, printed_def: bool = False) -> tuple[dict[tuple[int, int], Profile], list[Finding]]:
    """Each element's profile by (unit index, element index), and errors for those that fail."""
    out: dict[tuple[int, int], Profile] = {}
    findings: list[Finding] = []
    for u, unit in enumerate(force.units):
        for e, element in enumerate(unit.elements):
            path = f"units[{u}].elements[{e}]"
            if is_machine(element):  # vehicles and mecha: their design's findings (4.4, 4.5)
                try:
                    machine = machine_of(element, f"{unit.name}: {element.name}")
                except ProfileError as exc:
                    findings.append(Finding("error", "FW3 4.4", str(exc), path))
                    continue
                findings.extend(attrs.evolve(f, path=path) for f in machine.findings)
                if sum(el.count for el in unit.elements) > 1:
                    findings.append(Finding("error", "FW3 4.1", "every vehicle and mecha is a unit on its own", f"units[{u}]"))
                continue
            findings.extend(attrs.evolve(f, path=path) for f in caster_findings(element))  # 16.1
            # values off their field spec first, each at its own key; the rules read the rest
            off = check_element(PROFILE, element, path, rule="FW3 3.2", unknown="error")
            if any(f.severity == "error" for f in off):
                findings += off
                continue
            try:
                out[(u, e)] = profile_of(element, f"{unit.name}: {element.name}", printed_def)
            except ProfileError as exc:
                findings.append(Finding("error", "FW3 3.2", str(exc), path))
    return out, findings


def validate(force: Force, printed_def: bool = False) -> list[Finding]:
    found, findings = profiles(force, printed_def)
    total_models = sum(el.count for unit in force.units for el in unit.elements)
    solo_models = 0
    for u, unit in enumerate(force.units):
        upath = f"units[{u}]"
        size = sum(el.count for el in unit.elements)
        members = [(e, found[(u, e)]) for e in range(len(unit.elements)) if (u, e) in found]
        if size > UNIT_MAX:
            findings.append(Finding("error", "FW3 4.1", f"{size} models; a unit has at most {UNIT_MAX}", upath))
        if size == 1 and not any(is_machine(el) for el in unit.elements):
            solo_models += 1  # PR-12: vehicles and mecha do not count
        heroes = [p for _, p in members if p.hero]
        if heroes and size > 1:
            findings.append(Finding("error", "FW3 4.2", f"a hero is always a unit on his own", upath))
        for e, profile in members:
            findings.extend(_element_findings(unit.elements[e].count, profile, f"{upath}.elements[{e}]"))
        findings.extend(_unit_ability_findings(members, upath))
        findings.extend(_controller_findings(force, unit, [p for _, p in members], upath))
    if total_models and solo_models > SOLO_SHARE * total_models:
        findings.append(
            Finding(
                "warning",
                "PR-12",
                f"{solo_models} solo unit(s) among {total_models} models: solo units should be at most one model in five",
            )
        )
    return findings


def _controller_findings(force: Force, unit: Unit, members: list[Profile], path: str) -> list[Finding]:
    """4.3 #22, #26: a Mindless or Soulless unit names the friendly unit that controls it."""
    kind = control.kind_of(a for p in members for a in p.abilities)
    named = str(unit.stats.get("controller", "") or "")
    if kind and not named:
        return [Finding("warning", "FW3 4.3", f"a {kind} unit needs a controller: name the friendly unit (unit field controller)", path)]
    if named and not kind:
        return [Finding("warning", "FW3 4.3", f"only a Mindless or Soulless unit has a controller", path)]
    if named and named not in {u.name for u in force.units if u is not unit}:
        return [Finding("error", "FW3 4.3", f"controller {named!r} is not another unit of this force", path)]
    return []


def _element_findings(count: int, p: Profile, path: str) -> list[Finding]:
    out: list[Finding] = []
    if p.mov < traits.MOV_MIN:
        out.append(Finding("error", "FW3 3.2", f"MOV {p.mov}\" is below the minimum of 2\"", path))
    elif not p.mounted and not p.flight and p.mov > traits.MOV_MAX_TROOP:
        out.append(Finding("warning", "FW3 3.2", f"MOV {p.mov}\"; troop models should not exceed 6\"", path))
    if p.mounted and p.mov not in traits.MOUNT_MOV.values():
        options = ", ".join(str(v) for v in sorted(set(traits.MOUNT_MOV.values())))
        out.append(Finding("error", "FW3 3.3", f"a mount moves {options}\", not {p.mov}\"", path))
    if p.printed_def is not None and p.composed_def is not None:
        extra = (traits.HERO_DEF if p.hero else 0) + (traits.MOUNTED_DEF if p.mounted else 0)
        if p.printed_def + extra != p.composed_def:
            out.append(
                Finding(
                    "warning",
                    "PR-11",
                    f"DEF printed as {p.printed_def}d, but TQ plus its equipment gives "
                    f"{p.composed_def - extra}d; kept as printed, the rules use {p.defence}d "
                    "(option printed_def picks the printed value)",
                    path,
                )
            )
    if p.has("Targeter") and p.ranged and all(w.spray or w.sniper or w.indirect for w in p.ranged):
        out.append(Finding("warning", "FW3 4.3 Targeter", f"a Targeter cannot be fitted to spray, sniper or indirect weapons", path))
    if "Trained Sniper" in p.abilities and p.tq < 1:
        out.append(Finding("warning", "FW3 11.15", f"a trained sniper needs TQ 1 or more", path))
    if p.tq == 0 and not p.ranged and not p.melee:
        out.append(Finding("info", "FW3 7.4", f"TQ 0 and unarmed, it must Focus before it can strike", path))
    return out


def _unit_ability_findings(members: list[tuple[int, Profile]], path: str) -> list[Finding]:
    out: list[Finding] = []
    if not members:
        return out
    unit_scoped = {name for _, p in members for name in p.abilities if name.lower() in BY_NAME and BY_NAME[name.lower()].scope == "unit"}
    for name in sorted(unit_scoped):
        if name in ("Fearless",) and any(p.hero for _, p in members):
            continue
        missing = [p.name for _, p in members if name not in p.abilities]
        if missing:
            out.append(Finding("warning", "FW3 4.3", f"{name} is a unit ability, but {', '.join(missing)} lack(s) it", path))
    if "Shield Wall" in unit_scoped and any(traits.SHIELDS[p.shield].dice < 1 for _, p in members):
        out.append(Finding("error", "FW3 4.3 Shield Wall", f"Shield Wall needs shields giving +1d DEF or more on every model", path))
    if "Mindless" in unit_scoped and "Soulless" in unit_scoped:
        out.append(Finding("warning", "FW3 4.3", f"Mindless and Soulless together; Soulless already covers it", path))
    kinds = {p.mounted for _, p in members}
    if len(kinds) > 1:
        out.append(Finding("info", "FW3 7.3", f"mounted and foot models do not share activation", path))
    return out
