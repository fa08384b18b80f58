"""FigWars 3's battle commands: one model's action, with the table facts of spec 18.2.

Every command names the acting unit and the model (an element id). Facts are plain
TOML values with a default for the plain case, so a logged command stays short.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from campaign.engine.commands import Command


def _facts() -> dict[str, Any]:
    return {}


@attrs.define(frozen=True)
class Share(Command):
    """Before the first action: the models that were not within their TQ in inches of the
    others when the unit was nominated (7.3); they act one at a time, the rest share."""

    type: ClassVar[str] = "share"
    unit: str = ""
    apart: list[str] = attrs.field(factory=list)


@attrs.define(frozen=True)
class Coherency(Command):
    """Before the first action: the models out of coherency with the leader's group (9);
    each makes its own check (PR-34)."""

    type: ClassVar[str] = "coherency"
    unit: str = ""
    facts: dict[str, Any] = attrs.field(factory=_facts)


@attrs.define(frozen=True)
class Walk(Command):
    type: ClassVar[str] = "walk"
    unit: str = ""
    model: str = ""
    facts: dict[str, Any] = attrs.field(factory=_facts)


@attrs.define(frozen=True)
class Run(Command):
    type: ClassVar[str] = "run"
    unit: str = ""
    model: str = ""
    facts: dict[str, Any] = attrs.field(factory=_facts)


TARGET_MODEL_HELP = "one model of the target unit (empty: its foremost living model)"


@attrs.define(frozen=True)
class Shoot(Command):
    type: ClassVar[str] = "shoot"
    unit: str = ""
    model: str = ""
    target: str = ""  # an enemy unit
    target_model: str = attrs.field(default="", metadata={"help": TARGET_MODEL_HELP})  # empty: its foremost living model
    weapon: str = ""  # empty: the model's first ranged weapon
    facts: dict[str, Any] = attrs.field(factory=_facts)


@attrs.define(frozen=True)
class Strike(Command):
    type: ClassVar[str] = "strike"
    unit: str = ""
    model: str = ""
    target: str = ""
    target_model: str = attrs.field(default="", metadata={"help": TARGET_MODEL_HELP})
    facts: dict[str, Any] = attrs.field(factory=_facts)


@attrs.define(frozen=True)
class Aim(Command):
    type: ClassVar[str] = "aim"
    unit: str = ""
    model: str = ""


@attrs.define(frozen=True)
class Focus(Command):
    type: ClassVar[str] = "focus"
    unit: str = ""
    model: str = ""


@attrs.define(frozen=True)
class Reload(Command):
    type: ClassVar[str] = "reload"
    unit: str = ""
    model: str = ""
    weapon: str = ""


@attrs.define(frozen=True)
class Retrieve(Command):
    """Pick up a weapon it was disarmed of (1 action, 7.1)."""

    type: ClassVar[str] = "retrieve"
    unit: str = ""
    model: str = ""
    weapon: str = ""


@attrs.define(frozen=True)
class BreakFree(Command):
    """Spend an action working free of a whip or chain (10.6)."""

    type: ClassVar[str] = "break_free"
    unit: str = ""
    model: str = ""


@attrs.define(frozen=True)
class Release(Command):
    """The entangler lets its opponents go (1 action, 10.6)."""

    type: ClassVar[str] = "release"
    unit: str = ""
    model: str = ""


@attrs.define(frozen=True)
class Switch(Command):
    """Take up another melee weapon it carries, from its next activation (10.5); free."""

    type: ClassVar[str] = "switch"
    unit: str = ""
    model: str = ""
    weapon: str = ""


@attrs.define(frozen=True)
class Extra(Command):
    """Give the model one of the side's extra actions for this turn (6.4)."""

    type: ClassVar[str] = "extra"
    unit: str = ""
    model: str = ""


@attrs.define(frozen=True)
class Sentry(Command):
    """Hold a shot (7.2): 1 action plus the shot's cost now, fired when an enemy acts."""

    type: ClassVar[str] = "sentry"
    unit: str = ""
    model: str = ""
    weapon: str = ""


@attrs.define(frozen=True)
class Medic(Command):
    """Treat a friendly model in base contact (4.3 Medic, PR-62): 2 actions, a skill check."""

    type: ClassVar[str] = "medic"
    unit: str = ""
    model: str = ""
    patient: str = ""
    facts: dict[str, Any] = attrs.field(factory=_facts)


@attrs.define(frozen=True)
class Done(Command):
    """The model gives up its remaining actions (unused actions are lost, PR-9)."""

    type: ClassVar[str] = "done"
    unit: str = ""
    model: str = ""




