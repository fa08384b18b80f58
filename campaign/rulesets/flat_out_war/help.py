"""Flat Out War in brief: the help screen's short reference, in our own words
(the rules spec ../shared/rules/flat-out-war.md is the authority)."""

HELP = (
    "Flat Out War in brief\n"
    "\n"
    "Dice. Each element has one base die from d4 up to d20. A test is one roll of the right die plus "
    "any modifiers; a total of 4 or better succeeds. Modifiers from attributes are small (-2 to +2) and "
    "apply only where the attribute says.\n"
    "\n"
    "Rounds. At the start of a round every player rolls a d6 and turns go from the highest roll down "
    "(only tied players roll again). On a turn a player activates one unit or passes. An activated unit "
    "may move and take one other action (melee, shooting or a spell), in either order.\n"
    "\n"
    "Damage. An element that is hit rolls to recover: 4 or better and it stays. Elements with several "
    "weapons roll for each weapon and lose the ones that fail.\n"
    "\n"
    "Morale. Each time a unit loses another quarter of its starting size it tests on its best base die, "
    "at -1 for every quarter already gone. A failed test sends it fleeing until it rallies.\n"
    "\n"
    "Points. An element's price is its die, its weapons, its MOVE (paid per 2 inches) and its "
    "attributes, some a flat sum and some a multiple of the die's DAC. A unit costs the sum of its "
    "elements.\n"
    "\n"
    "Victory. Either a side completes its scenario objective, or, counting points, each unit wiped out "
    "is worth a quarter of what it cost, plus the agreed objective values."
)

# `muster odds`: the actions and facts (campaign/rulesets/flat_out_war/engine/odds_query.py)
ODDS_HELP = """\
Flat Out War: --action melee, ranged, or spell:NAME (an attack spell: spell:Zap)
facts of the attack (section 22 of the rules spec; defaults in brackets):
  aspect=front|flank|rear [front]     range_band=short|long [short]
  los=open|partial [open]             covered=N or ELEMENT,ELEMENT (templates, Fireball) [1]
  attackers=/shooters=ELEMENT,...     allocate=ELEMENT,... (the order hits go in)
facts of the situation:
  ran=true  charging=true  moved=true         (the attacking unit)
  target_prone=true  target_airborne=true     (the target unit)
  attacker_effects=Strengthen,Weaken  target_effects=Shield

example:
  muster odds --attacker humans.toml:"Tactical Squad" --target aliens.toml:"Ripper Swarm" \\
              --action ranged --fact range_band=long --fact los=partial
"""
