"""FigWars 3's reference card for the help screen, in Muster's own words."""

HELP = """\
FigWars 3 (figwars-3)

Dice: pools of d6. A 1 or 2 scores nothing, 3-5 one success, a 6 two.
Troopers: TQ (0 Green to 3 Elite), MOV, DEF (TQ + armour + shield + natural;
heroes and mounts +1d), DP, COM (2 x TQ inches).

Before turn 1 (new battles): the side with more units places first, one unit
at a time in turn; Recon units go down last, ambushers stay hidden and drop
troops wait off the table.

A turn: every side rolls 1d8 for initiative (ties roll again), then a d8 for
extra actions (more units and living heroes add to it). Sides take turns
activating one unit each; retreating units go first, then falling-back ones.
Each model has two actions (three with an extra action): walk, run (two),
aim, focus, shoot, strike, reload. Models that stood close share their
actions; the others act one after another.

Shooting: TQ + weapon ATK + range (point blank +1d, long -1d, extreme -2d)
against DEF + cover. Beat the defence: margin 1 pins, every 2 is a DP.
Melee: DEF + weapon ATK on both sides; a defender who wins strikes back with
one success less. The odds shown before a roll are exact.

Morale: each casualty adds 1 to the unit's panic level; at the end of the
turn it rolls TQ dice (+1d per five models beyond five, Brave, a hero in
sight) and needs successes equal to the panic level, or falls back.
"""
