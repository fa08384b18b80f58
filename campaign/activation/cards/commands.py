"""The card scheme's own commands (their `type` names are what the log stores).

Names carry a `card_` prefix or a card word so they never clash with a ruleset's own
commands ("rally", "overwatch" may mean something else in a host ruleset).
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from campaign.engine.commands import Command


@attrs.define(frozen=True)
class DealCards(Command):
    """Table mode: the cards a side was dealt from a real deck, typed ("QH", "10S", "17")."""

    type: ClassVar[str] = "deal_cards"
    cards: tuple[str, ...] = ()


@attrs.define(frozen=True)
class AssignCards(Command):
    """A side's face-down placement: unit id -> card ("QH"). Unused cards are discarded."""

    type: ClassVar[str] = "assign_cards"
    cards: dict[str, str] = attrs.field(factory=dict)


@attrs.define(frozen=True)
class ActivateCards(Command):
    """Start the next card's unit, alone or with the same side's in-sequence units (CA-4.5)."""

    type: ClassVar[str] = "activate_cards"
    units: tuple[str, ...] = ()


@attrs.define(frozen=True)
class GoOverwatch(Command):
    """CA-7: hold one action for the rest of the turn; the activation ends."""

    type: ClassVar[str] = "card_overwatch"
    unit: str = ""


@attrs.define(frozen=True)
class Rally(Command):
    """CA-6: the routed unit's forced first action. Fact `at_edge`: it touches its own
    board edge, or its rout move would carry a model over it (AMB-22)."""

    type: ClassVar[str] = "card_rally"
    unit: str = ""
    facts: dict[str, Any] = attrs.field(factory=dict)


@attrs.define(frozen=True)
class Aim(Command):
    """CA-12.5 / AMB-24: +1 on the next ballistic action this turn."""

    type: ClassVar[str] = "card_aim"
    unit: str = ""


@attrs.define(frozen=True)
class PrepWeapon(Command):
    """CA-11.2: a Special "prep" action toward a weapon's PREP count."""

    type: ClassVar[str] = "card_prep"
    unit: str = ""
    weapon: str = ""


@attrs.define(frozen=True)
class SpecialAction(Command):
    """CA-12: any other special action the host has no rule for (cut wire, heal, set up a
    device); it costs an action and is recorded, the players play out its effect."""

    type: ClassVar[str] = "card_special"
    unit: str = ""
    action: str = ""


@attrs.define(frozen=True)
class Interrupt(Command):
    """CA-7.6: a held unit spends its held action in this window (before, during, after)."""

    type: ClassVar[str] = "card_interrupt"
    unit: str = ""
    window: str = ""


@attrs.define(frozen=True)
class SplitAction(Command):
    """CA-5: one action of `unit` shared by two groups of its models. `actions` are the
    host's own commands for each group (e.g. two `shoot` at different targets, or a
    `move` and a `shoot`); `models` the number of models in each group, a table fact
    (a host that names the models, like Flat Out War's `shooters`, may count them)."""

    type: ClassVar[str] = "card_split"
    unit: str = ""
    actions: list[dict[str, Any]] = attrs.field(factory=list)
    models: list[int] = attrs.field(factory=list)


CARD_COMMANDS: tuple[type[Command], ...] = (
    DealCards,
    AssignCards,
    ActivateCards,
    GoOverwatch,
    Rally,
    Aim,
    PrepWeapon,
    SpecialAction,
    Interrupt,
    SplitAction,
)

# card command -> the action kind it books (CA-4.1)
CARD_ACTION_KINDS: dict[str, str] = {"card_aim": "aim", "card_prep": "prep", "card_special": "special"}
