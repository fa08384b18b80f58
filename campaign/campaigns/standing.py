"""Campaign standings and the overall winner."""

from __future__ import annotations

from fractions import Fraction

from campaign.campaigns.model import Campaign
from campaign.frozen import frozen


@frozen
class Standing:
    side: str
    name: str
    vp: Fraction
    battles_won: int


def standings(campaign: Campaign) -> list[Standing]:
    """Sides by VPs overall, most first (ties keep campaign order)."""
    totals = campaign.totals()
    wins = {side.id: 0 for side in campaign.sides}
    for entry in campaign.history:
        if entry.winner in wins:
            wins[entry.winner] += 1
    rows = [Standing(s.id, s.name, totals.get(s.id, Fraction(0)), wins[s.id]) for s in campaign.sides]
    return sorted(rows, key=lambda r: -r.vp)


def campaign_winner(campaign: Campaign) -> str | None:
    """Most VPs overall; level totals are broken as `rules.tie_break` says. None: a draw."""
    rows = standings(campaign)
    if not rows:
        return None
    top = [r for r in rows if r.vp == rows[0].vp]
    if len(top) == 1:
        return top[0].side
    rule = campaign.rules.tie_break
    if rule == "battles-won":
        most = max(r.battles_won for r in top)
        best = [r for r in top if r.battles_won == most]
        return best[0].side if len(best) == 1 else None
    if rule == "last-battle":
        tied = {r.side for r in top}
        for entry in reversed(campaign.history):
            if entry.winner in tied:
                return entry.winner
        return None
    return None
