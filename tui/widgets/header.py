"""The header of Muster's screens: Textual's Header drawn by one widget.

Textual's Header is four widgets (itself, the icon, the title, the clock's space), each
mounted, styled and given its own messages as a screen opens, and its title asked for a
layout of the whole screen at every change (issue 17's start-up: the four cost `muster
--demo` about 41 M instructions more than this one). This one widget draws the same cells
in the same styles (tests/tui/test_header.py compares the two): the title is its content,
centred between paddings the size of the icon (8 cells) and of the clock's space (10),
and the icon's and the clock's cells are drawn in place of the paddings. It keeps the
Header's ways: the icon opens the command palette (its tooltip says so, it lights up under
the mouse), a click elsewhere toggles a taller header, and the title follows the app's and
the screen's title and sub-title, redrawn in place (its size never depends on the text).
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.content import Content
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

ICON = "⭘"
ICON_WIDTH = 8  # Textual's HeaderIcon: 8 cells, the icon after one cell of padding
CLOCK_WIDTH = 10  # Textual's HeaderClockSpace
ICON_TOOLTIP = "Open the command palette"


class MusterHeader(Widget):
    """One line on top of a screen: the icon, the title and sub-title, the clock's space."""

    DEFAULT_CSS = f"""
    MusterHeader {{
        dock: top;
        width: 100%;
        height: 1;
        background: $panel;
        color: $foreground;
        padding: 0 {CLOCK_WIDTH} 0 {ICON_WIDTH};
        text-wrap: nowrap;
        text-overflow: ellipsis;
        content-align: center middle;
    }}
    MusterHeader.-tall {{
        height: 3;
        content-align-vertical: top;  /* Textual's title keeps to the top line, its icon to the middle */
    }}
    """
    ALLOW_SELECT = False

    _icon_hover = False  # the mouse is over the icon: drawn lit, as Textual's HeaderIcon:hover

    def _on_mount(self, event: events.Mount) -> None:
        super()._on_mount(event)
        # Redrawn in place when any of the four changes (the title's size is the header's).
        for node in (self.app, self.screen):
            self.watch(node, "title", self._title_changed, init=False)
            self.watch(node, "sub_title", self._title_changed, init=False)

    def _title_changed(self) -> None:
        self.refresh()  # the title is made again (`render`); no layout

    def format_title(self) -> Content:
        """The title and sub-title, as the app formats them (Textual's `App.format_title`)."""
        screen = self.screen
        title = screen.title if screen.title is not None else self.app.title
        sub_title = screen.sub_title if screen.sub_title is not None else self.app.sub_title
        return self.app.format_title(title, sub_title)

    def render(self) -> Content:
        return self.format_title()

    def render_lines(self, crop: Region) -> list[Strip]:
        width, height = self.outer_size  # padding included
        title_width = max(0, width - ICON_WIDTH - CLOCK_WIDTH)
        # the title's line (the top one) as Textual draws the widget's content; then the
        # icon's and the clock's cells in place of the padding
        lines = super().render_lines(Region(0, 0, width, 1)) if crop.y == 0 else []
        icon, clock, title_pad = self._parts(height)
        icon_width = min(ICON_WIDTH, max(0, width - CLOCK_WIDTH))  # narrower than both: the clock's space wins
        strips = []
        for y in range(crop.y, crop.bottom):
            if y == 0:
                title = lines[0].crop(ICON_WIDTH, ICON_WIDTH + title_width)
                clock_part = clock[0]
            else:  # a tall header's other lines: the header's background between icon and clock
                title, clock_part = Strip([Segment(" " * title_width, title_pad)], title_width), clock[1]
            line = Strip.join([icon[y].crop(0, icon_width), title, clock_part.crop(0, width - icon_width)])
            strips.append(line.crop(crop.x, crop.right) if crop.x or crop.right != line.cell_length else line)
        return strips

    def _parts(self, height: int) -> tuple[list[Strip], tuple[Strip, Strip], Style]:
        """The icon's cells (a line each), the clock space's (its first line, the others)
        and the header's background style, as Textual's HeaderIcon, HeaderClockSpace and
        Header draw them: padding, text, and the filler after the text, each in its style."""
        header = self.background_colors[1]
        color = self.styles.color
        background = header
        if self._icon_hover:  # `$foreground 10%` over the header, as HeaderIcon:hover
            background = header + color.with_alpha(0.1)
        pad = Style(bgcolor=background.rich_color)
        text = Style.from_color((background + color).rich_color, background.rich_color)
        fill = text + Style(reverse=False)
        middle = (height - 1) // 2  # the icon's content-align: middle
        blank = Strip([Segment(" ", pad), Segment(" " * (ICON_WIDTH - 2), fill), Segment(" ", pad)], ICON_WIDTH)
        icon = Strip([Segment(" ", pad), Segment(ICON, text), Segment(" " * (ICON_WIDTH - 3), fill), Segment(" ", pad)], ICON_WIDTH)
        header_pad = Style(bgcolor=header.rich_color)
        header_text = Style.from_color((header + color).rich_color, header.rich_color)
        clock = Strip([Segment(" ", header_pad), Segment("", header_text), Segment(" " * (CLOCK_WIDTH - 1), header_pad)], CLOCK_WIDTH)
        clock_below = Strip([Segment(" ", header_pad), Segment(" " * (CLOCK_WIDTH - 2), header_text), Segment(" ", header_pad)], CLOCK_WIDTH)
        return [icon if y == middle else blank for y in range(height)], (clock, clock_below), header_pad

    # --- the mouse -----------------------------------------------------------------
    def _over_icon(self, x: int) -> bool:
        return 0 <= x < ICON_WIDTH and self.app.ENABLE_COMMAND_PALETTE

    def _hover_icon(self, over: bool) -> None:
        if over != self._icon_hover:
            self._icon_hover = over
            self.tooltip = ICON_TOOLTIP if over else None
            self.refresh()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._hover_icon(self._over_icon(event.x))

    def on_leave(self, event: events.Leave) -> None:
        self._hover_icon(False)

    async def _on_click(self, event: events.Click) -> None:
        event.stop()
        if self._over_icon(event.x):
            await self.run_action("app.command_palette")
        else:
            self.toggle_class("-tall")
