"""The card scheme's settings: the proposed rulings of spec section 8 as documented options.

Each option's default is the spec's proposed value; `ruling` names the AMB entry it
settles. Pass them in the battle setup as `activation_options` (or a campaign's
default), e.g. {"card_order": "rank_major", "three_quarter_rounding": "floor"}.
"""

from __future__ import annotations

from typing import Any

from campaign.options import Option
from campaign.options import resolve_options as resolve

OPTION_SPECS: tuple[Option, ...] = (
    Option(
        "card_order",
        "suit_major",
        ("suit_major", "rank_major"),
        "Activation order: every heart before any spade (suit_major, the source's example) "
        "or all aces first, then all twos (rank_major).",
        "AMB-1",
    ),
    Option(
        "three_quarter_rounding",
        "ceil",
        ("ceil", "floor"),
        "How the smaller side rounds three quarters of the opposing unit count.",
        "AMB-2",
    ),
    Option(
        "jokers",
        0,
        (0, 1, 2),
        "Jokers shuffled into the deck. A joker is a card like any other when assigning; "
        "it comes up after the king of clubs.",
        "CA-1.1",
    ),
    Option(
        "prep_counts",
        "prep_only",
        ("prep_only", "any_action"),
        "Which actions count down a weapon's PREP: only Special 'prep' actions, or any action.",
        "AMB-17",
    ),
    Option(
        "aim_excluded_from_penalty",
        True,
        (True, False),
        "An Aim action gives +1 on the next ballistic action this turn and does not count "
        "towards the -1 per previous action.",
        "AMB-24",
    ),
    Option(
        "combined_activation",
        True,
        (True, False),
        "Offer a side the chance to activate consecutive cards of its own together.",
        "AMB-19",
    ),
    Option(
        "combined_steps",
        True,
        (True, False),
        "In a combined activation the units act in steps: each takes one action before any "
        "takes its next (each result still applies at once).",
        "AMB-19",
    ),
    Option(
        "step_results",
        "end_of_step",
        ("end_of_step", "at_once"),
        "In a combined activation: each step's results (casualties, routs) take effect "
        "together once every unit of the step has acted, or at once after each action.",
        "AMB-19",
    ),
    Option(
        "split_other_action",
        True,
        (True, False),
        "The split-off group of a unit (at most half its models) may take another action "
        "type, not only another target.",
        "AMB-18",
    ),
    Option(
        "deal",
        "auto",
        ("auto", "dice", "typed"),
        "How the deal is made: by the battle's dice (a seeded, logged shuffle), typed by the "
        "players from a real deck, or 'auto': dice with auto dice, typed with table dice.",
        "CA-1.1",
    ),
    Option(
        "ap_max",
        2,
        (),
        "Action points per unit when the host ruleset does not say (Flat Out War: 2).",
        "CA-4.1",
    ),
    Option(
        "fow_enforce_one_other_action",
        True,
        (True, False),
        "Flat Out War host: at most one Melee, Ballistic or Cast per activation (the free "
        "charge melee counts as it), as in Flat Out War's Move plus one Other Action.",
        "7.3",
    ),
    Option(
        "turns",
        6,
        (),
        "Game length in card turns when neither the host nor the scenario sets one.",
        "AMB-26",
    ),
)

class CardOptionError(ValueError):
    pass


def resolve_options(given: dict[str, Any] | None = None) -> dict[str, Any]:
    """Defaults overlaid with `given`; unknown names or bad values give a clear error."""
    try:
        out = resolve(OPTION_SPECS, given, "card activation")
    except ValueError as exc:
        raise CardOptionError(str(exc)) from None
    for key in ("turns", "ap_max"):
        value = out[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise CardOptionError(f"card option {key} must be a whole number >= 1, not {value!r}")
    return out
