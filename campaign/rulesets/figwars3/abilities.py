"""The 29 special abilities and equipment of FigWars 3 (spec 4.3) as data, and the
reader for ability text as a roster writes it ("Flight 12\"").

`scope` says whether an ability belongs to a model or to the whole unit; `vehicle`
whether the vehicle/mecha roster offers it; `tag` how the engine resolves it
(E: alone, E+P: with the players' facts). Summaries are Muster's own words.
"""

from __future__ import annotations

import difflib
import re
from typing import Literal

import attrs

Scope = Literal["model", "unit", "weapon"]


@attrs.frozen
class Ability:
    name: str
    scope: Scope
    tag: str
    vehicle: bool
    summary: str


def _a(name: str, scope: Scope, tag: str, vehicle: bool, summary: str) -> Ability:
    return Ability(name, scope, tag, vehicle, summary)


ABILITIES: tuple[Ability, ...] = (
    _a("Aggressive", "model", "E", True, "ignores every pinned result"),
    _a("Ambush", "unit", "E+P", True, "set up hidden; revealed by enemies within 6\" (3\" vs stealth)"),
    _a("Blind Devotion", "model", "E+P", True, "may take a shot aimed at a unit-mate within 2\""),
    _a("Brave", "unit", "E", False, "+1d on morale checks and rallies"),
    _a("Climbing", "model", "E+P", True, "sheer faces count as inclines, inclines as slopes"),
    _a("Comms", "unit", "E", False, "COM +4 unless the scenario jams it"),
    _a("Cowardly", "unit", "E", False, "a failed compulsory check sends it straight to retreating"),
    _a("Dodge", "model", "E", True, "skill check (2+, 3+ vs explosive/spray) cancels the DP of a hit"),
    _a("Drop Deployment", "unit", "E+P", True, "arrives from turn 2 on a Hard check, else deviates 1d8\""),
    _a("Fearless", "unit", "E", False, "never checks morale"),
    _a("Flight", "model", "E+P", True, "flies 6\" per level (max 3); may lift off from melee on 7-8"),
    _a("Forward Observer", "model", "E+P", True, "blind indirect fire at -1d instead of -2d"),
    _a("Grizzled", "unit", "E", False, "one re-roll on morale checks and rallies; COM +1"),
    _a("Gunslinger", "model", "E", True, "two ranged weapons: no -1d at one target, -1d each at two"),
    _a("Horrific", "model", "E+P", True, "enemies coming within 3\" check morale at PL +1"),
    _a("Jump Pack", "model", "E+P", True, "12\" jumps with a landing check"),
    _a("Leap", "model", "E+P", False, "up to 4\" extra in a Run, ignoring difficult terrain"),
    _a("Marksman", "model", "E", True, "one attack-die re-roll on every shooting attack"),
    _a("Master Warrior", "model", "E", True, "one attack-die re-roll every time it fights in melee"),
    _a("Medic", "model", "E+P", True, "2 actions in contact: heal 1 DP per 2 successes (rounded up)"),
    _a("Mighty Blow", "model", "E", True, "a melee hit that inflicts DP adds 1d4 DP"),
    _a("Mindless", "unit", "E+P", True, "needs a controller in LOS; TQ = controller TQ - 1"),
    _a("Recon", "unit", "E+P", True, "deploys up to the centre line, after the enemy"),
    _a("Scanner", "model", "E", True, "doubles ambush detection ranges"),
    _a("Shield Wall", "unit", "E+P", False, "three or more shields in a line: +1d DEF from the front"),
    _a("Soulless", "unit", "E+P", True, "as Mindless, fearless, removed when its controller dies"),
    _a("Stealth", "model", "E", True, "vs shooting: +1d DEF and the shooter re-rolls one die, keeps worse"),
    _a("Strong", "model", "E", False, "one level less heavy-weapon MOV penalty; +1 DP on melee hits"),
    _a("Targeter", "weapon", "E", True, "+1d on one ranged weapon (not spray, sniper or indirect)"),
)

BY_NAME: dict[str, Ability] = {a.name.lower(): a for a in ABILITIES}

# Markers a roster may carry besides the 29 abilities: they change a model's profile.
MARKERS: tuple[str, ...] = ("Hero", "Trained Sniper", "Leader", "Acid Blood", "Self-Destruct")
FLIGHT_LEVELS: tuple[int, ...] = (6, 12, 18)

_TEXT = re.compile(r'^\s*(?P<name>[A-Za-z][A-Za-z ]*?)\s*(?:\(?\s*(?P<value>\d+)\s*"?\s*\)?)?\s*$')


@attrs.frozen
class AbilityText:
    name: str  # canonical name
    value: int | None = None  # Flight's inches


class UnknownAbility(ValueError):
    pass


def parse_ability(text: str) -> AbilityText:
    """'Flight 12"' -> AbilityText('Flight', 12); unknown names raise with a suggestion."""
    match = _TEXT.match(text)
    name = match.group("name") if match else text.strip()
    key = name.lower()
    markers = {m.lower(): m for m in MARKERS}
    if key in markers:
        return AbilityText(markers[key])
    if key not in BY_NAME:
        known = [a.name for a in ABILITIES] + list(MARKERS)
        close = difflib.get_close_matches(name, known, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise UnknownAbility(f"unknown ability {text!r} (expected an ability of FigWars 3){hint}")
    canonical = BY_NAME[key].name
    value = int(match.group("value")) if match and match.group("value") else None
    if canonical == "Flight":
        value = 6 if value is None else value
        if value not in FLIGHT_LEVELS:
            raise UnknownAbility(f"Flight comes in 6\", 12\" or 18\", not {value}\"")
    elif value is not None:
        raise UnknownAbility(f"{canonical} takes no value (got {text!r})")
    return AbilityText(canonical, value)
