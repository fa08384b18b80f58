"""`muster odds --attacker FORCE.toml:UNIT --target FORCE.toml:UNIT --action melee|ranged|spell:NAME`

The exact odds of one unit's attack before any die is rolled: p_hit and p_casualty
for every attack roll, the expected casualties and the whole distribution of
casualties. Table facts use the names of the rules' section 22 (`--fact aspect=flank
--fact range_band=long --fact los=partial`); a fact not given takes its plain default.
Facts about the situation rather than the attack itself are accepted too: `ran`,
`charging`, `moved` (the attacker's unit), `target_prone`, `target_airborne`,
`attacker_effects=Strengthen`, `target_effects=Shield`.
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from typing import Any

from campaign.engine.errors import IllegalCommand
from campaign.engine.setup import BattleSetup, SideSetup
from campaign.engine.state import BattleState, Effect, UnitState, slug
from campaign.force import Force
from campaign.inert_text import inert, inert_json
from saves.errors import SaveError
from saves.force_file import load_force, ruleset_for

NAME = "odds"
HELP = "exact odds of one unit's attack: p_hit, p_casualty, expected casualties, distribution"

ACTIONS = {"melee": "melee", "ranged": "shoot", "shoot": "shoot"}
# situation facts: set on the battle state rather than carried by the command
UNIT_FLAGS = ("ran", "charging", "moved")
TARGET_FLAGS = {"target_prone": "prone", "target_airborne": "airborne", "target_jumped": "jumped"}
EFFECT_FACTS = ("attacker_effects", "target_effects")
LIST_FACTS = ("covered", "attackers", "shooters", "weapons")


class OddsError(Exception):
    """Bad input, said plainly (exit status 2)."""


EPILOG = """\
facts of the attack (section 22 of the rules spec; defaults in brackets):
  aspect=front|flank|rear [front]     range_band=short|long [short]
  los=open|partial [open]             covered=N or ELEMENT,ELEMENT (templates, Fireball) [1]
  attackers=/shooters=ELEMENT,...     allocate=ELEMENT,... (the order hits go in)
facts of the situation:
  ran=true  charging=true  moved=true         (the attacking unit)
  target_prone=true  target_airborne=true     (the target unit)
  attacker_effects=Strengthen,Weaken  target_effects=Shield

example:
  muster odds --attacker humans.toml:"Tactical Squad" --target aliens.toml:"Ripper Swarm" \\
              --action ranged --fact range_band=long --fact los=partial
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("--attacker", required=True, metavar="FORCE.toml:UNIT", help="the attacking unit")
    parser.add_argument("--target", required=True, metavar="FORCE.toml:UNIT", help="the unit attacked")
    parser.add_argument("--action", required=True, metavar="ACTION",
                        help="melee, ranged, or spell:NAME (an attack spell: spell:Zap, spell:Fireball)")
    parser.add_argument("--fact", action="append", default=[], metavar="NAME=VALUE",
                        help="a table fact, e.g. aspect=flank, range_band=long, los=partial (repeatable)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--exact", action="store_true", help="give probabilities as exact fractions")


def _split_ref(ref: str) -> tuple[str, str]:
    path, sep, unit = ref.rpartition(":")
    if not sep or not path or not unit:
        raise OddsError(f"{ref!r} should be FORCE.toml:UNIT (a force file, a colon, a unit name)")
    return path, unit


def _value(raw: str) -> Any:
    text = raw.strip()
    if text.lower() in ("true", "yes", "on"):
        return True
    if text.lower() in ("false", "no", "off"):
        return False
    if text.lstrip("-").isdigit():
        return int(text)
    return text


def parse_facts(items: list[str]) -> dict[str, Any]:
    facts: dict[str, Any] = {}
    for item in items:
        name, sep, raw = item.partition("=")
        if not sep or not name.strip():
            raise OddsError(f"--fact {item!r} should be NAME=VALUE (for example aspect=flank)")
        key = name.strip()
        if key in LIST_FACTS or key in EFFECT_FACTS:
            facts[key] = [p.strip() for p in raw.split(",") if p.strip()]
        else:
            facts[key] = _value(raw)
    return facts


