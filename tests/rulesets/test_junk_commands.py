"""Conformance kit: near-legal junk is refused cleanly and changes nothing, for every
registered ruleset.

A seeded battle between the ruleset's samples is walked with the generic player; at its
decisions, commands one step away from a legal one are made from the specs offered (so a
new ruleset is covered by registering): an id that names nothing, a dead model, a model or
unit of the wrong side, a fact out of its range or of the wrong type, a fact or field the
command does not have, a parameter of the wrong type, a command left without its
parameters, another ruleset's command. Each must be refused with the engine's
`IllegalCommand` (no other exception), and the battle's digest, log and pending decision
must be what they were.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from campaign.engine import Battle, Decision
from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import CommandSpec
from campaign.rulesets import get_ruleset

from .kit import base_fields, playable, sample_setup, schemes, walk

UNKNOWN = "no-such-model"
DECISIONS = 150  # decisions of the walked battle looked at
PER_TYPE = 3  # ... at most this many times per command type


def _other_types(battle: Battle) -> list[str]:
    """Command types of other registered rulesets that this battle does not know."""
    out: list[str] = []
    for rid in playable():
        for cls in get_ruleset(rid).battle_rules().command_types():
            if cls.type not in battle.types and cls.type not in out:
                out.append(cls.type)
    return out


def _wrong_type(choices: tuple[Any, ...]) -> Any:
    """A value of a type none of the choices has."""
    kinds = {type(c) for c in choices}
    for value in ("yes", 3, [UNKNOWN], {"x": 1}):
        if type(value) not in kinds and not (isinstance(value, int) and bool in kinds and int in kinds):
            return value
    return None  # pragma: no cover


def junk(battle: Battle, spec: CommandSpec) -> Iterator[tuple[str, dict[str, Any]]]:
    """(what is wrong, command data) near `spec`."""
    decision = battle.pending
    assert isinstance(decision, Decision)
    state = battle.state
    side = decision.side
    units = {u.id: u for u in state.units}
    elements = {e.id: (e, u) for u in state.units for e in u.elements}
    dead = [e.id for e, _ in elements.values() if not e.alive]
    enemy_units = [u.id for u in state.units if u.side != side and not u.eliminated]
    enemy_elements = [e.id for u in state.units if u.side != side for e in u.alive]
    base = {"type": spec.type, **spec.params, **base_fields(spec)}
    facts = dict(base.get("facts", {}))

    for key, value in spec.params.items():
        ids = value if isinstance(value, list) else [value]
        if not ids or not all(isinstance(v, str) and (v in units or v in elements) for v in ids):
            continue
        swap = (lambda v: [v]) if isinstance(value, list) else (lambda v: v)
        yield f"{key} names nothing", {**base, key: swap(UNKNOWN)}
        yield f"{key} of the wrong type", {**base, key: 7}
        if ids[0] in elements and dead:
            yield f"{key} is a dead model", {**base, key: swap(dead[0])}
        if ids[0] in units and units[ids[0]].side == side and enemy_units:
            yield f"{key} is the other side's unit", {**base, key: swap(enemy_units[0])}
        if ids[0] in elements and elements[ids[0]][1].side == side and enemy_elements:
            yield f"{key} is the other side's model", {**base, key: swap(enemy_elements[0])}

    for key, kind in spec.picks.items():
        yield f"{key} lists nothing known", {**base, key: [UNKNOWN]}
        yield f"{key} is not a list of ids", {**base, key: 7}
        if dead:
            yield f"{key} lists a dead model", {**base, key: [dead[0]]}
        if kind == "own_elements" and enemy_elements:
            yield f"{key} lists the other side's model", {**base, key: [enemy_elements[0]]}

    for fact in spec.facts:
        if fact.choices:
            yield f"fact {fact.name} out of range", {**base, "facts": {**facts, fact.name: "no-such-value"}}
            wrong = _wrong_type(fact.choices)
            if wrong is not None:
                yield f"fact {fact.name} of the wrong type", {**base, "facts": {**facts, fact.name: wrong}}
        elif isinstance(fact.default, list) or fact.picks:
            yield f"fact {fact.name} lists nothing known", {**base, "facts": {**facts, fact.name: [UNKNOWN]}}
            yield f"fact {fact.name} is not a list", {**base, "facts": {**facts, fact.name: 7}}
            if dead:
                yield f"fact {fact.name} lists a dead model", {**base, "facts": {**facts, fact.name: [dead[0]]}}
    if spec.facts:
        yield "an unknown fact", {**base, "facts": {**facts, "no_such_fact": True}}
    yield "an unknown field", {**base, "no_such_field": 1}
    if spec.params and not any(s.type == spec.type and not s.params for s in decision.legal):
        yield "no parameters", {"type": spec.type}


def refused_cleanly(battle: Battle, what: str, data: dict[str, Any]) -> str | None:
    """None if the battle refuses `data` with IllegalCommand and nothing changes; else why not."""
    digest, length, pending = battle.digest(), battle.log_length, battle.pending
    try:
        battle.apply(data)
    except IllegalCommand as exc:
        if not str(exc).strip():
            return f"{what}: refused without a message"
    except Exception as exc:  # noqa: BLE001 -- anything but the engine's refusal is the failure
        return f"{what}: {type(exc).__name__}: {exc} ({data})"
    else:
        return f"{what}: accepted ({data})"
    if (battle.digest(), battle.log_length, battle.pending) != (digest, length, pending):
        return f"{what}: refused but the battle changed ({data})"
    return None


@pytest.mark.parametrize(("rid", "scheme"), [(rid, s) for rid in playable() for s in schemes(rid)] + [("duel", "")])
def test_near_legal_junk_is_refused_cleanly_and_changes_nothing(rid: str, scheme: str, with_duel: None) -> None:
    problems: list[str] = []
    seen: dict[str, int] = {}
    tried = 0
    for index, battle in enumerate(walk(sample_setup(rid, scheme))):
        if index >= DECISIONS:
            break
        decision = battle.pending
        assert isinstance(decision, Decision)
        cases: list[tuple[str, dict[str, Any]]] = []
        for spec in decision.legal:
            if seen.get(spec.type, 0) >= PER_TYPE:
                continue
            seen[spec.type] = seen.get(spec.type, 0) + 1
            cases.extend((f"{spec.type}: {what}", data) for what, data in junk(battle, spec))
        if index == 0:
            params = decision.legal[0].params
            cases.extend((f"another ruleset's {t}", {"type": t, **params}) for t in _other_types(battle))
            cases.append(("no type", dict(params)))
        for what, data in cases:
            tried += 1
            problem = refused_cleanly(battle, what, data)
            if problem:
                problems.append(problem)
        if len(problems) > 20 or all(n >= PER_TYPE for n in seen.values()) and index > DECISIONS // 3:
            break
    assert tried > 20, f"only {tried} junk commands were made"
    assert not problems, f"{rid}:\n" + "\n".join(problems)
