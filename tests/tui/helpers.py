"""Helpers for Pilot tests: plain text of the screen, typing into a field."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input, Static


def notices(app: App) -> list[str]:  # type: ignore[type-arg]
    """The message of every notification the app sends from now on. Kept, unlike
    app._notifications, which drops a toast when it expires: a loaded machine can take
    longer than its 5 s between the notice and the assertion."""
    told: list[str] = []
    send = app.notify

    def notify(message: Any, *args: Any, **kwargs: Any) -> None:
        told.append(str(message))
        send(message, *args, **kwargs)

    app.notify = notify  # type: ignore[method-assign]
    return told


def screen_text(app: App) -> str:  # type: ignore[type-arg]
    """What the terminal shows, as plain text lines (no styles)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text.rstrip() for strip in strips)


async def type_into(pilot: Pilot, selector: str, text: str, *, keys: bool = False) -> None:  # type: ignore[type-arg]
    """Fill an Input: key by key as a player would (`keys=True`), or in one change (faster)."""
    field = pilot.app.screen.query_one(selector, Input)
    field.focus()
    field.value = ""
    await pilot.pause()
    if keys:
        await pilot.press(*text)
    else:
        field.insert_text_at_cursor(text)  # one edit, one Changed message, like a paste
    await pilot.pause()


def editor_findings(app) -> str:  # type: ignore[no-untyped-def]
    """The element editor's findings as one line: wrapping depends on what else the panel holds."""
    return " ".join(str(app.screen.query_one("#editor-findings", Static).render()).split())


def screen_cells(app: App[Any]) -> list[list[str]]:
    """The screen as the SVG snapshots see it, a list of segments per line (simplified,
    styles included): for widgets drawn cell for cell as Textual's own."""
    update = app.screen._compositor.render_update(full=True, simplify=True)
    with open("/dev/null", "w") as sink:
        console = Console(record=True, width=app.size.width, color_system="truecolor", file=sink)
        console.print(update)
    lines: list[list[str]] = [[]]
    for segment in console._record_buffer:
        if segment.control:
            if lines[-1]:
                lines.append([])
            continue
        lines[-1].append(repr(segment))
    return lines