def _find_unit(state: BattleState, side: str, name: str, force: Force) -> UnitState:
    wanted = name.strip().lower()
    for unit in state.units_of(side, alive=False):
        if unit.name.lower() == wanted or unit.id.split("-")[0] == slug(name) and unit.name.lower() == wanted:
            return unit
    for unit in state.units_of(side, alive=False):
        if unit.id == slug(name) or slug(unit.name) == slug(name):
            return unit
    names = ", ".join(u.name for u in force.units) or "none"
    raise OddsError(f"{force.name} has no unit {name!r} (units: {names})")


def compute(attacker_ref: str, target_ref: str, action: str, facts: dict[str, Any]) -> dict[str, Any]:
    """Everything `muster odds` prints, as a dict (exact Fractions inside)."""
    a_path, a_unit = _split_ref(attacker_ref)
    t_path, t_unit = _split_ref(target_ref)
    a_force = load_force(a_path)
    t_force = load_force(t_path)
    ruleset = ruleset_for(a_force, a_path)
    if ruleset.id != "flat-out-war":
        raise OddsError(f"odds are available for Flat Out War forces only, not {ruleset.name}")
    setup = BattleSetup(ruleset=ruleset.id, edition=ruleset.edition,
                        sides=(SideSetup("attacker", a_force.name, a_force), SideSetup("target", t_force.name, t_force)))
    rules = ruleset.battle_rules()
    state = rules.new_state(setup)
    attacker = _find_unit(state, "attacker", a_unit, a_force)
    target = _find_unit(state, "target", t_unit, t_force)
    facts = dict(facts)
    for flag in UNIT_FLAGS:
        if facts.pop(flag, False):
            attacker.markers[flag] = True
    for fact_name, marker in TARGET_FLAGS.items():
        if facts.pop(fact_name, False):
            for es in target.alive:
                es.markers[marker] = True
    for fact_name, unit in (("attacker_effects", attacker), ("target_effects", target)):
        for spell in facts.pop(fact_name, []):
            state.effects.append(Effect(id=f"{spell}-{unit.id}", kind=spell.strip().title(), target=unit.id,
                                        remaining=1, clock="player_turn"))
    if isinstance(facts.get("covered"), list) and all(str(x).isdigit() for x in facts["covered"]) and facts["covered"]:
        count = int(facts["covered"][0])  # covered=3: the first three elements of the target
        facts["covered"] = [e.id for e in target.alive[:count]]
    command = _command(rules, state, attacker, target, action, facts)
    _check_facts(command)
    specs, targets = rules.declared(state, command)
    from campaign.rulesets.flat_out_war.engine.odds import attack_odds

    exact = attack_odds(specs, targets, str(ruleset.edition))
    return {
        "attacker": {"force": a_force.name, "unit": attacker.name},
        "target": {"force": t_force.name, "unit": target.name},
        "ruleset": ruleset.id,
        "edition": ruleset.edition,
        "action": action,
        "facts": dict(getattr(command, "facts", {})),
        "odds": exact,
    }


def _command(rules: Any, state: BattleState, attacker: UnitState, target: UnitState, action: str,
             facts: dict[str, Any]) -> Any:
    from campaign.rulesets.flat_out_war.engine.commands import Cast, Melee, Shoot

    if action.startswith("spell:"):
        spell = action.split(":", 1)[1].strip()
        casters = [e for e in attacker.alive if rules.combatant(state, e).has("magic")]
        knowing = [e for e in casters if any(s.strip().lower() == spell.lower() for s in rules.element_of(state, e).spells)]
        caster = (knowing or casters or [None])[0]
        if caster is None:
            raise OddsError(f"{attacker.name} has no element with Magic to cast {spell}")
        return Cast(unit=attacker.id, element=caster.id, spell=spell, target=target.id, facts=facts)
    kind = ACTIONS.get(action)
    if kind is None:
        raise OddsError(f"--action must be melee, ranged or spell:NAME, not {action!r}")
    cls = Melee if kind == "melee" else Shoot
    return cls(unit=attacker.id, target=target.id, facts=facts)


