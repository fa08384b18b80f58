"""Help: the keys of the screen you came from, and a short reference of the active ruleset."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from tui.widgets.footer import MusterFooter
from tui.screens.base import STYLES, MusterScreen
from tui.screens.help_text import ruleset_help, screen_help
from tui.widgets.header import MusterHeader


def keys_text(screen: Screen) -> Text:
    """Every binding active on `screen`, including the app's, as 'key  description' lines."""
    text = Text()
    seen = set()
    for key, active in screen.active_bindings.items():
        binding = active.binding
        if active.node is not screen and active.node is not screen.app:
            continue  # the focused widget's own keys (cursor movement...) would drown the rest
        if not binding.description or binding.description in seen:
            continue
        seen.add(binding.description)
        shown = screen.app.get_key_display(binding)
        text.append(f"  {shown:<14}", style="bold")
        text.append(binding.description + "\n")
    text.append(f"  {'ctrl+p':<14}", style="bold")
    text.append("command palette: every action, searchable\n")
    return text


class HelpScreen(MusterScreen):
    CSS_PATH = STYLES / "help.tcss"

    HELP_TOPIC = "general"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,f1,q", "back", "Back")]

    def __init__(self, origin: Screen, ruleset_id: str | None) -> None:
        super().__init__()
        self.origin = origin
        self.ruleset_id = ruleset_id

    def compose(self) -> ComposeResult:
        topic = getattr(self.origin, "HELP_TOPIC", "general")
        yield MusterHeader()
        with VerticalScroll(id="help-body"):
            yield Static(Text("This screen", style="bold underline"), classes="help-heading")
            yield Static(Text(screen_help(topic)), classes="help-para")
            yield Static(Text("Keys", style="bold underline"), classes="help-heading")
            yield Static(keys_text(self.origin), classes="help-keys")
            yield Static(Text("Ruleset", style="bold underline"), classes="help-heading")
            yield Static(Text(ruleset_help(self.ruleset_id)), classes="help-para")
        yield MusterFooter()

    def on_mount(self) -> None:
        self.sub_title = "Help"
        self.query_one("#help-body").focus()

    def leave(self) -> None:
        self.app.pop_screen()
