"""Pick units or elements for a fact that lists ids, instead of typing the ids.

`candidates` says what a picker offers for one of the engine's PICKS kinds (units,
elements, the command's unit's or target's elements), labelled by name; `PickerScreen`
is the modal with a SelectionList that hands back the chosen ids in the order the player
chose them (an allocation is an order). Every label is rich Text built piece by piece:
unit, element and side names are the players' own and never read as markup.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar

import attrs
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, Label, SelectionList, Static
from textual.widgets.selection_list import Selection

from campaign.engine.display import numbered_names
from campaign.inert_text import inert
from tui.screens.base import MusterModal

DASH = " \u2014 "


@attrs.frozen
class Candidate:
    """One id a picker offers, with the plain Text shown for it."""

    id: str
    label: Text
    name: str = ""  # the unit's or element's own name, for the chosen-order line


def unit_label(state: Any, unit: Any) -> Text:
    """ "Unit (Side)": both names as typed."""
    text = Text(inert(unit.name))
    text.append(" (")
    text.append(inert(_side_name(state, unit.side)))
    text.append(")")
    return text


def element_label(state: Any, unit: Any, name: str) -> Text:
    """ "Element — Unit (Side)"."""
    text = Text(inert(name))
    text.append(DASH, style="dim")
    text.append_text(unit_label(state, unit))
    return text


def candidates(
    state: Any,
    kind: str,
    *,
    side: str = "",
    unit: str = "",
    target: str = "",
    offered: Iterable[str] | None = None,
    names: Callable[[Any], dict[str, str]] = numbered_names,
) -> list[Candidate]:
    """What a picker of `kind` offers, for a decision of `side` about `unit` (and `target`).

    `units`: every unit still on the table but `unit` itself, enemies of `side` first
    (`enemy_units`: the enemies only);
    `elements`: their living elements, grouped by unit, enemies first; `unit_elements` /
    `target_elements`: the living elements of `unit` / `target` (none when it is unknown);
    `own_elements` / `enemy_elements`: the living elements of `side`'s / its enemies' units.
    `offered`, when given (a report Decision's pick_units / pick_elements), keeps only those ids.
    `names(unit)` names its elements, as the rules name them (BattleRules.model_names).
    """
    units = [u for u in state.units if not u.eliminated]
    if kind in ("unit_elements", "target_elements"):
        wanted = unit if kind == "unit_elements" else target
        units = [u for u in units if u.id == wanted]
    elif kind == "own_elements":
        units = [u for u in units if u.side == side]
    elif kind == "enemy_elements":
        units = [u for u in units if u.side != side]
    else:
        # Enemies first (a stable sort keeps the table's own order within each group).
        units.sort(key=lambda u: u.side == side)
    keep = set(offered) if offered is not None else None
    found: list[Candidate] = []
    for u in units:
        if kind in ("units", "enemy_units"):
            if kind == "enemy_units" and u.side == side:
                continue
            if u.id != unit and (keep is None or u.id in keep):
                found.append(Candidate(u.id, unit_label(state, u), u.name))
            continue
        named = names(u)
        for element in u.alive:
            if keep is None or element.id in keep:
                found.append(Candidate(element.id, element_label(state, u, named[element.id]), named[element.id]))
    return found


def _side_name(state: Any, side_id: str) -> str:
    try:
        return str(state.side(side_id).name)
    except KeyError:
        return side_id


class PickerScreen(MusterModal):
    """Choose some of `offered` for the fact `title`; dismisses with the ids in the order chosen, or None.

    `chosen` (the ids already typed) starts selected, in its own order; a typed id the
    picker does not offer is kept, in front, so picking never silently drops what was typed.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("enter", "confirm", "Done", priority=True),
        Binding("space", "toggle_item", "Select / clear", priority=True),
        Binding("ctrl+a", "all", "All"),
        Binding("ctrl+n", "none", "None"),
    ]

    def __init__(self, title: str, offered: list[Candidate], chosen: list[str], hint: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.hint = hint
        self.offered = offered
        ids = {c.id for c in offered}
        self.kept = [i for i in chosen if i not in ids]  # typed, not offered: left as typed
        self.order = [i for i in dict.fromkeys(chosen) if i in ids]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog picker"):
            yield Label(Text(f"Pick: {self.title_text}", style="bold"), id="picker-title")
            if self.hint:
                yield Static(Text(inert(self.hint), style="dim"), id="picker-hint")
            selections = [Selection(c.label, c.id, c.id in self.order) for c in self.offered]
            yield SelectionList[str](*selections, id="picker-list")
            yield Static(id="picker-order")
            yield Footer()

    def on_mount(self) -> None:
        self.query_one("#picker-list", SelectionList).focus()
        self._show_order()

    @on(SelectionList.SelectedChanged, "#picker-list")
    def changed(self, event: SelectionList.SelectedChanged) -> None:
        selected = event.selection_list.selected
        # Keep the order already chosen; whatever was just ticked goes last.
        self.order = [i for i in self.order if i in selected] + [i for i in selected if i not in self.order]
        self._show_order()

    def _show_order(self) -> None:
        names = {c.id: c.name or c.id for c in self.offered}
        text = Text("Chosen, in order: ", style="dim")
        if not self.order and not self.kept:
            text.append("none", style="dim")
        for n, cid in enumerate(self.order, 1):
            text.append(f"{n}. ", style="bold")
            text.append(inert(names[cid]))
            text.append("  ")
        if self.kept:
            text.append("  also typed: " + inert(", ".join(self.kept)), style="dim")
        self.query_one("#picker-order", Static).update(text)

    def action_toggle_item(self) -> None:  # (DOMNode.action_toggle flips an attribute)
        self.query_one("#picker-list", SelectionList).action_select()

    def action_all(self) -> None:
        self.query_one("#picker-list", SelectionList).select_all()

    def action_none(self) -> None:
        self.query_one("#picker-list", SelectionList).deselect_all()

    def action_confirm(self) -> None:
        self.dismiss(self.kept + self.order)
