"""The description of one opposed roll (spec 2.3, 2.6, 2.7), and the two readers of it:
`resolve` (a generator asking the dice source for faces) and `exact_odds` (fractions).

Both go through the same steps in the same order -- roll both pools, favourable
re-rolls (attacker, then defender), the shield re-roll of a side that is behind, the
stealth-forced re-roll, then `judge` -- and share `pick_*`/`keep` from rerolls.py and
`judge` here, so odds and resolution cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from fractions import Fraction
from typing import Any, Literal

import attrs

from campaign.engine.dice import roll as request_roll
from campaign.rulesets.figwars3 import margins
from campaign.rulesets.figwars3.pool import Counts, CountsDist, dice_count, pool_counts, successes
from campaign.rulesets.figwars3.rerolls import ReRoll, apply_dist, apply_face, pick_index

Kind = Literal["ranged", "melee"]
Winner = Literal["attacker", "defender", ""]


@attrs.frozen
class Term:
    """One part of a pool: 'TQ' 2, 'long range' -1, 'Aim' 1."""

    label: str
    dice: int

    def text(self) -> str:
        return f"{self.label} {self.dice:+d}d" if self.label not in ("TQ", "DEF", "ATK") else f"{self.label} {self.dice}d"


@attrs.frozen
class Side:
    name: str
    terms: tuple[Term, ...]
    rerolls: tuple[ReRoll, ...] = ()  # favourable re-rolls of its own
    shield: bool = False  # melee: may re-roll one die last, forfeiting its effects (PR-5)
    strong: bool = False  # melee: +1 DP on a roll that inflicts DP
    mighty_blow: bool = False  # melee: +1d4 DP on a roll that inflicts DP
    chainfist: bool = False  # melee: +1 DP on a roll that inflicts DP on a stationary target (17.8)
    aggressive: bool = False  # never takes pins
    stuns: bool = False  # Storm Hammer: stuns the opponent when its roll ties or wins (PR-49)
    no_counter_dp: bool = False  # an entangling weapon's counter never inflicts DP (10.6)
    stun_immune: bool = False  # vehicles and mecha (part 2)

    @property
    def pool(self) -> int:
        return sum(t.dice for t in self.terms)

    @property
    def dice(self) -> int:
        return dice_count(self.pool)

    def describe(self) -> str:
        return " ".join(t.text() for t in self.terms) + f" = {self.pool}d"


@attrs.frozen
class OpposedRoll:
    kind: Kind
    attacker: Side
    defender: Side
    stealth: bool = False  # ranged: the target forces one attack die re-rolled, keep worse
    counter: bool = True  # melee: the defender's win is a counter-attack (else it only negates)
    notes: tuple[str, ...] = ()


@attrs.frozen
class Judgement:
    """Who won an opposed roll and what the win bought (before Dodge)."""

    winner: Winner = ""
    margin: int = 0  # the winner's margin after the counter's -1
    package: margins.Package = margins.Package()
    shielded: bool = False  # the winner used its shield re-roll: no effects (PR-5)
    target_stunned: bool = False  # the defender stunned by the attacker's Storm Hammer
    attacker_stunned: bool = False  # the attacker stunned by the defender's

    @property
    def pinned(self) -> bool:
        return bool(self.package.pin)


def judge(opposed: OpposedRoll, a: int, d: int, shield_by: Winner = "") -> Judgement:
    """The result of successes `a` against `d` (2.3), with the stun riders."""
    judgement = _judge(opposed, a, d, shield_by)
    if opposed.kind != "melee":
        return judgement
    hit_t = opposed.attacker.stuns and a >= d and not opposed.defender.stun_immune
    hit_a = opposed.defender.stuns and d >= a and opposed.counter and not opposed.attacker.stun_immune
    if hit_t or hit_a:
        return attrs.evolve(judgement, target_stunned=hit_t, attacker_stunned=hit_a)
    return judgement


def _judge(opposed: OpposedRoll, a: int, d: int, shield_by: Winner) -> Judgement:
    """Ties and ranged defender wins do nothing; a melee defender's win is a
    counter-attack with one success taken off."""
    if a > d:
        winner: Winner = "attacker"
        margin = a - d
    elif d > a and opposed.kind == "melee":
        winner = "defender"
        margin = d - a - 1
        if not opposed.counter:
            return Judgement("defender", 0)
    else:
        return Judgement()
    if shield_by == winner:
        return Judgement(winner, margin, margins.Package(), shielded=True)
    package = margins.ranged_effects(margin) if opposed.kind == "ranged" else margins.default_melee(margin)
    if winner == "defender" and opposed.defender.no_counter_dp:
        package = margins.Package(pin=1)  # no DP: the margin buys the pin (push not tracked)
    loser = opposed.defender if winner == "attacker" else opposed.attacker
    if loser.aggressive and package.pin:
        package = attrs.evolve(package, pin=0)
    return Judgement(winner, margin, package)


def riders(opposed: OpposedRoll, judgement: Judgement) -> tuple[int, bool]:
    """Fixed extra DP and whether a Mighty Blow d4 follows, for a roll that inflicts DP."""
    if opposed.kind != "melee" or judgement.package.dp < 1:
        return 0, False
    side = opposed.attacker if judgement.winner == "attacker" else opposed.defender
    return (1 if side.strong else 0) + (1 if side.chainfist else 0), side.mighty_blow


def _shield_side(opposed: OpposedRoll, a: int, d: int) -> Winner:
    """The side that uses its shield re-roll: one that is strictly behind (a tie gains nothing)."""
    if opposed.kind != "melee":
        return ""
    if a < d and opposed.attacker.shield:
        return "attacker"
    if d < a and opposed.defender.shield:
        return "defender"
    return ""


@attrs.frozen
class Outcome:
    attacker_faces: tuple[int, ...]
    defender_faces: tuple[int, ...]
    attacker_successes: int
    defender_successes: int
    judgement: Judgement
    dp: int  # DP the winner inflicts on the loser (riders included, before Dodge)

    @property
    def winner(self) -> Winner:
        return self.judgement.winner


Chooser = Callable[[Judgement], Generator[Any, Any, margins.Package]]


def chosen(opposed: OpposedRoll, judgement: Judgement, package: margins.Package) -> Judgement:
    """The judgement with the winner's own package (2.7) in place of the default one;
    the same limits apply (an Aggressive loser takes no pin, an entangling counter no DP)."""
    problem = margins.check_package(package, judgement.margin)
    if problem:
        raise ValueError(problem)
    loser = opposed.defender if judgement.winner == "attacker" else opposed.attacker
    winner = opposed.attacker if judgement.winner == "attacker" else opposed.defender
    if judgement.winner == "defender" and winner.no_counter_dp:
        package = attrs.evolve(package, dp=0)
    if loser.aggressive and package.pin:
        package = attrs.evolve(package, pin=0)
    return attrs.evolve(judgement, package=package)


def resolve(opposed: OpposedRoll, choose: Chooser | None = None) -> Generator[Any, Any, Outcome]:
    """Roll it: `outcome = yield from resolve(opposed)` inside a resolution generator.
    `choose` lets the winner of a melee spend the margin (asked before the riders roll);
    without it the default allocation of PR-2 is used, as the odds assume."""
    att, dfn = opposed.attacker, opposed.defender
    a_faces: list[int] = []
    d_faces: list[int] = []
    if att.dice:
        a_faces = list((yield from request_roll(6, att.dice, f"{att.dice}d6: {att.name} attacks")))
    if dfn.dice:
        d_faces = list((yield from request_roll(6, dfn.dice, f"{dfn.dice}d6: {dfn.name} defends")))
    for side, faces in ((att, a_faces), (dfn, d_faces)):
        for reroll in side.rerolls:
            faces[:] = yield from _reroll(faces, reroll, side.name)
    shield_by = _shield_side(opposed, successes(a_faces), successes(d_faces))
    if shield_by:
        side, faces = (att, a_faces) if shield_by == "attacker" else (dfn, d_faces)
        faces[:] = yield from _reroll(faces, ReRoll("shield", "shield"), side.name)
    if opposed.stealth:
        a_faces = yield from _reroll(a_faces, ReRoll("Stealth", "stealth"), att.name)
    a, d = successes(a_faces), successes(d_faces)
    judgement = judge(opposed, a, d, shield_by)
    if choose is not None and opposed.kind == "melee" and judgement.margin > 0 and not judgement.shielded:
        judgement = chosen(opposed, judgement, (yield from choose(judgement)))
    extra, mighty = riders(opposed, judgement)
    dp = judgement.package.dp + extra
    if mighty:
        (face,) = yield from request_roll(8, 1, "1d4 (a d8 halved): Mighty Blow")
        dp += (face + 1) // 2
    return Outcome(tuple(a_faces), tuple(d_faces), a, d, judgement, dp)


def _reroll(faces: list[int], reroll: ReRoll, who: str) -> Generator[Any, Any, list[int]]:
    index = pick_index(faces, reroll)
    if index is None:
        return faces
    (new,) = yield from request_roll(6, 1, f"re-roll ({reroll.source}): {who}")
    return apply_face(faces, index, new, reroll)


# --- exact odds -----------------------------------------------------------------


@attrs.frozen
class OpposedOdds:
    """The exact distribution of an opposed roll's result, and what it buys."""

    margins: dict[int, Fraction]  # signed: + attacker's margin, - defender's counter margin, 0 nothing
    dp: dict[int, Fraction]  # DP on the target
    counter_dp: dict[int, Fraction]  # DP on the attacker
    p_pinned: Fraction  # the target pinned
    p_counter_pinned: Fraction
    p_stunned: Fraction = Fraction(0)  # the target stunned by the roll itself
    p_counter_stunned: Fraction = Fraction(0)

    @property
    def expected_dp(self) -> Fraction:
        return sum((k * p for k, p in self.dp.items()), Fraction(0))

    @property
    def expected_counter_dp(self) -> Fraction:
        return sum((k * p for k, p in self.counter_dp.items()), Fraction(0))

    @property
    def p_success(self) -> Fraction:
        return sum((p for m, p in self.margins.items() if m > 0), Fraction(0))


