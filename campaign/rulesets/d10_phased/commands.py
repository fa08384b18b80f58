"""The d10 rules' battle commands, each with the table facts players report.

Ids are model ids ("legionaries/legionary-3"): actors and targets are models (AMB-32).
A path is a list of "terrain inches" strings ("rough 2", "clear 3.5").
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from campaign.engine.commands import Command
from campaign.engine.pending import FactSpec
from campaign.rulesets.d10_phased.situation import FIRE_FACTS

BOOL = (True, False)


def _facts() -> dict[str, Any]:
    return {}


@attrs.define(frozen=True)
class Move(Command):
    """One model's move: its path, and the enemy models it ends touching (each may run away)."""

    type: ClassVar[str] = "move"
    model: str = ""
    path: list[str] = attrs.field(factory=list, metadata={"help": "terrain inches, ... (clear 3, rough 1, stream 1)"})
    jump: bool = False
    toward_leader: bool = False  # straight toward its leader (full speed out of command)
    contacts: list[str] = attrs.field(factory=list, metadata={"help": "enemy models it ends touching (F2)"})


@attrs.define(frozen=True)
class Declare(Command):
    """Every attack on one target this phase (DP-10.4): the attackers, the weapon each uses
    (default: its first ranged weapon, or close dice when `close`), the shot's table facts
    for all of them, and any attacker's own facts in `each`."""

    type: ClassVar[str] = "declare"
    target: str = ""
    attackers: list[str] = attrs.field(factory=list, metadata={"help": "the attacking models (F2: those able now)"})
    close: bool = False
    weapons: dict[str, str] = attrs.field(factory=dict, metadata={"help": "model = weapon, ... (else its first ranged)"})
    contact: list[str] = attrs.field(factory=list, metadata={"help": "models touching the target (contact fire)"})
    facts: dict[str, Any] = attrs.field(factory=_facts)
    each: dict[str, dict[str, Any]] = attrs.field(
        factory=dict, metadata={"help": "model = {fact = value, ...}: one attacker's own facts"})


@attrs.define(frozen=True)
class OpFire(Command):
    """During an enemy move: fire at the mover now (DP-13), with the facts of DP-13.1."""

    type: ClassVar[str] = "op_fire"
    model: str = ""
    weapon: str = ""
    facts: dict[str, Any] = attrs.field(factory=_facts)


@attrs.define(frozen=True)
class RunAway(Command):
    """A contacted model runs away `inches` toward its own or a flank edge (DP-9)."""

    type: ClassVar[str] = "run_away"
    model: str = ""
    inches: str = ""


@attrs.define(frozen=True)
class UseSpecial(Command):
    """A Smoke, Gas, Fog or Cloaking model activates its special (specials interphase)."""

    type: ClassVar[str] = "use_special"
    model: str = ""
    special: str = ""
    note: str = ""


@attrs.define(frozen=True)
class Report(Command):
    """Table facts the engine asks for (command control, morale, victory, choices)."""

    type: ClassVar[str] = "report"
    facts: dict[str, Any] = attrs.field(factory=_facts)


COMMANDS: tuple[type[Command], ...] = (Move, Declare, OpFire, RunAway, UseSpecial, Report)  # and CARD_COMMANDS below

SHOT_FACTS: tuple[FactSpec, ...] = tuple(
    FactSpec(name, BOOL if isinstance(default, bool) else (), default, help, "elements" if isinstance(default, list) else "")
    for name, (help, default) in FIRE_FACTS.items()
)
OP_FIRE_FACTS: tuple[FactSpec, ...] = (
    FactSpec("legal_target_during_move", BOOL, True, "the mover was a legal target at its start or on its way"),
    FactSpec("worse_target_at_end", BOOL, True, "it ends its move a worse target for this model"),
    FactSpec("blocked_only_by_own_model", BOOL, False, "only one of your own models blocks a normal attack"),
    *SHOT_FACTS,
)
# op fire at a jumper (DP-13.4): seeing any part of the path is what counts; the path
# stands one level above the highest obstacle it clears (DP-14.6 heights)
JUMP_OP_FIRE_FACTS: tuple[FactSpec, ...] = (
    FactSpec("sees_jump_path", BOOL, True, "this model sees some part of the jump path"),
    FactSpec("highest_obstacle", ("none", "rocks", "wall", "bushes", "hill", "trees"), "none",
             "the highest thing the jump clears"),
    FactSpec("firer_level", (), 0, "the op-firer's elevation level (0 the ground, 1 per contour...)"),
    *OP_FIRE_FACTS[1:],
)


# --- the card scheme's actions (card-activation.md 7.4): a whole unit acts ---------------


@attrs.define(frozen=True)
class UnitMove(Command):
    """Every model of the unit walks the same kind of path (card Move action)."""

    type: ClassVar[str] = "unit_move"
    unit: str = ""
    path: list[str] = attrs.field(factory=list, metadata={"help": "terrain inches, ... (clear 3, rough 1, stream 1)"})
    jump: bool = False
    toward_leader: bool = False
    contacts: list[str] = attrs.field(factory=list, metadata={"help": "enemy models the unit ends touching"})
    facts: dict[str, Any] = attrs.field(factory=_facts)  # straight, uninterrupted


@attrs.define(frozen=True)
class Fire(Command):
    """The unit's models fire at one target model (card Ballistic action)."""

    type: ClassVar[str] = "fire"
    unit: str = ""
    target: str = ""
    weapons: dict[str, str] = attrs.field(factory=dict)
    contact: list[str] = attrs.field(factory=list)
    facts: dict[str, Any] = attrs.field(factory=_facts)


@attrs.define(frozen=True)
class Close(Command):
    """The unit's models make close attacks on one model they touch (card Melee action)."""

    type: ClassVar[str] = "close"
    unit: str = ""
    target: str = ""
    facts: dict[str, Any] = attrs.field(factory=_facts)


CARD_COMMANDS: tuple[type[Command], ...] = (UnitMove, Fire, Close)
# command control is asked as each activation starts (rules.D10Rules.on_activation_start)
CARD_MOVE_FACTS: tuple[FactSpec, ...] = (
    FactSpec("straight", BOOL, False, "a straight line toward the enemy unit (charge)"),
    FactSpec("uninterrupted", BOOL, True, "no pause in the path"),
)
CARD_FIRE_FACTS: tuple[FactSpec, ...] = SHOT_FACTS