def _check_facts(command: Any) -> None:
    """Refuse fact names and values the action does not know (a typo must not pass silently)."""
    import difflib

    from campaign.rulesets.flat_out_war.engine.commands import CAST_FACTS, MELEE_FACTS, SHOOT_FACTS

    specs = {"melee": MELEE_FACTS, "shoot": SHOOT_FACTS, "cast": CAST_FACTS}[command.type]
    known = {f.name: f for f in specs}
    for name, value in command.facts.items():
        spec = known.get(name)
        if spec is None:
            names = [*known, *UNIT_FLAGS, *TARGET_FLAGS, *EFFECT_FACTS]
            close = difflib.get_close_matches(name, names, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise OddsError(f"unknown fact {name!r} for this action{hint}; facts: {', '.join(sorted(names))}")
        if spec.choices and value not in spec.choices:
            raise OddsError(f"{name} must be one of {', '.join(map(str, spec.choices))}, not {value!r}")


def _num(value: Fraction, exact: bool) -> Any:
    return f"{value.numerator}/{value.denominator}" if exact else round(float(value), 6)


def as_json(result: dict[str, Any], exact: bool) -> dict[str, Any]:
    odds = result["odds"]
    out = {k: v for k, v in result.items() if k != "odds"}
    out.update(odds.as_dict(exact=exact))
    return out


def _p(value: Fraction, exact: bool) -> str:
    return f"{value.numerator}/{value.denominator}" if exact else f"{float(value):.3f}"


def _grouped(rows: list[tuple[Any, ...]]) -> list[tuple[int, tuple[Any, ...]]]:
    """Runs of identical rows as (how many, row): 24 Alien Rippers print as one line."""
    runs: list[tuple[int, tuple[Any, ...]]] = []
    for row in rows:
        if runs and runs[-1][1] == row:
            runs[-1] = (runs[-1][0] + 1, row)
        else:
            runs.append((1, row))
    return runs


def as_text(result: dict[str, Any], exact: bool = False) -> str:
    odds = result["odds"]
    verb = {"melee": "in melee with", "ranged": "shooting at", "shoot": "shooting at"}.get(result["action"],
                                                                                          f"casting {result['action'][6:]} on")
    lines = [f"{result['attacker']['unit']} {verb} {result['target']['unit']}  (Flat Out War {result['edition']})"]
    if result["facts"]:
        lines.append("facts: " + " ".join(f"{k}={v}" for k, v in sorted(result["facts"].items())))
    rows = [(a.label, sum(m.value for m in a.mods), _p(ph, exact), _p(pc, exact), a.blocked)
            for a, ph, pc in zip(odds.attacks, odds.p_hit, odds.p_casualty)]  # fmt: skip
    runs = [(f"{n} x {row[0]}" if n > 1 else row[0], *row[1:]) for n, row in _grouped(rows)]
    width = max([len(r[0]) for r in runs] + [6])
    lines.append(f"{'attack':<{width}}  {'mod':>4}  {'p_hit':>7}  {'p_casualty':>10}")
    for label, mod, ph, pc, blocked in runs:
        note = f"  [{blocked}]" if blocked else ""
        lines.append(f"{label:<{width}}  {mod:>+4d}  {ph:>7}  {pc:>10}{note}")
    expected = odds.expected_casualties
    lines.append(f"expected casualties: {_p(expected, exact) if exact else f'{float(expected):.3f}'}")
    dist = "  ".join(f"{k}: {_p(p, exact)}" for k, p in sorted(odds.casualties.items()) if p)
    lines.append(f"casualties: {dist}")
    return "\n".join(inert(line) for line in lines)


def run(args: argparse.Namespace) -> int:
    try:
        result = compute(args.attacker, args.target, args.action, parse_facts(args.fact))
    except (OddsError, SaveError, IllegalCommand) as exc:
        print(inert(f"muster odds: {exc}"), file=sys.stderr)
        return 2
    except (KeyError, ValueError) as exc:  # a force the rules cannot read: say so, no traceback
        print(inert(f"muster odds: cannot work out these odds ({exc})"), file=sys.stderr)
        return 2
    if args.json:
        print(inert_json(as_json(result, args.exact), indent=2, ensure_ascii=False))
    else:
        print(as_text(result, args.exact))
    return 0
