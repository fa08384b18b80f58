"""`muster odds --attacker FORCE.toml:UNIT --target FORCE.toml:UNIT --action ACTION`

The exact odds of one unit's action before any die is rolled, for any ruleset: the
rules turn the action and its table facts into a command (BattleRules.odds_query) and
report its odds as named outcomes (OddsReport): a row per roll where the rules give one,
then each outcome's expectation and distribution. `--fact NAME=VALUE` gives a table fact;
a value with commas is a list. What actions and facts a ruleset takes is in the epilog.
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from typing import Any

from campaign.engine.errors import IllegalCommand
from campaign.engine.odds import as_report
from campaign.engine.report import OddsReport
from campaign.engine.setup import BattleSetup, SideSetup
from campaign.engine.state import BattleState, UnitState, slug
from campaign.force import Force
from campaign.inert_text import inert, inert_json
from saves.errors import SaveError
from saves.force_file import load_force, ruleset_for

NAME = "odds"
HELP = "exact odds of one unit's action: the rules' named outcomes and their distributions"

class OddsError(Exception):
    """Bad input, said plainly (exit status 2)."""


def epilog() -> str:
    """Each registered ruleset's own note on actions and facts (Ruleset.odds_help)."""
    from campaign.rulesets import ruleset_class, ruleset_ids

    return "\n".join(text for rid in ruleset_ids() if (text := ruleset_class(rid).odds_help))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = epilog()
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("--attacker", required=True, metavar="FORCE.toml:UNIT", help="the attacking unit")
    parser.add_argument("--target", required=True, metavar="FORCE.toml:UNIT", help="the unit attacked")
    parser.add_argument("--action", required=True, metavar="ACTION",
                        help="the action, as the ruleset names it (see below)")
    parser.add_argument("--fact", action="append", default=[], metavar="NAME=VALUE",
                        help="a table fact, e.g. range_band=long (repeatable; a,b gives a list)")
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
            raise OddsError(f"--fact {item!r} should be NAME=VALUE (for example range_band=long)")
        key = name.strip()
        if "," in raw:
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
    """Everything `muster odds` prints, as a dict (the OddsReport inside)."""
    a_path, a_unit = _split_ref(attacker_ref)
    t_path, t_unit = _split_ref(target_ref)
    a_force = load_force(a_path)
    t_force = load_force(t_path)
    ruleset = ruleset_for(a_force, a_path)
    setup = BattleSetup(ruleset=ruleset.id, edition=ruleset.edition,
                        sides=(SideSetup("attacker", a_force.name, a_force), SideSetup("target", t_force.name, t_force)))
    try:
        rules = ruleset.battle_rules()
    except NotImplementedError as exc:
        raise OddsError(str(exc)) from None
    state = rules.new_state(setup)
    attacker = _find_unit(state, "attacker", a_unit, a_force)
    target = _find_unit(state, "target", t_unit, t_force)
    command = rules.odds_query(state, attacker.id, target.id, action, dict(facts))
    try:
        report = as_report(rules.odds(state, command))
    except TypeError as exc:
        raise OddsError(str(exc)) from None
    return {
        "attacker": {"force": a_force.name, "unit": attacker.name},
        "target": {"force": t_force.name, "unit": target.name},
        "ruleset": ruleset.id,
        "ruleset_name": ruleset.name,
        "edition": ruleset.edition,
        "action": action,
        "facts": dict(getattr(command, "facts", {}) or {}),
        "odds": report,
    }


def as_json(result: dict[str, Any], exact: bool) -> dict[str, Any]:
    report: OddsReport = result["odds"]
    out = {k: v for k, v in result.items() if k != "odds"}
    out.update(report.to_json(exact=exact))
    return out


def _p(value: Fraction, exact: bool) -> str:
    return f"{value.numerator}/{value.denominator}" if exact else f"{float(value):.3f}"


def _grouped(rows: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """Runs of identical rows as one, its label counted: 24 Alien Rippers print as one line."""
    runs: list[tuple[int, tuple[str, ...]]] = []
    for row in rows:
        if runs and runs[-1][1] == row:
            runs[-1] = (runs[-1][0] + 1, row)
        else:
            runs.append((1, row))
    return [(f"{n} x {row[0]}" if n > 1 else row[0], *row[1:]) for n, row in runs]


def _table(table: tuple[tuple[Any, ...], ...], exact: bool) -> list[str]:
    """The headings, then identical rows grouped: the first column left-aligned, the rest
    right-aligned to the widest cell or heading (a heading's own padding is its least
    width), two spaces apart; cells past the headings follow as they are (notes)."""
    if not table:
        return []
    rows = [tuple(_p(c, exact) if isinstance(c, Fraction) else str(c) for c in row) for row in table]
    head, body = rows[0], _grouped(rows[1:])
    n = len(head)
    widths = [max(len(row[i]) for row in [head, *body] if i < len(row)) for i in range(n)]
    widths[0] = max(widths[0], 6)
    lines = []
    for row in [head, *body]:
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:n], widths[1:])]
        lines.append("  ".join(cells + list(row[n:])))
    return lines


def as_text(result: dict[str, Any], exact: bool = False) -> str:
    report: OddsReport = result["odds"]
    edition = f" {result['edition']}" if result["edition"] else ""
    lines = [f"{result['attacker']['unit']}: {result['action']} at {result['target']['unit']}"
             f"  ({result['ruleset_name']}{edition})"]
    if result["facts"]:
        lines.append("facts: " + " ".join(f"{k}={v}" for k, v in sorted(result["facts"].items())))
    lines += _table(report.table, exact) if report.table else list(report.lines)
    for outcome in report.outcomes:
        if outcome.p is not None:
            lines.append(f"{outcome.name}: {_p(outcome.p, exact)}")
            continue
        lines.append(f"expected {outcome.name}: {_p(outcome.mean, exact)}")
        lines.append(f"{outcome.name}: " + "  ".join(f"{k}: {_p(p, exact)}" for k, p in outcome.dist.items()))
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
