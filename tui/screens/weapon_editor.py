"""A dialog to edit one weapon: name, melee or ranged, die, range, mount, traits."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Label, Select, Static

from campaign.force import Weapon
from campaign.inert_text import control_problem, inert
from tui.screens.base import MusterModal
from tui.screens.element_editor import labelled, split_list

MOUNTS = ("main", "extra", "sponson", "turret")


class WeaponEditorScreen(MusterModal):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "apply", "Apply"),
    ]

    def __init__(self, weapon: Weapon, dice: tuple[str, ...]) -> None:
        super().__init__()
        self.weapon = weapon
        self.dice = list(dict.fromkeys([*dice, *([weapon.die] if weapon.die else [])]))

    def compose(self) -> ComposeResult:
        w = self.weapon
        with Vertical(classes="dialog dialog-form"):
            yield Label(Text("Weapon"), classes="dialog-message")
            yield labelled("Name", Input(inert(w.name), id="w-name", compact=True))
            yield labelled("Kind", Select([("melee", "melee"), ("ranged", "ranged")], value=w.kind, id="w-kind",
                                          compact=True, allow_blank=False))
            yield labelled("Die", Select([(Text(inert(d)), d) for d in self.dice], value=w.die or Select.NULL, id="w-die",
                                         compact=True, prompt="element's die"))
            yield labelled("Range", Input(str(w.range) if w.range else "", id="w-range", compact=True,
                                          placeholder="inches (ranged)"))
            yield labelled("Mount", Select([(m, m) for m in MOUNTS], value=w.mount, id="w-mount", compact=True,
                                           allow_blank=False))
            yield labelled("Traits", Input(inert(", ".join(w.traits)), id="w-traits", compact=True,
                                           placeholder="Exhaustible, Reload: 2"))
            yield Static(id="w-problem")
            yield Static(Text("ctrl+s apply   Esc cancel", style="dim"), classes="dialog-keys")

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
        q = self.query_one
        name = q("#w-name", Input).value.strip()
        traits = q("#w-traits", Input).value
        # the file's own text when shown unchanged; typed control characters are refused
        name = self.weapon.name if name == inert(self.weapon.name) else name
        traits = ", ".join(self.weapon.traits) if traits == inert(", ".join(self.weapon.traits)) else traits
        range_text = q("#w-range", Input).value.strip()
        problem = ""
        typed = control_problem(name) or control_problem(traits)
        if typed:
            problem = typed.capitalize() + "."
        elif not name:
            problem = "The weapon needs a name."
        elif range_text and not range_text.isdigit():
            problem = f"Range must be a whole number of inches, not {inert(range_text)!r}."
        if problem:
            return None, problem
        die = q("#w-die", Select).value
        weapon = Weapon(
            name=name,
            kind=q("#w-kind", Select).value,  # type: ignore[arg-type]
            die=None if die is Select.NULL else str(die),
            range=int(range_text or 0),
            mount=q("#w-mount", Select).value,  # type: ignore[arg-type]
            traits=split_list(traits),
        )
        return weapon, ""

    def action_apply(self) -> None:
        weapon, problem = self.read_form()
        if weapon is None:
            self.query_one("#w-problem", Static).update(Text(inert(problem), style="red"))
            return
        self.dismiss(weapon)
