"""The proposed rulings that are real choices, as battle options (spec section 7)."""

from __future__ import annotations

from campaign.rulesets.base import Option

OPTIONS: tuple[Option, ...] = (
    Option(
        "super_table",
        "choose",
        ("choose", "roll_d8"),
        "after a successful Super Initiative the holder picks a result, or rolls a d8 for it",
        "AMB-5",
    ),
    Option(
        "morale_timing",
        "two_phase",
        ("two_phase", "single"),
        "two morale phases as printed, or one after all combat (Morale 2 only, markers included)",
        "AMB-2",
    ),
    Option(
        "individual_morale_die",
        10,
        (10, 6),
        "the die of the individual morale table: a d10, or the printed d6 (which can never rally)",
        "AMB-25",
    ),
    Option(
        "grade_trigger_mode",
        "or",
        ("or", "and"),
        "a unit checks on the grade's event or its loss threshold, or only on both",
        "AMB-22",
    ),
    Option(
        "use_004_individual_morale",
        False,
        (False, True),
        "card mode: a failed unit check sends every model to the individual table (markers) instead of routing the unit",
        "card-activation 7.4",
    ),
    Option(
        "jump_op_fire",
        "path",
        ("path", "path_and_worse"),
        "op fire at a jumper: seeing any part of its path is enough, or it must also end a worse target",
        "DP-13.4",
    ),
    Option("bushes", "rough", ("rough", "impassable"), "the garbled Bushes row: double cost, or no movement", "AMB-13"),
    Option("turn_limit", 8, (), "turns played for Battle of Position and Objectives", "DP-19"),
)
