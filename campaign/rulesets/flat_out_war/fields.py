"""Flat Out War's profile: every field of an element and a weapon as a typed FieldSpec.

The force builder's editors, the force table, `muster cost` and the range checks of
validation all read these. The rulebooks fix no upper limits, so the ranges are the sane
ones: a MOVE or a range longer than any table, or a thousand identical elements in one
entry, is a typing slip or a damaged file, and pricing it would only give nonsense.
"""

from __future__ import annotations

from campaign.profiles import FieldSpec, Profile
from campaign.rulesets.flat_out_war.dice import DIE_NAMES

COUNT = FieldSpec("count", "int", "count", "identical elements in this entry", default=1, min=1, max=200, rule="FOW 1")
DIE = FieldSpec("die", "die", "Die", "the element's base die", choices=DIE_NAMES, column=4, rule="FOW 19.2")
MOVE = FieldSpec("move", "int", "Move", "in inches, a multiple of 2", min=0, max=48, column=3, short="Mv",
                 rule="FOW 19.1", noun="MOVE")  # four feet of table
KIND = FieldSpec("kind", "choice", "Kind", "a trooper or a vehicle", default="trooper", choices=("trooper", "vehicle"),
                 rule="FOW 19.1")
ATTRIBUTES = FieldSpec("attributes", "list", "Attributes", "comma separated; Tab completes", placeholder='Agile, Jump 8"',
                       rule="FOW 20")
SPELLS = FieldSpec("spells", "list", "Spells", "chosen spells, for an element with Magic", placeholder="for Magic users",
                   rule="FOW 14")
LOST = FieldSpec("lost", "int", "lost", "elements of this entry lost in the campaign", min=0, max=200, rule="FOW 17")

WEAPON_KIND = FieldSpec("kind", "choice", "Kind", "melee or ranged", default="melee", choices=("melee", "ranged"),
                        rule="FOW 19.4")
WEAPON_DIE = FieldSpec("die", "die", "Die", "its own die", choices=DIE_NAMES, blank="element's die", rule="FOW 19.2")
RANGE = FieldSpec("range", "int", "range", "the priced (short) range; long range is twice this", default=0, min=0,
                  max=120, placeholder="inches (ranged)", rule="FOW 19.4")  # ten feet of table
MOUNT = FieldSpec("mount", "choice", "Mount", "where a vehicle carries it", default="main",
                  choices=("main", "extra", "sponson", "turret"), rule="FOW 19.4")
TRAITS = FieldSpec("traits", "list", "Traits", "weapon attributes, comma separated", placeholder="Exhaustible, Reload: 2",
                   rule="FOW 19.4")

POINTS_LIMIT = FieldSpec("points_limit", "int", "points limit", "the force's budget", min=0, max=100_000,
                         rule="FOW 19 points limit")

PROFILE = Profile(
    element=(COUNT, DIE, MOVE, KIND, ATTRIBUTES, SPELLS),
    weapon=(WEAPON_KIND, WEAPON_DIE, RANGE, MOUNT, TRAITS),
)
