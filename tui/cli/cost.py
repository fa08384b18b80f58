"""`muster cost FORCE.toml [--json]`: price every element, unit and the force."""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import Any

import attrs

from campaign.costing import ElementCost, ForceCost
from campaign.findings import Finding, named
from campaign.force import Element, Force, Weapon
from campaign.inert_text import inert, inert_json
from campaign.profiles import DEFAULT_PROFILE, FieldSpec, field_value
from tui.cli.force_arg import load_force_arg

NAME = "cost"
HELP = "price a force file: each element, unit totals, the force total and findings"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("force", metavar="FORCE.toml", help="a force file")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--lines", action="store_true", help="show how each element's cost is made up"
    )


def points(value: float) -> int | float:
    """12.0 -> 12; 12.5 stays 12.5 (costs are whole points almost always)."""
    value = float(value)
    return int(value) if value.is_integer() else round(value, 2)


def weapon_text(weapon: Weapon) -> str:
    details = [d for d in (weapon.die, f'{weapon.range}"' if weapon.range else "") if d]
    if weapon.mount != "main":
        details.append(weapon.mount)
    details.extend(weapon.traits)
    return weapon.name + (f" ({', '.join(details)})" if details else "")


def finding_line(finding: Finding) -> str:
    where = f"{finding.place}: " if finding.place else ""
    return f"{finding.severity:<8} {finding.rule}  {where}{finding.message}"


def _findings(ruleset: Any, force: Force, cost: ForceCost) -> list[Finding]:
    found = list(cost.findings)
    found += [f for f in ruleset.validate(force) if f not in found]
    return named(force, found)


def _elements(force: Force, cost: ForceCost) -> list[list[tuple[Element | None, ElementCost]]]:
    """Each unit's element costs next to the elements they price (matched by position)."""
    out = []
    for u, unit_cost in enumerate(cost.units):
        unit = force.units[u] if u < len(force.units) else None
        row = []
        for e, element_cost in enumerate(unit_cost.elements):
            element = unit.elements[e] if unit and e < len(unit.elements) else None
            row.append((element, element_cost))
        out.append(row)
    return out


def as_json(force: Force, cost: ForceCost, findings: list[Finding],
            fields: tuple[FieldSpec, ...] = DEFAULT_PROFILE.columns()) -> dict[str, Any]:
    units = []
    for unit_cost, pairs in zip(cost.units, _elements(force, cost), strict=True):
        elements = []
        for element, ec in pairs:
            entry: dict[str, Any] = {"name": ec.name, "count": ec.count}
            if element is not None:
                entry.update({f.name: field_value(element, f) for f in fields})
                entry.update(
                    weapons=[weapon_text(w) for w in element.weapons],
                    attributes=list(element.attributes),
                )
            entry.update(
                cost=points(ec.each),
                total=points(ec.total),
                lines=[{"label": line.label, "points": points(line.points)} for line in ec.lines],
            )
            elements.append(entry)
        units.append({"name": unit_cost.name, "cost": points(unit_cost.total), "elements": elements})
    return {
        "force": force.name,
        "ruleset": force.ruleset,
        "edition": force.edition,
        "points_limit": force.points_limit,
        "units": units,
        "total": points(cost.total),
        "findings": [
            {"severity": f.severity, "rule": f.rule, "message": f.message, "path": f.path, "where": f.place}
            for f in findings
        ],
    }


WIDTH = 80  # the table fits a standard terminal; long names wrap inside their column


@attrs.define(frozen=True)
class Layout:
    """The table's columns for one ruleset: name and count, the profile's columns,
    weapons and attributes, then each and total where the ruleset has points."""

    fields: tuple[FieldSpec, ...]
    has_points: bool = True

    @property
    def headings(self) -> tuple[str, ...]:
        own = tuple(f.heading for f in self.fields)
        return ("Unit / element", "Count", *own, "Weapons", "Attributes", *(("Each", "Total") if self.has_points else ()))

    @property
    def texts(self) -> tuple[int, int]:
        """The indices of the weapons and attributes columns."""
        return 2 + len(self.fields), 3 + len(self.fields)

    @property
    def right(self) -> set[int]:
        """Numeric columns, right-aligned."""
        n = len(self.headings)
        return {1, *(2 + i for i, f in enumerate(self.fields) if f.type == "int"),
                *((n - 2, n - 1) if self.has_points else ())}

    @property
    def wrap(self) -> dict[int, int]:
        """Columns that wrap to fit, with the narrowest each may get."""
        weapons, attributes = self.texts
        return {0: 14, weapons: 12, attributes: 12}


FOW_LIKE = Layout(DEFAULT_PROFILE.columns())


