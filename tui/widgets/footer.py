"""The footer every Muster screen shows: compact, so more bindings fit in 80 columns.

Textual's Footer mounts empty, then rebuilds all its keys whenever the screen's bindings
may have changed (each focus change, several times while a screen opens) and restyles
every key once more after mounting it; on a screen's first draw that was a good part of
Muster's start-up. This one builds its keys with the screen (drawn in its first frame)
and rebuilds only when what it shows would differ.

The keys are one widget (`FooterKeys`), not a widget each: every widget costs its own
styles, messages, layout and render, and the keys were most of a screen's start-up. It
draws them cell for cell as Textual's compact FooterKeys would (the same styles and
spacing; tests/tui/test_footer.py compares the two), and takes their clicks, hover and
tooltips. The command palette's key, docked right, is one more (issue 17's start-up: a
FooterKey widget and its style sheet cost `muster --demo` about 6 M instructions).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.app import ComposeResult
from textual.containers import ScrollableContainer
from textual.geometry import Size
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget


class Key(NamedTuple):
    key: str  # the key pressed when it is clicked
    display: str
    description: str
    disabled: bool
    tooltip: str

    @property
    def width(self) -> int:
        return len(self.display) + (1 + len(self.description) if self.description else 0)


class FooterKeys(Widget):
    """The footer's keys in one widget, laid out as compact FooterKeys: each key in bold,
    a space, its description, and one blank cell (the Footer's own background) between
    keys. The Footer clips and scrolls it as it did the row of FooterKeys."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"footer-key--key", "footer-key--description", "footer-key--hover"}
    # FooterKey's rules (Textual's _footer.py), compact, without the whole-widget :hover
    DEFAULT_CSS = """
    FooterKeys {
        width: auto;
        height: 1;
        margin-right: 1;
        text-wrap: nowrap;
        background: $footer-item-background;
        .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .footer-key--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .footer-key--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
        &.-command-palette {  /* Footer's rules for its compact palette key */
            dock: right;
            border-left: vkey $foreground 20%;
        }
        &.-command-palette.-hover {  /* FooterKey:hover: the whole key lights up, border too */
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
    }
    """

    def __init__(self, keys: list[Key], classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.keys = keys
        self.hovered: int | None = None

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return sum(key.width for key in self.keys) + max(len(self.keys) - 1, 0)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 1

    def render_line(self, y: int) -> Strip:
        if y or not self.keys:
            return Strip.blank(self.size.width, self.rich_style)
        base = self.rich_style
        key_style = base + self.get_component_rich_style("footer-key--key")
        description_style = base + self.get_component_rich_style("footer-key--description")
        hover = self.get_component_rich_style("footer-key--hover")
        gap = Style(bgcolor=self.parent.rich_style.bgcolor) if isinstance(self.parent, Widget) else Style()
        segments: list[Segment] = []
        for i, key in enumerate(self.keys):
            on_key, on_description = key_style, description_style
            if i == self.hovered and not self.has_class("-command-palette"):  # its background under both parts
                on_key = on_key + Style(bgcolor=hover.bgcolor)
                on_description = on_description + Style(color=hover.color, bgcolor=hover.bgcolor)
            if key.disabled:
                on_key, on_description = on_key + Style(dim=True), on_description + Style(dim=True)
            if i:
                segments.append(Segment(" ", gap))
            # each part's offset within its key, as Textual marks the cells of a FooterKey
            segments.append(Segment(key.display, on_key + Style.from_meta({"offset": (0, 0)})))
            if key.description:
                meta = Style.from_meta({"offset": (len(key.display), 0)})
                segments.append(Segment(" " + key.description, on_description + meta))
        return Strip(segments).adjust_cell_length(self.size.width, self.rich_style)

    def key_at(self, x: int) -> int | None:
        start = 0
        for i, key in enumerate(self.keys):
            if start <= x < start + key.width:
                return i
            start += key.width + 1
        return None

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._hover(self.key_at(event.x))

    def on_leave(self, event: events.Leave) -> None:
        self._hover(None)

    def _hover(self, index: int | None) -> None:
        if index != self.hovered:
            self.hovered = index
            self.set_class(index is not None and self.has_class("-command-palette"), "-hover")
            self.tooltip = self.keys[index].tooltip or None if index is not None else None
            self.refresh()

    def on_mouse_down(self, event: events.MouseDown) -> None:
        index = self.key_at(event.x)
        if index is None:
            return
        if self.keys[index].disabled:
            self.app.bell()
        else:
            self.app.simulate_key(self.keys[index].key)


class MusterFooter(ScrollableContainer, can_focus=False, can_focus_children=False):
    """The bottom line of a screen: its shown bindings, then the command palette's key,
    chosen and ordered as Textual's compact Footer chooses them (one key per action, the
    first bound; Muster has no binding groups, which Textual's Footer would gather).

    Not a Footer: Textual's Footer brings its own style sheet (parsed, and matched against
    every widget) and composes throwaway FooterKey widgets, one a key, that this one only
    read (issue 17's start-up). Its rules for itself are copied here; the app lets it
    stay on screen beside a maximized widget, as Textual lets a Footer (tui/app.py)."""

    ALLOW_SELECT = False
    # Textual's Footer's rules for the Footer itself (its others style FooterKey widgets)
    DEFAULT_CSS = """
    MusterFooter {
        layout: horizontal;
        color: $footer-foreground;
        background: $footer-background;
        dock: bottom;
        height: 1;
        scrollbar-size: 0 0;
    }
    """

    def __init__(self) -> None:
        super().__init__()
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
        # The screen's own and the app's bindings are known as it composes (a focused
        # widget adds only hidden ones): the keys come with the first frame, not after it.
        self._rebuilding = False
        self._shown = self._active()
        app = self.app
        active = self.screen.active_bindings
        by_action: dict[str, Key] = {}  # the first shown binding of each action, in order
        for _node, binding, enabled, tooltip in active.values():
            if binding.show and binding.action not in by_action:
                display = app.get_key_display(binding)
                by_action[binding.action] = Key(binding.key, display, binding.description, not enabled, tooltip)
        if by_action:
            yield FooterKeys(list(by_action.values()))
        if app.ENABLE_COMMAND_PALETTE and app.COMMAND_PALETTE_BINDING in active:
            _node, binding, enabled, _tooltip = active[app.COMMAND_PALETTE_BINDING]
            key = Key(binding.key, app.get_key_display(binding), binding.description, not enabled,
                      binding.tooltip or binding.description)  # fmt: skip
            yield FooterKeys([key], classes="-command-palette")

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen[Any]) -> None:
        """Rebuilds the keys after the next refresh when what they show would change (not
        while the terminal is unfocused: Textual's Footer waits for the focus too)."""
        if not self.is_attached or screen is not self.screen or self._rebuilding or self._shown == self._active():
            return
        if screen.app.app_focus:
            self._rebuilding = True
            self.call_after_refresh(self.recompose)

    # Textual's Footer's: the mouse wheel scrolls a footer wider than the screen sideways
    def _on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        if self.allow_horizontal_scroll:
            self.release_anchor()
            if self._scroll_right_for_pointer(animate=True):
                event.stop()
                event.prevent_default()

    def _on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        if self.allow_horizontal_scroll:
            self.release_anchor()
            if self._scroll_left_for_pointer(animate=True):
                event.stop()
                event.prevent_default()
