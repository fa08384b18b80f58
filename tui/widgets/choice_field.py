"""A form's small pieces shared by the battle dialogs: a fact's value as the player reads
it (`shown`), and `ChoiceField`, one of a few values cycled with Left/Right.

Every label is plain Text: choices can hold the players' own names.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Static

from campaign.inert_text import inert

NONE = "(none)"


def shown(value: Any) -> str:
    """A fact's value as the player types it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value))
    if isinstance(value, dict):
        return ", ".join(f"{k} = {_inline(v)}" for k, v in value.items())
    return "" if value is None else str(value)


def _inline(value: Any) -> str:
    """A table's value as typed: a word, or {fact = value, ...} for a table of facts."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_inline_toml(v)}" for k, v in value.items()) + "}"
    return shown(value)


def _inline_toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_inline_toml(v) for v in value) + "]"
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


class ChoiceField(Static, can_focus=True):
    """One of a few values, cycled with Left/Right or Space (lighter than a Select in a long form)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space", "step(1)", "Next choice", show=False),
        Binding("left", "step(-1)", "Previous choice", show=False),
    ]

    class Changed(Message):
        def __init__(self, field: ChoiceField) -> None:
            super().__init__()
            self.field = field

    def __init__(self, options: list[tuple[str, Any]], value: Any, *, id: str) -> None:
        super().__init__(id=id, classes="choice")
        self.options = options
        self.index = next((i for i, (_, v) in enumerate(options) if v == value), 0)

    @property
    def value(self) -> Any:
        return self.options[self.index][1]

    @value.setter
    def value(self, value: Any) -> None:
        self.index = next((i for i, (_, v) in enumerate(self.options) if v == value), self.index)
        self._show()
        self.post_message(self.Changed(self))

    def on_mount(self) -> None:
        self._show()

    def on_focus(self) -> None:
        self._show(focused=True)  # has_focus is not yet updated while the event is handled

    def on_blur(self) -> None:
        self._show(focused=False)

    def _show(self, focused: bool | None = None) -> None:
        # The field being changed shows solid arrows, not only a brighter background:
        # without colour a player still sees which choice Left/Right will change.
        focused = self.has_focus if focused is None else focused
        left, right = ("\u25c0 ", " \u25b6") if focused else ("< ", " >")
        text = Text(left, style="bold" if focused else "dim")
        text.append(inert(self.options[self.index][0]))
        text.append(right, style="bold" if focused else "dim")
        text.append(f"  ({self.index + 1}/{len(self.options)})", style="dim")
        self.update(text)

    def action_step(self, delta: int) -> None:
        self.index = (self.index + delta) % len(self.options)
        self._show()
        self.post_message(self.Changed(self))