def _after_favourable(side: Side) -> CountsDist:
    dist = pool_counts(side.dice)
    for reroll in side.rerolls:
        dist = apply_dist(dist, reroll)
    return dist


def _add(out: dict[Any, Fraction], key: Any, p: Fraction) -> None:
    out[key] = out.get(key, Fraction(0)) + p


def judgements(opposed: OpposedRoll) -> dict[Judgement, Fraction]:
    """The exact distribution of the judgement, following resolve's steps."""
    a_dist = _after_favourable(opposed.attacker)
    d_dist = _after_favourable(opposed.defender)
    if opposed.stealth:
        a_dist = apply_dist(a_dist, ReRoll("Stealth", "stealth"))
    out: dict[Judgement, Fraction] = {}
    shields = opposed.kind == "melee" and (opposed.attacker.shield or opposed.defender.shield)
    if not shields:
        a_tot = _totals(a_dist)
        d_tot = _totals(d_dist)
        for a, pa in a_tot.items():
            for d, pd in d_tot.items():
                _add(out, judge(opposed, a, d), pa * pd)
        return out
    for ac, pa in a_dist.items():
        for dc, pd in d_dist.items():
            by = _shield_side(opposed, ac.total, dc.total)
            if not by:
                _add(out, judge(opposed, ac.total, dc.total), pa * pd)
                continue
            mine = ac if by == "attacker" else dc
            for after, pr in apply_dist({mine: Fraction(1)}, ReRoll("shield", "shield")).items():
                a = after.total if by == "attacker" else ac.total
                d = after.total if by == "defender" else dc.total
                _add(out, judge(opposed, a, d, by), pa * pd * pr)
    return out


