"""`validate_path(path)`: check any Muster file, or every Muster file in a folder.

A file's kind (force, campaign, scenario, battle...) is recognised from its parsed
TOML. Each kind is a FileKind: a `recognise(path, data)` test and a `check(path)`
that loads the file (raising SaveError when it cannot be used) and returns the
findings (saves/file_kind.py). To add a kind, either call `register_kind(FileKind(...))` or add the name
of a module that defines `FILE_KIND` to KIND_MODULES.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from campaign.findings import Finding
from campaign.frozen import frozen
from saves.errors import SaveError
from saves.file_kind import FileKind
from saves.toml_read import MAX_BATTLE_BYTES, read_text, read_toml

# Modules that define FILE_KIND; imported the first time a file is validated.
KIND_MODULES: tuple[str, ...] = (
    "saves.force_file",
    "saves.campaign_file",
    "saves.battle_file",
    "saves.scenario_file",
)


_KINDS: dict[str, FileKind] = {}
_loaded = False


def register_kind(kind: FileKind) -> FileKind:
    """Add (or replace, by name) a file kind."""
    _KINDS[kind.name] = kind
    return kind


def kinds() -> list[FileKind]:
    global _loaded
    if not _loaded:
        _loaded = True
        for name in KIND_MODULES:
            module = importlib.import_module(name)
            register_kind(module.FILE_KIND)
    return sorted(_KINDS.values(), key=lambda k: (k.order, k.name))


@frozen
class FileReport:
    file: str
    kind: str | None = None
    findings: tuple[Finding, ...] = ()
    error: SaveError | None = None  # the file could not be read or used

    @property
    def status(self) -> str:
        if self.error is not None:
            return "unreadable"
        if any(f.severity == "error" for f in self.findings):
            return "errors"
        return "ok"

    @property
    def exit_code(self) -> int:
        return {"ok": 0, "errors": 1, "unreadable": 2}[self.status]

    def as_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "kind": self.kind,
            "status": self.status,
            "findings": [finding_dict(f) for f in self.findings],
            "error": self.error.as_dict() if self.error else None,
        }


@frozen
class Report:
    files: tuple[FileReport, ...] = ()
    skipped: tuple[str, ...] = ()  # .toml files in a folder that are no Muster kind

    @property
    def exit_code(self) -> int:
        """0 no errors, 1 findings of error severity, 2 a file could not be read."""
        return max((f.exit_code for f in self.files), default=0)

    def __add__(self, other: Report) -> Report:
        return Report(self.files + other.files, self.skipped + other.skipped)

    def as_dict(self) -> dict[str, Any]:
        return {
            "files": [f.as_dict() for f in self.files],
            "skipped": list(self.skipped),
            "exit_code": self.exit_code,
        }


def finding_dict(finding: Finding) -> dict[str, str]:
    """`path` is the key path; `where` the same place in the players' names."""
    return {
        "severity": finding.severity,
        "rule": finding.rule,
        "message": finding.message,
        "path": finding.path,
        "where": finding.place,
    }


def _salvager(path: Path) -> FileKind | None:
    """The kind that can still load this unparsable file, if any."""
    try:
        text = read_text(path, MAX_BATTLE_BYTES)
    except SaveError:
        return None
    for kind in kinds():
        if kind.salvage is not None and kind.salvage(path, text):
            return kind
    return None


def kind_of(path: Path, data: dict[str, Any]) -> FileKind | None:
    for kind in kinds():
        try:
            if kind.recognise(path, data):
                return kind
        except Exception:  # a recogniser must not stop the others
            continue
    return None


def validate_file(path: str | Path, *, in_folder: bool = False) -> FileReport | None:
    """One file's report; None when `in_folder` and the file is no Muster kind."""
    path = Path(path)
    try:
        data, _ = read_toml(path, MAX_BATTLE_BYTES)  # the largest kind; each kind's loader has its own limit
    except SaveError as exc:
        kind = _salvager(path)
        if kind is None:
            return FileReport(str(path), error=exc)
    else:
        kind = kind_of(path, data)
    if kind is None:
        if in_folder:
            return None
        names = ", ".join(k.name for k in kinds())
        return FileReport(
            str(path),
            error=SaveError(path, "not a Muster file of any known kind", expected=names + " file"),
        )
    try:
        findings = tuple(kind.check(path))
    except SaveError as exc:
        return FileReport(str(path), kind.name, error=exc)
    except Exception as exc:  # a checker's bug must still give a report, not a traceback
        error = SaveError(path, f"could not be checked ({type(exc).__name__}: {exc})")
        return FileReport(str(path), kind.name, error=error)
    return FileReport(str(path), kind.name, findings)


def validate_path(path: str | Path) -> Report:
    """A file, or every .toml of a known kind under a folder (hidden folders skipped)."""
    path = Path(path)
    if not path.is_dir():
        report = validate_file(path)
        return Report((report,) if report else ())
    files: list[FileReport] = []
    skipped: list[str] = []
    for file in sorted(path.rglob("*.toml")):
        if any(part.startswith(".") for part in file.relative_to(path).parts):
            continue
        report = validate_file(file, in_folder=True)
        if report is None:
            skipped.append(str(file))
        else:
            files.append(report)
    return Report(tuple(files), tuple(skipped))


def validate_paths(paths: list[str | Path]) -> Report:
    total = Report()
    for path in paths:
        total = total + validate_path(path)
    return total
