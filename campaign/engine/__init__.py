"""The rules engine core: ruleset-agnostic battles driven by an ordered log.

See docs/engine.md for the contract. Public names are re-exported here, imported on
first use (PEP 562): a module that needs one part of the engine (the scheme registry,
say) does not load it all, which matters for the TUI's start-up.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from campaign.engine.battle import Battle, LogEntry
    from campaign.engine.commands import (
        Activate,
        Choose,
        Command,
        CommandTypes,
        EndActivation,
        KeepRoll,
        Pass,
        Reroll,
        Start,
    )
    from campaign.engine.context import Context
    from campaign.engine.dice import AutoDice, DiceSource, RollRecord, TableDice, roll, shuffled
    from campaign.engine.errors import EngineError, IllegalCommand, ReplayError, UndoRefused
    from campaign.engine.events import Event
    from campaign.engine.pending import CommandSpec, Decision, FactSpec, RollRequest
    from campaign.engine.rules import BattleRules, nothing
    from campaign.activation.phased.initiative import InitiativeScheme
    from campaign.engine.scheme import ActivationScheme, get_scheme, register_scheme
    from campaign.engine.setup import BattleSetup, SideSetup
    from campaign.engine.state import BattleState, Effect, ElementState, SideState, UnitState, state_from_setup

# `odds` names a function and its module both: imported now, so the function is what the
# package holds (a later import of the submodule would otherwise put the module there)
from campaign.engine.odds import AttackOdds, odds  # noqa: E402

_WHERE: dict[str, str] = {
    "Battle": "campaign.engine.battle",
    "LogEntry": "campaign.engine.battle",
    "Activate": "campaign.engine.commands",
    "Choose": "campaign.engine.commands",
    "Command": "campaign.engine.commands",
    "CommandTypes": "campaign.engine.commands",
    "EndActivation": "campaign.engine.commands",
    "KeepRoll": "campaign.engine.commands",
    "Pass": "campaign.engine.commands",
    "Reroll": "campaign.engine.commands",
    "Start": "campaign.engine.commands",
    "Context": "campaign.engine.context",
    "AutoDice": "campaign.engine.dice",
    "DiceSource": "campaign.engine.dice",
    "RollRecord": "campaign.engine.dice",
    "TableDice": "campaign.engine.dice",
    "roll": "campaign.engine.dice",
    "shuffled": "campaign.engine.dice",
    "EngineError": "campaign.engine.errors",
    "IllegalCommand": "campaign.engine.errors",
    "ReplayError": "campaign.engine.errors",
    "UndoRefused": "campaign.engine.errors",
    "Event": "campaign.engine.events",
    "CommandSpec": "campaign.engine.pending",
    "Decision": "campaign.engine.pending",
    "FactSpec": "campaign.engine.pending",
    "RollRequest": "campaign.engine.pending",
    "BattleRules": "campaign.engine.rules",
    "nothing": "campaign.engine.rules",
    "ActivationScheme": "campaign.engine.scheme",
    "InitiativeScheme": "campaign.activation.phased.initiative",
    "get_scheme": "campaign.engine.scheme",
    "register_scheme": "campaign.engine.scheme",
    "BattleSetup": "campaign.engine.setup",
    "SideSetup": "campaign.engine.setup",
    "BattleState": "campaign.engine.state",
    "Effect": "campaign.engine.state",
    "ElementState": "campaign.engine.state",
    "SideState": "campaign.engine.state",
    "UnitState": "campaign.engine.state",
    "state_from_setup": "campaign.engine.state",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # asked once
    return value


__all__ = [
    "Activate", "ActivationScheme", "AttackOdds", "AutoDice", "Battle", "BattleRules", "BattleSetup",
    "BattleState", "Choose", "Command", "CommandSpec", "CommandTypes", "Context", "Decision", "DiceSource",
    "Effect", "ElementState", "EndActivation", "EngineError", "Event", "FactSpec", "IllegalCommand",
    "InitiativeScheme", "KeepRoll", "LogEntry", "Pass", "ReplayError", "Reroll", "RollRecord",
    "RollRequest", "SideSetup", "SideState", "Start", "TableDice", "UndoRefused", "UnitState",
    "get_scheme", "nothing", "odds", "register_scheme", "roll", "shuffled", "state_from_setup",
]
