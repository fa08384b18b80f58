"""The footer every Muster screen shows: compact, so more bindings fit in 80 columns."""

from __future__ import annotations

from textual.widgets import Footer


class MusterFooter(Footer):
    def on_mount(self) -> None:
        self.compact = True
