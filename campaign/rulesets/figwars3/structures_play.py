"""Doors and walls as targets in a battle (spec 12.4, 17.8 Chainfist): the `breach`
command attacks one, by a shot or in melee, and the battle keeps what is left of it.

A structure is named by the players the first time it is attacked, with its kind,
grade and (a wall) length; the battle then keeps its sections' DP in
`state.data["structures"]` under that name, so later attacks need only the name and the
section. Structures roll their DEF only and never hurt the attacker (structures.py).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import attrs

from campaign.engine.errors import IllegalCommand
from campaign.engine.pending import CommandSpec, Decision, FactSpec
from campaign.engine.state import BattleState, ElementState, UnitState
from campaign.rulesets.figwars3 import structures as st
from campaign.rulesets.figwars3 import turn
from campaign.rulesets.figwars3.attack import OpposedRoll, resolve
from campaign.rulesets.figwars3.profile import ProfileError
from campaign.rulesets.figwars3.ranged import RANGED_FACTS

if TYPE_CHECKING:
    from campaign.engine.context import Context

MELEE = "melee"


def facts_for(weapons: tuple[str, ...]) -> tuple[FactSpec, ...]:
    return (
        FactSpec("structure", (), "", "the door or wall's name (the same name for later attacks on it)"),
        FactSpec("kind", ("door", "wall"), "door", "a door, or a wall of 2\" sections (first attack only)"),
        FactSpec("grade", st.GRADES, "normal", "flimsy, weak, normal, reinforced or heavy (first attack only)"),
        FactSpec("length", (), st.SECTION_INCHES, "a wall's length in inches (first attack only)"),
        FactSpec("section", (), 1, "which 2\" section of a wall is attacked"),
        FactSpec("weapon", (MELEE, *weapons), MELEE, "strike it in melee, or shoot it with a ranged weapon"),
        FactSpec("range_band", RANGED_FACTS["range_band"], "short", "a shot's range band"),
    )


def specs(rules: Any, state: BattleState, unit: UnitState, el: ElementState, base: dict[str, Any], who: str) -> list[CommandSpec]:
    if el.data["actions"] < 1:
        return []
    weapons = tuple(dict.fromkeys(w.name for w in rules._armed(el).ranged if w.name not in el.data["unloaded"]))
    return [CommandSpec("breach", base, facts_for(weapons), f"{who}: attack a door or wall", odds=True)]


def _known(state: BattleState) -> dict[str, Any]:
    known: dict[str, Any] = state.data.get("structures") or {}
    return known


def target(state: BattleState, facts: dict[str, Any]) -> tuple[str, st.Structure, int]:
    """The named structure (built from the facts the first time), and the section index."""
    name = str(facts.get("structure") or "").strip()
    if not name:
        raise IllegalCommand("FW3 12.4", "name the door or wall (structure)")
    known = _known(state).get(name)
    if known is not None:
        found = st.Structure(known["kind"], known["grade"], tuple(known["sections"]))
    else:
        length = facts.get("length", st.SECTION_INCHES)
        if isinstance(length, bool) or not isinstance(length, int) or length < 1:
            raise IllegalCommand("FW3 12.4", f"length is a whole number of inches, not {length!r}")
        found = st.structure(facts.get("kind", "door"), str(facts.get("grade", "normal")), length)
    section = facts.get("section", 1)
    if isinstance(section, bool) or not isinstance(section, int) or not 1 <= section <= len(found.sections):
        raise IllegalCommand("FW3 12.4", f"the {found.kind} {name!r} has section(s) 1 to {len(found.sections)}, not {section!r}")
    if found.sections[section - 1] <= 0:
        raise IllegalCommand("FW3 12.4", f"section {section} of {name!r} is already breached")
    return name, found, section - 1


def opposed_for(rules: Any, state: BattleState, command: Any) -> tuple[OpposedRoll, str, int, st.Structure]:
    """The roll one attack on a structure makes (resolution and odds read the same)."""
    el = rules._own_model(state, command)
    name, found, section = target(state, command.facts)
    weapon_name = command.facts.get("weapon", MELEE)
    p = rules._armed(el)
    if weapon_name == MELEE:
        opposed = st.strike_structure(p, found)
        if p.melee_weapons()[0].rider == "chainfist":  # 17.8: +1 DP against a stationary target (odds read it too)
            opposed = attrs.evolve(opposed, attacker=attrs.evolve(opposed.attacker, chainfist=True))
        return opposed, name, section, found
    try:
        weapon = p.ranged_weapon(weapon_name)
    except ProfileError as exc:
        raise IllegalCommand("FW3 17", str(exc)) from None
    if weapon.name in el.data["unloaded"]:
        raise IllegalCommand("FW3 11.22", f"{el.name}'s {weapon.name} must be reloaded first")
    facts = {"range_band": command.facts.get("range_band", "short")}
    if el.data["aim"]:
        facts["aim"] = True
    return st.shoot_structure(p, weapon, found, facts), name, section, found


def breach(rules: Any, state: BattleState, el: ElementState, command: Any, ctx: Context) -> Generator[Any, Any, None]:
    """One attack on a door or wall: a strike (1 action) or a shot (its weapon's cost)."""
    opposed, name, section, found = opposed_for(rules, state, command)
    weapon_name = command.facts.get("weapon", MELEE)
    melee = weapon_name == MELEE
    cost = 1 if melee else turn.shoot_cost(rules._armed(el).ranged_weapon(weapon_name).slow)
    rules._spend(el, cost, "an attack on a structure")
    if not melee:
        el.data["aim"] = False
    outcome = yield from resolve(opposed)
    dp = outcome.dp if outcome.winner == "attacker" else 0
    _record(state, el, name, found, section, dp, f"attacks {{where}}: {outcome.attacker_successes} against {outcome.defender_successes}", ctx)


def _record(state: BattleState, el: ElementState, name: str, found: st.Structure, section: int, dp: int, what: str, ctx: Context) -> None:
    """Keep the section's DP left and say what happened (`what` names the spot as {where})."""
    after = found.hit(section, dp)
    state.data["structures"] = {**_known(state), name: {"kind": after.kind, "grade": after.grade, "sections": list(after.sections)}}
    where = f"{name} (section {section + 1})" if len(after.sections) > 1 else name
    ctx.emit("structure", f"{el.name} {what.format(where=where)}, {dp} DP", model=el.id, structure=name, dp=dp)
    if dp and after.sections[section] <= 0:
        ctx.emit("breached", f"{where} is breached" if after.kind == "wall" else f"{name} is broken open", structure=name, section=section + 1)


COVER_FACTS = tuple(f for f in facts_for(()) if f.name in ("structure", "kind", "grade", "length", "section"))


def cover_instead(rules: Any, state: BattleState, el: ElementState, target: ElementState, cover: str, scored: int, dp: int,
                  ctx: Context) -> Generator[Any, Any, bool]:
    """PR-60 (option `cover_hits`): a direct shot at a model in cover that scored at least
    one success but did no DP may hit the cover instead. The shooter's side says whether,
    and names the door or wall (the players' judgement, 12.4); the same successes are
    then rolled against its DEF. True when the cover took the shot (the model is spared
    any pin the roll bought)."""
    if not rules.options.get("cover_hits") or cover in ("", "none") or scored < 1 or dp > 0:
        return False
    side = state.unit(el.unit).side

    def check(command: Any) -> None:
        if getattr(command, "type", "") == "report":
            target_of(state, command.facts)

    legal = (
        CommandSpec("choose", {"option": "no"}, label="No: the shot is spent on the model"),
        CommandSpec("report", facts=COVER_FACTS, label="Yes: the cover is hit (name the door or wall)"),
    )
    answer = yield Decision(side, f"{el.name}'s shot scored {scored} but did not hurt {target.name}: hit its cover instead (PR-60)?",
                            legal, check=check)
    if getattr(answer, "type", "") != "report":
        return False
    name, found, section = target_of(state, answer.facts)
    got, hit = yield from st.cover_hit(scored, found)
    _record(state, el, name, found, section, hit, f"hits the cover of {target.name}, {{where}}: {scored} against {got}", ctx)
    return True


def target_of(state: BattleState, facts: Any) -> tuple[str, st.Structure, int]:
    return target(state, facts if isinstance(facts, dict) else {})


def describe(state: BattleState) -> list[str]:
    """The structures attacked so far, for the screen and the log."""
    out = []
    for name, s in sorted(_known(state).items()):
        parts = ", ".join("breached" if dp <= 0 else f"{dp} DP" for dp in s["sections"])
        out.append(f"{s['grade']} {s['kind']} {name}: {parts}")
    return out
