"""The notice shown instead of a screen when the terminal is smaller than 80x24."""

from __future__ import annotations

from textual import events
from textual.widgets import Static

MIN_WIDTH = 80
MIN_HEIGHT = 24


class TooSmall(Static):
    """Covers the screen (via CSS breakpoint classes) when the terminal is too small."""

    def on_mount(self) -> None:
        self._show(self.app.size.width, self.app.size.height)

    def on_resize(self, event: events.Resize) -> None:
        self._show(self.app.size.width, self.app.size.height)

    def _show(self, width: int, height: int) -> None:
        self.update(
            f"Terminal too small\n\nMuster needs at least {MIN_WIDTH} x {MIN_HEIGHT};"
            f" this one is {width} x {height}.\nEnlarge the window or make the font smaller."
        )
