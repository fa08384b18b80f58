"""How a FigWars model is named on screen: the unit panel, the actions list and the
pickers all use this one form, so a player reads "grunt-2" everywhere."""

from __future__ import annotations

from campaign.engine.state import ElementState


def model_name(el: ElementState) -> str:
    """A model's id's tail ("marine-2"), with its own name in front only where the id
    does not already read as it ("Sgt Rock (marine-3)")."""
    tail = el.id.rsplit("/", 1)[-1]
    stem = tail.rstrip("0123456789").rstrip("-")
    return tail if "-".join(el.name.lower().split()) == stem else f"{el.name} ({tail})"
