"""The card-deck activation scheme of seed 001 (spec: ../shared/rules/card-activation.md).

Modules: `deck` (cards, keys, dice-driven deal), `rules` (the seed's arithmetic),
`options` (section 8 settings), `turn` (the turn's bookkeeping), `host` (what a host
ruleset must answer), `scheme` (the ActivationScheme on the engine core), `hosts/`
(adapters for particular rulesets). See docs/cards.md.
"""

from campaign.activation.cards.scheme import CardScheme, table_of  # noqa: E402  (registers "cards")
from campaign.activation.cards.view import CardView, card_view, visible_log  # noqa: E402
from campaign.activation.cards.odds import card_odds  # noqa: E402

__all__ = ["CardScheme", "CardView", "card_odds", "card_view", "table_of", "visible_log"]
