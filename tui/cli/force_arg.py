"""A force file named on the command line, read with the ruleset it is built for."""

from __future__ import annotations

import sys
from typing import Any

from campaign.force import Force
from campaign.inert_text import inert
from saves.errors import SaveError


def load_force_arg(path: str, command: str) -> tuple[Force, Any] | None:
    """The force in `path` and its ruleset, or None once the reason it cannot be read is
    printed as `muster COMMAND: ...` (the caller then exits with 2)."""
    from saves.force_file import load_force, ruleset_for

    try:
        force = load_force(path)
        return force, ruleset_for(force, path)
    except SaveError as exc:
        print(inert(f"muster {command}: {exc}"), file=sys.stderr)
        return None
