"""Flat Out War resolved by the engine.

The pure resolution layer (rolls, modifiers, recovery, morale, movement, casting,
artillery, clocks, victory, odds) is functions of element facts, table facts and die
faces. `rules.py` wires it into the ruleset-agnostic core in `campaign.engine`.
"""
