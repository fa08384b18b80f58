"""Flat Out War's play, one mixin of `rules.FlatOutWarRules` per concern.

  base        dice with Lucky, unit lookup, able elements, enemies, an attack's Situation
  activation  legal commands, the activation loop, the round/turn/activation hooks
  movement    move check and resolution, breaking off, Fearsome
  charging    contact made: [SO] turning to meet the charge, then Stand shots (A-18)
  attacks     melee and shoot: checks, attack batches, Trigger, templates and scatter
  hits        recovery rolls and their results, removal, Sticky, Ensnare and Capture
  casting     the cast check and each spell's effect
  actions     attach, detach (officers) and switch (Activate)
  morale      casualty, fear and witness morale rolls, rallying
  outcome     objectives, strategic victory, the end, VPs, the battle outcome
  odds        the attack rolls a command would make, and their exact odds
"""
