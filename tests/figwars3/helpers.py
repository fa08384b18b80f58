"""Shared test helpers: trooper profiles from the samples' numbers, exhaustive resolution."""

from __future__ import annotations

from fractions import Fraction
from collections.abc import Callable, Generator
from typing import Any

from campaign.force import Element, Weapon
from campaign.rulesets.figwars3.attack import OpposedRoll, exact_odds, resolve
from campaign.rulesets.figwars3.profile import Profile, profile_of

# A face standing for each value class, with the class's weight out of 6.
REPRESENTATIVE = {1: Fraction(2, 6), 3: Fraction(3, 6), 6: Fraction(1, 6)}


def trooper(name: str, tq: int, defence: int, dp: int = 1, mov: int = 4, attributes: tuple[str, ...] = (),
            ranged: tuple[str, ...] = (), melee: tuple[str, ...] = (), **stats: Any) -> Profile:
    weapons = tuple(Weapon(w, "ranged") for w in ranged) + tuple(Weapon(w, "melee") for w in melee)
    all_stats = {"tq": tq, "mov": mov, "dp": dp, "def": defence, **stats}
    return profile_of(Element(name, stats=all_stats, attributes=attributes, weapons=weapons))


def enumerate_outcomes(opposed: OpposedRoll) -> dict[tuple[str, int, int, bool, int], Fraction]:
    """Every way `resolve` can go, weighted: {(winner, margin, dp, pinned, -): p}."""

    def key(outcome: Any) -> tuple[str, int, int, bool, int]:
        j = outcome.judgement
        return (j.winner, j.margin, outcome.dp, j.pinned, 0)

    return enumerate_results(lambda: resolve(opposed), key)


def enumerate_results(factory: Callable[[], Generator[Any, Any, Any]], key: Callable[[Any], Any]) -> dict[Any, Fraction]:
    """Every way a resolution generator can go, weighted by probability: {key(result): p}.

    d6 requests branch over one face per value class (weights 2/6, 3/6, 1/6), other dice
    over all their faces, so the result is the exact distribution of the generator itself."""
    out: dict[Any, Fraction] = {}

    def run(prefix: list[tuple[int, ...]]) -> Any:
        gen = factory()
        try:
            request = next(gen)
            for answer in prefix:
                request = gen.send(list(answer))
        except StopIteration as stop:
            return None, stop.value
        return request, None

    def walk(prefix: list[tuple[int, ...]], weight: Fraction) -> None:
        request, outcome = run(prefix)
        if request is None:
            k = key(outcome)
            out[k] = out.get(k, Fraction(0)) + weight
            return
        if request.die == 6:
            for combo in _product(list(REPRESENTATIVE), request.count):
                w = weight
                for face in combo:
                    w *= REPRESENTATIVE[face]
                walk(prefix + [combo], w)
        else:
            for combo in _product(list(range(1, request.die + 1)), request.count):
                walk(prefix + [combo], weight * Fraction(1, request.die) ** request.count)

    walk([], Fraction(1))
    return out


def _product(faces: list[int], count: int) -> list[tuple[int, ...]]:
    from itertools import product

    return list(product(faces, repeat=count))


def summary_from_enumeration(opposed: OpposedRoll) -> tuple[Fraction, Fraction, Fraction, dict[int, Fraction]]:
    """(expected DP on target, P(target pinned), expected counter DP, signed margins)."""
    dp = pinned = counter = Fraction(0)
    signed: dict[int, Fraction] = {}
    for (winner, margin, hurt, pin, _), p in enumerate_outcomes(opposed).items():
        key = -margin if winner == "defender" else margin
        signed[key] = signed.get(key, Fraction(0)) + p
        if winner == "attacker":
            dp += hurt * p
            pinned += p if pin else 0
        elif winner == "defender":
            counter += hurt * p
    return dp, pinned, counter, {k: v for k, v in sorted(signed.items()) if v}


def odds_summary(opposed: OpposedRoll) -> tuple[Fraction, Fraction, Fraction, dict[int, Fraction]]:
    o = exact_odds(opposed)
    return o.expected_dp, o.p_pinned, o.expected_counter_dp, o.margins


def run_scripted(gen: Generator[Any, Any, Any], answers: list[Any]) -> tuple[Any, list[Any]]:
    """Drive a resolution that asks the players (Decisions) and rolls (RollRequests):
    each answer is a command for a Decision or a list of faces for a roll. Returns the
    generator's value and every request it made, in order."""
    from campaign.engine.pending import Decision, RollRequest

    queue = list(answers)
    seen: list[Any] = []
    try:
        request = next(gen)
        while True:
            seen.append(request)
            if not queue:
                raise ValueError(f"nothing scripted for {request!r}")
            answer = queue.pop(0)
            assert isinstance(request, Decision) != isinstance(answer, list), (request, answer)
            if isinstance(request, RollRequest):
                assert len(answer) == request.count, (request.purpose, answer)
            request = gen.send(answer)
    except StopIteration as stop:
        assert not queue, f"{len(queue)} answer(s) left over"
        return stop.value, seen
