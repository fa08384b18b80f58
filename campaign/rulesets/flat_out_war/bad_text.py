"""Attribute text of an element that could not be read, and where it was written."""

from __future__ import annotations

from campaign.frozen import frozen
from campaign.rulesets.flat_out_war.attributes import AttributeTextError


@frozen
class BadText:
    """Attribute text that could not be read."""

    path: str
    error: AttributeTextError
