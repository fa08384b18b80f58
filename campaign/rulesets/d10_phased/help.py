"""The d10 phased rules in brief, in our own words (shown by the help screen)."""

HELP = """\
d10 phased rules (seed 004)

Dice: every roll is a d10 unless named. A modified 5 or more succeeds; a natural 1
always fails and a natural 10 always succeeds. Positive modifiers add up to +2 at most;
dice multipliers keep a model between a quarter and twice its dice; fractions of dice
from several models on one target pool together, rounded down.

Turn: initiative (d10, +2 for each turn in a row a side lost it). The winner moves first
or rolls for Super Initiative (5+): then it picks one of eight turns (move second, Mad
Minute, Rush, Heat of Battle, Hurry Up and Wait, Senseless Slaughter, Wide Spread Panic,
move first); failing hands initiative over. Phases: first move, second move (the other
side may op fire, a contacted model may run away), specials, stationary attack, morale,
moving attack, morale.

Attacks: the first mover picks a target and declares every attack on it; then the other
side; two passes end the phase. Hits wait until the phase ends; then each model rolls its
save dice once against all its hits. 2-hit models halve their dice at the first lost hit;
bigger models lose a die and a hit per unsaved hit, and a natural 10 among the hits may
cause a critical (d6: no move, no attacks next turn, nothing).

Morale: Fearless never checks; Average checks after an unsaved hit or half its hits
lost; Cowardly when attacked, an enemy is within 6 inches, or 30% lost. The unit rolls a
die no bigger than its original model count and passes below the models left; a failed
unit's models roll the table: 2 or less routed, 3-8 pinned, 9+ unaffected (d10, +1 for
the leader and models touching it, -1 out of command).

Victory: Battle of Position (quadrants after 8 turns), Objectives (markers after 8
turns) or Sudden Death (half an army's models lost).
"""
