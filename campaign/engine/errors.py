"""Errors the engine raises: each names the rule that refused, so the UI can show why."""

from __future__ import annotations


class EngineError(Exception):
    """Base of every refusal by the battle engine."""


class IllegalCommand(EngineError):
    """A command (or dice faces) the rules do not allow now.

    `rule` names where the rule comes from ("FOW 20 Hover", "turn order", "dice"),
    `message` says what is wrong in plain words. Nothing in the battle changed.
    """

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})" if self.rule else self.message


class UndoRefused(EngineError):
    """Undo would go past a roll already made, or there is nothing to undo."""


class ReplayError(EngineError):
    """A log that does not fit the battle it claims to record (entry `seq` is the first bad one)."""

    def __init__(self, seq: int, message: str) -> None:
        self.seq = seq
        self.message = message
        super().__init__(f"log entry {seq}: {message}")
