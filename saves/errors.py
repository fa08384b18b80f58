"""Errors from reading files: they name the file, the place and what was expected."""

from __future__ import annotations

from pathlib import Path


class SaveError(Exception):
    """A file Muster cannot use. Nothing on disk was changed."""

    def __init__(
        self,
        file: str | Path,
        message: str,
        *,
        line: int | None = None,
        key: str = "",
        expected: str = "",
        hint: str = "",
    ) -> None:
        self.file = str(file)
        self.message = message
        self.line = line
        self.key = key
        self.expected = expected
        self.hint = hint
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line else "")
        text = f"{where}: {self.key + ': ' if self.key else ''}{self.message}"
        if self.expected:
            text += f" (expected {self.expected})"
        if self.hint:
            text += f"; {self.hint}"
        return text

    def as_dict(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "key": self.key,
            "message": self.message,
            "expected": self.expected,
            "hint": self.hint,
        }


class FormatTooNew(SaveError):
    """The file was written by a newer Muster."""
