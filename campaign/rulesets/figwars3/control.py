"""Mindless and Soulless units and their controllers (4.3 #22, #26, PR-39). A controlled
unit names the friendly unit whose model controls it (the unit field `controller`); it
acts with the controller's TQ - 1, and loses control when the controller cannot see it
(that activation) or is gone (for good). Revision 1 reads the controller as the whole
unit (control is lost when it is wiped out); revision 2 as its model with the best TQ
(`controller_model`), lost when that model falls, and plays PR-39's sequence: a turn
doing nothing after the check is passed, then the first random 1" move, then each
activation the first of: fight what is in contact, shoot unaimed within 4", stagger 1"
(`DRIVES`, asked of the owner as table facts). Pure rules; play.py applies them."""

from __future__ import annotations

from collections.abc import Iterable

KINDS = ("Soulless", "Mindless")  # Soulless first: it covers Mindless (validation warns on both)
PL_CONTROLLER_LOST = 2  # a Mindless unit whose controller dies: PL +2 instead of the usual +1
UNCONTROLLED = ("strike", "shoot", "walk", "done", "end_activation")  # PR-39: fight, shoot unaimed, or stagger 1"
STAGGER_INCHES = 1
STAGGER_DIE = 8  # the direction of the random 1" move


# PR-39 revision 2: what an uncontrolled activation must do, the first that applies
DRIVES = ("strike", "shoot", "stagger")
DRIVE_LABELS = {
    "strike": "An enemy is in base contact: it attacks",
    "shoot": "An enemy is within 4\": it shoots at it, unaimed",
    "stagger": "Neither: it staggers 1\" in a random direction",
}
DRIVE_COMMANDS = {"strike": ("strike",), "shoot": ("shoot",), "stagger": ("walk",)}
IDLE = ("done", "end_activation")  # what the idle turn after a passed check leaves


def best_model(tqs: Iterable[tuple[str, int, bool]]) -> str:
    """The controller model of a unit: (id, TQ, hero) rows -> the best TQ, a hero first on
    a tie, then the first listed (revision 2; the unit field names only the unit)."""
    rows = list(tqs)
    return max(rows, key=lambda r: (r[1], r[2], -rows.index(r)))[0] if rows else ""


def kind_of(abilities: Iterable[str]) -> str:
    """"Soulless", "Mindless" or "" for a unit with these abilities."""
    found = set(abilities)
    return next((k for k in KINDS if k in found), "")


def controlled_tq(controller_tq: int) -> int:
    """The unit's TQ under control: the controller's TQ - 1, at least 0."""
    return max(controller_tq - 1, 0)
