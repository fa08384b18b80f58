"""Edit one element (model): its name and the fields its ruleset's profile declares, with
its cost live.

The form is made from the ruleset's field specs (campaign.profiles): a picker for a
choice, a range-checked input for a number, the help of the focused field beneath. Every
keystroke re-prices the whole force with the edited element in place, so the breakdown
and the findings beside the form are the ruleset's own answer, with the profile's checks
added where the ruleset says nothing at that key. Nothing is blocked: a finding explains,
the player decides.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import attrs
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Input, Label, Select, Static

from campaign.findings import named
from campaign.force import Element, Force, Weapon
from campaign.inert_text import control_problem, inert
from campaign.profiles import COUNT, FieldSpec, Profile, check_element
from tui import force_edits as edits
from tui import workspace
from tui.widgets.field_inputs import ListSuggester, Unset, field_widget, labelled, nullable, read_field
from tui.widgets.footer import MusterFooter
from tui.screens.base import STYLES, MusterScreen
from tui.widgets.force_view import breakdown_text, findings_text, points, weapon_text
from tui.widgets.header import MusterHeader

__all__ = ["ElementEditorScreen", "ListSuggester", "labelled", "split_list"]

Where = Literal["attr", "stat"]
NAME = FieldSpec("name", "text", "Name", "what the element is called")


def split_list(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


@attrs.frozen
class FormField:
    spec: FieldSpec
    where: Where

    @property
    def widget_id(self) -> str:
        prefix = {"attr": "f-", "stat": "f-stat-"}[self.where]
        return prefix + self.spec.name


def form_fields(profile: Profile) -> list[FormField]:
    """The element editor's fields, in order: the profile's (a count first when it has none)."""
    own = [FormField(s, "stat" if s.stat else "attr") for s in profile.element if s.name != "name"]
    if not any(f.spec.name == "count" for f in own):
        own.insert(0, FormField(COUNT, "attr"))
    return own


class ElementEditorScreen(MusterScreen[Element | None]):
    """Returns the edited Element on apply, None when backed out."""

    CSS_PATH = STYLES / "force_builder.tcss"

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
        self.profile = self.ruleset.element_profile(self.original)
        self.fields = form_fields(self.profile)
        self.problems: list[str] = []

    def dismiss_result(self, element: Element | None) -> None:
        self.dismiss(element)

    def compose(self) -> ComposeResult:
        e = self.original
        yield MusterHeader()
        with Horizontal(id="editor"):
            with VerticalScroll(id="editor-form"):
                yield labelled("Name", Input(inert(e.name), id="f-name", compact=True))
                for field in self.fields:
                    yield labelled(field.spec.form_label, field_widget(
                        field.spec, self._original_value(field), field.widget_id, dice=tuple(self.ruleset.dice),
                        suggestions=self.ruleset.suggestions(field.spec)))
                yield Label("Weapons (^n add, ^o edit, ^r remove)", classes="section")
                yield DataTable(id="f-weapons", cursor_type="row", show_header=False)
            with Vertical(id="editor-side"):
                yield Static(id="editor-help")
                yield Static(id="editor-cost", classes="panel")
                yield Static(id="editor-findings", classes="panel")
        yield MusterFooter()

    def on_mount(self) -> None:
        self.sub_title = "Element"
        self.fill_weapons()
        self.recompute()
        self.query_one("#f-name", Input).focus()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The focused field's help and range beneath the form's title."""
        spec = next((f.spec for f in self.fields if f.widget_id == event.widget.id), None)
        if spec is None and event.widget.id == "f-name":
            spec = NAME
        help_text = Text(inert(f"{spec.form_label}: {spec.describe()}") if spec else "", style="dim")
        self.query_one("#editor-help", Static).update(help_text)

    # --- the form -> an element -------------------------------------------
    def _original_value(self, field: FormField) -> Any:
        if field.where == "attr":
            return getattr(self.original, field.spec.name)
        return self.original.stats.get(field.spec.name)

    def read_form(self) -> Element:
        problems: list[str] = []
        value = self.query_one
        name = self._typed(value("#f-name", Input).value.strip(), self.original.name, "name", problems)
        if not name and not problems:
            problems.append("the element needs a name")
        stats = dict(self.element.stats)
        changes: dict[str, Any] = {}
        for field in self.fields:
            widget = value(f"#{field.widget_id}")
            name_ = field.spec.name
            if field.where == "attr":
                got = read_field(field.spec, widget, getattr(self.original, name_), problems,  # type: ignore[arg-type]
                                 nullable(Element, name_))
                changes[name_] = getattr(self.element, name_) if got is Unset else got
                continue
            got = read_field(field.spec, widget, self.original.stats.get(name_), problems)  # type: ignore[arg-type]
            if got is Unset:
                continue  # keeps what it was
            if got is None:
                stats.pop(name_, None)
            else:
                stats[name_] = got
        self.problems = problems
        return attrs.evolve(self.element, name=name or self.element.name, stats=stats, weapons=self.weapons, **changes)

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
        if type(self.ruleset).has_points:
            text = breakdown_text(self.element.name, cost)  # made inert there
            text.append(f"\nForce total {points(priced.total)}", style="bold")
            if self.force.points_limit is not None:
                text.append(f" / {self.force.points_limit}")
        else:  # no points in these rules: nothing to price
            text = Text(inert(self.element.name) + "\n", style="bold")
            derived = self.ruleset.derived_values(self.element)  # what the rules work out from the entry
            for phrase in derived:
                text.append(inert(phrase) + "\n")
            if not derived:
                text.append(f"{inert(self.ruleset.name or self.ruleset.id)} has no points.", style="dim")
        if priced.problem:
            text.append("\n" + inert(priced.problem), style="red")
        self.query_one("#editor-cost", Static).update(text)
        path = edits.path_of((self.unit, self.index))
        # this element's findings and the force-wide ones its edits can cause (e.g. the points limit)
        mine = [f for f in priced.findings
                if not f.path.startswith("units[") or f.path == path or f.path.startswith(path + ".")]
        said = {f.path for f in mine}
        mine += [f for f in check_element(self.profile, self.element, path, self.index == 0) if f.path not in said]
        # a typed problem is a finding too: never "No findings" beside it
        findings = findings_text(named(trial, mine)) if mine or not self.problems else Text()
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

        kind = self.profile.field("kind", "weapon")
        fresh = Weapon("New weapon", kind=kind.default) if kind is not None and kind.default else Weapon("New weapon")
        weapon = fresh if index is None else self.weapons[index]

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

        self.app.push_screen(WeaponEditorScreen(weapon, self.ruleset, self.profile), done)
