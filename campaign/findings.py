"""Validation findings: they explain, they do not block."""

from __future__ import annotations

from typing import Literal

import attrs

Severity = Literal["error", "warning", "info"]


@attrs.define(frozen=True)
class Finding:
    severity: Severity
    rule: str  # where the rule comes from: "FOW 20 Hover", "A-69", "points limit"
    message: str
    path: str = ""  # key path in the force: "units[2].elements[0]"


def worst(findings: list[Finding]) -> Severity | None:
    order = {"error": 0, "warning": 1, "info": 2}
    return min((f.severity for f in findings), key=order.__getitem__, default=None)
