"""Post-battle: the players declare which scenario objectives each side achieved, and
the strategic winner, facts only the table knows. The campaign flow scores them.

Each row is a yes/no ChoiceField; side and objective names are plain Text, never markup.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Label, Static

from campaign.inert_text import inert
from campaign.outcome import format_vp
from tui.screens.base import MusterModal
from tui.screens.battle_dialogs import ChoiceField

Declared = dict[str, list[str]]
YES_NO = [("no", False), ("yes", True)]


def objective_rows(sides: list[tuple[str, str]], roles: tuple[str, ...], objectives: Any) -> list[tuple[str, Any]]:
    """(side id, objective) for every objective a side may take: open to either side, or
    named for the side's id or its scenario role (roles follow the campaign's side order)."""
    role_of = dict(zip((side_id for side_id, _ in sides), roles))
    rows = []
    for side_id, _ in sides:
        for objective in objectives:
            if objective.side in ("", side_id, role_of.get(side_id)):
                rows.append((side_id, objective))
    return rows


class ObjectivesScreen(MusterModal):
    """Dismisses with (declared objectives per side, strategic winner id or None), or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "confirm", "Apply", priority=True),
    ]

    def __init__(
        self,
        sides: list[tuple[str, str]],
        rows: list[tuple[str, Any]],
        declared: Declared,
        strategic: str | None,
    ) -> None:
        super().__init__()
        self.sides = sides
        self.rows = rows
        self.declared = declared
        self.strategic = strategic

    def compose(self) -> ComposeResult:
        names = dict(self.sides)
        with Vertical(classes="dialog objectives-form"):
            yield Label(Text("What happened on the table? (Space or arrows change a choice)"), classes="dialog-message")
            with VerticalScroll(id="objectives-fields"):
                for i, (side_id, objective) in enumerate(self.rows):
                    label = Text(inert(names.get(side_id, side_id)), style="bold")
                    label.append(f": {inert(objective.name)}")
                    if objective.vp:
                        label.append(f" ({format_vp(objective.vp)} VP)", style="dim")
                    taken = objective.name in self.declared.get(side_id, [])
                    yield Horizontal(
                        Label(label, classes="objective-label"),
                        ChoiceField(YES_NO, taken, id=f"objective-{i}"),
                        classes="objective-row",
                    )
                if not self.rows:
                    yield Static(Text("This scenario has no objectives to declare.", style="dim"))
                winners: list[tuple[str, Any]] = [("none declared", None)]
                winners += [(name, side_id) for side_id, name in self.sides]
                yield Horizontal(
                    Label(Text("Strategic winner", style="bold"), classes="objective-label"),
                    ChoiceField(winners, self.strategic, id="strategic-winner"),
                    classes="objective-row",
                )
            yield Static(Text("A strategic winner is the side that completed its scenario aim; "
                              "it decides the battle whatever the VPs.", style="dim"), classes="dialog-keys")
            yield Footer()

    def on_mount(self) -> None:
        self.query("ChoiceField").first().focus()

    def action_confirm(self) -> None:
        declared: Declared = {}
        for i, (side_id, objective) in enumerate(self.rows):
            if self.query_one(f"#objective-{i}", ChoiceField).value:
                declared.setdefault(side_id, []).append(objective.name)
        self.dismiss((declared, self.query_one("#strategic-winner", ChoiceField).value))
