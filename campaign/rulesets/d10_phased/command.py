"""Command control (DP-6.1) and unit leaders (DP-7).

Whether a model stands beyond its unit's command radius from its leader is a table
fact; the engine sets the flag for the phase and the other rules read it (half speed,
-1 to attack dice, -1 on the individual morale table)."""

from __future__ import annotations

from collections.abc import Collection

from campaign.rulesets.d10_phased.state import Roster


def command_check(roster: Roster, sides: Collection[str], beyond_radius: Collection[str]) -> list[str]:
    """Set out-of-command for the models of `sides` (the moving side in a movement phase,
    both in attack and morale phases, AMB-38). A leader and a character are never out of
    command. Returns the models now out of command."""
    out: list[str] = []
    unknown = set(beyond_radius) - set(roster.models)
    if unknown:
        raise ValueError(f"DP-6: no such model(s): {', '.join(sorted(unknown))}")
    for model in roster.models.values():
        if model.side not in sides or not model.alive:
            continue
        unit = roster.units[model.unit]
        model.out_of_command = model.id in beyond_radius and not unit.character and model.id != unit.leader
        if model.out_of_command:
            out.append(model.id)
    return out


def unit_command_check(roster: Roster, unit_id: str, beyond_radius: Collection[str]) -> list[str]:
    """The same check for one unit as its card activation starts (card-activation.md 7.4):
    only its models change. Returns the models now out of command."""
    unit = roster.units[unit_id]
    strays = set(beyond_radius) - set(unit.models)
    if strays:
        raise ValueError(f"DP-6: not model(s) of {unit.name}: {', '.join(sorted(strays))}")
    out: list[str] = []
    for model in roster.members(unit_id):
        model.out_of_command = model.id in beyond_radius and not unit.character and model.id != unit.leader
        if model.out_of_command:
            out.append(model.id)
    return out
