"""Edit one element: die, MOVE, weapons, attributes, spells, with its cost live.

Every keystroke re-prices the whole force with the edited element in place, so the
breakdown and the findings beside the form are the ruleset's own answer. Nothing is
blocked: a finding explains, the player decides.
"""

from __future__ import annotations

from typing import ClassVar

import attrs
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.suggester import Suggester
from textual.widgets import DataTable, Header, Input, Label, Select, Static

from campaign.force import Element, Force, Weapon
from campaign.inert_text import control_problem, inert
from tui import force_edits as edits
from tui import workspace
from tui.widgets.footer import MusterFooter
from tui.screens.base import MusterScreen
from tui.widgets.force_view import breakdown_text, findings_text, points, weapon_text

KINDS = ("trooper", "vehicle")


def split_list(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def parse_count(text: str, what: str, problems: list[str], *, blank: int | None = None) -> int | None:
    text = text.strip()
    if not text:
        if blank is None:
            problems.append(f"{what} is empty")
        return blank
    try:
        return int(text)
    except ValueError:
        problems.append(f"{what} must be a whole number, not {text!r}")
        return None


class ListSuggester(Suggester):
    """Completes the last item of a comma-separated list from known names."""

    def __init__(self, names: list[str]) -> None:
        super().__init__(use_cache=False, case_sensitive=False)
        self.names = sorted(names)

    async def get_suggestion(self, value: str) -> str | None:
        head, sep, last = value.rpartition(",")
        stem = last.lstrip()
        if not stem:
            return None
        for name in self.names:
            if name.lower().startswith(stem.lower()) and name.lower() != stem.lower():
                prefix = head + sep + last[: len(last) - len(stem)]
                return prefix + name
        return None


def labelled(label: str, widget: Input | Select) -> Horizontal:
    return Horizontal(Label(label, classes="field-label"), widget, classes="field")


class ElementEditorScreen(MusterScreen[Element | None]):
    """Returns the edited Element on apply, None when backed out."""

    HELP_TOPIC = "element-editor"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("ctrl+s", "apply", "Apply"),
        Binding("ctrl+n", "add_weapon", "Add weapon"),
        Binding("ctrl+o", "edit_weapon", "Edit weapon"),
        Binding("ctrl+r", "delete_weapon", "Delete weapon"),
        Binding("f1", "app.help", "Help"),
    ]

    def __init__(self, force: Force, unit: int, index: int) -> None:
        super().__init__()
        self.force = force
        self.unit = unit
        self.index = index
        self.original = force.units[unit].elements[index]
        self.element = self.original
        self.weapons: tuple[Weapon, ...] = self.original.weapons
        self.ruleset = workspace.ruleset_for(force)
        self.problems: list[str] = []

    def dismiss_result(self, element: Element | None) -> None:
        self.dismiss(element)

    def compose(self) -> ComposeResult:
        e = self.original
        dice = list(dict.fromkeys([*self.ruleset.dice, *([e.die] if e.die else [])]))
        yield Header()
        with Horizontal(id="editor"):
            with VerticalScroll(id="editor-form"):
                yield labelled("Name", Input(inert(e.name), id="f-name", compact=True))
                yield labelled("Count", Input(str(e.count), id="f-count", compact=True, type="integer"))
                yield labelled(
                    "Die",
                    Select([(Text(inert(d)), d) for d in dice], value=e.die or Select.NULL, id="f-die", compact=True,
                           allow_blank=True),
                )
                yield labelled("MOVE", Input("" if e.move is None else str(e.move), id="f-move", compact=True, type="integer"))
                yield labelled("Kind", Select([(k, k) for k in KINDS], value=e.kind, id="f-kind", compact=True,
                                              allow_blank=False))
                yield labelled(
                    "Attributes",
                    Input(inert(", ".join(e.attributes)), id="f-attributes", compact=True,
                          placeholder='Agile, Jump 8"', suggester=ListSuggester(self.ruleset.attribute_names())),
                )
                yield labelled("Spells", Input(inert(", ".join(e.spells)), id="f-spells", compact=True,
                                               placeholder="for Magic users"))
                for spec in type(self.ruleset).profile.stats():  # the ruleset's own numbers
                    yield labelled(spec.heading, Input(inert(spec.show(e.stats.get(spec.name))), id=f"f-stat-{spec.name}",
                                                       compact=True, placeholder=spec.help))
                yield Label("Weapons (^n add, ^o edit, ^r remove)", classes="section")
                yield DataTable(id="f-weapons", cursor_type="row", show_header=False)
            with Vertical(id="editor-side"):
                yield Static(id="editor-cost", classes="panel")
                yield Static(id="editor-findings", classes="panel")
        yield MusterFooter()

    def on_mount(self) -> None:
        self.sub_title = "Element"
        self.fill_weapons()
        self.recompute()
        self.query_one("#f-name", Input).focus()

    # --- the form -> an element -------------------------------------------
    def read_form(self) -> Element:
        problems: list[str] = []
        value = self.query_one
        name = self._typed(value("#f-name", Input).value.strip(), self.original.name, "name", problems)
        if not name and not problems:
            problems.append("the element needs a name")
        count = parse_count(value("#f-count", Input).value, "Count", problems)
        move = parse_count(value("#f-move", Input).value, "MOVE", problems, blank=-1)
        die = value("#f-die", Select).value
        kind = value("#f-kind", Select).value
        stats = dict(self.element.stats)
        for spec in type(self.ruleset).profile.stats():
            raw = value(f"#f-stat-{spec.name}", Input).value
            shown = spec.show(self.original.stats.get(spec.name))
            if raw == inert(shown):  # left as shown: the file's own value, even one holding control characters
                if spec.name in self.original.stats:
                    stats[spec.name] = self.original.stats[spec.name]
                else:
                    stats.pop(spec.name, None)
                continue
            if control_problem(raw):
                problems.append(f"{spec.name}: {control_problem(raw).replace('a name cannot', 'cannot')}")  # type: ignore[union-attr]
                continue
            try:
                typed = spec.parse(raw)
            except ValueError as exc:
                problems.append(str(exc))
                continue
            if typed is None:
                stats.pop(spec.name, None)
            else:
                stats[spec.name] = typed
        self.problems = problems
        return attrs.evolve(
            self.element,
            stats=stats,
            name=name or self.element.name,
            count=self.element.count if count is None else count,
            move=None if move == -1 else (self.element.move if move is None else move),
            die=None if die is Select.NULL else str(die),
            kind=kind if kind in KINDS else self.element.kind,
            attributes=split_list(self._typed(value("#f-attributes", Input).value, ", ".join(self.original.attributes),
                                              "attributes", problems) or ", ".join(self.element.attributes)),
            spells=split_list(self._typed(value("#f-spells", Input).value, ", ".join(self.original.spells),
                                          "spells", problems) or ", ".join(self.element.spells)),
            weapons=self.weapons,
        )

    @staticmethod
    def _typed(typed: str, original: str, what: str, problems: list[str]) -> str:
        """The field's text: the file's own when shown unchanged, "" (with a problem) when
        the player typed control characters."""
        if typed == inert(original):
            return original
        problem = control_problem(typed)
        if problem:
            problems.append(f"{what}: {problem.replace('a name cannot', 'cannot')}")
            return ""
        return typed

    def recompute(self) -> None:
        """Price the force with this element in place and show cost and findings."""
        self.element = self.read_form()
        trial = edits.replace_element(self.force, self.unit, self.index, self.element)
        priced = workspace.price(trial)
        cost = workspace.element_cost(priced, self.unit, self.index)
        text = breakdown_text(self.element.name, cost)  # made inert there
        text.append(f"\nForce total {points(priced.total)}", style="bold")
        if self.force.points_limit is not None:
            text.append(f" / {self.force.points_limit}")
        if priced.problem:
            text.append("\n" + inert(priced.problem), style="red")
        self.query_one("#editor-cost", Static).update(text)
        path = edits.path_of((self.unit, self.index))
        # this element's findings and the force-wide ones its edits can cause (e.g. the points limit)
        mine = [f for f in priced.findings
                if not f.path.startswith("units[") or f.path == path or f.path.startswith(path + ".")]
        # a typed problem is a finding too: never "No findings" beside it
        findings = findings_text(mine) if mine or not self.problems else Text()
        for problem in self.problems:
            findings.append("✖ " + inert(problem) + "\n", style="red")
        self.query_one("#editor-findings", Static).update(findings)
        self.sub_title = "Element" + (" (changed)" if self.has_unsaved() else "")

    @on(Input.Changed)
    @on(Select.Changed)
    def _changed(self) -> None:
        if self.is_mounted:
            self.recompute()

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.focus_next()

    def fill_weapons(self, cursor: int | None = None) -> None:
        table = self.query_one("#f-weapons", DataTable)
        if not table.columns:
            table.add_column("weapon", key="weapon")
            table.add_column("kind", key="kind")
        table.clear()
        for weapon in self.weapons:
            table.add_row(Text(weapon_text(weapon)), Text(inert(weapon.kind), style="dim"))
        if not self.weapons:
            table.add_row(Text("no weapons: ctrl+n adds one", style="dim"), Text(""), key="none")
        if cursor is not None:
            table.move_cursor(row=cursor)

    def _weapon_index(self) -> int | None:
        if not self.weapons:
            return None
        return self.query_one("#f-weapons", DataTable).cursor_row

    # --- actions -------------------------------------------------------------
    def has_unsaved(self) -> bool:
        return self.element != self.original

    def save(self) -> bool:
        self.action_apply()
        return False  # dismissing already left the screen

    def leave(self) -> None:
        self.dismiss_result(None)

    def action_apply(self) -> None:
        self.recompute()
        self.dismiss_result(self.element)

    @on(DataTable.RowSelected, "#f-weapons")
    def _weapon_selected(self) -> None:
        self.action_edit_weapon()

    def action_add_weapon(self) -> None:
        self._open_weapon(None)

    def action_edit_weapon(self) -> None:
        index = self._weapon_index()
        if index is not None:
            self._open_weapon(index)

    def action_delete_weapon(self) -> None:
        index = self._weapon_index()
        if index is None:
            return
        weapons = list(self.weapons)
        del weapons[index]
        self.weapons = tuple(weapons)
        self.fill_weapons(max(0, index - 1))
        self.recompute()

    def _open_weapon(self, index: int | None) -> None:
        from tui.screens.weapon_editor import WeaponEditorScreen

        weapon = Weapon("New weapon") if index is None else self.weapons[index]

        def done(result: Weapon | None) -> None:
            if result is None:
                return
            weapons = list(self.weapons)
            if index is None:
                weapons.append(result)
            else:
                weapons[index] = result
            self.weapons = tuple(weapons)
            self.fill_weapons(len(weapons) - 1 if index is None else index)
            self.recompute()

        self.app.push_screen(WeaponEditorScreen(weapon, self.ruleset.dice), done)
