"""The values each picked id carries (a burst's dice, gap and cover per further target),
asked in a dialog after the picker, one block per picked model: a number in a digits-only
field, a choice cycled with Left/Right. The command form keeps them as the `id:part:part`
items the engine reads (FactSpec.parts), so the player never types that syntax.

Every name shown is plain Text: model and unit names are the players' own.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Input, Label, Static

from campaign.engine.pending import FactSpec
from campaign.inert_text import inert
from tui.screens.base import MusterModal
from tui.widgets.choice_field import NONE, ChoiceField, shown


def item_values(item: str, parts: tuple[FactSpec, ...]) -> tuple[str, list[Any]]:
    """ "id:part:part" (as the command carries it) into (id, values); a missing or unreadable
    part takes its default."""
    pieces = [p.strip() for p in item.split(":")]
    values: list[Any] = []
    for n, part in enumerate(parts):
        text = pieces[n + 1] if n + 1 < len(pieces) else ""
        if isinstance(part.default, int) and not isinstance(part.default, bool):
            values.append(int(text) if text.isdigit() else part.default)
        elif part.choices:
            values.append(next((c for c in part.choices if shown(c) == text), part.default))
        else:
            values.append(text or part.default)
    return pieces[0], values


def item_text(model: str, values: list[Any]) -> str:
    """The command's item for one picked id: "id:part:part"."""
    return ":".join([model, *(shown(v) for v in values)])


def summary(item: str, parts: tuple[FactSpec, ...], names: dict[str, str]) -> str:
    """One item for the form to show: "Grunt #2 (dice 1, gap 3, cover partial soft)"."""
    model, values = item_values(item, parts)
    said = ", ".join(f"{p.name} {shown(v).replace('_', ' ') or NONE}" for p, v in zip(parts, values))
    return f"{names.get(model, model)} ({said})" if said else names.get(model, model)


class PartsField(Static, can_focus=True):
    """A fact listing picked ids that each carry values: shown as words, changed only through
    the picker and PartsScreen (F2, or Enter); `value` is the command's items."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "screen.pick", "Pick", show=False)]

    def __init__(self, items: list[str], parts: tuple[FactSpec, ...], *, id: str) -> None:
        super().__init__(id=id, classes="parts-field")
        self.parts = parts
        self.names: dict[str, str] = {}  # id -> the name the picker showed for it
        self._items = list(items)

    @property
    def value(self) -> list[str]:
        return list(self._items)

    @value.setter
    def value(self, items: list[str]) -> None:
        self._items = list(items)
        self._show()

    def on_mount(self) -> None:
        self._show()

    def _show(self) -> None:
        if not self._items:
            self.update(Text("none (Enter or F2 picks)", style="dim"))
            return
        self.update(Text(inert("; ".join(summary(i, self.parts, self.names) for i in self._items))))


class PartsScreen(MusterModal):
    """Set each picked id's values; Ctrl+R (or Enter in a number) confirms, Escape leaves the
    fact as it was. Dismisses with the command's items ["id:part:part", ...] or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Back, unchanged"),
        Binding("ctrl+r", "confirm", "Done", priority=True),
    ]

    def __init__(self, title: str, picked: list[tuple[str, str, list[Any]]], parts: tuple[FactSpec, ...]) -> None:
        """`picked`: (id, name shown, values in the order of `parts`) per picked id."""
        super().__init__()
        self.title_text = title
        self.picked = picked
        self.parts = parts

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog battle-form parts-form"):
            yield Label(Text(f"{self.title_text}: each target's values", style="bold"))
            helps = "; ".join(f"{p.name.replace('_', ' ')}: {p.help}" for p in self.parts if p.help)
            if helps:
                yield Static(Text(inert(helps), style="dim"), id="parts-hint")
            with VerticalScroll(id="parts-fields"):
                for n, (_, name, values) in enumerate(self.picked):
                    yield Static(Text(inert(name), style="bold"), classes="parts-name")
                    for k, (part, value) in enumerate(zip(self.parts, values)):
                        yield self._row(f"part-{n}-{k}", part, value)
            yield Static(id="parts-error")
            yield Footer()

    def _row(self, wid: str, part: FactSpec, value: Any) -> Horizontal:
        label = Label(Text(part.name.replace("_", " ")), classes="form-label")
        if part.choices:
            options = [(shown(c).replace("_", " ") or NONE, c) for c in part.choices]
            widget: Any = ChoiceField(options, value, id=wid)
        else:
            widget = Input(inert(shown(value)), id=wid, placeholder=part.help[:60], compact=True,
                           restrict=r"[0-9]*" if isinstance(part.default, int) else None)
        widget.tooltip = part.help or None
        return Horizontal(label, widget, classes="form-row")

    def on_mount(self) -> None:
        first = self.query("#parts-fields Input, #parts-fields ChoiceField")
        if first:
            first.first().focus()

    def items(self) -> list[str]:
        """The command's items as set so far; ValueError names the first empty number."""
        found = []
        for n, (model, name, _) in enumerate(self.picked):
            values: list[Any] = []
            for k, part in enumerate(self.parts):
                widget = self.query_one(f"#part-{n}-{k}")
                if isinstance(widget, ChoiceField):
                    values.append(widget.value)
                    continue
                text = widget.value.strip()  # type: ignore[attr-defined]
                if isinstance(part.default, int) and not isinstance(part.default, bool):
                    if not text.isdigit():
                        raise ValueError(f"{name}: {part.name} is a whole number")
                    values.append(int(text))
                else:
                    values.append(text)
            found.append(item_text(model, values))
        return found

    def on_input_submitted(self) -> None:
        self.action_confirm()

    def action_confirm(self) -> None:
        try:
            items = self.items()
        except ValueError as exc:
            self.query_one("#parts-error", Static).update(Text(inert(exc), style="bold red"))
            return
        self.dismiss(items)
