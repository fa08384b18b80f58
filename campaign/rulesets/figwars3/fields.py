"""FigWars 3's profile as typed field specs (spec 3.2-3.3, 4.2): what a trooper entry keeps
in its `stats`, and what a weapon entry is (a name from the lists, ranged or melee).

The force builder's editors, the force table, `muster cost` and validation read these;
`profile.profile_of` reads the same ranges when it builds a trooper.
"""

from __future__ import annotations

from campaign.profiles import FieldSpec, Profile
from campaign.rulesets.figwars3 import traits
from campaign.rulesets.figwars3.weapons import MELEE, RANGED

TQ = FieldSpec("tq", "int", "TQ", "troop quality: 0 Green, 1 Grunt, 2 Veteran, 3 Elite", min=0, max=3,
               stat=True, column=2, rule="FW3 3.2")
MOV = FieldSpec("mov", "int", "MOV", "movement in inches (a mount sets its own)", min=0, max=24, stat=True,
                column=3, rule="FW3 3.2")
DP = FieldSpec("dp", "int", "DP", "damage points, before a hero's +1", min=1, max=20, stat=True, column=2,
               rule="FW3 3.2")
DEF = FieldSpec("def", "int", "DEF", "defence dice as printed", min=0, max=20, stat=True, column=3,
                blank="TQ plus equipment", rule="PR-11")
ARMOUR = FieldSpec("armour", "choice", "Armour", "worn armour (adds DEF dice)", default="none",
                   choices=tuple(traits.ARMOUR), stat=True, rule="FW3 3.2")
SHIELD = FieldSpec("shield", "choice", "Shield", "carried shield (adds DEF dice)", default="none",
                   choices=tuple(traits.SHIELDS), stat=True, rule="FW3 3.2")
NATURAL = FieldSpec("natural", "choice", "Natural", "natural defence (adds DEF dice)", default="none",
                    choices=tuple(traits.NATURAL), stat=True, rule="FW3 3.2")
ENHANCEMENT = FieldSpec("enhancement", "int", "Enhancement", "extra DEF dice from enhancements", default=0, min=0,
                        max=5, stat=True, rule="FW3 3.2")
MOUNT = FieldSpec("mount", "choice", "Mount", "a mount gives its own MOV and +1d DEF", choices=tuple(traits.MOUNT_MOV),
                  stat=True, blank="on foot", rule="FW3 3.3")
# a caster's rating; its range (1 to 4) is checked with its powers (arcane_play.caster_findings)
ARC = FieldSpec("arc", "int", "ARC", "a caster's arcane rating, 1 to 4", stat=True, blank="not a caster", rule="FW3 16.1")
# 16: the powers a caster may know (arcane.py plays them; listed here so the editor offers them)
ARCANE_POWERS: tuple[str, ...] = ("assault", "blast", "spirit_strike", "barrier", "concealment", "conveyance", "teleport", "entity")
SPELLS = FieldSpec("spells", "list", "Arcane powers", "the powers a caster knows, comma separated; Tab completes",
                   choices=ARCANE_POWERS, placeholder="assault, barrier", rule="FW3 16")
ABILITIES = FieldSpec("attributes", "list", "Abilities", "special abilities, comma separated; Tab completes",
                      placeholder="Hero, Fearless", rule="FW3 4.3")

WEAPON_NAME = FieldSpec("name", "text", "Name", "a weapon of FigWars 3's lists; Tab completes",
                        choices=tuple(dict.fromkeys([*RANGED, *MELEE])), rule="FW3 11")
WEAPON_KIND = FieldSpec("kind", "choice", "Kind", "which list it is from: ranged or melee", default="melee",
                        choices=("melee", "ranged"), rule="FW3 11")

CONTROLLER = FieldSpec("controller", "text", "Controller", "a Mindless or Soulless unit: the friendly unit whose model controls it",
                       blank="none", rule="FW3 4.3")

PROFILE = Profile(
    element=(TQ, MOV, DP, DEF, ARMOUR, SHIELD, NATURAL, ENHANCEMENT, MOUNT, ARC, SPELLS, ABILITIES),
    weapon=(WEAPON_NAME, WEAPON_KIND),
    unit=(CONTROLLER,),
)
