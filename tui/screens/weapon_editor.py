"""A dialog to edit one weapon: its name and the fields its ruleset's profile declares
(melee or ranged, a die, a range, traits... as the profile says), with the focused
field's help beneath."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Label, Static

from campaign.force import Weapon
from campaign.inert_text import inert
from campaign.profiles import FieldSpec, Profile
from campaign.rulesets.base import Ruleset
from tui.screens.base import MusterModal
from tui.widgets.field_inputs import Unset, field_widget, labelled, nullable, read_field

NAME = FieldSpec("name", "text", "Name", "what the weapon is called")


class WeaponEditorScreen(MusterModal):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "apply", "Apply"),
    ]

    def __init__(self, weapon: Weapon, ruleset: Ruleset, profile: Profile | None = None) -> None:
        super().__init__()
        self.weapon = weapon
        self.ruleset = ruleset
        profile = profile or type(ruleset).profile  # the element's (a machine's may differ)
        named = profile.field("name", "weapon")
        self.fields: tuple[FieldSpec, ...] = (named or NAME, *(f for f in profile.weapon if f.name != "name"))

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog dialog-form"):
            yield Label(Text("Weapon"), classes="dialog-message")
            for spec in self.fields:
                yield labelled(spec.form_label, field_widget(
                    spec, getattr(self.weapon, spec.name), f"w-{spec.name}", dice=tuple(self.ruleset.dice),
                    suggestions=self.ruleset.suggestions(spec)))
            yield Static(id="w-help")
            yield Static(id="w-problem")
            yield Static(Text("ctrl+s apply   Esc cancel", style="dim"), classes="dialog-keys")

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        spec = next((f for f in self.fields if f"w-{f.name}" == event.widget.id), None)
        self.query_one("#w-help", Static).update(Text(inert(spec.describe()) if spec else "", style="dim"))

    def on_mount(self) -> None:
        self.query_one("#w-name", Input).focus()

    @on(Input.Submitted)
    def _next(self) -> None:
        self.focus_next()

    def action_cancel(self) -> None:
        """Escape: leave at once if nothing changed, otherwise ask first."""
        if self.read_form()[0] == self.weapon:
            self.dismiss(None)
            return
        from tui.screens.dialogs import ConfirmScreen

        def answer(value: str | None) -> None:
            if value == "apply":
                self.action_apply()
            elif value == "discard":
                self.dismiss(None)

        self.app.push_screen(
            ConfirmScreen("The weapon has changes.",
                          [("s", "apply", "Apply them"), ("d", "discard", "Discard them"),
                           ("escape", "stay", "Keep editing")]),
            answer,
        )  # fmt: skip

    def read_form(self) -> tuple[Weapon | None, str]:
        """The weapon the form describes, or None and what is wrong with it."""
        problems: list[str] = []
        values: dict[str, Any] = {}
        for spec in self.fields:
            widget = self.query_one(f"#w-{spec.name}")
            got = read_field(spec, widget, getattr(self.weapon, spec.name), problems,  # type: ignore[arg-type]
                             nullable(Weapon, spec.name))
            if got is not Unset:
                values[spec.name] = got
        name = values.get("name")
        if not problems and (not isinstance(name, str) or not name.strip()):
            problems.append("the weapon needs a name")
        if problems:
            return None, "; ".join(p[:1].upper() + p[1:] for p in problems) + "."
        if isinstance(name, str) and name != self.weapon.name:
            values["name"] = name.strip()
        return Weapon(**{**{k: getattr(self.weapon, k) for k in ("name", "kind", "die", "range", "mount", "traits")},
                         **values}), ""

    def action_apply(self) -> None:
        weapon, problem = self.read_form()
        if weapon is None:
            self.query_one("#w-problem", Static).update(Text(inert(problem), style="red"))
            return
        self.dismiss(weapon)