def _totals(dist: CountsDist) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for counts, p in dist.items():
        _add(out, counts.total, p)
    return out


def exact_odds(opposed: OpposedRoll) -> OpposedOdds:
    signed: dict[int, Fraction] = {}
    dp: dict[int, Fraction] = {}
    counter_dp: dict[int, Fraction] = {}
    pinned = Fraction(0)
    counter_pinned = Fraction(0)
    stunned = Fraction(0)
    counter_stunned = Fraction(0)
    for judgement, p in judgements(opposed).items():
        stunned += p if judgement.target_stunned else 0
        counter_stunned += p if judgement.attacker_stunned else 0
        sign = -1 if judgement.winner == "defender" else 1
        _add(signed, sign * judgement.margin, p)
        extra, mighty = riders(opposed, judgement)
        base = judgement.package.dp + extra
        hits = {base + k: Fraction(1, 4) for k in range(1, 5)} if mighty else {base: Fraction(1)}
        target = dp if judgement.winner == "attacker" else counter_dp
        other = counter_dp if judgement.winner == "attacker" else dp
        for k, pk in hits.items():
            _add(target, k, p * pk)
        _add(other, 0, p)
        if judgement.pinned:
            if judgement.winner == "attacker":
                pinned += p
            else:
                counter_pinned += p
    return OpposedOdds(_clean(signed), _clean(dp), _clean(counter_dp), pinned, counter_pinned, stunned, counter_stunned)


def _clean(dist: dict[int, Fraction]) -> dict[int, Fraction]:
    return {k: dist[k] for k in sorted(dist) if dist[k]}


def drive(gen: Generator[Any, Any, Any], faces: list[list[int]]) -> Any:
    """Run a resolution generator with scripted faces, one list per request (tests, tools)."""
    queue = list(faces)
    try:
        request = next(gen)
        while True:
            if not queue:
                raise ValueError(f"no faces scripted for: {request.purpose}")
            answer = queue.pop(0)
            if len(answer) != request.count:
                raise ValueError(f"{request.purpose} wants {request.count} face(s), scripted {answer}")
            request = gen.send(answer)
    except StopIteration as stop:
        if queue:
            raise ValueError(f"{len(queue)} scripted roll(s) left over") from None
        return stop.value
