"""Exact odds of one declaration on one target model, before rolling.

Read from the same `Declaration` resolution rolls: the dice it deals to the target,
each with its net modifier, then the target's one save roll, then absorption (DP-16).
The hits already pending on the target this phase (contact fire) are added first,
since its one save roll covers the phase's total (AMB-17).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs

from campaign.engine.odds import Dist, binomial, clean, mean
from campaign.rulesets.d10_phased.attack import Declaration
from campaign.rulesets.d10_phased.damage import removed_by
from campaign.rulesets.d10_phased.rolls import DIE, p_success
from campaign.rulesets.d10_phased.state import ModelState

P_NATURAL_TEN = Fraction(1, DIE)
P_CRIT_EFFECT = Fraction(4, 6)  # d6 1-4 does something (DP-17.1)


@attrs.frozen
class DeclarationOdds:
    target: str
    dice: int  # dice of this declaration that land on the target
    modifiers: tuple[int, ...]  # the net modifier of each of those dice
    hits: dict[int, Fraction]  # the phase's hits on the target, this declaration included
    unsaved: dict[int, Fraction]
    p_removed: Fraction
    p_critical: Fraction  # survives with at least one critical check owed (more than 2 hits)
    notes: tuple[str, ...] = ()
    removing: frozenset[int] = frozenset()  # the unsaved counts that remove the target

    @property
    def expected_hits(self) -> Fraction:
        return mean(self.hits)

    @property
    def expected_unsaved(self) -> Fraction:
        return mean(self.unsaved)

    @property
    def expected_absorbed(self) -> Fraction:
        """Unsaved hits the model soaks and survives (multi-hit models)."""
        return sum((k * p for k, p in self.unsaved.items() if k not in self.removing), Fraction(0))

    def as_dict(self, exact: bool = False) -> dict[str, Any]:
        """The report's detail for scripts (`muster odds --json`)."""
        return self.to_json(exact)

    def report(self) -> Any:
        """As the core's OddsReport of named outcomes: models removed first, then hits,
        unsaved hits, hits absorbed and a critical check owed."""
        from campaign.engine.report import OddsReport, Outcome

        absorbed = {k: p for k, p in self.unsaved.items() if k not in self.removing}
        absorbed[0] = absorbed.get(0, Fraction(0)) + sum((p for k, p in self.unsaved.items() if k in self.removing), Fraction(0))
        outcomes = (
            Outcome("removed", p=self.p_removed, help="the target model is destroyed"),
            Outcome("hits", self.hits, help="hits on the target this phase, before its save roll"),
            Outcome("unsaved", self.unsaved, help="hits left after its one save roll"),
            Outcome("absorbed", absorbed, help="unsaved hits it soaks and survives"),
            Outcome("critical", p=self.p_critical, help="it survives with a critical check owed"),
        )
        counts: dict[int, int] = {}
        for m in self.modifiers:
            counts[m] = counts.get(m, 0) + 1
        per_die = ", ".join(f"{n} x {float(p_success(m)) * 100:.0f}% ({m:+d})" for m, n in counts.items())
        lines = (f"{self.dice} dice on the target: {per_die or 'none'}",)
        return OddsReport(outcomes, lines, self.notes, title="hits, saves, models removed", detail=self)

    def to_json(self, exact: bool = False) -> dict[str, Any]:
        num = (lambda f: f"{Fraction(f).numerator}/{Fraction(f).denominator}") if exact else float
        return {
            "target": self.target,
            "dice": self.dice,
            "modifiers": list(self.modifiers),
            "expected_hits": num(self.expected_hits),
            "expected_unsaved": num(self.expected_unsaved),
            "p_removed": num(self.p_removed),
            "expected_absorbed": num(self.expected_absorbed),
            "p_critical": num(self.p_critical),
            "hits": {str(k): num(p) for k, p in self.hits.items()},
            "unsaved": {str(k): num(p) for k, p in self.unsaved.items()},
            "notes": list(self.notes),
        }


def _hits_and_tens(mods: list[int], pending: int) -> dict[tuple[int, bool], Fraction]:
    """Joint distribution of (hits, some natural 10 among them) over the target's dice."""
    out: dict[tuple[int, bool], Fraction] = {(pending, False): Fraction(1)}
    for mod in mods:
        p_hit = p_success(mod)
        nxt: dict[tuple[int, bool], Fraction] = {}
        for (h, ten), p in out.items():
            for key, q in (((h + 1, True), P_NATURAL_TEN), ((h + 1, ten), p_hit - P_NATURAL_TEN), ((h, ten), 1 - p_hit)):
                if q:
                    nxt[key] = nxt.get(key, Fraction(0)) + p * q
        out = nxt
    return out


def declaration_odds(decl: Declaration, target: ModelState, pending_hits: int = 0, pending_critical: bool = False) -> DeclarationOdds:
    mods = [decl.groups()[index].modifier for model, index in decl.deal() if model == target.id]
    joint = _hits_and_tens(mods, pending_hits)
    saves = binomial(target.save, p_success(0)) if target.save else {0: Fraction(1)}
    hits: Dist = {}
    unsaved: Dist = {}
    p_removed = Fraction(0)
    p_critical = Fraction(0)
    for (h, ten), ph in joint.items():
        hits[h] = hits.get(h, Fraction(0)) + ph
        for s, ps in saves.items():
            u = max(0, h - s) if h else 0
            p = ph * ps
            unsaved[u] = unsaved.get(u, Fraction(0)) + p
            gone = removed_by(u, target.hits_left)
            if gone:
                p_removed += p
            elif target.hits > 2 and (ten or pending_critical):
                p_critical += p
    removing = frozenset(u for u in unsaved if removed_by(u, target.hits_left))
    notes = (f"{len(mods)} dice on {target.label}", f"{target.save} save dice", f"{target.hits_left} hits left")
    return DeclarationOdds(
        target.id, len(mods), tuple(mods), clean(hits), clean(unsaved), p_removed, p_critical, notes, removing
    )
