"""Flat Out War's battle options: proposed rulings that are real choices (spec 24).

Defaults are the proposals. The FlatOutWar ruleset lists these with its cost
options, so `get_ruleset("flat-out-war", edition, **setup.options)` accepts them.
"""

from __future__ import annotations

from campaign.rulesets.base import Option

BATTLE_OPTIONS: tuple[Option, ...] = (
    Option("template_mode", "roll_each", ("roll_each", "auto_hit"),
           "roll for every element under a template, or every one is hit", "A-20"),
    Option("template_friendly_fire", True, (True, False),
           "friendly elements under an aimed template are attacked too", "A-20"),
    Option("lucky_prompt", True, (True, False),
           "offer Lucky re-rolls after an element's own rolls (off: Lucky is never used)", "A-67"),
    Option("ask_witnesses", True, (True, False),
           "after a failed morale roll, ask which units within 8\" saw it (seeing panic)", "A-45"),
    Option("stand_prompt", True, (True, False),
           "offer Stand shots to charged units (off: never taken)", "A-18"),
    Option("face_charge_prompt", True, (True, False),
           "[SO] offer a charged unit (or each loose element) its free turn to face the charger, before any "
           "Stand shot (off: never asked; the players' aspect fact stands)", "A-18"),
    Option("linear_miss", "path", ("path", "table_again"),
           "Linear Artillery after a miss: attack along the overshoot path ([1.7] reading), or roll "
           "the stop/bounce table again first ([SO] text)", "A-52"),
)
