"""The notice shown instead of a screen when the terminal is smaller than 80x24."""

from __future__ import annotations

from textual import events
from textual.app import RenderResult
from textual.widgets import Static

MIN_WIDTH = 80
MIN_HEIGHT = 24


class TooSmall(Static):
    """Covers the screen (via CSS breakpoint classes) when the terminal is too small.

    Its text is made as it is drawn (it names the terminal's size): hidden, as it
    nearly always is, it costs its screen no update and no second layout."""

    def render(self) -> RenderResult:
        width, height = self.app.size
        return (
            f"Terminal too small\n\nMuster needs at least {MIN_WIDTH} x {MIN_HEIGHT};"
            f" this one is {width} x {height}.\nEnlarge the window or make the font smaller."
        )

    def on_resize(self, event: events.Resize) -> None:
        self.refresh()
