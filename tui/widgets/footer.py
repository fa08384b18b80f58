"""The footer every Muster screen shows: compact, so more bindings fit in 80 columns.

Textual's Footer rebuilds all its keys whenever the screen's bindings may have changed
(each focus change) and restyles every key once more after mounting it; on a screen's
first draw that was a good part of Muster's start-up. This one is compact from the start,
gives its keys their compact class before they mount, and rebuilds only when what it
shows would differ.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class MusterFooter(Footer):
    def __init__(self) -> None:
        super().__init__(compact=True)
        self._shown: list[Any] | None = None  # the bindings the keys were built from

    def _active(self) -> list[Any]:
        # the namespace (which widget holds a binding) is left out: it changes nothing shown
        return [(key, b.binding, b.enabled, b.tooltip) for key, b in self.screen.active_bindings.items()]

    def compose(self) -> ComposeResult:
        self._shown = self._active() if self._bindings_ready else None
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                # as the key's own compact watcher would, but before it mounts: no second restyle
                widget.add_class("-compact", update=False)
            yield widget

    def bindings_changed(self, screen: Screen[Any]) -> None:
        if self._shown is not None and self.is_attached and screen is self.screen and self._shown == self._active():
            return
        super().bindings_changed(screen)
