"""Exact odds of an attack under the card scheme: the host's odds with the card modifier
(-1 per previous action, +1 charge, target movement, aim) the attack would get now."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from campaign.activation.cards.rules import FlatModifier
from campaign.activation.cards.scheme import SCHEME_KEY, CardScheme, table_of

if TYPE_CHECKING:
    from campaign.engine.battle import Battle
    from campaign.engine.commands import Command
    from campaign.engine.context import Context
    from campaign.engine.odds import AttackOdds
    from campaign.engine.report import OddsReport
    from campaign.engine.state import BattleState


def card_odds(battle: Battle, command: Command | Mapping[str, Any]) -> AttackOdds | OddsReport:
    """Like `campaign.engine.odds.odds(battle, cmd)`, with the card modifier included when
    the battle uses the card scheme. The battle's state is left unchanged."""
    from campaign.engine.odds import scheme_odds

    return scheme_odds(battle, command)


def scheme_odds(scheme: CardScheme, state: BattleState, command: Command, ctx: Context) -> AttackOdds | OddsReport:
    """CardScheme.odds: the host's odds with the modifier the acting unit would get now."""
    if SCHEME_KEY not in state.scheme:
        return ctx.rules.odds(state, command)
    host = scheme.card_host(ctx)
    table = table_of(state)
    unit = host.acting_unit(command)
    kind = host.action_kind(state, command.type)
    modifier = table.modifier(unit, kind, host.target(command)) if unit in table.units else FlatModifier()
    return host.odds(state, command, modifier)
