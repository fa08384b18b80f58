"""Flat Out War's part of `muster odds`: turning an action name and table facts into the
command whose odds are wanted (BattleRules.odds_query), on a state with just two units.

Actions: melee, ranged (or shoot), spell:NAME. Facts about the situation rather than the
attack are set on the state: `ran`, `charging`, `moved` (the attacker's unit),
`target_prone`, `target_airborne`, `target_jumped`, `attacker_effects=Strengthen`,
`target_effects=Shield`; `covered=N` names the target's first N elements.
"""

from __future__ import annotations

import difflib
from typing import Any

from campaign.engine.commands import Command
from campaign.engine.errors import IllegalCommand
from campaign.engine.state import BattleState, Effect
from campaign.rulesets.flat_out_war.engine.commands import CAST_FACTS, MELEE_FACTS, SHOOT_FACTS, Attack, Cast, Melee, Shoot

ACTIONS = {"melee": "melee", "ranged": "shoot", "shoot": "shoot"}
UNIT_FLAGS = ("ran", "charging", "moved")
TARGET_FLAGS = {"target_prone": "prone", "target_airborne": "airborne", "target_jumped": "jumped"}
EFFECT_FACTS = ("attacker_effects", "target_effects")
LIST_FACTS = ("covered", "attackers", "shooters", "weapons")


def refuse(message: str) -> IllegalCommand:
    return IllegalCommand("odds", message)


def odds_command(rules: Any, state: BattleState, attacker_id: str, target_id: str, action: str,
                 facts: dict[str, Any]) -> Command:
    """The command `action` of the attacker's unit at the target, the situation set on `state`."""
    attacker, target = state.unit(attacker_id), state.unit(target_id)
    facts = {k: ([str(v)] if (k in LIST_FACTS or k in EFFECT_FACTS) and not isinstance(v, list) else v)
             for k, v in facts.items()}
    for flag in UNIT_FLAGS:
        if facts.pop(flag, False):
            attacker.markers[flag] = True
    for fact_name, marker in TARGET_FLAGS.items():
        if facts.pop(fact_name, False):
            for es in target.alive:
                es.markers[marker] = True
    for fact_name, unit in (("attacker_effects", attacker), ("target_effects", target)):
        for spell in facts.pop(fact_name, []):
            state.effects.append(Effect(id=f"{spell}-{unit.id}", kind=str(spell).strip().title(), target=unit.id,
                                        remaining=1, clock="player_turn"))
    if isinstance(facts.get("covered"), list) and all(str(x).isdigit() for x in facts["covered"]) and facts["covered"]:
        count = int(facts["covered"][0])  # covered=3: the first three elements of the target
        facts["covered"] = [e.id for e in target.alive[:count]]
    command = _command(rules, state, attacker_id, target_id, action, facts)
    _check_facts(command)
    return command


def _command(rules: Any, state: BattleState, attacker_id: str, target_id: str, action: str,
             facts: dict[str, Any]) -> Attack:
    attacker = state.unit(attacker_id)
    if action.startswith("spell:"):
        spell = action.split(":", 1)[1].strip()
        casters = [e for e in attacker.alive if rules.combatant(state, e).has("magic")]
        knowing = [e for e in casters if any(s.strip().lower() == spell.lower() for s in rules.element_of(state, e).spells)]
        able = knowing or casters
        if not able:
            raise refuse(f"{attacker.name} has no element with Magic to cast {spell}")
        return Cast(unit=attacker_id, element=able[0].id, spell=spell, target=target_id, facts=facts)
    kind = ACTIONS.get(action)
    if kind is None:
        raise refuse(f"--action must be melee, ranged or spell:NAME, not {action!r}")
    cls = Melee if kind == "melee" else Shoot
    return cls(unit=attacker_id, target=target_id, facts=facts)


def _check_facts(command: Attack) -> None:
    """Refuse fact names and values the action does not know (a typo must not pass silently)."""
    specs = {"melee": MELEE_FACTS, "shoot": SHOOT_FACTS, "cast": CAST_FACTS}[command.type]
    known = {f.name: f for f in specs}
    for name, value in command.facts.items():
        spec = known.get(name)
        if spec is None:
            names = [*known, *UNIT_FLAGS, *TARGET_FLAGS, *EFFECT_FACTS]
            close = difflib.get_close_matches(name, names, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise refuse(f"unknown fact {name!r} for this action{hint}; facts: {', '.join(sorted(names))}")
        if spec.choices and value not in spec.choices:
            raise refuse(f"{name} must be one of {', '.join(map(str, spec.choices))}, not {value!r}")
