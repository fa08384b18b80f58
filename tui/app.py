"""The Muster Textual application (placeholder until the TUI lands)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Footer, Header, Static


class MusterApp(App[None]):
    TITLE = "Muster"
    BINDINGS = [("q", "quit", "Quit")]

    def __init__(self, folder: str = ".", demo: bool = False) -> None:
        super().__init__()
        self.folder = folder
        self.demo = demo

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("Muster is starting up. Campaigns arrive with the campaigns work.", id="placeholder")
        yield Footer()


def run_app(folder: str = ".", demo: bool = False) -> int:
    MusterApp(folder, demo=demo).run()
    return 0
