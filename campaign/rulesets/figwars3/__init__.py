"""FigWars 3 (seed 003; rules spec ../shared/rules/figwars3.md), part 1: troopers and heroes.

Catalogues are data (traits, abilities, weapons); dice, re-rolls, opposed rolls and the
margin's effects live in one place each, and odds and resolution both read the same
`OpposedRoll` description (attack.py). Registration through the plug-in contract comes
in a later step; until then nothing outside this folder names the ruleset.
"""

from __future__ import annotations

RULESET_ID = "figwars-3"
