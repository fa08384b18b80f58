"""A table of rows under a header, with a row cursor: Textual's DataTable as the dashboard
uses it (fixed-width columns, `cursor_type="row"`), in one light widget.

Textual's DataTable cost `muster --demo` about 30 M instructions more than this one (issue
17's start-up, 2% of it): its module, its long style sheet, its caches and messages, and
the dimensions it works out on idle. This one knows its
size as soon as it has its rows and draws the same cells in the same styles, segment for
segment (tests/tui/test_row_table.py compares the two): each cell is rendered as DataTable
renders it (padded by one cell a side, cut to its column), styled with the header, cursor
and hover component styles of DataTable's style sheet. It keeps DataTable's ways: the
cursor moves with the arrows, page keys, ctrl+home/end; enter, or a click on the cursor's
cell, selects its row (`RowSelected`); the mouse lights the row under it until a key is
pressed; home/end and left/right scroll sideways; the cursor is kept in view.
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple

from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual._segment_tools import line_crop
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size, Spacing
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

CELL_PADDING = 1  # DataTable's cell_padding: one cell each side of each column
HEADER = -1  # the header's row index, as DataTable's meta marks it


class Column(NamedTuple):
    label: Text
    width: int  # of the content, without the padding


class Row(NamedTuple):
    key: str | None
    cells: list[Text]


class RowTable(ScrollView, can_focus=True):
    """Rows of Text cells under a header of column labels; one row is the cursor's."""

    ALLOW_SELECT = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Select", show=False),
        Binding("up", "cursor_up", "Cursor up", show=False),
        Binding("down", "cursor_down", "Cursor down", show=False),
        Binding("right", "scroll_right", "Scroll right", show=False),
        Binding("left", "scroll_left", "Scroll left", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("ctrl+home", "cursor_top", "Top", show=False),
        Binding("ctrl+end", "cursor_bottom", "Bottom", show=False),
        Binding("home", "scroll_home", "Home", show=False),
        Binding("end", "scroll_end", "End", show=False),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "row-table--cursor",
        "row-table--hover",
        "row-table--header",
        "row-table--header-hover",
    }
    # DataTable's rules for what a row-cursor table without zebra stripes or fixed rows shows
    DEFAULT_CSS = """
    RowTable {
        background: $surface;
        color: $foreground;
        height: auto;
        max-height: 100%;
        &:focus {
            background-tint: $foreground 5%;
            & > .row-table--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
            & > .row-table--header {
                background-tint: $foreground 5%;
            }
        }
        & > .row-table--header {
            text-style: bold;
            background: $panel;
            color: $foreground;
        }
        &:ansi > .row-table--header {
            background: ansi_bright_blue;
            color: ansi_default;
        }
        & > .row-table--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        & > .row-table--header-hover {
            background: $accent 30%;
        }
        & > .row-table--hover {
            background: $block-hover-background;
        }
    }
    """

    class RowSelected(Message):
        """Enter, or a click on the cursor's cell: the cursor's row is chosen."""

        def __init__(self, table: RowTable, cursor_row: int, row_key: str | None) -> None:
            self.table = table
            self.cursor_row = cursor_row
            self.row_key = row_key
            super().__init__()

        @property
        def control(self) -> RowTable:
            return self.table

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.columns: list[Column] = []
        self.rows: list[Row] = []
        self._cursor = (0, 0)  # (row, column): a click selects only on the cursor's own cell
        self._hover = (0, 0)
        self._show_hover = False  # the mouse's row is lit until a key moves the cursor
        self._cells: dict[tuple[int, int], list[Segment]] = {}  # (row, column): rendered, unstyled
        self._lines: dict[tuple[object, ...], Strip] = {}  # drawn lines, until the rows or styles change

    # --- what DataTable offers the dashboard --------------------------------------------
    @property
    def row_count(self) -> int:
        return len(self.rows)

    @property
    def cursor_row(self) -> int:
        return self._cursor[0]

    def add_column(self, label: Text, *, width: int) -> None:
        self.columns.append(Column(label, width))
        self._cells.clear()
        self._resized()

    def add_row(self, *cells: Text, key: str | None = None) -> None:
        self.rows.append(Row(key, list(cells)))
        self._resized()

    def clear(self) -> None:
        """No rows (the columns stay); the cursor back on the first row."""
        self.rows.clear()
        self._cells.clear()
        self._cursor = self._hover = (0, 0)
        self._resized()
        self.scroll_x = self.scroll_y = self.scroll_target_x = self.scroll_target_y = 0

    def move_cursor(self, *, row: int) -> None:
        self._move((row, self._cursor[1]))
        self._scroll_cursor_into_view()

    # --- size and drawing ------------------------------------------------------------
    def _resized(self) -> None:
        self._lines.clear()
        width = sum(column.width + 2 * CELL_PADDING for column in self.columns)
        self.virtual_size = Size(width, len(self.rows) + 1)  # the header, then a line a row
        self.refresh()

    def _cell(self, row: int, column: int) -> list[Segment]:
        """A cell as DataTable renders it, before its styles: padded, cut to its column."""
        key = (row, column)
        if key not in self._cells:
            label, width = self.columns[column]
            if row == HEADER:
                content = label
            else:  # as DataTable's cell formatter: an empty or missing cell is an empty Text
                cells = self.rows[row].cells
                content = cells[column] if column < len(cells) and cells[column] else Text(no_wrap=True, end="")
            options = self.app.console_options.update_dimensions(width + 2 * CELL_PADDING, 1).update(no_wrap=True)
            lines = self.app.console.render_lines(Padding(content, (0, CELL_PADDING)), options)
            self._cells[key] = lines[0]
        return self._cells[key]

    def _component(self, header: bool, hover: bool, cursor: bool) -> Style:
        style = Style()
        if hover:
            style += self.get_component_rich_style("row-table--hover")
            if header:
                style += self.get_component_rich_style("row-table--header-hover")
        if cursor:
            style += self.get_component_rich_style("row-table--cursor")
        return style

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        scroll_x, scroll_y = self.scroll_offset
        row = HEADER if y == 0 else y - 1 + scroll_y
        base = self.rich_style
        if row >= len(self.rows):
            return Strip.blank(width, base)
        header = row == HEADER
        hover, cursor = self._hover[0] == row and self._show_hover, self._cursor[0] == row
        key = (row, scroll_x, width, hover, cursor, base, self.has_focus)
        line = self._lines.get(key)
        if line is None:
            line = self._lines[key] = self._render_row(row, header, hover, cursor, base, scroll_x, width)
        return line

    def _render_row(self, row: int, header: bool, hover: bool, cursor: bool, base: Style, scroll_x: int, width: int) -> Strip:
        row_style = self.get_component_styles("row-table--header").rich_style if header else base
        component = self._component(header, hover, cursor)
        cell_style = row_style + component
        after = Style.from_color(color=component.color)  # the cursor's colour over the cell's own
        segments: list[Segment] = []
        for column in range(len(self.columns)):
            meta = Style.from_meta({"row": row, "column": column})
            segments.extend(Segment.apply_style(self._cell(row, column), cell_style + meta, after))
        table_width = self.virtual_size.width
        fill = row_style + component + Style.from_meta({"row": row, "column": 0, "out_of_bounds": True})
        segments.append(Segment(" " * max(0, width - table_width), fill))
        cropped = line_crop(segments, scroll_x, scroll_x + width, width)
        return Strip(cropped).adjust_cell_length(width, base).simplify()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._lines.clear()  # the focus, the theme: new component styles

    # --- the cursor ----------------------------------------------------------------------
    def _move(self, cursor: tuple[int, int]) -> None:
        """The cursor to `cursor` (kept in the table), and into view if it moved."""
        row = max(0, min(cursor[0], len(self.rows) - 1))
        column = max(0, min(cursor[1], len(self.columns) - 1))
        if (row, column) != self._cursor:
            self._cursor = (row, column)
            self.refresh()
            self._scroll_cursor_into_view()

    def _scroll_cursor_into_view(self, animate: bool = False) -> None:
        row_width = max(self.size.width, self.virtual_size.width)
        region = Region(int(self.scroll_x), self._cursor[0] + 1, row_width, 1)
        self.scroll_to_region(region, animate=animate, spacing=Spacing(1, 0, 0, 0), force=True)

    def _set_hover(self, active: bool) -> None:
        if active != self._show_hover:
            self._show_hover = active
            self.refresh()

    def action_cursor_up(self) -> None:
        self._set_hover(False)
        self._move((self._cursor[0] - 1, self._cursor[1]))

    def action_cursor_down(self) -> None:
        self._set_hover(False)
        self._move((self._cursor[0] + 1, self._cursor[1]))

    def action_cursor_top(self) -> None:
        self._set_hover(False)
        self._move((0, self._cursor[1]))

    def action_cursor_bottom(self) -> None:
        self._set_hover(False)
        self._move((len(self.rows) - 1, self._cursor[1]))

    def action_page_down(self) -> None:
        """As DataTable: the cursor goes down a page of rows, and the view with it."""
        self._set_hover(False)
        height = self.scrollable_content_region.height - 1
        rows = min(height + 1, len(self.rows) - self._cursor[0])  # the rows up to the first past the page
        self.scroll_relative(y=height, animate=False, force=True)
        self._move((self._cursor[0] + rows - 1, self._cursor[1]))

    def action_page_up(self) -> None:
        self._set_hover(False)
        height = self.scrollable_content_region.height - 1
        rows = min(height + 1, self._cursor[0] + 1)
        self.scroll_relative(y=-height, animate=False)
        self._move((self._cursor[0] - rows + 1, self._cursor[1]))

    def action_scroll_home(self) -> None:
        self._set_hover(False)
        self.scroll_x = 0

    def action_scroll_end(self) -> None:
        self._set_hover(False)
        self.scroll_x = self.max_scroll_x

    def action_scroll_left(self) -> None:
        self._set_hover(False)
        super().action_scroll_left()

    def action_scroll_right(self) -> None:
        self._set_hover(False)
        super().action_scroll_right()

    def action_select_cursor(self) -> None:
        self._set_hover(False)
        if self.rows:
            self.post_message(self.RowSelected(self, self._cursor[0], self.rows[self._cursor[0]].key))

    # --- the mouse -----------------------------------------------------------------------
    def _on_mouse_move(self, event: events.MouseMove) -> None:
        meta = event.style.meta
        if not meta:
            self._set_hover(False)
            return
        self._set_hover(True)
        if "row" in meta and "column" in meta and (meta["row"], meta["column"]) != self._hover:
            self._hover = (meta["row"], meta["column"])
            self.refresh()

    def _on_leave(self, event: events.Leave) -> None:
        self._set_hover(False)

    async def _on_click(self, event: events.Click) -> None:
        self._set_hover(True)
        meta = event.style.meta
        if "row" not in meta or "column" not in meta or meta["row"] == HEADER:
            return  # the header: DataTable's HeaderSelected, which nothing here asks for
        cell = (meta["row"], meta["column"])
        on_cursor = cell == self._cursor
        self._move(cell)
        if on_cursor:
            self.action_select_cursor()
            self._set_hover(True)
        self._scroll_cursor_into_view(animate=True)
        event.stop()
