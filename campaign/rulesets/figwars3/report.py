"""FigWars 3's odds as the core's report of named outcomes (per attacking model, and the
unit's whole action as independent attacks on the target's foremost model)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs

from campaign.engine.odds import convolve
from campaign.engine.report import OddsReport, Outcome
from campaign.rulesets.figwars3.attack import OpposedOdds, OpposedRoll


@attrs.frozen
class ModelOdds:
    model: str
    opposed: OpposedRoll
    odds: OpposedOdds


@attrs.frozen
class FigWarsOddsDetail:
    rows: tuple[ModelOdds, ...]

    def as_dict(self, exact: bool = False) -> dict[str, Any]:
        num = (lambda f: f"{Fraction(f).numerator}/{Fraction(f).denominator}") if exact else (lambda f: round(float(f), 6))
        models = [
            {
                "model": r.model,
                "attack_dice": r.opposed.attacker.dice,
                "defence_dice": r.opposed.defender.dice,
                "p_success": num(r.odds.p_success),
                "expected_dp": num(r.odds.expected_dp),
                "p_pinned": num(r.odds.p_pinned),
                "expected_counter_dp": num(r.odds.expected_counter_dp),
                "margin": {str(k): num(p) for k, p in r.odds.margins.items()},
            }
            for r in self.rows
        ]
        total = sum((r.odds.expected_dp for r in self.rows), Fraction(0))
        counter = sum((r.odds.expected_counter_dp for r in self.rows), Fraction(0))
        return {"models": models, "expected_dp": num(total), "expected_counter_dp": num(counter)}


def odds_report(rows: list[ModelOdds], notes: tuple[str, ...] = ()) -> OddsReport:
    dp: dict[int, Fraction] = {0: Fraction(1)}
    counter: dict[int, Fraction] = {0: Fraction(1)}
    not_pinned = Fraction(1)
    for r in rows:
        dp = convolve(dp, r.odds.dp)
        counter = convolve(counter, r.odds.counter_dp)
        not_pinned *= 1 - r.odds.p_pinned
    first = rows[0]
    lines = [f"{first.model}: attack {first.opposed.attacker.describe()}", f"defence {first.opposed.defender.describe()}"]
    if len(rows) > 1:
        lines.append(f"{len(rows)} models attack, each on its own roll")
    outcomes = [Outcome("DP inflicted", dp), Outcome("pinned", p=1 - not_pinned, help="the target pinned at least once")]
    if any(r.opposed.kind == "melee" for r in rows):
        outcomes.append(Outcome("counter-attack DP", counter, help="DP the defender's counter-attacks inflict"))
    table = (("model", "dice", "success", "expected DP", "pinned", "counter DP"),) + tuple(
        (r.model, f"{r.opposed.attacker.dice} v {r.opposed.defender.dice}", r.odds.p_success, r.odds.expected_dp,
         r.odds.p_pinned, r.odds.expected_counter_dp)
        for r in rows
    )
    return OddsReport(tuple(outcomes), tuple(lines), notes, title="FigWars 3 odds", table=table, detail=FigWarsOddsDetail(tuple(rows)))


def scaled(odds: OpposedOdds, p: Fraction) -> OpposedOdds:
    """The odds of an attack that only happens with probability `p` (a placed grenade)."""

    def mix(dist: dict[int, Fraction]) -> dict[int, Fraction]:
        out = {k: v * p for k, v in dist.items()}
        out[0] = out.get(0, Fraction(0)) + (1 - p)
        return {k: out[k] for k in sorted(out) if out[k]}

    return OpposedOdds(
        mix(odds.margins), mix(odds.dp), mix(odds.counter_dp),
        odds.p_pinned * p, odds.p_counter_pinned * p, odds.p_stunned * p, odds.p_counter_stunned * p,
    )
