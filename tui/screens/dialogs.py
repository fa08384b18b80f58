"""Small dialogs: confirm with named choices, ask for a line of text, pick from a list.

Messages and options are shown as plain text (never markup), since they often carry
unit, side or campaign names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.events import Key
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from campaign.inert_text import control_problem, inert
from tui.widgets.footer import MusterFooter
from tui.screens.base import MusterModal


class ConfirmScreen(MusterModal):
    """A question with a few answers, each on a key; Escape gives the last (safe) answer."""

    def __init__(self, message: str | Text, choices: list[tuple[str, str, str]]) -> None:
        super().__init__()
        self.message = message if isinstance(message, Text) else Text(message)
        self.choices = choices  # (key, value, label)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.message, classes="dialog-message")
            hints = Text()
            for key, _value, label in self.choices:
                hints.append(f" {'Esc' if key == 'escape' else key} ", style="reverse")
                hints.append(f" {label}   ")
            yield Static(hints, classes="dialog-keys")

    def on_key(self, event: Key) -> None:
        for key, value, _label in self.choices:
            if event.key == key:
                event.stop()
                self.dismiss(value)
                return

    def action_cancel(self) -> None:
        escape = [value for key, value, _ in self.choices if key == "escape"]
        self.dismiss(escape[0] if escape else None)


class PromptScreen(MusterModal):
    """Ask for one line of text; Enter accepts, Escape cancels."""

    def __init__(self, title: str, value: str = "", placeholder: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.original = value
        self.value = inert(value)  # a name from a file: its control characters shown, never typed back
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text(self.title_text), classes="dialog-message")
            yield Input(self.value, placeholder=self.placeholder, id="prompt-input")
            yield Static(Text("Enter accept   Esc cancel", style="dim"), classes="dialog-keys")

    @on(Input.Submitted)
    def accept(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if self.original and text == self.value.strip():  # left as shown: the file's own text
            self.dismiss(self.original)
            return
        problem = control_problem(text)
        if problem:
            self.notify(problem.capitalize() + ".", severity="warning", markup=False)
        elif text:
            self.dismiss(text)
        else:
            self.notify("A name cannot be empty.", severity="warning")


class PickScreen(MusterModal):
    """Pick one of a list of options; Enter picks, Escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, options: Sequence[tuple[Text | str, Any]]) -> None:
        super().__init__()
        self.title_text = title
        self.options = options

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog dialog-tall"):
            yield Label(Text(self.title_text), classes="dialog-message")
            yield OptionList(
                *[Option(p if isinstance(p, Text) else Text(inert(p)), id=str(i)) for i, (p, _) in enumerate(self.options)],
                id="pick-list",
                markup=False,
            )
            yield MusterFooter()

    @on(OptionList.OptionSelected)
    def picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.options[int(event.option.id or 0)][1])
