"""Interrupts of 6.3 that the rules offer in the windows they open (`ctx.window`), and the
small rules each one needs. The battle code is in play.py (`FigWarsRules.interrupts`).

  nominated      an enemy unit is nominated to activate: a hidden ambush may be sprung
                 (4.3 Ambush: whenever its owner chooses); held sentry shots at any of
                 its models (7.2: an enemy that activates or acts)
  before_action  an enemy model is about to act: held sentry shots (7.2, PR-25)
  shot_declared  a single-target shot, not from within melee, at a hero with Heroic
                 Deflection or at a unit-mate of a Blind Devotion model: its owner may
                 hand the shot to a friendly model (PR-50: range and cover re-judged)
  engaged        a model is about to be struck: a Horrific target forces the striking
                 unit's instant check (PR-38), a flier not yet in melee may lift off (1d8)
  after_move     a move brought a model within 3" of a Horrific enemy: instant check
Dodge (an attack would inflict DP) and the defensive Focus are asked where the damage
and the strike are resolved.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import Any

from campaign.engine.dice import roll as request_roll
from campaign.rulesets.figwars3.morale import PL_HORRIFIC
from campaign.rulesets.figwars3.weapons import RangedWeapon

NOMINATED = "nominated"
BEFORE_ACTION = "before_action"
SHOT_DECLARED = "shot_declared"
ENGAGED = "engaged"
AFTER_MOVE = "after_move"

LIFT_OFF_DIE = 8
LIFT_OFF_FACES = (7, 8)  # 4.3 Flight: on 7-8 the flier escapes before any blow
HOVER_INCHES = 4


def redirectable(weapon: RangedWeapon, facts: Mapping[str, Any]) -> bool:
    """PR-50: only a single-target shot made from outside melee can be handed on (no
    template, placed or burst attack)."""
    template = bool(weapon.blast or weapon.spray or weapon.indirect or weapon.grenade)
    several = facts.get("burst") or facts.get("second_target_model")
    return not template and not facts.get("in_melee", False) and not several


def lift_off() -> Generator[Any, Any, bool]:
    """1d8, no re-rolls: True when the flier lifts off before the blow."""
    (face,) = yield from request_roll(LIFT_OFF_DIE, 1, "lift-off: 1d8, 7-8 escapes the melee")
    return face in LIFT_OFF_FACES


def horrific_panic(pl: int) -> int:
    """PR-38: the instant check is made at the unit's current panic level + 1."""
    return pl + PL_HORRIFIC


def immune_to_horror(abilities: frozenset[str] | set[str]) -> bool:
    """Other Horrific models (and, in part 2, vehicles and mecha) ignore Horrific."""
    return "Horrific" in abilities
