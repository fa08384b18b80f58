"""The muster before a battle: each side picks the units it takes, within the scenario's limit.

One list per side of its units with survivors (all taken at first), the running total
against the limit and, as they arise, the reasons the muster would be refused (over the
limit, the ruleset's error findings: `campaign.campaigns.check_muster`). `b` starts the
battle: a refused side stops it with the reasons, unless the players gave an override
(`o`, a house rule) whose reason is written into the battle file with that side. `f`
forecasts the mustered forces (`campaign.simulate`, a few battles in a worker).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import SelectionList, Static
from textual.widgets.selection_list import Selection
from textual.worker import get_current_worker

from campaign.campaigns import CampaignError, check_muster, muster
from campaign.campaigns.briefing import UnitOffer
from campaign.force import Force
from campaign.inert_text import inert
from saves.errors import SaveError
from tui import battle_briefing
from tui.screens.base import MusterScreen
from tui.screens.briefing import STYLES, points
from tui.widgets.footer import MusterFooter
from tui.widgets.header import MusterHeader

FORECAST_BATTLES = 24  # enough for a rough picture in a few seconds; `muster simulate` does more
BAR = 20


class SideMuster:
    """One side's choice and what it comes to (recomputed on every toggle)."""

    def __init__(self, side_id: str, name: str, force: Force) -> None:
        self.side_id = side_id
        self.name = name
        self.force = force
        self.units: list[str] = []
        self.mustered: Force | None = None
        self.total: float | None = None
        self.refusals: tuple[str, ...] = ()
        self.override = ""

    def check(self, ready: battle_briefing.BattleBriefing) -> None:
        try:
            self.mustered = muster(ready.plan, self.force, self.units, override="checked below")
        except CampaignError as exc:  # no units picked
            self.mustered, self.total, self.refusals = None, None, (str(exc),)
            return
        result = check_muster(ready.plan, self.mustered, ready.price, ready.findings)
        self.total, self.refusals = result.total, result.refusals

    @property
    def blocked(self) -> bool:
        """Refused, and no override lets it through (a side with no units never musters)."""
        return self.mustered is None or (bool(self.refusals) and not self.override)


def bar(share: float, width: int = BAR) -> str:
    return "█" * round(share * width)


