"""The campaign dashboard: standings, VP chart, scenario track, battle history, forces.

It shows what `saves` loads and `campaign` computes (standings, VP ledger); it
decides nothing. "Next battle" is handed to the app (`MusterApp.brief_battle`: briefing, muster, battle),
where the battle screen plugs in.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Static

from campaign.campaigns import campaign_winner, standings
from campaign.campaigns.model import END
from campaign.force import Force
from campaign.inert_text import inert, inert_lines
from saves.errors import SaveError
from tui import workspace
from tui.widgets.footer import MusterFooter
from tui.widgets.lazy_plot import LazyPlot
from tui.widgets.row_table import RowTable
from tui.screens.base import MusterScreen
from tui.widgets.header import MusterHeader


def vp_text(value: Any) -> str:
    number = float(value)
    return str(int(number)) if number.is_integer() else f"{number:.2f}".rstrip("0")


BAR_WIDTH = 20


def vp_bars(camp: Any, series: dict[str, list[float]]) -> Text:
    """Before a second battle: a note (no battles) or one bar per side (one battle)."""
    if not camp.history:
        return Text("No battles yet.\nEach side's running VP total\nis drawn here as battles are fought.", style="dim")
    totals = {side.id: series.get(side.id, [0.0])[-1] for side in camp.sides}
    top = max(totals.values(), default=0.0) or 1.0
    width = max(len(inert(side.name)) for side in camp.sides)
    text = Text("After battle 1\n", style="dim")
    for side in camp.sides:
        value = totals[side.id]
        text.append(inert(side.name)[:14].ljust(min(width, 14)) + " ")  # a name is plain text, never markup
        text.append("█" * round(BAR_WIDTH * value / top), style="bold")
        text.append(f" {vp_text(value)}\n")
    return text


def bank_text(loaded: Any, side_id: str, force: Force) -> Text:
    """The force builder's line on a campaign side's reinforcement bank: what it holds, and
    what saving `force` would take from it (before the first battle edits are free)."""
    from campaign.campaigns.flow import reinforcement_cost, ruleset_price

    camp = loaded.campaign
    held = camp.side(side_id).reinforcements
    text = Text("Reinforcement bank: ", style="bold")
    text.append(f"{vp_text(held)} pts")
    if camp.battle_in_progress:
        text.append("; spent between battles (one is in progress)", style="dim")
        return text
    if not camp.history:
        text.append("; edits are free before the first battle", style="dim")
        return text
    try:
        cost = reinforcement_cost(camp, loaded.forces[side_id], force, ruleset_price(camp))
    except Exception:  # noqa: BLE001 - a ruleset without points, a half-made edit: nothing to spend
        return text
    if cost <= 0:
        text.append("; the changes cost nothing", style="dim")
    elif cost <= held:
        text.append(f"; saving spends {vp_text(cost)}, leaving {vp_text(held - cost)}", style="yellow")
    else:
        text.append(f"; changes cost {vp_text(cost)}, {vp_text(cost - held)} over: saving is refused", style="bold red")
    return text


class DashboardScreen(MusterScreen):
    HELP_TOPIC = "dashboard"
    # The battles table has the focus from the start: Textual would give it to the first
    # focusable widget (the track's scroll), then on_mount moves it (two more restyles).
    AUTO_FOCUS = "#history"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("b", "next_battle", "Next battle"),
        Binding("e", "edit_force", "Edit forces"),
        Binding("l", "show_log", "Battle log"),
        Binding("r", "report", "Report"),
        Binding("c", "commit", "Commit"),
        Binding("g", "reload", "Reload", show=False),
        Binding("f1", "app.help", "Help"),
    ]

    def __init__(self, folder: Path, *, reads: bool = True) -> None:
        """`reads=False`: the app hands it the campaign (`hand`; `muster --demo` writes the
        demo and shows it as written, often before the screen is first drawn)."""
        super().__init__()
        self.folder = folder
        self.waiting = not reads  # for the app: reloading now would read a half-written folder
        self.resumed = False  # the first resume is the push: nothing to reload yet
        self.handed: tuple[Any, dict[str, Any]] | None = None  # to show once mounted
        self.loaded: Any = None
        self.ruleset_id: str | None = None
        self.editor_lease: Any = None  # held while the force builder is open on one of the sides

    def compose(self) -> ComposeResult:
        yield MusterHeader()
        with Horizontal(id="dash-top"):
            yield Static(id="standings", classes="panel")
            # a note or bars before a second battle; the line chart (`_chart`) comes with it
            yield Static(id="vp-bars", classes="panel")
        with Horizontal(id="dash-middle"):
            with VerticalScroll(id="track-scroll", classes="panel"):  # a long track scrolls (Tab, arrows)
                yield Static(id="track")
            yield RowTable(id="history", classes="panel")
        yield Static(id="forces", classes="panel")
        yield MusterFooter()

    def on_mount(self) -> None:
        self.sub_title = "Campaign"
        table = self.query_one("#history", RowTable)
        table.border_title = "Battles"
        # 4 columns + their padding fit the 40 cells the panel has at 80 columns; the VPs come
        # before the winner so a scrollbar or a long side name clips a name, never the numbers
        for label, width in (("#", 2), ("Scenario", 15), ("VPs", 7), ("Winner", 8)):
            table.add_column(Text(label), width=width)
        self.query_one("#standings").border_title = "Sides"
        self.query_one("#track-scroll").border_title = "Scenario track"
        self.query_one("#forces").border_title = "Forces"
        self.query_one("#vp-bars").border_title = "VP over battles"
        table.focus()
        if self.handed is not None:  # drawn once, with the campaign: no "loading" first
            self.show(*self.handed)
            return
        self.query_one("#standings").loading = True  # until the worker has read the folder
        if not self.waiting:
            self.load()

    def hand(self, loaded: Any, scenarios: dict[str, Any]) -> None:
        """The campaign as the app read it (see `read_campaign`): shown now, or as the
        screen mounts."""
        if self.is_mounted:
            self.show(loaded, scenarios)
        else:
            self.handed = (loaded, scenarios)

    def on_screen_resume(self) -> None:
        """Back from a battle, post-battle or the force builder: let go of the campaign, and
        show what is on disk now."""
        if self.app.screen is not self:  # resumed only to push the next screen (the builder)
            return
        if not self.resumed:  # pushed: on_mount reads the campaign
            self.resumed = True
            return
        if self.editor_lease is not None:
            self.editor_lease.release()
            self.editor_lease = None
        if self.loaded is not None:
            self.load()

    # --- loading (a long campaign may take a moment: a worker) --------------
    def action_reload(self) -> None:
        if not self.waiting:
            self.load()

    @work(thread=True, exclusive=True, group="load-campaign")
    def load(self) -> None:
        try:
            shown = read_campaign(self.folder)
        except Exception as exc:  # noqa: BLE001 - whatever the folder holds, show it, never crash
            self.app.call_from_thread(self.show_error, str(exc))
            return
        self.app.call_from_thread(self.show, *shown)

    def show_error(self, message: str) -> None:
        self.waiting = False
        self.query_one("#standings").loading = False
        self.query_one("#standings", Static).update(Text(inert(message), style="red"))
        self.notify(inert(message), title="Cannot open the campaign", severity="error", markup=False)

    def show(self, loaded: Any, scenarios: dict[str, Any]) -> None:
        self.waiting = False
        self.loaded = loaded
        self.query_one("#standings").loading = False
        camp = loaded.campaign
        self.ruleset_id = camp.ruleset
        self.title = inert(camp.name)  # Header renders titles as plain Content: never markup
        self._show_standings(camp)
        self._show_chart(camp)
        self._show_track(camp, scenarios)
        self._show_history(camp)
        self._show_forces(camp, loaded.forces)
        writer = workspace.other_writer(self.folder)
        self.sub_title = "Campaign (another Muster is writing it)" if writer else "Campaign"
        if writer:  # why e is refused now, and what b will do
            self.notify(f"Another Muster is writing this campaign ({writer}). b watches its battle; "
                        "forces can be edited once it closes.", markup=False)  # fmt: skip
        for warning in loaded.warnings:
            self.notify(inert(warning), severity="warning", markup=False)

    def _show_standings(self, camp: Any) -> None:
        text = Text()
        for row in standings(camp):
            text.append(f"{vp_text(row.vp):>6} VP  ", style="bold")
            text.append(inert(row.name))
            text.append(f"  {row.battles_won} won\n", style="dim")
        text.append(f"\n{camp.ruleset} {camp.edition or ''} · dice {camp.dice} · {camp.activation}", style="dim")
        if camp.finished:
            winner = campaign_winner(camp)
            names = {s.id: inert(s.name) for s in camp.sides}
            text.append("\nCampaign over: ", style="bold")
            text.append(names[winner] + " win" if winner else "a draw")
        self.query_one("#standings", Static).update(text)

    def _chart(self, mount: bool) -> LazyPlot | None:
        """The line chart's panel: mounted (beside the bars, hidden) when first needed. Most
        dashboards as they open (a campaign before its second battle) never need it, and a
        widget, even hidden, costs its styles and messages (issue 17's start-up: 1.4% of
        the Python work of drawing the demo's dashboard)."""
        found = self.query("#vp-chart")
        if found or not mount:
            return found.first(LazyPlot) if found else None
        chart = LazyPlot(id="vp-chart", classes="panel")  # plotext loads as it first draws
        chart.border_title = "VP over battles"
        self.query_one("#dash-top").mount(chart, before="#vp-bars")
        return chart

    def _show_chart(self, camp: Any) -> None:
        few = len(camp.history) < 2  # a line needs two battles; before that, a note or bars
        panel = self._chart(mount=not few)
        if panel is not None:
            panel.display = not few
        self.query_one("#vp-bars").display = few
        if few or panel is None:
            self.query_one("#vp-bars", Static).update(vp_bars(camp, workspace.vp_series(camp)))
            return
        chart = panel.plot()
        plt = chart.plt
        plt.clear_data()
        plt.clear_figure()
        series = workspace.vp_series(camp)
        names = {s.id: inert(s.name) for s in camp.sides}
        for side_id, values in series.items():
            plt.plot(list(range(len(values))), values, label=names[side_id], marker="dot")
        top = max((max(v) for v in series.values()), default=0.0)
        plt.ylim(0, max(top, 1.0) * 1.1)
        plt.xticks(list(range(len(camp.history) + 1)))
        plt.xlabel("battle")
        if not camp.history:
            plt.title("no battles yet")
        chart.refresh()

    def _show_track(self, camp: Any, scenarios: dict[str, Any]) -> None:
        done = {entry.step for entry in camp.history}
        sides = {s.id: inert(s.name) for s in camp.sides}

        def step_name(step_id: str) -> str:
            if step_id == END:
                return "the campaign ends"
            try:
                scenario_id = camp.step(step_id).scenario
            except KeyError:
                return inert(step_id)
            scenario = scenarios.get(scenario_id)
            return inert(scenario.name if scenario else scenario_id)

        text = Text()
        current = 0  # the line of the step the campaign stands at: scrolled into view
        for step in camp.track:
            name = step_name(step.id)
            if step.id in done:
                text.append("✓ ", style="green")
                text.append(name + "\n", style="dim")
            elif step.id == camp.position:
                current = text.plain.count("\n")
                text.append("▶ ", style="bold yellow")
                text.append(name + "\n", style="bold")
                if camp.battle_in_progress:  # under its step, where it shows without scrolling
                    file = PurePosixPath(camp.battle_in_progress).stem  # battles/NN-id.toml: NN-id fits the panel
                    text.append(f"  In progress: {inert(file)}\n", style="yellow")
            else:
                text.append("· " + name + "\n")
            for branch in step.branches:
                text.append(f"    {sides.get(branch.when, inert(branch.when))} → {step_name(branch.goto)}\n", style="dim")
        text.rstrip()
        self.query_one("#track", Static).update(text)
        self.query_one("#track-scroll", VerticalScroll).scroll_to(y=current, animate=False)

    def _show_history(self, camp: Any) -> None:
        table = self.query_one("#history", RowTable)
        table.clear()
        names = {s.id: inert(s.name) for s in camp.sides}
        for entry in camp.history:
            vps = "/".join(vp_text(v) for v in entry.vps.values())
            table.add_row(
                Text(str(entry.battle)), Text(inert(entry.scenario_name)), Text(vps), Text(names.get(entry.winner, "draw")),
                key=str(entry.battle),
            )
        if not camp.history:
            table.add_row(Text(""), Text("No battles yet", style="dim"), Text(""), Text(""), key="none")

    def _show_forces(self, camp: Any, forces: dict[str, Force]) -> None:
        text = Text()
        for side in camp.sides:
            force = forces[side.id]
            priced = workspace.price(force, findings=False)  # only its total is shown
            alive = sum(e.alive for u in force.units for e in u.elements)
            total = sum(e.count for u in force.units for e in u.elements)
            text.append(f"{inert(side.name)}: ", style="bold")
            text.append(inert(force.name))
            text.append(f"  {len(force.units)} units, {alive}/{total} elements", style="dim")
            if priced.total is not None and _has_points(force):  # d10 has no points: no "0 pts"
                text.append(f", {vp_text(priced.total)} pts", style="dim")
            text.append("\n")
        self.query_one("#forces", Static).update(text)

    # --- actions -------------------------------------------------------------
    def leave(self) -> None:
        if len(self.app.screen_stack) <= 2:  # opened first (muster --demo): back to the list of its folder
            self.app.show_campaigns(self.folder.parent)  # type: ignore[attr-defined]
            return
        super().leave()

    def action_next_battle(self) -> None:
        if self.loaded is None:
            return
        if self.loaded.campaign.finished:
            self.notify("The campaign is over: there is no next battle.", severity="warning")
            return
        self.app.brief_battle(self.folder)  # type: ignore[attr-defined]

    def action_edit_force(self) -> None:
        if self.loaded is None:
            return
        from tui.screens.dialogs import PickScreen

        camp = self.loaded.campaign
        options = [(Text.assemble((inert(side.name), "bold"), "  ", (inert(self.loaded.forces[side.id].name), "dim")), side.id)
                   for side in camp.sides]
        self.app.push_screen(PickScreen("Edit which side's force?", options), self.edit_side)

    def edit_side(self, side_id: str | None) -> None:
        if side_id is None or self.loaded is None:
            return
        loaded = self.loaded
        try:  # one writer: the builder holds the campaign until it closes
            lease = workspace.hold_campaign(self.folder, "force editor")
        except SaveError as exc:
            self.notify(inert(exc), title="Cannot edit the force now", severity="error", markup=False)
            return
        if lease.broke is not None:
            self.notify(inert(f"Took over from a Muster that is gone ({lease.broke.describe()})."), markup=False)
        self.editor_lease = loaded.lease = lease

        def save(force: Force) -> None:
            spent = workspace.save_campaign_force(loaded, side_id, force)
            loaded.forces[side_id] = force
            self._show_forces(loaded.campaign, loaded.forces)
            if spent:
                left = loaded.campaign.side(side_id).reinforcements
                self.app.notify(f"Spent {vp_text(spent)} reinforcement points ({vp_text(left)} left).", markup=False)

        if loaded.campaign.battle_in_progress:
            self.notify(f"Battle {len(loaded.campaign.history) + 1} is in progress: it fights the units it mustered; "
                        "changes saved now apply after it.", markup=False)  # fmt: skip

        def bank(force: Force) -> Text:
            return bank_text(loaded, side_id, force)

        self.app.open_force(loaded.forces[side_id], loaded.force_path(side_id), on_save=save, bank=bank)  # type: ignore[attr-defined]

    def _history_entry(self) -> Any:
        table = self.query_one("#history", RowTable)
        if self.loaded is None or not self.loaded.campaign.history:
            return None
        return self.loaded.campaign.history[min(table.cursor_row, len(self.loaded.campaign.history) - 1)]

    @on(RowTable.RowSelected, "#history")
    def _row_selected(self) -> None:
        self.action_show_log()

    def action_show_log(self) -> None:
        entry = self._history_entry()
        if entry is None:
            self.notify("No battles fought yet.", severity="warning")
            return
        from tui.screens.log_viewer import LogViewerScreen

        try:
            lines = workspace.battle_log_lines(self.folder, entry.file)
        except SaveError as exc:
            self.notify(inert(exc), title="Cannot read the battle", severity="error", markup=False)
            return
        title = f"Battle {entry.battle}: {inert(entry.scenario_name)}"
        self.app.push_screen(LogViewerScreen(title, inert(entry.summary), lines, wrap=True))

    def action_report(self) -> None:
        if self.loaded is None:
            return
        try:
            path = workspace.write_report(self.loaded)
        except (SaveError, OSError) as exc:
            self.notify(inert(exc), title="No report", severity="error", markup=False)
            return
        self.notify(inert(f"Report written to {path}"), markup=False)

    def action_commit(self) -> None:
        if self.loaded is None:
            return
        self.commit_worker(self.loaded.campaign.name)

    @work(thread=True, exclusive=True, group="git")
    def commit_worker(self, name: str) -> None:
        message = workspace.commit_campaign(self.folder, f"Muster: {name}")
        self.app.call_from_thread(self.notify, inert_lines(message), markup=False)

    def palette_commands(self) -> list[tuple[str, str, Any]]:
        """Extra palette entries: edit each side's force, open each battle's log."""
        if self.loaded is None:
            return []
        found: list[tuple[str, str, Any]] = []
        for side in self.loaded.campaign.sides:
            found.append((f"Edit force: {inert(side.name)}", "force builder", lambda sid=side.id: self.edit_side(sid)))
        for entry in self.loaded.campaign.history:
            found.append((f"Battle log: {entry.battle}. {inert(entry.scenario_name)}", inert(entry.summary),
                          lambda e=entry: self._open_log(e)))
        return found

    def _open_log(self, entry: Any) -> None:
        table = self.query_one("#history", RowTable)
        table.move_cursor(row=entry.battle - 1)
        self.action_show_log()


def read_campaign(folder: Path, loaded: Any = None) -> tuple[Any, dict[str, Any]]:
    """What the dashboard shows: the campaign folder (read, unless given as just written)
    and its track's scenarios. Slow on a long campaign: call it from a worker."""
    loaded = loaded or workspace.open_campaign(folder)
    return loaded, workspace.track_scenarios(folder, loaded.campaign)


def _has_points(force: Force) -> bool:
    from campaign.rulesets import UnknownRuleset, ruleset_class

    try:
        return ruleset_class(force.ruleset).has_points
    except UnknownRuleset:
        return True
