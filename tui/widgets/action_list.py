"""An OptionList whose highlighted option carries a glyph, not only a colour.

Without colour (NO_COLOR, a monochrome terminal, a colour-blind player) a highlighted
option looked like every other; a two-cell gutter now shows "▶" on the first line of
the highlighted option. Prompts stay as they are, so a wrapped option keeps all its lines.
"""

from __future__ import annotations

from rich.segment import Segment
from textual.strip import Strip
from textual.widgets import OptionList

MARK = "\u25b6 "  # ▶ and a space: the gutter's width
GUTTER = len(MARK)


class ActionList(OptionList):
    """An OptionList with a "▶" beside the highlighted option."""

    def _get_left_gutter_width(self) -> int:
        return GUTTER

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        try:
            index, line = self._lines[self.scroll_offset.y + y]
        except IndexError:  # below the last option: a blank line as wide as the list
            return strip
        mark = MARK if index == self.highlighted and line == 0 else " " * GUTTER
        style = next((s.style for s in strip if s.style is not None), None)
        return Strip.join([Strip([Segment(mark, style)], GUTTER), strip])
