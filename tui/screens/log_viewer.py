"""A past battle's log, one line per command with its rolls, plain text; a long line
wraps to the screen's width (80 columns show it whole). A roster comes laid out already."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Log, RichLog, Static

from campaign.inert_text import inert
from tui.widgets.footer import MusterFooter
from tui.screens.base import MusterScreen
from tui.widgets.header import MusterHeader


class LogViewerScreen(MusterScreen):
    HELP_TOPIC = "dashboard"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "back", "Back"), Binding("f1", "app.help", "Help")]

    sub_title_text = "Battle log"  # the roster viewer says "Roster"

    def __init__(self, title: str, summary: str, lines: list[str], *, wrap: bool = False) -> None:
        super().__init__()
        self.heading = title
        self.summary = summary
        self.lines = lines
        self.wrap = wrap  # a battle log's lines are long; a roster is laid out for 74 columns

    def compose(self) -> ComposeResult:
        yield MusterHeader()
        yield Static(Text.assemble((inert(self.heading), "bold"), "  ", (inert(self.summary), "dim")), id="log-heading")
        if self.wrap:  # plain Text lines: names are never markup
            yield RichLog(id="battle-log", wrap=True, markup=False, highlight=False, min_width=20)
        else:
            yield Log(id="battle-log", highlight=False)  # Log shows plain text: names are never markup
        yield MusterFooter()

    def on_mount(self) -> None:
        self.sub_title = self.sub_title_text
        if self.wrap:
            rich_log = self.query_one(RichLog)
            for line in self.lines:
                rich_log.write(Text(inert(line)), scroll_end=False)  # a line from the file stays one entry
            rich_log.scroll_home(animate=False)
            rich_log.focus()
            return
        log = self.query_one(Log)
        log.write_lines([inert(line) for line in self.lines])  # a line from the file stays one line
        log.scroll_home(animate=False)
        log.focus()

    def leave(self) -> None:
        self.app.pop_screen()
