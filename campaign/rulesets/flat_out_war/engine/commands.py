"""Flat Out War's battle commands: each carries the table facts of spec section 22.

Facts are plain TOML values (str, int, bool, lists of str). Every fact has a
default for the plain case, so a command only writes what differs.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from campaign.engine.commands import Command
from campaign.engine.pending import FactSpec

BOOL = (True, False)


def _facts() -> dict[str, Any]:
    return {}


@attrs.define(frozen=True)
class Move(Command):
    """The unit's Move (or a fleeing unit's flight). Facts: run, path, contact, prone..."""

    type: ClassVar[str] = "move"
    unit: str = ""
    facts: dict[str, Any] = attrs.field(factory=_facts)


@attrs.define(frozen=True)
class Melee(Command):
    type: ClassVar[str] = "melee"
    unit: str = ""
    target: str = ""
    facts: dict[str, Any] = attrs.field(factory=_facts)


@attrs.define(frozen=True)
class Shoot(Command):
    type: ClassVar[str] = "shoot"
    unit: str = ""
    target: str = ""
    facts: dict[str, Any] = attrs.field(factory=_facts)


@attrs.define(frozen=True)
class Cast(Command):
    type: ClassVar[str] = "cast"
    unit: str = ""
    element: str = ""  # the caster's element id
    spell: str = ""
    target: str = ""  # a unit id (Summon: none)
    facts: dict[str, Any] = attrs.field(factory=_facts)


@attrs.define(frozen=True)
class Rally(Command):
    """A fleeing unit's rally roll after its flight."""

    type: ClassVar[str] = "rally"
    unit: str = ""


@attrs.define(frozen=True)
class Switch(Command):
    """[SO] Activate: switch the element's linked attribute on or off (its Other Action)."""

    type: ClassVar[str] = "switch"
    unit: str = ""
    element: str = ""


@attrs.define(frozen=True)
class Attach(Command):
    """An officer (Command) unit ends its move in contact and attaches to `target`."""

    type: ClassVar[str] = "attach"
    unit: str = ""
    target: str = ""


@attrs.define(frozen=True)
class Detach(Command):
    type: ClassVar[str] = "detach"
    unit: str = ""


@attrs.define(frozen=True)
class Objective(Command):
    """The players agree that `side` achieved scenario objective `objective`."""

    type: ClassVar[str] = "objective"
    side: str = ""
    objective: str = ""


@attrs.define(frozen=True)
class StrategicVictory(Command):
    """The players agree that `side` completed its scenario objective first (spec 18)."""

    type: ClassVar[str] = "strategic_victory"
    side: str = ""


@attrs.define(frozen=True)
class Report(Command):
    """Table facts the engine asks for mid-resolution: the elements a template, marker
    or bounce path covers, or the units that saw a morale failure."""

    type: ClassVar[str] = "report"
    elements: list[str] = attrs.field(factory=list)
    units: list[str] = attrs.field(factory=list)


@attrs.define(frozen=True)
class Entrench(Command):
    """[1.7] Setup: the owner writes where an Entrenched unit is dug in (kept hidden)."""

    type: ClassVar[str] = "entrench"
    unit: str = ""
    facts: dict[str, Any] = attrs.field(factory=_facts)


# the commands the play code shares helpers between (typed instead of Any)
Attack = Melee | Shoot | Cast
FactCommand = Move | Melee | Shoot | Cast | Entrench


FOW_COMMANDS: tuple[type[Command], ...] = (
    Move, Melee, Shoot, Cast, Rally, Switch, Attach, Detach, Objective, StrategicVictory, Report, Entrench,
)

ASPECT = FactSpec("aspect", ("front", "flank", "rear"), "front", "where the attacker sits, seen from the target")
WILL_RUN = FactSpec("will_run", BOOL, False, "the unit will run later this activation (A-13: -1 now)")

