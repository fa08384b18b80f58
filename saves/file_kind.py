"""`FileKind`: how saves/validate.py recognises and checks one kind of Muster file.

Each file module (force, campaign, battle, scenario) declares its `FILE_KIND` with it;
kept apart from the validator, so loading a file does not import the validator's reports.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from campaign.findings import Finding
from campaign.frozen import frozen


@frozen
class FileKind:
    name: str  # "force", "campaign", ...
    recognise: Callable[[Path, dict[str, Any]], bool]
    check: Callable[[Path], list[Finding]]  # raises SaveError when the file is unusable
    order: int = 100  # kinds are tried in this order (lower first), then by name
    # For kinds whose loader can repair a file that plain TOML parsing rejects (a battle
    # file whose last log table was cut by a power failure): recognise it from its text.
    salvage: Callable[[Path, str], bool] | None = None
