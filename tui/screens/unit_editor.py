"""A dialog to edit one unit: its name and the fields its ruleset's profile declares for a
unit as a whole (`Profile.unit`, kept in `Unit.stats`), with the focused field's help.

A file written before units had stats keeps those fields on the unit's first element;
they are shown from there, and a field changed here moves to the unit (so it is never
given twice). A field left as shown stays where it is: opening and applying changes nothing.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Label, Static

from campaign.force import Unit
from campaign.inert_text import inert
from campaign.profiles import FieldSpec
from campaign.rulesets.base import Ruleset
from tui.screens.base import MusterModal
from tui.widgets.field_inputs import Unset, field_widget, labelled, read_field

NAME = FieldSpec("name", "text", "Name", "what the unit is called")


class UnitEditorScreen(MusterModal):
    """Returns the edited Unit on apply, None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "apply", "Apply"),
    ]

    def __init__(self, unit: Unit, ruleset: Ruleset) -> None:
        super().__init__()
        self.unit = unit
        self.ruleset = ruleset
        self.fields: tuple[FieldSpec, ...] = type(ruleset).profile.unit

    def shown(self, spec: FieldSpec) -> Any:
        """The field's value: the unit's own, else its first element's (older files)."""
        if spec.name in self.unit.stats:
            return self.unit.stats[spec.name]
        return self.unit.elements[0].stats.get(spec.name) if self.unit.elements else None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog dialog-form"):
            yield Label(Text("Unit"), classes="dialog-message")
            yield labelled("Name", field_widget(NAME, self.unit.name, "u-name"))
            for spec in self.fields:
                yield labelled(spec.form_label, field_widget(spec, self.shown(spec), f"u-stat-{spec.name}",
                                                             suggestions=self.ruleset.suggestions(spec)))
            yield Static(id="u-help")
            yield Static(id="u-problem")
            yield Static(Text("ctrl+s apply   Esc cancel", style="dim"), classes="dialog-keys")

    def on_mount(self) -> None:
        self.query_one("#u-name", Input).focus()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        spec = next((f for f in (NAME, *self.fields) if event.widget.id in (f"u-{f.name}", f"u-stat-{f.name}")), None)
        self.query_one("#u-help", Static).update(Text(inert(spec.describe()) if spec else "", style="dim"))

    @on(Input.Submitted)
    def _next(self) -> None:
        self.focus_next()

    def read_form(self) -> tuple[Unit | None, str]:
        """The unit the form describes, or None and what is wrong with it."""
        problems: list[str] = []
        name = read_field(NAME, self.query_one("#u-name"), self.unit.name, problems, nullable=False)  # type: ignore[arg-type]
        stats = dict(self.unit.stats)
        first = dict(self.unit.elements[0].stats) if self.unit.elements else {}
        for spec in self.fields:
            shown = self.shown(spec)
            got = read_field(spec, self.query_one(f"#u-stat-{spec.name}"), shown, problems)  # type: ignore[arg-type]
            if got is Unset or got is shown:
                continue  # unchanged: stays where the file keeps it
            first.pop(spec.name, None)  # moved to the unit, never given twice
            if got is None:
                stats.pop(spec.name, None)
            else:
                stats[spec.name] = got
        if problems:
            return None, "; ".join(p[:1].upper() + p[1:] for p in problems) + "."
        elements = self.unit.elements
        if elements and first != elements[0].stats:
            elements = (attrs.evolve(elements[0], stats=first), *elements[1:])
        text = name.strip() if isinstance(name, str) else self.unit.name
        return attrs.evolve(self.unit, name=text or self.unit.name, stats=stats, elements=elements), ""

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_apply(self) -> None:
        unit, problem = self.read_form()
        if unit is None:
            self.query_one("#u-problem", Static).update(Text(inert(problem), style="red"))
            return
        self.dismiss(unit)
