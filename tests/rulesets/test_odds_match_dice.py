"""Conformance kit: a ruleset's odds agree with its dice, for every registered ruleset.

A seeded battle between the ruleset's samples is walked with the generic player until it
offers commands whose spec has odds (`CommandSpec.odds`); a few of them, built from the
spec (facts at their defaults, a picked list of attackers filled with one model), are
taken as cases. For each, the odds report (`odds_report`, as the battle's scheme gives it)
is compared with TRIALS resolutions through the real engine: the battle replayed from its
log with a different seeded AutoDice each time, the command applied, and the rules'
`odds_observed` reading what each named outcome came to (the kit passes until the rules
say the result has settled). Every observed outcome's mean must lie within 3 sigma of the
report's.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import attrs
import pytest

from campaign.engine import AutoDice, Battle, Decision
from campaign.engine.commands import Command
from campaign.engine.errors import IllegalCommand
from campaign.engine.events import Event
from campaign.engine.odds import odds_report
from campaign.engine.report import OddsReport, Outcome
from campaign.engine.rules import BattleRules
from campaign.engine.setup import BattleSetup
from campaign.engine.state import BattleState

from .kit import base_fields, commands_for, playable, sample_setup, schemes, walk

TRIALS = 200
CASES = 2  # attacks per ruleset, of different command types where it offers them
SETTLE = ("pass", "end_phase", "end_activation", "done", "keep")  # how the kit answers while it waits


@attrs.frozen
class Case:
    setup: BattleSetup
    log: list[dict[str, Any]]
    command: Command
    report: OddsReport


def _try(setup: BattleSetup, log: list[dict[str, Any]], command: Command) -> bool:
    """Whether the battle takes the command (odds that a resolution refuses are no case)."""
    battle = Battle.replay(setup, log, AutoDice(0))
    try:
        battle.apply(command)
    except IllegalCommand:
        return False
    return True


def cases(rid: str, scheme: str = "") -> Iterator[Case]:
    setup = sample_setup(rid, scheme)
    types: set[str] = set()
    found = 0
    for battle in walk(setup, steps=400):
        specs = [s for s in battle.legal_commands() if s.odds and s.type not in types]
        for spec in specs:
            for command in commands_for(battle, spec):
                try:
                    report = odds_report(battle, command)
                except IllegalCommand:
                    continue
                if not report.outcomes or not _try(setup, battle.log_dicts(), command):
                    continue
                yield Case(setup, battle.log_dicts(), command, report)
                types.add(spec.type)
                found += 1
                break
            if found >= CASES:
                return
            if spec.type in types:
                break


def _settle_answer(battle: Battle) -> dict[str, Any]:
    decision = battle.pending
    assert isinstance(decision, Decision)
    spec = next((s for s in decision.legal if s.type in SETTLE), decision.legal[0])
    return {"type": spec.type, **spec.params, **base_fields(spec)}


def observe(case: Case, before: BattleState, rules: BattleRules, seed: int) -> dict[str, int]:
    """One resolution of the case's command with AutoDice(seed): what the rules observed.
    (`rules` is reused from battle to battle: each replay builds its state afresh.)"""
    battle = Battle.replay(case.setup, case.log, AutoDice(seed), rules=rules)
    events: list[Event] = list(battle.apply(case.command))
    for _ in range(200):
        seen = rules.odds_observed(before, battle.state, case.command, events)
        if seen is not None:
            return seen
        if battle.pending is None:
            break
        events += battle.apply(_settle_answer(battle))
    raise AssertionError(f"{case.command.describe()}: the result never settled")


def _moments(outcome: Outcome) -> tuple[float, float]:
    if outcome.p is not None:
        p = float(outcome.p)
        return p, p * (1 - p)
    mu = outcome.mean
    var = sum(((k - mu) ** 2 * p for k, p in outcome.dist.items()), Fraction(0))
    return float(mu), float(var)


def disagreements(rid: str, report: OddsReport, seen: list[dict[str, int]], what: str) -> list[str]:
    """Each outcome of `report` whose observed mean is more than 3 sigma off."""
    out = []
    for outcome in report.outcomes:
        values = [s[outcome.name] for s in seen if outcome.name in s]
        if not values:
            continue
        mu, var = _moments(outcome)
        got = sum(values) / len(values)
        slack = 3 * math.sqrt(var / len(values)) + 1e-9
        if abs(got - mu) > slack:
            out.append(f"{rid} {what}: {outcome.name} averaged {got:.4f} over {len(values)} rolls;"
                       f" the odds say {mu:.4f} (3 sigma {slack:.4f})")
    return out


@pytest.mark.parametrize(("rid", "scheme"), [(rid, s) for rid in playable() for s in schemes(rid)] + [("duel", "")])
def test_odds_agree_with_auto_dice_within_three_sigma(rid: str, scheme: str, with_duel: None) -> None:
    found = list(cases(rid, scheme))
    assert found, f"{rid}: the sample battle offered no command with odds that the rules took"
    problems: list[str] = []
    for case in found:
        first = Battle.replay(case.setup, case.log)
        before = copy.deepcopy(first.state)  # the same state each trial
        seen = [observe(case, before, first.rules, 1000 + i) for i in range(TRIALS)]
        names = {o.name for o in case.report.outcomes}
        observed = set().union(*seen)
        assert observed, f"{rid}: odds_observed says nothing about {case.command.type} (docs/rulesets.md)"
        assert observed <= names, f"{rid}: observed {observed - names}, which the report does not name"
        problems += disagreements(rid, case.report, seen, case.command.describe())
    assert not problems, "\n".join(problems)


def test_the_check_catches_odds_that_lie(with_duel: None) -> None:
    """Duel's strike with its odds pushed from 5/12 to 3/4: 200 rolls tell them apart."""
    case = next(cases("duel"))
    first = Battle.replay(case.setup, case.log)
    before = copy.deepcopy(first.state)
    seen = [observe(case, before, first.rules, 1000 + i) for i in range(TRIALS)]
    assert not disagreements("duel", case.report, seen, "strike")
    wrong = OddsReport((Outcome("removed", {0: Fraction(1, 4), 1: Fraction(3, 4)}),))
    assert disagreements("duel", wrong, seen, "strike")
