"""The first screen: campaigns and force files in the folder Muster was opened on."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from campaign.force import Force
from campaign.inert_text import inert
from saves.errors import SaveError
from tui import folder_scan, workspace
from tui.widgets.footer import MusterFooter
from tui.screens.base import STYLES, MusterScreen
from tui.folder_scan import Entry
from tui.widgets.header import MusterHeader

KIND_MARK = {"campaign": ("◆ ", "bold cyan"), "force": ("▪ ", "green"), "broken": ("✖ ", "red"), "sample": ("◇ ", "dim")}


class CampaignsScreen(MusterScreen):
    CSS_PATH = STYLES / "campaigns.tcss"

    HELP_TOPIC = "campaigns"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Quit"),
        Binding("o", "open", "Open"),
        Binding("n", "new_campaign", "New campaign"),
        Binding("f", "new_force", "New force"),
        Binding("g", "rescan", "Rescan"),
        Binding("f1", "app.help", "Help"),
    ]

    def __init__(self, folder: Path, scan: bool = True) -> None:
        super().__init__()
        self.folder = folder
        # Scanned when the screen shows, and again whenever it comes back (something may
        # have been created or saved meanwhile). With --demo the first scan waits.
        self.needs_scan = scan
        self.entries: list[Entry] = []
        self.samples: list[Force] = []

    def compose(self) -> ComposeResult:
        yield MusterHeader()
        yield Static(id="folder-line")
        yield OptionList(id="entries", markup=False)
        yield Static(id="entry-detail")
        yield MusterFooter()

    def on_mount(self) -> None:
        self.sub_title = "Campaigns"
        self.query_one("#entries", OptionList).focus()
        if not self.needs_scan:
            self.query_one("#entries", OptionList).loading = True

    def on_screen_resume(self) -> None:
        if self.needs_scan:
            self.needs_scan = False
            self.action_rescan()

    def on_screen_suspend(self) -> None:
        self.needs_scan = True

    def action_back(self) -> None:
        from tui.screens.dialogs import ConfirmScreen

        def answer(value: str | None) -> None:
            if value == "quit":
                self.app.exit()

        self.app.push_screen(ConfirmScreen("Quit Muster?", [("y", "quit", "Quit"), ("escape", "stay", "Stay")]), answer)

    def action_rescan(self) -> None:
        self.query_one("#entries", OptionList).loading = True
        self.scan()

    @work(thread=True, exclusive=True, group="scan")
    def scan(self) -> None:
        """Reading every file can take a moment in a big folder: do it off the UI thread."""
        try:
            entries = folder_scan.scan(self.folder)
        except Exception as exc:  # noqa: BLE001 - an unreadable folder is shown, never a crash
            entries = [Entry("broken", self.folder, self.folder.name, str(exc))]
        samples = workspace.all_sample_forces()
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self.show_entries, entries, samples)

    def show_entries(self, entries: list[Entry], samples: list[Force]) -> None:
        self.entries = entries
        self.samples = samples
        self.query_one("#folder-line", Static).update(
            Text.assemble(("Folder ", "dim"), inert(workspace.shown_path(self.folder)))
        )
        option_list = self.query_one("#entries", OptionList)
        option_list.loading = False
        option_list.clear_options()
        options: list[Option] = []
        for i, entry in enumerate(entries):
            mark, style = KIND_MARK[entry.kind]
            label = Text(mark, style=style)
            label.append(inert(entry.name), style="bold" if entry.kind != "broken" else "")
            label.append(f"  {inert(entry.detail)}", style="dim")
            options.append(Option(label, id=f"entry-{i}"))
        if not entries:
            options.append(Option(Text("No campaigns or force files here yet: n starts a campaign.", style="dim"),
                                  id="empty", disabled=True))
        for i, force in enumerate(samples):
            mark, style = KIND_MARK["sample"]
            label = Text(mark, style=style)
            label.append(f"Sample force: {inert(force.name)}")
            label.append(f"  {force.ruleset} {force.edition or ''}", style="dim")
            options.append(Option(label, id=f"sample-{i}"))
        option_list.add_options(options)
        if options:
            option_list.highlighted = 0

    @on(OptionList.OptionHighlighted, "#entries")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        detail = self.query_one("#entry-detail", Static)
        oid = event.option.id or ""
        if oid.startswith("entry-"):
            entry = self.entries[int(oid[6:])]
            detail.update(Text(f"{entry.kind}: {inert(workspace.shown_path(entry.path))}\n{inert(entry.detail)}"))
        elif oid.startswith("sample-"):
            detail.update(Text("A built-in sample force: Enter opens a copy in the force builder.", style="dim"))

    @on(OptionList.OptionSelected, "#entries")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.open_option(event.option.id or "")

    def action_open(self) -> None:
        option_list = self.query_one("#entries", OptionList)
        if option_list.highlighted is not None:
            self.open_option(option_list.get_option_at_index(option_list.highlighted).id or "")

    def open_option(self, oid: str) -> None:
        app = self.app
        if oid.startswith("sample-"):
            force = self.samples[int(oid[7:])]
            app.open_force(force, None, new_in=self.folder)  # type: ignore[attr-defined]
            return
        if not oid.startswith("entry-"):
            return
        entry = self.entries[int(oid[6:])]
        if entry.kind == "broken":
            self.notify(inert(entry.detail), title="Cannot open", severity="error", markup=False)
        elif entry.kind == "force":
            try:
                force = workspace.load_force(entry.path)
            except (SaveError, workspace.Unavailable) as exc:
                self.notify(inert(exc), title="Cannot open", severity="error", markup=False)
                return
            app.open_force(force, entry.path)  # type: ignore[attr-defined]
        else:
            app.open_campaign(entry.path)  # type: ignore[attr-defined]

    def action_new_force(self) -> None:
        from tui.screens.dialogs import PickScreen

        options = [(Text(f"{name}  {edition}"), (rid, edition)) for rid, name, eds in workspace.known_rulesets()
                   for edition in (eds or (None,))]

        def picked(choice: tuple[str, str | None] | None) -> None:
            if choice is None:
                return
            force = Force(name="New force", ruleset=choice[0], edition=choice[1])
            self.app.open_force(force, None, new_in=self.folder)  # type: ignore[attr-defined]

        self.app.push_screen(PickScreen("Ruleset and edition of the new force", options), picked)

    def action_new_campaign(self) -> None:
        self.app.new_campaign(self.folder)  # type: ignore[attr-defined]
