"""Shared by the conformance kit: a seeded battle between a ruleset's samples, walked
decision by decision with the deterministic generic player, and commands built from the
specs a decision offers (facts at their defaults, a picked list filled with one id)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from campaign.activation import DEFAULT_SCHEME
from campaign.campaigns.scenario import Scenario
from campaign.engine import AutoDice, Battle, BattleSetup, Decision, SideSetup
from campaign.engine.commands import Command
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import CommandSpec
from campaign.engine.scheme import scheme_names
from campaign.engine.state import BattleState
from campaign.rulesets import Ruleset, get_ruleset, ruleset_class, ruleset_ids

TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS / "engine"), str(TESTS / "activation")]
from engine_play import play  # noqa: E402
from play import place_in_order  # noqa: E402


def playable() -> list[str]:
    """Registered rulesets that play battles (override `battle_rules`)."""
    return [rid for rid in ruleset_ids() if ruleset_class(rid).battle_rules is not Ruleset.battle_rules]


def schemes(rid: str) -> list[str]:
    """The activation schemes the kit plays a ruleset under: its default, the ones it names,
    and any its rules plug a host into (Flat Out War's cards)."""
    cls = ruleset_class(rid)
    rules = get_ruleset(rid).battle_rules()
    named = [cls.default_activation or DEFAULT_SCHEME, *cls.activation_schemes]
    named += [s for s in scheme_names() if rules.scheme_host(s, {}) is not None]
    return list(dict.fromkeys(named))


def sample_setup(rid: str, activation: str = "", rounds: int = 4) -> BattleSetup:
    ruleset = get_ruleset(rid)
    forces = ruleset.sample_forces()[:2]
    sides = tuple(SideSetup(f"side-{i}", f.name, f) for i, f in enumerate(forces))
    scheme = activation or ruleset_class(rid).default_activation or DEFAULT_SCHEME
    return BattleSetup(ruleset.id, sides, edition=ruleset.edition, scenario=Scenario("s", "S", rounds=rounds),
                       activation=scheme)


def walk(setup: BattleSetup, seed: int = 7, steps: int = 300) -> Iterator[Battle]:
    """The battle at each Decision of a seeded generic-player game (the same object, moved
    on one step after each yield)."""
    battle = Battle.start(setup, AutoDice(seed))
    for step in range(steps):
        pending = battle.pending
        if pending is None:
            return
        if isinstance(pending, Decision) and pending.legal and pending.legal[0].type == "assign_cards":
            place_in_order(battle)
            continue
        if isinstance(pending, Decision):
            yield battle
        play(battle, seed=11 + step, max_steps=1)


def base_fields(spec: CommandSpec) -> dict[str, Any]:
    """The facts a spec names, at their defaults (None-defaulted facts are left out)."""
    facts = {f.name: f.default for f in spec.facts if f.default is not None}
    return {"facts": facts} if facts else {}


def own_elements(state: BattleState, side: str) -> list[str]:
    return [e.id for u in state.units_of(side) for e in u.alive]


def commands_for(battle: Battle, spec: CommandSpec) -> Iterator[Command]:
    """Commands a player might give for `spec`: facts at their defaults, and a field the
    spec picks from the side's own models filled with one of them at a time."""
    decision = battle.pending
    assert isinstance(decision, Decision)
    base = base_fields(spec)
    own = [k for k, v in spec.picks.items() if v == "own_elements"]
    if not own:
        try:
            yield battle.command(spec, **base)
        except IllegalCommand:
            return
        return
    for element in own_elements(battle.state, decision.side):
        try:
            yield battle.command(spec, **base, **{own[0]: [element]})
        except IllegalCommand:
            continue
