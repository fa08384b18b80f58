"""Flat Out War resolved by the engine.

Pure resolution (functions of element facts, table facts and die faces):
  rolls       the 4+ success rule, the die ladder, Mod
  combatant   Combatant / Arm: an element as combat sees it (combatant_from_element)
  situation   Situation: the table facts of one attack, with plain defaults
  modifiers   melee / ranged / spell modifier sums, as data rows
  attack      melee die per edition, Heavy Armour gate (A-19), Hit
  recovery    recovery dice and modifiers, replacements (A-26), crash (A-30), misfire (A-34)
  morale      25% thresholds (A-44), the roll, the flee/rally state machine (15.3)
  movement    allowance (A-10), terrain costs, exemptions, who may run / go prone
  casting     the twelve spells' effects, the casting roll, Summon's die (A-40)
  artillery   scatter (d4) and bounce (d6) tables, template plans (A-20)
  clocks      turn counters for durations, lockouts and Reload (A-07)
  victory     exact-quarter VPs (A-53)
  contact     which units touch: charges, Capture, melee; breaking off
  formation   a tight unit's ranks and files: how many fight (first rank) or shoot (two)
  declare     a unit's action as AttackSpecs (used by play and by the odds alike)
  odds        exact distributions by enumerating every face through the same code

Play (the engine core's hooks): `rules.FlatOutWarRules`, reached through
`get_ruleset("flat-out-war", edition).battle_rules()`; its commands and their
section-22 facts are in `commands`, its battle options in `options`, and
`autoplay.AutoPlayer` is a deterministic player for simulations and benchmarks.
`rules` keeps building the state and dispatching commands; the rest of play is one
mixin per concern in `play/`:
  play.base        dice with Lucky, unit lookup, able elements, an attack's Situation
  play.activation  legal commands, the activation loop, round/turn/activation hooks
  play.movement    move check and resolution, breaking off, Fearsome
  play.charging    contact made: [SO] turning to meet the charge, then Stand shots
  play.attacks     melee and shoot checks, attack batches, Trigger, templates, scatter
  play.hits        recovery rolls and their results, removal, Sticky, Ensnare, Capture
  play.casting     the cast check and each spell's effect
  play.actions     attach, detach (officers) and switch (Activate)
  play.morale      casualty, fear and witness morale rolls, rallying
  play.outcome     objectives, strategic victory, the end, VPs, the battle outcome
  play.odds        the attack rolls a command would make, and their exact odds
"""
