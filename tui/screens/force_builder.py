"""The force builder: units and elements with live costs, findings beside them.

Edits never block: findings explain what the ruleset objects to. The force on screen
is compared with the force last saved, so backing out with unsaved edits asks first.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

import attrs
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import DataTable, Static

from campaign.campaigns import CampaignError
from campaign.findings import named
from campaign.rulesets import Ruleset, UnknownRuleset
from campaign.force import Element, Force, Unit
from campaign.inert_text import inert
from saves.errors import SaveError
from tui import force_edits as edits
from tui import workspace
from tui.widgets.footer import MusterFooter
from tui.widgets.header import MusterHeader
from tui.force_edits import Place
from tui.screens.base import STYLES, MusterScreen
from tui.widgets.force_view import (
    ForceTable,
    breakdown_text,
    derived_text,
    findings_text,
    points,
    summary_text,
)

SaveHook = Callable[[Force], None]
BankHook = Callable[[Force], Text]  # a campaign side's bank, and what saving this force would take from it


class ForceBuilderScreen(MusterScreen):
    CSS_PATH = STYLES / "force_builder.tcss"

    HELP_TOPIC = "force-builder"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("e,enter", "edit", "Edit"),
        Binding("a", "add_element", "Add element"),
        Binding("u", "add_unit", "Add unit"),
        Binding("s", "add_sample", "From samples"),
        Binding("d", "duplicate", "Duplicate"),
        Binding("delete,x", "delete", "Delete"),
        Binding("r", "rename", "Rename"),
        Binding("shift+up,minus", "move(-1)", "Move up", show=False),
        Binding("shift+down,plus", "move(1)", "Move down", show=False),
        Binding("ctrl+s", "save", "Save"),
        Binding("p", "roster", "Roster"),
        Binding("f1", "app.help", "Help"),
    ]

    def __init__(
        self,
        force: Force,
        path: Path | None = None,
        on_save: SaveHook | None = None,
        *,
        new_in: Path | None = None,
        bank: BankHook | None = None,
    ) -> None:
        super().__init__()
        self.force = force
        self.saved = force
        self.path = path
        self.on_save = on_save
        self.new_in = new_in  # a new force: its file is named when first saved
        self.priced = workspace.price(force)
        self.bank = bank

    def compose(self) -> ComposeResult:
        yield MusterHeader()
        yield Static(id="force-summary")
        yield Static(id="force-bank")
        try:
            ruleset: type[Ruleset] = type(workspace.ruleset_for(self.force))
        except (UnknownRuleset, ValueError):  # priced as unknown below; the table keeps the core's columns
            ruleset = Ruleset
        yield ForceTable(ruleset.profile, ruleset.has_points, id="force-table")
        with Horizontal(id="force-details"):
            yield Static(id="cost-breakdown", classes="panel")
            yield Static(id="findings", classes="panel")
        yield MusterFooter()

    def on_mount(self) -> None:
        self.sub_title = "Force builder"
        self.refresh_view(keep=(0, 0) if self.force.units and self.force.units[0].elements else None)
        self.query_one(ForceTable).focus()

    # --- state ------------------------------------------------------------
    def has_unsaved(self) -> bool:
        return self.force != self.saved

    def set_force(self, force: Force, keep: Place | None = None) -> None:
        self.force = force
        self.priced = workspace.price(force)
        self.refresh_view(keep)

    def refresh_view(self, keep: Place | None = None) -> None:
        table = self.query_one(ForceTable)
        table.show(self.force, self.priced, keep if keep is not None else table.place)
        has_points = self.query_one(ForceTable).has_points
        self.query_one("#force-summary", Static).update(summary_text(self.force, self.priced, self.has_unsaved(), has_points))
        bank = self.query_one("#force-bank", Static)
        bank.display = self.bank is not None
        if self.bank is not None:
            bank.update(self.bank(self.force))
        self.show_details()

    def show_details(self) -> None:
        place = self.query_one(ForceTable).place
        has_points = self.query_one(ForceTable).has_points
        breakdown = self.query_one("#cost-breakdown", Static)
        focus = ""
        if place is None:
            breakdown.update(Text("An empty force: press u to add a unit, s to add from samples.", style="dim"))
        else:
            unit, element = place
            focus = edits.path_of(place)
            if element is None:
                text = Text(inert(self.force.units[unit].name) + "\n", style="bold")
                ucost = self.priced.cost.units[unit] if self.priced.cost and unit < len(self.priced.cost.units) else None
                for e in self.force.units[unit].elements:
                    text.append(f"  {e.count} x {inert(e.name)}\n")
                if ucost is not None and has_points:
                    text.append(f"{'unit total':<24}{points(ucost.total):>6}", style="bold")
                breakdown.update(text)
            elif has_points:
                name = self.force.units[unit].elements[element].name
                breakdown.update(breakdown_text(name, workspace.element_cost(self.priced, unit, element)))
            else:  # rules without points: what they work out from the entry instead of a price
                el = self.force.units[unit].elements[element]
                breakdown.update(derived_text(el.name, self._derived(el)))
        self.query_one("#findings", Static).update(findings_text(named(self.force, self.priced.findings), focus))

    def _derived(self, element: Element) -> list[str]:
        try:
            return workspace.ruleset_for(self.force).derived_values(element)
        except (UnknownRuleset, ValueError):
            return []

    @on(DataTable.RowHighlighted)
    def _moved(self, event: DataTable.RowHighlighted) -> None:
        self.show_details()

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        self.action_edit()

    def _place(self) -> Place | None:
        return self.query_one(ForceTable).place

    # --- actions ----------------------------------------------------------
    def action_edit(self) -> None:
        place = self._place()
        if place is None:
            return
        unit, element = place
        if element is None:
            self.edit_unit(unit)
            return
        from tui.screens.element_editor import ElementEditorScreen

        def done(result: Element | None) -> None:
            if result is not None:
                self.set_force(edits.replace_element(self.force, unit, element, result), (unit, element))

        self.app.push_screen(ElementEditorScreen(self.force, unit, element), done)

    def edit_unit(self, unit: int) -> None:
        """A unit's own fields where the ruleset's profile declares some; else its name."""
        try:
            ruleset = workspace.ruleset_for(self.force)
        except (UnknownRuleset, ValueError):
            ruleset = None
        if ruleset is None or not type(ruleset).profile.unit:
            self.action_rename()
            return
        from tui.screens.unit_editor import UnitEditorScreen

        def done(result: Unit | None) -> None:
            if result is not None and result != self.force.units[unit]:
                self.set_force(edits.replace_unit(self.force, unit, result), (unit, None))

        self.app.push_screen(UnitEditorScreen(self.force.units[unit], ruleset), done)

    def action_add_unit(self) -> None:
        from tui.screens.dialogs import PromptScreen

        def named(name: str | None) -> None:
            if name:
                place = self._place()
                force, at = edits.add_unit(self.force, Unit(name), after=place[0] if place else None)
                self.set_force(force, at)

        self.app.push_screen(PromptScreen("Name of the new unit", placeholder="e.g. Assault Squad"), named)

    def action_add_element(self) -> None:
        place = self._place()
        if place is None:
            self.notify("Add a unit first (u).", severity="warning")
            return
        unit, element = place
        ruleset = workspace.ruleset_for(self.force)
        profile = type(ruleset).profile
        # a die and a MOVE only where the profile has them (a d10 model has no die of its own)
        die = ruleset.dice[1] if len(ruleset.dice) > 1 else (ruleset.dice[0] if ruleset.dice else None)
        fresh = Element("New element", die=die if profile.field("die") else None, move=4 if profile.field("move") else None)
        force, at = edits.add_element(self.force, unit, fresh, after=element)
        self.set_force(force, at)
        self.action_edit()

    def action_add_sample(self) -> None:
        from tui.screens.dialogs import PickScreen

        samples = workspace.sample_units(self.force)
        if not samples:
            self.notify("This ruleset has no sample forces for this edition.", severity="warning")
            return
        options = []
        for source, unit in samples:
            label = Text(inert(unit.name), style="bold")
            label.append(f"  from {inert(source)}", style="dim")
            options.append((label, unit))

        def picked(unit: Unit | None) -> None:
            if unit is not None:
                place = self._place()
                force, at = edits.add_unit(self.force, unit, after=place[0] if place else None)
                self.set_force(force, at)

        self.app.push_screen(PickScreen("Add a unit from the sample forces", options), picked)

    def action_duplicate(self) -> None:
        place = self._place()
        if place is not None:
            self.set_force(*edits.duplicate(self.force, place))

    def action_delete(self) -> None:
        place = self._place()
        if place is None:
            return
        from tui.screens.dialogs import ConfirmScreen

        def answer(value: str | None) -> None:
            if value == "delete":
                force, nxt = edits.delete(self.force, place)
                self.set_force(force, nxt)

        question = Text("Delete ")
        question.append(inert(edits.describe(place, self.force)), style="bold")
        question.append("?")
        self.app.push_screen(
            ConfirmScreen(question, [("y", "delete", "Delete"), ("escape", "keep", "Keep it")]), answer
        )

    def action_move(self, step: int) -> None:
        place = self._place()
        if place is not None:
            self.set_force(*edits.move(self.force, place, step))

    def action_rename(self) -> None:
        from tui.screens.dialogs import PromptScreen

        place = self._place()
        if place is None or place[1] is not None:
            target, current = "force", self.force.name
        else:
            target, current = "unit", self.force.units[place[0]].name

        def named(name: str | None) -> None:
            if not name:
                return
            if target == "force":
                self.set_force(attrs.evolve(self.force, name=name))
            else:
                assert place is not None
                self.set_force(edits.rename_unit(self.force, place[0], name), place)

        self.app.push_screen(PromptScreen(f"Rename the {target}", current), named)

    def action_roster(self) -> None:
        """Show the force as a roster for the table, and write it as Markdown beside the
        force file (<file>-roster.md) when the force has one. Unsaved edits are included."""
        from campaign.roster import roster
        from tui.cli.roster import as_text
        from tui.screens.log_viewer import LogViewerScreen

        try:
            if self.path is not None:
                doc, target = workspace.write_roster(self.force, self.path)
                where = f"written to {workspace.shown_path(target)}"
            else:
                doc, where = roster(self.force, workspace.ruleset_for(self.force)), "not written: the force has no file yet"
        except OSError as exc:
            self.notify(f"Roster not written: {exc.strerror}", severity="error", markup=False)
            return
        except Exception as exc:  # noqa: BLE001 - a force the ruleset cannot read: say so
            self.notify(inert(f"No roster: {exc}"), severity="error", markup=False)
            return
        viewer = LogViewerScreen(f"Roster: {self.force.name}", where, as_text(doc, width=74).splitlines())
        viewer.sub_title_text = "Roster"
        self.app.push_screen(viewer)

    def action_save(self) -> None:
        self.save()

    def save(self) -> bool:
        try:
            if self.on_save is not None:
                self.on_save(self.force)
            elif self.path is not None:
                workspace.save_force(self.path, self.force)
            else:
                path = (self.new_in or Path.cwd()) / workspace.force_file_name(self.force)
                if path.exists():
                    self.notify(
                        f"{inert(path.name)} already exists; rename the force (r) to save it under another name.",
                        title="Not saved", severity="error", markup=False,
                    )  # fmt: skip
                    return False
                workspace.save_force(path, self.force)
                self.path, self.new_in = path, None
        except (SaveError, OSError, workspace.Unavailable, CampaignError) as exc:
            self.notify(inert(exc), title="Not saved", severity="error", markup=False)
            return False
        self.saved = self.force
        self.refresh_view()
        self.notify(inert(f"Saved {self.path.name if self.path else self.force.name}"), markup=False)
        return True