MOVE_FACTS: tuple[FactSpec, ...] = (
    FactSpec("run", BOOL, False, "the unit runs: double MOVE, -1 on its Other Action"),
    FactSpec("path", (), "", 'terrain crossed, e.g. "open 3, light 2" (inches actually moved)'),
    FactSpec("distance", (), 0, "inches moved (Stealth re-hides after 4\", flyers must move 2\")"),
    FactSpec("contact", (), [], "enemy unit ids touching the unit after this move: it is charging (a unit "
                                "already in contact that moves without naming them breaks off)", picks="enemy_units"),
    FactSpec("contact_elsewhere", (), [], "[SO] charged units, or loose elements (ids), already touching another "
                                          "enemy: they may not turn to meet the charge (A-18)", picks="elements"),
    FactSpec("light_terrain", (), [], "running elements (ids) that crossed light terrain", picks="unit_elements"),
    FactSpec("prone", ("down", "up", ""), "", "go prone after the move, or stand up (2\")"),
    FactSpec("fly", ("take_off", "land", ""), "", "Flying: take off or land (landing takes the move)"),
    FactSpec("jump", BOOL, False, "the unit jumps instead of moving"),
    FactSpec("jump_heavy", (), [], "jumping elements (ids) starting or ending in heavy terrain", picks="unit_elements"),
    FactSpec("formation_change", BOOL, False, "tight unit changes formation (half the move)"),
    FactSpec("formation", ("line", "column", ""), "", "the tight unit's formation after the move (a change: half the move)"),
    FactSpec("depth", ("single", "double", ""), "", "a tight line in one rank or two, a column in one file or two "
                                                    "(two: more than 5 elements; a change: half the move)"),
    FactSpec("in_cohesion", BOOL, True, "the unit ends its move in cohesion, one connected group (A-08)"),
    FactSpec("pivot_start", (), 0, "degrees pivoted before moving (loose units, columns)"),
    FactSpec("pivot_end", (), 0, "degrees pivoted after moving"),
    FactSpec("turns_during", (), 0, "45-degree turns made during the move (Turn attribute)"),
    FactSpec("line_move", ("straight", "oblique", "wheel"), "straight", "a tight line's move (A-11)"),
    FactSpec("about_face", BOOL, False, "a tight line turns about (free)"),
    FactSpec("near", (), [], "units newly within 8\" of this unit (Fearsome either way)", picks="enemy_units"),
    FactSpec("submerge", ("dive", "surface", ""), "", "Submersible: dive or surface (takes the move)"),
    FactSpec("aground", BOOL, False, "Waterborne: entered shallow water and ran aground"),
    FactSpec("left_table", BOOL, False, "a fleeing unit left the table: lost for the game"),
    FactSpec("stopped", BOOL, False, "a fleeing unit was stopped short of its whole run (impassable terrain, "
                                     "units in the way, or it reached shelter)"),
    FactSpec("within_6", (), [], "enemy units now within 6\" of this unit (Entrenched units are revealed)", picks="enemy_units"),
    FactSpec("heading", ("downwind", "crosswind", "upwind", "into_wind", ""), "",
             "Sailed: heading relative to the wind (full, half or quarter MOVE)"),
    FactSpec("ends_into_wind", BOOL, False, "Sailed: the move ends facing straight into the wind"),
    FactSpec("embark", (), "", "Transport: the element id of the transport the unit boards"),
    FactSpec("disembark", BOOL, False, "get off the transport (placed touching it, A-31)"),
)
ENTRENCH_FACTS: tuple[FactSpec, ...] = (
    FactSpec("location", (), "", "where the unit is dug in: a terrain feature or coordinates (hidden)"),
)
MELEE_FACTS: tuple[FactSpec, ...] = (
    ASPECT,
    FactSpec("in_contact", BOOL, True, "attackers are in base contact with the target"),
    FactSpec("target_in_front", BOOL, True, "the target is in the attackers' front facing"),
    FactSpec("attackers", (), [], "attacking element ids (tight units: first rank touching); default all "
                                  "(a tight unit: as many as its first rank holds)",
             picks="unit_elements"),
    FactSpec("covered", (), [], "Flame template in melee: element ids under it", picks="elements"),
    FactSpec("allocate", (), [], "target element ids in the order hits go to them (A-23)",
             picks="target_elements"),
    WILL_RUN,
)
SHOOT_FACTS: tuple[FactSpec, ...] = (
    ASPECT,
    FactSpec("range_band", ("short", "long", "out"), "short", "short (up to R), long (up to 2R), out"),
    FactSpec("los", ("open", "partial", "none"), "open", "line of sight to the target"),
    FactSpec("in_arc", BOOL, True, "the target is in each weapon's arc"),
    FactSpec("within_12", BOOL, True, "a hidden Stealth target is within 12\""),
    FactSpec("shooters", (), [], "firing element ids (tight units: first two ranks); default all (a tight "
                                 "unit: as many as its first two ranks hold)",
             picks="unit_elements"),
    FactSpec("weapons", (), [], "weapon names to fire; default every weapon that can"),
    FactSpec("covered", (), [], "element ids under a template centred on the target", picks="elements"),
    FactSpec("allocate", (), [], "target element ids in the order hits go to them (A-23)",
             picks="target_elements"),
    FactSpec("shot_targets", (), [], 'Multi-shot shots aimed elsewhere (A-22), e.g. "reds/gun-1#2=rippers"'),
    WILL_RUN,
    FactSpec("will_move", BOOL, False, "the unit will move later this activation (no Sharpshooter +1)"),
)
CAST_FACTS: tuple[FactSpec, ...] = (
    ASPECT,
    FactSpec("within_range", BOOL, True, "the target is within the spell's range"),
    FactSpec("los", ("open", "partial", "none"), "open", "Fireball and Zap: line of sight"),
    FactSpec("covered", (), [], "Fireball: element ids under the template", picks="elements"),
    WILL_RUN,
)


