"""The briefing before a battle: what the next scenario asks, read before anyone musters.

`b` on the dashboard (and `n` after a post-battle) opens it. It shows
`campaign.campaigns.briefing` as the players read it: the limit, rounds or end
condition, deployment, special rules, objectives with their VPs, and what each side
can field. Enter goes on to the muster screen. A battle already in progress (or one
another Muster is writing) skips both screens: the battle screen resumes or watches it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from campaign.campaigns.briefing import Briefing
from campaign.inert_text import inert
from campaign.outcome import format_vp
from tui import battle_briefing, workspace
from tui.screens.base import MusterScreen
from tui.widgets.footer import MusterFooter
from tui.widgets.header import MusterHeader

STYLES = Path(__file__).resolve().parent.parent / "styles"


def points(value: float | None) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def scenario_facts(doc: Briefing) -> str:
    facts = [f"limit {doc.points_limit} pts" if doc.points_limit is not None else "no points limit"]
    facts.append(f"{doc.rounds} rounds" if doc.rounds else "no round limit")
    facts.append({"vp": "won by VPs", "strategic": "won by its objectives"}.get(doc.victory, f"won by {doc.victory}"))
    facts.append(f"activation: {doc.activation}")
    return " · ".join(facts)


def briefing_text(doc: Briefing) -> Text:
    """The briefing as styled plain text (every name from a file is inert, never markup)."""
    text = Text()

    def heading(words: str) -> None:
        text.append(words + "\n", style="bold")

    text.append(inert(scenario_facts(doc)) + "\n", style="dim")
    for side in doc.sides:  # first: whether each side's survivors fit, before the scenario's story
        text.append(inert(side.name), style="bold")
        if side.role:
            text.append(inert(f" ({side.role})"), style="dim")
        units = len(side.units)
        text.append(f": {units} unit{'s' if units != 1 else ''}")
        if side.total is not None:
            text.append(f", {points(side.total)} pts")
        if side.fits:
            text.append(" · musters whole\n", style="green")
        elif side.total is not None and doc.points_limit is not None and side.total > doc.points_limit:
            text.append(f" · over the limit by {points(side.total - doc.points_limit)}\n", style="bold red")
        else:
            text.append(" · cannot muster whole\n", style="bold red")
    if doc.summary:
        text.append("\n" + inert(doc.summary) + "\n")
    if doc.end_condition:
        heading("\nEnds")
        text.append(inert(doc.end_condition) + "\n")
    if doc.deployment:
        heading("\nDeployment")
        text.append(inert(doc.deployment) + "\n")
    if doc.special_rules:
        heading("\nSpecial rules")
        for rule in doc.special_rules:
            text.append("- " + inert(rule) + "\n")
    if doc.objectives:
        heading("\nObjectives")
        for objective in doc.objectives:
            text.append(f"{format_vp(objective.vp):>5} VP  ", style="bold")
            text.append(inert(objective.name))
            if objective.side:  # a role ("defender") or a side: named by who plays it tonight
                who = next((side.name for side in doc.sides if objective.side in (side.role, side.side)), objective.side)
                text.append(inert(f" ({who})"), style="dim")
            text.append("\n")
            if objective.text:
                text.append(inert(objective.text) + "\n", style="dim")
    return text


class BriefingScreen(MusterScreen):
    """The next battle's briefing for the campaign in `folder`; Enter musters."""

    HELP_TOPIC = "briefing"
    CSS_PATH = STYLES / "muster.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("enter", "muster", "Muster the forces"),
        Binding("f1", "app.help", "Help"),
    ]

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = Path(folder)
        self.ready: battle_briefing.BattleBriefing | None = None
        self.ruleset_id: str | None = None

    def compose(self) -> ComposeResult:
        yield MusterHeader()
        yield Static(id="brief-title")
        with VerticalScroll(id="brief-scroll", classes="panel"):
            yield Static(id="brief-body")
        yield Static(Text("Enter: muster the forces · Esc: back to the campaign", style="dim"), id="brief-status")
        yield MusterFooter()

    def on_mount(self) -> None:
        self.sub_title = "Briefing"
        self.query_one("#brief-scroll").border_title = "Briefing"
        self.query_one("#brief-scroll").focus()
        self.query_one("#brief-body").loading = True
        self.load()

    @work(thread=True, exclusive=True, group="briefing")
    def load(self) -> None:
        try:
            camp = workspace.open_campaign(self.folder).campaign
            if camp.battle_in_progress or workspace.other_writer(self.folder):
                self.app.call_from_thread(self.to_battle)
                return
            ready = battle_briefing.battle_briefing(self.folder)
        except Exception as exc:  # noqa: BLE001 - a campaign that cannot battle: said, never raised
            self.app.call_from_thread(self.failed, str(exc))
            return
        self.app.call_from_thread(self.show, ready)

    def to_battle(self) -> None:
        """A battle is in progress (or being written elsewhere): no briefing, the battle itself."""
        from tui.screens.battle import BattleScreen

        self.app.switch_screen(BattleScreen(self.folder))

    def failed(self, message: str) -> None:
        self.query_one("#brief-body").loading = False
        self.query_one("#brief-body", Static).update(Text(inert(message), style="bold red"))
        self.query_one("#brief-status", Static).update(Text("No battle can start. Esc: back to the campaign", style="dim"))
        self.notify(inert(message), title="No battle", severity="error", markup=False)

    def show(self, ready: battle_briefing.BattleBriefing) -> None:
        self.ready = ready
        doc = ready.briefing
        self.ruleset_id = ready.loaded.campaign.ruleset
        self.title = inert(ready.loaded.campaign.name)
        self.query_one("#brief-body").loading = False
        title = Text(f"Battle {doc.number}: ", style="bold")
        title.append(inert(doc.scenario))
        self.query_one("#brief-title", Static).update(title)
        self.query_one("#brief-body", Static).update(briefing_text(doc))

    def action_muster(self) -> None:
        if self.ready is None:
            return
        from tui.screens.muster import MusterForcesScreen

        self.app.push_screen(MusterForcesScreen(self.folder, self.ready))

    def palette_commands(self) -> list[tuple[str, str, Any]]:
        if self.ready is None:
            return []
        return [("Muster the forces", "pick each side's units within the limit", self.action_muster)]