class MusterForcesScreen(MusterScreen):
    """Pick each side's units for the battle `ready` plans; `b` starts it."""

    HELP_TOPIC = "muster"
    CSS_PATH = STYLES / "muster.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("b", "start", "Start battle"),
        Binding("o", "override", "Override"),
        Binding("f", "forecast", "Forecast"),
        Binding("f1", "app.help", "Help"),
    ]

    def __init__(self, folder: Path, ready: battle_briefing.BattleBriefing) -> None:
        super().__init__()
        self.folder = Path(folder)
        self.ready = ready
        camp = ready.loaded.campaign
        self.ruleset_id = camp.ruleset
        self.sides = [SideMuster(side.id, side.name, ready.loaded.forces[side.id]) for side in camp.sides]
        offers = {side.side: side for side in ready.briefing.sides}
        for side in self.sides:
            side.units = [unit.name for unit in offers[side.side_id].units]
        self.starting = False
        self.forecast_text: Text | None = None

    def compose(self) -> ComposeResult:
        yield MusterHeader()
        yield Static(id="muster-title")
        with Horizontal(id="muster-sides"):
            offers = {side.side: side for side in self.ready.briefing.sides}
            for i, side in enumerate(self.sides):
                with Vertical(classes="muster-side"):
                    choices = [Selection(self.unit_prompt(unit, True), unit.name, True, id=f"u{n}")
                               for n, unit in enumerate(offers[side.side_id].units)]
                    yield SelectionList(*choices, id=f"muster-list-{i}", classes="muster-list")
                    yield Static(id=f"muster-total-{i}", classes="muster-total")
        yield Static(id="muster-status")
        yield MusterFooter()

    def unit_prompt(self, unit: UnitOffer, taken: bool) -> Text:
        """A unit's line; taken or not shows in a word too (NO_COLOR shows both boxes alike)."""
        # "(home)" and the points first: a long name in a narrow column (three or four sides) is
        # cut at its end, never what the limit is about
        text = Text() if taken else Text("(home) ", style="italic")
        if unit.points is not None:
            text.append(f"{points(unit.points):>4} ", style="dim")
        text.append(inert(unit.name), style="" if taken else "dim")
        text.append(f" {unit.alive}/{unit.count}", style="dim")
        return text

    def on_mount(self) -> None:
        self.sub_title = "Muster"
        self.title = inert(self.ready.loaded.campaign.name)
        doc = self.ready.briefing
        title = Text(f"Battle {doc.number}: ", style="bold")
        title.append(inert(doc.scenario))
        title.append(f"  · {'limit ' + str(doc.points_limit) + ' pts' if doc.points_limit is not None else 'no points limit'}",
                     style="dim")  # fmt: skip
        self.query_one("#muster-title", Static).update(title)
        for i, side in enumerate(self.sides):
            listing = self.query_one(f"#muster-list-{i}", SelectionList)
            listing.border_title = Text(inert(side.name))  # Text, not str: a str title is read as markup
            listing.highlighted = 0 if listing.option_count else None
        self.query_one("#muster-list-0", SelectionList).focus()
        self.recheck()

    # --- the running totals ------------------------------------------------------
    @on(SelectionList.SelectedChanged)
    def _changed(self, event: SelectionList.SelectedChanged) -> None:
        index = int(str(event.selection_list.id).rsplit("-", 1)[1])
        side = self.sides[index]
        chosen = set(event.selection_list.selected)
        side.units = [name for name in self._order(index) if name in chosen]
        offers = {side.side: side for side in self.ready.briefing.sides}[side.side_id].units
        for n, unit in enumerate(offers):
            event.selection_list.replace_option_prompt(f"u{n}", self.unit_prompt(unit, unit.name in chosen))
        self.forecast_text = None  # a forecast is for the units it was made with
        self.recheck()

    def _order(self, index: int) -> list[str]:
        listing = self.query_one(f"#muster-list-{index}", SelectionList)
        return [str(listing.get_option_at_index(i).value) for i in range(listing.option_count)]

    def recheck(self) -> None:
        limit = self.ready.plan.points_limit
        for i, side in enumerate(self.sides):
            side.check(self.ready)
            text = Text()
            count = len(side.units)
            text.append(f"{count} unit{'s' if count != 1 else ''}", style="bold")
            if side.total is not None:
                text.append(f"  {points(side.total)}" + (f" / {limit} pts" if limit is not None else " pts"), style="bold")
                if limit is not None:
                    left = limit - side.total
                    text.append(f"  ({points(left)} left)" if left >= 0 else f"  ({points(-left)} over)",
                                style="green" if left >= 0 else "bold red")  # fmt: skip
            text.append("\n")
            if side.mustered is not None and not side.refusals:
                text.append("✓ may take the field\n", style="green")
            over = side.total is not None and limit is not None and side.total > limit
            for reason in side.refusals[1:] if over else side.refusals:  # the limit is said on the line above
                text.append("✗ " + inert(reason) + "\n", style="red")
            if over and not side.override:
                text.append("✗ over the limit: leave units home\n", style="red")
            if side.override and side.refusals:
                text.append("override: " + inert(side.override) + "\n", style="yellow")
            self.query_one(f"#muster-total-{i}", Static).update(text)
        self.show_status()

    def show_status(self, note: Text | None = None) -> None:
        status = Text()
        if note is not None:
            status.append_text(note)
        elif self.forecast_text is not None:
            status.append_text(self.forecast_text)
        else:
            blocked = [s for s in self.sides if s.blocked]
            if blocked:
                status.append("Refused: ", style="bold red")
                status.append(", ".join(inert(s.name) for s in blocked))
                status.append(". Space picks units; o overrides as a house rule.", style="dim")
            else:
                status.append("b starts the battle with these units. Space picks; f forecasts.", style="dim")
        self.query_one("#muster-status", Static).update(status)

    def palette_commands(self) -> list[tuple[str, str, Any]]:
        """Extra palette entries: take or leave each unit of each side by name."""
        found: list[tuple[str, str, Any]] = []
        for index, side in enumerate(self.sides):
            for name in self._order(index):
                verb = "Leave home" if name in side.units else "Take"
                found.append((f"{verb}: {inert(name)} ({inert(side.name)})", "muster",
                              lambda i=index, n=name: self.toggle(i, n)))  # fmt: skip
        return found

    def toggle(self, index: int, name: str) -> None:
        self.query_one(f"#muster-list-{index}", SelectionList).toggle(name)

    # --- starting ------------------------------------------------------------------
    def action_start(self) -> None:
        if self.starting:
            return
        blocked = [s for s in self.sides if s.blocked]
        if blocked:
            reasons = "; ".join(f"{s.name}: {'; '.join(s.refusals)}" for s in blocked)
            self.notify(inert(reasons + ". Change the units, or o to override as a house rule."),
                        title="The muster is refused", severity="error", markup=False, timeout=12)  # fmt: skip
            return
        mustered = {s.side_id: s.mustered for s in self.sides if s.mustered is not None}
        overrides = {s.side_id: s.override for s in self.sides if s.override and s.refusals}
        self.starting = True
        self.show_status(Text("Writing the battle file...", style="dim"))
        self.start_worker(mustered, overrides)

    @work(thread=True, exclusive=True, group="muster")
    def start_worker(self, mustered: dict[str, Force], overrides: dict[str, str]) -> None:
        try:
            battle_briefing.start_mustered_battle(self.folder, self.ready, mustered, overrides)
        except (SaveError, CampaignError, OSError) as exc:
            self.app.call_from_thread(self.not_started, str(exc))
            return
        self.app.call_from_thread(self.started)

    def not_started(self, message: str) -> None:
        self.starting = False
        self.notify(inert(message), title="The battle did not start", severity="error", markup=False)
        self.show_status()

    def started(self) -> None:
        """The battle file is written: the battle screen opens it (the briefing and this
        screen leave the stack, so Escape from the battle returns to the dashboard)."""
        from tui.screens.battle import BattleScreen
        from tui.screens.briefing import BriefingScreen

        self.app.pop_screen()
        if isinstance(self.app.screen, BriefingScreen):
            self.app.pop_screen()
        self.app.push_screen(BattleScreen(self.folder))

    # --- override --------------------------------------------------------------------
    def action_override(self) -> None:
        refused = [s for s in self.sides if s.mustered is not None and s.refusals]
        if not refused:
            self.notify("Nothing to override: every side musters within the rules.", markup=False)
            return
        from tui.screens.dialogs import PromptScreen

        names = ", ".join(s.name for s in refused)

        def given(reason: str | None) -> None:
            if reason is None:
                return
            for side in refused:
                side.override = reason
            self.recheck()
            self.notify(inert(f"Override for {names}: kept in the battle file with the reason."), markup=False)

        self.app.push_screen(PromptScreen(inert(f"Let {names} muster anyway (house rule). The reason:"),
                                          placeholder="e.g. agreed: 1050 pts this time"), given)  # fmt: skip

    # --- forecast ----------------------------------------------------------------------
    def action_forecast(self) -> None:
        musters = [s.mustered for s in self.sides if s.mustered is not None and s.mustered.units]
        if len(musters) < 2 or len(musters) != len(self.sides):
            self.notify("A forecast needs every side to take units to the field.", severity="warning", markup=False)
            return
        # More than two sides: every battle is all of them at once, each against every other.
        self.show_status(Text(f"Forecasting {FORECAST_BATTLES} battles...", style="dim"))
        self.forecast_worker(tuple(musters))

    @work(thread=True, exclusive=True, group="forecast")
    def forecast_worker(self, forces: tuple[Force, ...]) -> None:
        from campaign.simulate import SimulateError, play_sides, simulator_for, summarise_sides

        worker = get_current_worker()
        scenario = self.ready.plan.scenario
        try:
            _, simulator = simulator_for(*forces)
            results = []
            for i in range(FORECAST_BATTLES):
                if worker.is_cancelled:
                    return
                results.append(play_sides(forces, scenario, self.ready.plan.seed, i))
                self.app.call_from_thread(self.show_status, Text(f"Forecasting: {i + 1} of {FORECAST_BATTLES} battles...", style="dim"))
            summary = summarise_sides(forces, results, simulator.assumptions, scenario, self.ready.plan.seed)
        except SimulateError as exc:
            self.app.call_from_thread(self.forecast_failed, str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - a forecast is a nicety: said, never a crash
            self.app.call_from_thread(self.forecast_failed, f"the forecast failed: {exc}")
            return
        self.app.call_from_thread(self.forecast_done, summary)

    def forecast_failed(self, message: str) -> None:
        self.notify(inert(message), title="No forecast", severity="warning", markup=False)
        self.show_status()

    def forecast_done(self, summary: dict[str, Any]) -> None:
        self.forecast_text = forecast_text(summary, [s.name for s in self.sides])
        self.show_status()


def forecast_text(summary: dict[str, Any], names: list[str]) -> Text:
    """Each side's chance to win, as a bar, with draws and losses in numbers."""
    text = Text(f"Forecast, {summary['battles']} auto-dice battles (rough; `muster simulate` does more):\n", style="dim")
    width = min(max(len(inert(n)) for n in names), 12)
    for side, name in zip(summary["sides"], names, strict=True):
        win, draw, loss = side["win"]["p"], side["draw"]["p"], side["loss"]["p"]
        text.append(inert(name)[:width].ljust(width) + " ", style="bold")
        text.append(bar(win).ljust(BAR), style="green")
        text.append(f" win {win:4.0%} draw {draw:4.0%} loss {loss:4.0%}\n")
    return text
