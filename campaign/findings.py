"""Validation findings: they explain, they do not block."""

from __future__ import annotations

from typing import Literal

import re
from typing import TYPE_CHECKING

import attrs

from campaign.frozen import frozen

if TYPE_CHECKING:
    from campaign.force import Force

Severity = Literal["error", "warning", "info"]


@frozen
class Finding:
    severity: Severity
    rule: str  # where the rule comes from: "FOW 20 Hover", "A-69", "points limit"
    message: str
    path: str = ""  # key path in the force: "units[2].elements[0]"
    where: str = ""  # the same place in the players' names: "Assault Squad / Sergeant"

    @property
    def place(self) -> str:
        """Where the finding is, as players say it (the key path when no name is known)."""
        return self.where or self.path


def worst(findings: list[Finding]) -> Severity | None:
    order = {"error": 0, "warning": 1, "info": 2}
    return min((f.severity for f in findings), key=order.__getitem__, default=None)


_STEP = r"([a-z_]+)\[(\d+)\]"  # compiled on first use (re's cache): not at start-up


def path_names(force: Force, path: str) -> str:
    """"units[0].elements[1].attributes[4]" -> "Assault Squad / Sergeant".

    Unit, element and weapon names as the force file writes them (an attribute or
    spell is left to the message, which quotes it); "" when the path names no unit."""
    names: list[str] = []
    node: object = force
    for key, index in re.findall(_STEP, path):
        items = getattr(node, key, None)
        if not isinstance(items, tuple) or not 0 <= int(index) < len(items):
            break
        node = items[int(index)]
        if isinstance(node, str):
            break
        names.append(str(getattr(node, "name", "")))
    return " / ".join(n for n in names if n)


# Findings about the force as a whole sit at a top-level key; players call it so.
FORCE_PLACES = {"units": "Force", "points_limit": "Points limit", "options": "Options", "edition": "Edition"}


def place_name(force: Force, path: str) -> str:
    """Where `path` is in the players' words: the names along it, or for a key of the
    force itself its name in words ("points_limit" -> "Points limit")."""
    names = path_names(force, path)
    if names or not re.fullmatch(r"[a-z_]+", path):
        return names
    return FORCE_PLACES.get(path, path.replace("_", " ").capitalize())


def named(force: Force, findings: list[Finding] | tuple[Finding, ...]) -> list[Finding]:
    """The findings with `where` filled in from their key paths."""
    return [
        f if f.where or not f.path else attrs.evolve(f, where=place_name(force, f.path))
        for f in findings
    ]
