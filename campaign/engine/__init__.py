"""The rules engine core: ruleset-agnostic battles driven by an ordered log.

See docs/engine.md for the contract. Public names are re-exported here.
"""

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
from campaign.engine.odds import AttackOdds, odds
from campaign.engine.pending import CommandSpec, Decision, FactSpec, RollRequest
from campaign.engine.rules import BattleRules, nothing
from campaign.engine.scheme import ActivationScheme, InitiativeScheme, get_scheme, register_scheme
from campaign.engine.setup import BattleSetup, SideSetup
from campaign.engine.state import BattleState, Effect, ElementState, SideState, UnitState, state_from_setup

__all__ = [
    "Activate", "ActivationScheme", "AttackOdds", "AutoDice", "Battle", "BattleRules", "BattleSetup",
    "BattleState", "Choose", "Command", "CommandSpec", "CommandTypes", "Context", "Decision", "DiceSource",
    "Effect", "ElementState", "EndActivation", "EngineError", "Event", "FactSpec", "IllegalCommand",
    "InitiativeScheme", "KeepRoll", "LogEntry", "Pass", "ReplayError", "Reroll", "RollRecord",
    "RollRequest", "SideSetup", "SideState", "Start", "TableDice", "UndoRefused", "UnitState",
    "get_scheme", "nothing", "odds", "register_scheme", "roll", "shuffled", "state_from_setup",
]