def fit_widths(widths: list[int], limit: int = WIDTH, layout: Layout = FOW_LIKE) -> list[int]:
    """Narrow the wrapping columns, widest first, until the row (two spaces between
    cells) fits `limit`, or every wrapping column is at its narrowest. Names give way
    last: they keep up to 24 columns while weapons and attributes can still wrap."""
    widths = list(widths)
    wrap = layout.wrap
    least = {**wrap, 0: min(widths[0], 24)}
    while sum(widths) + 2 * (len(widths) - 1) > limit:
        shrinkable = [i for i in layout.texts if widths[i] > least[i]] or [i for i in wrap if widths[i] > wrap[i]]
        if not shrinkable:
            break
        widest = max(shrinkable, key=lambda i: widths[i])
        widths[widest] -= 1
    return widths


def _wrapped(cell: str, width: int, indent: bool) -> list[str]:
    """A cell as lines of `width`; a name's continuation lines sit under its first word."""
    lead = " " * (len(cell) - len(cell.lstrip(" "))) + "  " if indent else ""
    return textwrap.wrap(cell, width, subsequent_indent=lead, break_on_hyphens=False) or [""]


def as_table(force: Force, cost: ForceCost, findings: list[Finding], *, lines: bool = False,
             layout: Layout = FOW_LIKE) -> str:
    headings = layout.headings
    blank = ("",) * (len(headings) - 2)
    money = layout.has_points
    rows: list[tuple[str, ...] | str] = []  # a str is a line printed as it is
    for unit_cost, pairs in zip(cost.units, _elements(force, cost), strict=True):
        rows.append((unit_cost.name, "", *blank))
        for element, ec in pairs:
            own = tuple(f.show(field_value(element, f)) if element else "" for f in layout.fields)
            weapons = ", ".join(weapon_text(w) for w in element.weapons) if element else ""
            attributes = ", ".join(element.attributes) if element else ""
            each, total = str(points(ec.each)), str(points(ec.total))
            rows.append((f"  {ec.name}", str(ec.count), *own, weapons, attributes, *((each, total) if money else ())))
            if lines and money:
                rows.extend(f"      {points(line.points):>5}  {line.label}" for line in ec.lines)
        if money:
            rows.append(("  unit total", "", *blank[:-1], str(points(unit_cost.total))))
    if money:
        rows.append(("Force total", "", *blank[:-1], str(points(cost.total))))
    rows = [tuple(map(inert, r)) if isinstance(r, tuple) else inert(r) for r in rows]  # names from the file
    table = [r for r in rows if isinstance(r, tuple)]
    widths = fit_widths([max(len(r[i]) for r in [headings, *table]) for i in range(len(headings))], layout=layout)
    wrap, right = layout.wrap, layout.right

    def render(row: tuple[str, ...]) -> list[str]:
        columns = [_wrapped(cell, widths[i], i == 0) if i in wrap else [cell] for i, cell in enumerate(row)]
        height = max(len(c) for c in columns)
        lines = []
        for n in range(height):
            cells = [c[n] if n < len(c) else "" for c in columns]
            lines.append("  ".join(
                cell.rjust(widths[i]) if i in right else cell.ljust(widths[i]) for i, cell in enumerate(cells)
            ).rstrip())
        return lines

    edition = f", edition {force.edition}" if force.edition else ""
    out = [f"{force.name} ({force.ruleset}{edition})", "", *render(headings)]
    out.append("  ".join("-" * w for w in widths))
    for r in rows:
        out += render(r) if isinstance(r, tuple) else [r]
    if force.points_limit is not None and money:
        spare = force.points_limit - cost.total
        state = f"{points(spare)} to spare" if spare >= 0 else f"{points(-spare)} over"
        out.append(f"Points limit {force.points_limit}: {state}")
    out.append("")
    if findings:
        out.append("Findings:")
        out += [f"  {finding_line(f)}" for f in findings]
    else:
        out.append("No findings.")
    return "\n".join(inert(line) for line in out)


def run(args: argparse.Namespace) -> int:
    loaded = load_force_arg(args.force, NAME)
    if loaded is None:
        return 2
    force, ruleset = loaded
    try:
        cost = ruleset.price(force)
        findings = _findings(ruleset, force, cost)
    except Exception as exc:  # a force the ruleset cannot price: say so, no traceback
        print(inert(f"muster cost: {args.force}: cannot price this force ({exc})"), file=sys.stderr)
        return 2
    if force.edition is None and ruleset.edition:  # say which edition priced it
        force = attrs.evolve(force, edition=ruleset.edition)
    if args.json:
        print(inert_json(as_json(force, cost, findings, type(ruleset).profile.columns()), indent=2, ensure_ascii=False))
    else:
        layout = Layout(type(ruleset).profile.columns(), type(ruleset).has_points)
        print(as_table(force, cost, findings, lines=args.lines, layout=layout))
    return 0