def fact(command: Command, name: str, specs: tuple[FactSpec, ...]) -> Any:
    """A command's fact, or its declared default."""
    try:
        facts = command.facts  # type: ignore[attr-defined]
    except AttributeError:  # (a command without facts: a getattr default costs every caller more)
        facts = None
    if facts and name in facts:
        return facts[name]
    found = _DEFAULTS.get(id(specs))  # _defaults inlined: asked dozens of times per command
    if found is not None and found[0] is specs:
        return found[1].get(name)
    return _defaults(specs).get(name)


def facts_of(command: Command, specs: tuple[FactSpec, ...]) -> dict[str, Any]:
    """Every fact `fact` would give for the command, in one dict (its `.get(name)` is
    `fact(command, name, specs)`): for code that asks a command for many facts. The dict is
    shared (read it, never change it): the last command's is kept while its facts stay equal,
    as a move's check and its resolution ask for the same command's in turn."""
    facts = getattr(command, "facts", None)
    last = _LAST_FACTS
    if last[0] is command and last[1] is specs and last[2] == facts:
        return last[3]  # type: ignore[no-any-return]
    out = dict(_defaults(specs))
    if facts:
        out.update(facts)
    last[:] = [command, specs, dict(facts) if facts else facts, out]
    return out


# facts_of's last answer: [command, specs, a copy of the command's facts, the answer]
_LAST_FACTS: list[Any] = [None, None, None, None]


_DEFAULTS: dict[int, tuple[tuple[FactSpec, ...], dict[str, Any]]] = {}


def _defaults(specs: tuple[FactSpec, ...]) -> dict[str, Any]:
    """Each fact's declared default (the first spec of a name wins), built once per list of
    specs: `fact` is asked for dozens of facts by every check."""
    found = _DEFAULTS.get(id(specs))
    if found is None or found[0] is not specs:
        if len(_DEFAULTS) >= 256:  # lists built on the fly: keep the cache bounded
            _DEFAULTS.clear()
        out: dict[str, Any] = {}
        for spec in specs:
            out.setdefault(spec.name, spec.default)
        found = _DEFAULTS[id(specs)] = (specs, out)
    return found[1]
