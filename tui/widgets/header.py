"""The header of Muster's screens: Textual's Header, its title redrawn only when it changes.

Textual's Header sets its title once for each of the four things it watches (the app's
and the screen's title and sub-title) as it mounts, and again at each change, and every
time the title asks for a layout of the whole screen. Its size never depends on the text
(it fills the header between the icon and the clock's space; one line), so here the title
is redrawn in place, and only when its text or styles differ from what is shown: a screen
opening with its own title costs one layout fewer (issue 17's start-up).
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.content import Content
from textual.visual import VisualType
from textual.widgets import Header
from textual.widgets._header import HeaderTitle


class MusterTitle(HeaderTitle):
    """The header's title and sub-title."""

    _shown: Any = None  # what was drawn last (text and styles)

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        shown = (content.plain, tuple(content.spans)) if isinstance(content, Content) else content
        if shown == self._shown:
            return
        self._shown = shown
        super().update(content, layout=False)  # its size is the header's, whatever the text


class MusterHeader(Header):
    def compose(self) -> ComposeResult:
        for widget in super().compose():
            yield MusterTitle() if type(widget) is HeaderTitle else widget
