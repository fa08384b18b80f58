"""CA-5: splitting one action of a unit between two groups of models.

Pure checks on counts the players report: which models go where is a table matter,
how many may go is the engine's. Every refusal is a `CardRuleError` naming its rule.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from campaign.activation.cards.turn import CardRuleError

# Kinds that may never be part of a split: the whole unit goes on overwatch (CA-5.3);
# the forced Rally is the unit's morale check (CA-6.1).
UNSPLITTABLE = {"overwatch": "CA-5.3", "rally": "CA-6.1"}


@attrs.define(frozen=True)
class SplitGroup:
    """One group of a split action: what it does and which (or how many) models do it."""

    kind: str  # card action kind: move, melee, ballistic, cast, special ...
    target: str | None  # the target unit, if the action has one
    count: int  # models in the group (a table fact)
    models: frozenset[str] | None = None  # model ids, when the host can name them


def second_group_limit(models: int) -> int:
    """AMB-18: the split-off group holds at most half the models, rounded down."""
    return max(0, models) // 2


def check_split(groups: Sequence[SplitGroup], unit_models: int, other_kinds: bool = True) -> None:
    """Refuse a split CA-5 forbids. `unit_models` is the unit's model count now;
    `other_kinds` is the AMB-18 option letting the second group take another action type."""
    if len(groups) != 2:
        raise CardRuleError("CA-5.1", f"a split action has exactly two groups, not {len(groups)}")
    for group in groups:
        if group.kind in UNSPLITTABLE:
            rule = UNSPLITTABLE[group.kind]
            raise CardRuleError(rule, f"a {group.kind} cannot be split: the whole unit takes it")
        if group.count < 1:
            raise CardRuleError("CA-5.1", "each group of a split needs at least one model")
    first, second = groups
    total = first.count + second.count
    if total > unit_models:
        raise CardRuleError("CA-5.1", f"the groups hold {total} models but the unit has {unit_models}")
    limit = second_group_limit(unit_models)
    if second.count > limit:  # the second group listed is the one split off
        raise CardRuleError(
            "AMB-18",
            f"the split-off (second) group may hold at most {limit} of the unit's {unit_models} "
            f"models (half, rounded down), not {second.count}",
        )
    if first.models is not None and second.models is not None:
        both = sorted(first.models & second.models)
        if both:
            rule = "CA-5.2" if first.kind == second.kind == "ballistic" else "CA-5.1"
            why = (
                "a model's ballistic dice all go at one target unit"
                if rule == "CA-5.2"
                else "a model belongs to one group only"
            )
            raise CardRuleError(rule, f"{why}: {', '.join(both)} in both groups")
    if first.kind != second.kind and not other_kinds:
        raise CardRuleError("AMB-18", "the split-off group must take the same action type (option split_other_action is off)")
    if first.kind == second.kind and first.target == second.target:
        raise CardRuleError(
            "CA-5.1", "the split-off group must do something different: another target or another action type"
        )
