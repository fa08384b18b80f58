"""The force builder's widgets: the units/elements table, the cost breakdown, findings.

Every cell and line is built as rich Text from the force's data, so a unit named
`[bold]x` shows exactly that; its control characters are shown by `inert`.
"""

from __future__ import annotations

import textwrap
from typing import Any

from rich.text import Text
from textual.widgets import DataTable, Static

from campaign.costing import ElementCost
from campaign.findings import Finding
from campaign.force import Element, Force, Weapon
from campaign.profiles import DEFAULT_PROFILE, Profile, field_value
from campaign.inert_text import inert
from tui.force_edits import Place
from tui.workspace import Priced, element_cost

WEAPON_LINES = 3  # the most lines an element's row grows to for its weapons
SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
SEVERITY_MARK = {"error": "✖", "warning": "▲", "info": "•"}


def points(value: float | None) -> str:
    if value is None:
        return "–"
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def weapon_text(weapon: Weapon) -> str:
    parts = [weapon.name]
    if weapon.die:
        parts.append(weapon.die)
    if weapon.kind == "ranged" and weapon.range:
        parts.append(f'{weapon.range}"')
    if weapon.mount != "main":
        parts.append(weapon.mount)
    text = " ".join(parts)
    if weapon.traits:
        text += " (" + ", ".join(weapon.traits) + ")"
    return inert(text)


def place_key(place: Place) -> str:
    unit, element = place
    return f"u{unit}" if element is None else f"u{unit}e{element}"


def key_place(key: str) -> Place:
    unit, _, element = key[1:].partition("e")
    return (int(unit), int(element) if element else None)


def columns(profile: Profile, has_points: bool) -> list[tuple[str, int]]:
    """The table's columns: name and count, the profile's columns, weapons, attributes,
    and the cost where the ruleset has points."""
    own = [(f.column_heading, f.column) for f in profile.columns()]
    return [("Unit / element", 20), ("Qty", 3), *own, ("Weapons", 14), ("Attributes", 12),
            *([("Cost", 5)] if has_points else [])]


