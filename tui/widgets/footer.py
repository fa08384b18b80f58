"""The footer every Muster screen shows: compact, so more bindings fit in 80 columns.

Textual's Footer mounts empty, then rebuilds all its keys whenever the screen's bindings
may have changed (each focus change, several times while a screen opens) and restyles
every key once more after mounting it; on a screen's first draw that was a good part of
Muster's start-up. This one builds its keys with the screen (drawn in its first frame),
gives them their compact class before they mount, and rebuilds only when what it shows
would differ.
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
        self._rebuilding = False  # a rebuild is already scheduled

    def _active(self) -> list[Any]:
        """What the keys are built from: the shown bindings and the palette's (the namespace,
        which widget holds a binding, is left out: it changes nothing shown, and neither do
        the hidden bindings a focused widget brings)."""
        palette = self.app.COMMAND_PALETTE_BINDING
        return [
            (key, b.binding, b.enabled, b.tooltip)
            for key, b in self.screen.active_bindings.items()
            if b.binding.show or key == palette
        ]

    def compose(self) -> ComposeResult:
        self._rebuilding = False
        # The screen's own and the app's bindings are known as it composes (a focused
        # widget adds only hidden ones): the keys come with the first frame, not after it.
        self.set_reactive(Footer._bindings_ready, True)
        self._shown = self._active()
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                # as the key's own compact watcher would, but before it mounts: no second restyle
                widget.add_class("-compact", update=False)
            yield widget

    def bindings_changed(self, screen: Screen[Any]) -> None:
        if not self.is_attached or screen is not self.screen or self._rebuilding or self._shown == self._active():
            return
        super().bindings_changed(screen)  # rebuilds after the next refresh (unless the terminal is unfocused)
        self._rebuilding = screen.app.app_focus
