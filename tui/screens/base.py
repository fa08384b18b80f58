"""What every Muster screen shares: the too-small notice, Escape backs out, help."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar, TypeVar

from typing_extensions import Self

from textual._context import active_app
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.screen import ModalScreen, Screen
from textual.widget import Widget

from tui.widgets.too_small import TooSmall

# What the screen hands back when dismissed (most screens: nothing, and say no type).
ResultT = TypeVar("ResultT")
# A screen's own style sheet (CSS_PATH) is read when the screen first opens, not at start-up.
STYLES = Path(__file__).resolve().parent.parent / "styles"


def size_classes(screen: Screen[Any]) -> None:
    """Give a new screen the breakpoint classes of the app's size (the too-small notice's).
    Textual adds them at the screen's first Resize, which restyles every widget on it a
    second time as it opens; given now, that Resize finds them in place (no restyle)."""
    try:
        app = active_app.get()
    except LookupError:  # made outside a running app: Textual adds them at the first Resize
        return
    width, height = app.size
    for dimension, screen_points, app_points in (
        (width, screen.HORIZONTAL_BREAKPOINTS, app.HORIZONTAL_BREAKPOINTS),
        (height, screen.VERTICAL_BREAKPOINTS, app.VERTICAL_BREAKPOINTS),
    ):
        points = (app_points if screen_points is None else screen_points) or []
        screen.add_class(*screen._get_breakpoint_classes(dimension, points), update=False)


def laid_out_for(screen: Screen[Any], size: Size) -> bool:
    """The screen's layout was last made for `size` (so a Resize to it needs none).

    Textual's first layout of a screen sends the screen itself a Resize (its size went from
    nothing to the terminal's), whose handler laid the whole screen out and drew it again at
    the same size, and every Resize of the top screen does so for the screens beneath it
    too (issue 17's start-up: a sixth of drawing the demo's dashboard). What a widget asked
    for since (a layout, a repaint) the screen's update timer does as it always does; a new
    size is laid out as before."""
    return size == screen._compositor.size


def first_resume(screen: Screen[Any], event: events.ScreenResume) -> None:
    """Textual restyles every widget of a screen each time it resumes (the app's theme or
    CSS may have changed while it was beneath another), the first time too: just after
    the widgets were styled as they mounted (issue 17's start-up: a tenth of drawing the
    demo's dashboard). Its first resume keeps those styles; later ones restyle as before.
    Runs before Textual's own handler (a subclass's comes first in the MRO).

    Textual's handler then lays the new screen out, which draws all of it, and asks for the
    whole screen to be drawn once more; so does the app once the screen has mounted (a
    layout, with a repaint of the whole screen: `fresh_refresh`). When the screen is the one
    on top, its first resume does what that handler does but the second drawing."""
    if getattr(screen, "_muster_resumed", False):
        return
    screen._muster_resumed = True  # type: ignore[attr-defined]
    event.refresh_styles = False
    app = screen.app
    if not screen.is_attached or not screen.is_current or app.is_inline or screen._size == app.size:
        return  # Textual's handler, repaint and all
    event.prevent_default()  # Textual's handler (Screen._on_screen_resume), less its repaint:
    if app.SUSPENDED_SCREEN_CLASS:
        screen.remove_class(app.SUSPENDED_SCREEN_CLASS)
    screen.stack_updates += 1
    app._refresh_notifications()
    screen._update_auto_focus()
    screen._refresh_layout(app.size)  # draws the whole screen (it is the top one)...
    screen._repaint_required = False  # ...as any repaint asked for so far (a title, the focus) would
    screen._muster_drawn = True  # type: ignore[attr-defined]


def fresh_refresh(screen: Screen[Any], regions: tuple[Region, ...], repaint: bool, layout: bool) -> bool:
    """Whether a refresh of `screen` repaints it: not the first layout asked for once its
    first resume has drawn it whole (Textual's app asks for it when the screen has mounted;
    the layout repaints what it moves, and each widget what it changes)."""
    if layout and getattr(screen, "_muster_drawn", False):
        screen._muster_drawn = False  # type: ignore[attr-defined]
        return bool(regions)
    return repaint


class _OneLevelDown(Screen[None]):
    """Puts BlankScreen as deep below Screen as Muster's screens are (DashboardScreen,
    MusterScreen, Screen). Textual files each class's default styles with how far down the
    class tree it met them, and parses them again when a deeper class comes: Screen's and
    Widget's, as the first Muster screen opened (issue 17's start-up: 4 M instructions)."""


class BlankScreen(_OneLevelDown):
    """The app's first screen (Textual's default), blank beneath Muster's own. Each Resize
    of the top screen lays out the screens beneath it again, and this one then has the top
    screen drawn whole again; at the size it already has (`laid_out_for`) it needs neither."""

    def _screen_resized(self, size: Size) -> None:
        if not laid_out_for(self, size):
            super()._screen_resized(size)


class MusterScreen(Screen[ResultT]):
    """A full screen. Subclasses set HELP_TOPIC and override `has_unsaved` / `save`."""

    def __init__(self, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name, id, classes)
        size_classes(self)

    HELP_TOPIC: ClassVar[str] = "general"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("f1", "app.help", "Help"),
    ]

    def _extend_compose(self, widgets: list[Widget]) -> None:
        super()._extend_compose(widgets)
        widgets.append(TooSmall(id="too-small"))  # mounted with the screen's own widgets: one layout

    def _screen_resized(self, size: Size) -> None:
        if not laid_out_for(self, size):
            super()._screen_resized(size)

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        first_resume(self, event)  # Textual's handler runs next (not called: it would run twice)

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        repaint = fresh_refresh(self, regions, repaint, layout)
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def has_unsaved(self) -> bool:
        return False

    def action_back(self) -> None:
        """Leave the screen; a screen with unsaved work asks first."""
        if not self.has_unsaved():
            self.leave()
            return
        from tui.screens.dialogs import ConfirmScreen

        def chosen(answer: str | None) -> None:
            if answer == "save":
                if self.save():
                    self.leave()
            elif answer == "discard":
                self.leave()

        self.app.push_screen(
            ConfirmScreen(
                "There are unsaved changes.",
                [("s", "save", "Save and leave"), ("d", "discard", "Discard them"), ("escape", "stay", "Keep editing")],
            ),
            chosen,
        )

    def save(self) -> bool:
        return True

    def leave(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit()


class MusterModal(ModalScreen):
    """A dialog; Escape cancels it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name, id, classes)
        size_classes(self)

    def _extend_compose(self, widgets: list[Widget]) -> None:
        super()._extend_compose(widgets)
        widgets.append(TooSmall(id="too-small"))

    def _screen_resized(self, size: Size) -> None:
        if not laid_out_for(self, size):
            super()._screen_resized(size)

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        first_resume(self, event)  # Textual's handler runs next (not called: it would run twice)

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        repaint = fresh_refresh(self, regions, repaint, layout)
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def action_cancel(self) -> None:
        self.dismiss(None)
