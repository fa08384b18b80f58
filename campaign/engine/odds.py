"""Exact odds: distributions as {outcome: Fraction}, built by convolution, never sampling.

The pieces rulesets combine in their `odds` hook:
  p_at_least(die, target, modifier)   one die plus a modifier reaching a target
  bernoulli_sum([p1, p2, ...])         how many of several independent tries succeed
  thin(dist, p)                        each of k successes survives a second test with p
  compose(dist, per_count)             a mixture: after k of the first, the next step's dist
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING, Any

import attrs

from campaign.engine.commands import Command
from campaign.engine.report import OddsReport, Outcome

if TYPE_CHECKING:  # the battle module imports the rules, which import this one
    from campaign.engine.battle import Battle

Dist = dict[int, Fraction]


def point(value: int = 0) -> Dist:
    return {value: Fraction(1)}


def p_at_least(die: int, target: int, modifier: int = 0) -> Fraction:
    """P(face + modifier >= target) for one fair d`die`."""
    need = target - modifier  # smallest face that succeeds
    good = die - max(need, 1) + 1
    return Fraction(min(max(good, 0), die), die)


def p_faces(die: int, ok: Callable[[int], bool]) -> Fraction:
    """P(the face satisfies `ok`) for one fair d`die` (for rules on natural faces)."""
    return Fraction(sum(1 for face in range(1, die + 1) if ok(face)), die)


def die_dist(die: int, value: Callable[[int], int] = lambda face: face) -> Dist:
    """The distribution of value(face) for one die (e.g. 1-2 -> 0, 3-5 -> 1, 6 -> 2 hits)."""
    out: Dist = {}
    for face in range(1, die + 1):
        key = value(face)
        out[key] = out.get(key, Fraction(0)) + Fraction(1, die)
    return out


def convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> Dist:
    """The distribution of the sum of two independent counts."""
    out: Dist = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + px * py
    return out


def convolve_all(dists: Iterable[Mapping[int, Fraction]]) -> Dist:
    out = point(0)
    for dist in dists:
        out = convolve(out, dist)
    return out


def bernoulli_sum(ps: Iterable[Fraction]) -> Dist:
    """Successes among independent tries with (possibly different) probabilities."""
    out = point(0)
    for p in ps:
        p = Fraction(p)
        nxt: Dist = {}
        for k, pk in out.items():
            if p != 1:
                nxt[k] = nxt.get(k, Fraction(0)) + pk * (1 - p)
            if p != 0:
                nxt[k + 1] = nxt.get(k + 1, Fraction(0)) + pk * p
        out = nxt
    return out


def binomial(n: int, p: Fraction) -> Dist:
    p = Fraction(p)
    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1) if p**k * (1 - p) ** (n - k) or n == 0}


def compose(dist: Mapping[int, Fraction], per_count: Callable[[int], Mapping[int, Fraction]]) -> Dist:
    """Mixture: with probability dist[k], the result is distributed as per_count(k)."""
    out: Dist = {}
    for k, pk in dist.items():
        for v, pv in per_count(k).items():
            out[v] = out.get(v, Fraction(0)) + pk * pv
    return out


def thin(dist: Mapping[int, Fraction], p: Fraction) -> Dist:
    """Each of the k counted items independently survives with p (hits -> casualties)."""
    return compose(dist, lambda k: binomial(k, p))


def mean(dist: Mapping[int, Fraction]) -> Fraction:
    return sum((k * p for k, p in dist.items()), Fraction(0))


def at_least(dist: Mapping[int, Fraction], k: int) -> Fraction:
    return sum((p for v, p in dist.items() if v >= k), Fraction(0))


def clean(dist: Mapping[int, Fraction]) -> Dist:
    """Sorted, without zero entries."""
    return {k: dist[k] for k in sorted(dist) if dist[k]}


@attrs.define(frozen=True)
class AttackOdds:
    """The exact odds of one declared attack (a whole unit's action), before rolling.

    `p_hit[i]` and `p_casualty[i]` are per attack (per die rolled); `casualties` is the
    distribution of the number of casualties for the whole action.
    """

    p_hit: tuple[Fraction, ...]
    p_casualty: tuple[Fraction, ...]
    casualties: dict[int, Fraction]
    hits: dict[int, Fraction] = attrs.field(factory=dict)
    notes: tuple[str, ...] = ()  # the modifiers that went in, readable

    @property
    def expected_casualties(self) -> Fraction:
        return mean(self.casualties)

    @property
    def expected_hits(self) -> Fraction:
        return mean(self.hits) if self.hits else sum(self.p_hit, Fraction(0))

    def report(self) -> OddsReport:
        """As named outcomes: the casualties, after the chances per die and the notes."""
        per_die = Counter(f"{float(p):.0%}" for p in self.p_hit)
        lines = ("To hit: " + ", ".join(f"{n} x {p}" for p, n in per_die.items()),)
        return OddsReport((Outcome("casualties", self.casualties),), lines, self.notes)

    def to_json(self) -> dict[str, Any]:
        """Floats for people and scripts (the exact values stay in this object)."""
        return {
            "p_hit": [float(p) for p in self.p_hit],
            "p_casualty": [float(p) for p in self.p_casualty],
            "expected_hits": float(self.expected_hits),
            "expected_casualties": float(self.expected_casualties),
            "casualties": {str(k): float(p) for k, p in clean(self.casualties).items()},
            "hits": {str(k): float(p) for k, p in clean(self.hits).items()},
            "notes": list(self.notes),
        }


def attack_odds(p_hit: Iterable[Fraction], p_casualty_given_hit: Iterable[Fraction], notes: Iterable[str] = ()) -> AttackOdds:
    """Independent attacks: attack i hits with p_hit[i], and a hit becomes a casualty with
    p_casualty_given_hit[i] (the target failing its second test)."""
    hits_p = tuple(Fraction(p) for p in p_hit)
    then = tuple(Fraction(p) for p in p_casualty_given_hit)
    if len(then) != len(hits_p):
        raise ValueError("one casualty probability per attack is needed")
    cas = tuple(h * c for h, c in zip(hits_p, then))
    return AttackOdds(hits_p, cas, clean(bernoulli_sum(cas)), clean(bernoulli_sum(hits_p)), tuple(notes))


def odds(battle: Battle, command: Command | Mapping[str, Any]) -> AttackOdds | OddsReport:
    """The exact odds of `command` in `battle` now, from the rules' odds hook."""
    if isinstance(command, Mapping):
        command = battle.types.from_dict(command)
    return battle.rules.odds(battle.state, command)


def scheme_odds(battle: Battle, command: Command | Mapping[str, Any]) -> AttackOdds | OddsReport:
    """The rules' odds as the battle's activation scheme would resolve the command now
    (ActivationScheme.odds: a card modifier, say); the state is left unchanged."""
    if isinstance(command, Mapping):
        command = battle.types.from_dict(command)
    return battle.scheme.odds(battle.state, command, battle.ctx)


def as_report(result: object) -> OddsReport:
    """An odds hook's result as an OddsReport (rules may return one, or AttackOdds)."""
    if isinstance(result, OddsReport):
        return result
    report = getattr(result, "report", None)
    if callable(report):
        made = report()
        if isinstance(made, OddsReport):
            return made
    raise TypeError(f"odds of type {type(result).__name__} give no report")


def odds_report(battle: Battle, command: Command | Mapping[str, Any]) -> OddsReport:
    """The odds of `command` as named outcomes, whatever the ruleset and scheme (for
    screens and CLIs)."""
    return as_report(scheme_odds(battle, command))
