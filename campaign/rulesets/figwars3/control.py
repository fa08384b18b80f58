"""Mindless and Soulless units and their controllers (4.3 #22, #26, PR-39). A controlled
unit names the friendly unit whose model controls it (the unit field `controller`); it
acts with the controller's TQ - 1, and loses control when the controller cannot see it
(that activation) or is gone (for good). Pure rules; play.py applies them."""

from __future__ import annotations

from collections.abc import Iterable

KINDS = ("Soulless", "Mindless")  # Soulless first: it covers Mindless (validation warns on both)
PL_CONTROLLER_LOST = 2  # a Mindless unit whose controller dies: PL +2 instead of the usual +1
UNCONTROLLED = ("strike", "shoot", "walk", "done", "end_activation")  # PR-39: fight, shoot unaimed, or stagger 1"
STAGGER_INCHES = 1
STAGGER_DIE = 8  # the direction of the random 1" move


def kind_of(abilities: Iterable[str]) -> str:
    """"Soulless", "Mindless" or "" for a unit with these abilities."""
    found = set(abilities)
    return next((k for k in KINDS if k in found), "")


def controlled_tq(controller_tq: int) -> int:
    """The unit's TQ under control: the controller's TQ - 1, at least 0."""
    return max(controller_tq - 1, 0)