class ForceTable(DataTable):
    """Units as header rows, their elements indented beneath; the ruleset's profile says
    which fields get a column."""

    def __init__(self, profile: Profile = DEFAULT_PROFILE, has_points: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.profile = profile
        self.has_points = has_points

    @property
    def widths(self) -> list[tuple[str, int]]:
        return columns(self.profile, self.has_points)

    def on_mount(self) -> None:
        self.cursor_type = "row"
        self.zebra_stripes = False
        for label, width in self.widths:
            self.add_column(Text(label), width=width, key=label)

    def show(self, force: Force, priced: Priced, keep: Place | None = None) -> None:
        self.clear()
        for u, unit in enumerate(force.units):
            ucost = priced.cost.units[u].total if priced.cost and u < len(priced.cost.units) else None
            count = sum(e.count for e in unit.elements)
            blanks = [Text("") for _ in range(len(self.profile.columns()) + 2)]
            cost = [Text(points(ucost), style="bold", justify="right")] if self.has_points else []
            self.add_row(Text(inert(unit.name), style="bold"), Text(str(count)), *blanks, *cost, key=place_key((u, None)))
            for e, element in enumerate(unit.elements):
                ecost = element_cost(priced, u, e)
                cells = self._element_cells(element, ecost)
                self.add_row(*cells, key=place_key((u, e)), height=self._height(cells))
        if keep is not None:
            self.go_to(keep)

    def _height(self, cells: list[Text]) -> int:
        """Weapons wrap (FigWars' names are long), up to WEAPON_LINES; other cells keep to
        one line and end in an ellipsis where they are cut."""
        weapons = next(i for i, (label, _) in enumerate(self.widths) if label == "Weapons")
        width = self.widths[weapons][1]
        for i, cell in enumerate(cells):
            if i != weapons:
                cell.no_wrap, cell.overflow = True, "ellipsis"
        lines = textwrap.wrap(cells[weapons].plain, width, break_on_hyphens=False) or [""]
        if len(lines) > WEAPON_LINES:  # the rest is in the element's editor: say that there is more
            lines = [*lines[: WEAPON_LINES - 1], lines[WEAPON_LINES - 1][: width - 1] + "…"]
        cells[weapons] = Text("\n".join(lines), no_wrap=True, overflow="ellipsis")
        return len(lines)

    def _element_cells(self, element: Element, cost: ElementCost | None) -> list[Text]:
        name = Text("  " + inert(element.name))
        if element.lost:
            name.append(f" ({element.lost} lost)", style="dim")
        own = [Text(inert(f.show(field_value(element, f)))) for f in self.profile.columns()]
        return [
            name,
            Text(str(element.count)),
            *own,
            Text("; ".join(weapon_text(w) for w in element.weapons)),
            Text(inert(", ".join(element.attributes))),
            *([Text(points(cost.total if cost else None), justify="right")] if self.has_points else []),
        ]

    def go_to(self, place: Place) -> None:
        try:
            row = self.get_row_index(place_key(place))
        except Exception:  # the row is gone (deleted); stay where we are
            return
        self.move_cursor(row=row)

    @property
    def place(self) -> Place | None:
        if self.row_count == 0:
            return None
        key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value
        return key_place(key) if key else None


def summary_text(force: Force, priced: Priced, dirty: bool, has_points: bool = True) -> Text:
    text = Text()
    text.append(inert(force.name), style="bold")
    text.append(inert(f"  {force.ruleset} {force.edition or ''}  "), style="dim")
    total = points(priced.total)
    if not has_points:  # a ruleset without points: no total to show
        pass
    elif force.points_limit is not None:
        over = priced.total is not None and priced.total > force.points_limit
        text.append(f"{total} / {force.points_limit} pts", style="bold red" if over else "bold green")
    else:
        text.append(f"{total} pts", style="bold")
    errors = sum(f.severity == "error" for f in priced.findings)
    warnings = sum(f.severity == "warning" for f in priced.findings)
    if errors or warnings:
        text.append(f"  {errors} errors, {warnings} warnings", style="yellow")
    if priced.problem:
        text.append(f"  {inert(priced.problem)}", style="red")
    if dirty:
        text.append("  (unsaved)", style="italic")
    return text


def breakdown_text(title: str, cost: ElementCost | None) -> Text:
    text = Text()
    text.append(inert(title) + "\n", style="bold")
    if cost is None:
        text.append("No price for this element.", style="dim")
        return text
    for line in cost.lines:
        text.append(f"{inert(line.label):<24.24}{points(line.points):>6}\n")
    text.append(f"{'each':<24}{points(cost.each):>6}\n", style="bold")
    if cost.count != 1:
        text.append(f"{'x ' + str(cost.count):<24}{points(cost.total):>6}\n", style="bold")
    return text


def derived_text(title: str, derived: list[str]) -> Text:
    """An element of a ruleset without points: its name, then what its rules work out."""
    text = Text()
    text.append(inert(title) + "\n", style="bold")
    if not derived:
        text.append("No points in these rules.", style="dim")
    for phrase in derived:
        text.append(inert(phrase) + "\n")
    return text


def findings_text(findings: tuple[Finding, ...] | list[Finding], focus: str = "") -> Text:
    text = Text()
    if not findings:
        text.append("No findings: the force is within the rules.", style="green")
        return text
    def mine(f: Finding) -> bool:
        return bool(focus) and (f.path == focus or f.path.startswith(focus + "."))

    ordered = sorted(findings, key=lambda f: (not mine(f), f.path))
    for finding in ordered:
        style = SEVERITY_STYLE.get(finding.severity, "")
        text.append(SEVERITY_MARK.get(finding.severity, "•") + " ", style=style)
        if finding.place:
            text.append(inert(finding.place) + ": ", style="dim")
        text.append(inert(finding.message))
        if finding.rule:
            text.append(f" [{finding.rule}]", style="dim")
        text.append("\n")
    return text


class Panel(Static):
    """A bordered panel of plain Text."""