@attrs.define(frozen=True)
class Cast(Command):
    """Use an arcane power (16): `power` one the caster knows; the level and the power's
    options are facts (level, option, cover, area, anywhere, landing, inches, under_template)."""

    type: ClassVar[str] = "cast"
    unit: str = ""
    model: str = ""
    power: str = ""
    target: str = ""
    target_model: str = attrs.field(default="", metadata={"help": TARGET_MODEL_HELP})
    facts: dict[str, Any] = attrs.field(factory=_facts)


@attrs.define(frozen=True)
class Report(Command):
    """Table facts the engine asks for outside an action (morale support, objectives held)."""

    type: ClassVar[str] = "report"
    facts: dict[str, Any] = attrs.field(factory=_facts)


@attrs.define(frozen=True)
class Ram(Command):
    """A vehicle's move that rams (10.11, PR-46): a Walk (or a Run with facts.run) of
    facts.inches, ramming each model of facts.victims in the order given."""

    type: ClassVar[str] = "ram"
    unit: str = ""
    model: str = ""
    facts: dict[str, Any] = attrs.field(factory=_facts)


@attrs.define(frozen=True)
class Deflect(Command):
    """Hand a shot declared at a hero (Heroic Deflection) or a unit-mate (Blind Devotion)
    to `model`, which steps into base contact and is shot instead; its facts are the new
    target's range band and cover (PR-50)."""

    type: ClassVar[str] = "deflect"
    model: str = ""
    facts: dict[str, Any] = attrs.field(factory=_facts)


@attrs.define(frozen=True)
class Repair(Command):
    """A crew member or pilot repairs a knocked-out weapon or a break-down (13): 2 actions."""

    type: ClassVar[str] = "repair"
    unit: str = ""
    model: str = ""
    what: str = ""


@attrs.define(frozen=True)
class Embark(Command):
    """Get into a friendly vehicle in base contact (PR-28: 1 action, CAP allowing), or
    cling to its outside with facts.outside once it is full (4.4)."""

    type: ClassVar[str] = "embark"
    unit: str = ""
    model: str = ""
    vehicle: str = ""
    facts: dict[str, Any] = attrs.field(factory=_facts)


@attrs.define(frozen=True)
class Disembark(Command):
    """Get out of (or off) the vehicle: 1 action, placed within 1" of the hull (PR-28)."""

    type: ClassVar[str] = "disembark"
    unit: str = ""
    model: str = ""


@attrs.define(frozen=True)
class Breach(Command):
    """Attack a door or wall (12.4): facts name it (kind, grade and length the first time),
    the section, and the weapon (melee, or a ranged weapon with its range band)."""

    type: ClassVar[str] = "breach"
    unit: str = ""
    model: str = ""
    facts: dict[str, Any] = attrs.field(factory=_facts)


@attrs.define(frozen=True)
class Push(Command):
    """Push a mired friendly vehicle (8.10, option mire_tests): 3" of MOV, a Walk action."""

    type: ClassVar[str] = "push"
    unit: str = ""
    model: str = ""
    vehicle: str = ""


@attrs.define(frozen=True)
class Hail(Command):
    """A Hail of Arrows led by `model` (15.2, PR-67, scenario option hail_of_arrows): facts
    archers, inches to the template's centre, victims under it (nearest first), cover."""

    type: ClassVar[str] = "hail"
    unit: str = ""
    model: str = ""
    facts: dict[str, Any] = attrs.field(factory=_facts)


@attrs.define(frozen=True)
class Form(Command):
    """Form the unit up (15.1, option formations): facts front and second name the ranks;
    the rest stand behind."""

    type: ClassVar[str] = "form"
    unit: str = ""
    facts: dict[str, Any] = attrs.field(factory=_facts)


@attrs.define(frozen=True)
class Face(Command):
    """Turn a formation left, right or about: 1 action from every model (15.1)."""

    type: ClassVar[str] = "face"
    unit: str = ""


@attrs.define(frozen=True)
class BreakFormation(Command):
    type: ClassVar[str] = "break_formation"
    unit: str = ""


@attrs.define(frozen=True)
class Wheel(Command):
    """Wheel a formation on a front corner (15.1): fact inches (what the far end of the
    front moves along the arc), run; every model takes that move."""

    type: ClassVar[str] = "wheel"
    unit: str = ""
    facts: dict[str, Any] = attrs.field(factory=_facts)


@attrs.define(frozen=True)
class Consolidate(Command):
    """Re-rank a formation for free after a face or its melee (15.1): facts front, second."""

    type: ClassVar[str] = "consolidate"
    unit: str = ""
    facts: dict[str, Any] = attrs.field(factory=_facts)


COMMANDS: tuple[type[Command], ...] = (Share, Coherency, Walk, Run, Shoot, Strike, Aim, Focus, Reload, Retrieve, BreakFree, Release, Switch, Extra, Sentry, Medic, Done, Report, Deflect)
COMMANDS = COMMANDS + (Cast, Ram, Repair, Embark, Disembark, Breach, Hail, Form, Face, BreakFormation, Push, Wheel, Consolidate)
