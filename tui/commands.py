"""The command palette (ctrl+p): every action of the screen you are on, plus app-wide ones.

Context-aware like Posting's: it lists the current screen's bindings and whatever
extra commands the screen offers through `palette_commands()` (open a side's force,
show a battle's log...). Labels are rich Text so user names are never read as markup;
help strings are escaped because the palette renders help as markup.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

from rich.text import Text
from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.markup import escape
from textual.screen import Screen

from campaign.inert_text import inert

PaletteCommand = tuple[str, str, Callable[[], object]]  # (label, help, callback)
# Every screen inherits these from Textual (focus next/previous, copy): listed after Muster's own.
TEXTUAL_ACTIONS = frozenset(b.action for b in Screen.BINDINGS if isinstance(b, Binding))


def screen_commands(screen: object, app: object) -> Iterator[PaletteCommand]:
    """The screen's own bindings and extra commands, then Muster's app-wide ones, then the
    focused widget's and Textual's (cursor movement, focus, copy), so an empty palette
    opens on Muster's actions."""
    seen: set[str] = set()
    own: list[PaletteCommand] = []
    widget: list[PaletteCommand] = []
    for active in screen.active_bindings.values():  # type: ignore[attr-defined]
        binding = active.binding
        if not binding.description or binding.action in seen:
            continue
        seen.add(binding.action)
        key = app.get_key_display(binding)  # type: ignore[attr-defined]
        run = partial(app.run_action, binding.action, active.node)  # type: ignore[attr-defined]
        (own if active.node is screen and binding.action not in TEXTUAL_ACTIONS else widget).append((binding.description, f"key: {key}", run))
    yield from own
    extra = getattr(screen, "palette_commands", None)
    if extra is not None:
        yield from extra()
    yield "Toggle light / dark theme", "key: ctrl+t", partial(app.run_action, "toggle_theme")  # type: ignore[attr-defined]
    yield "Help for this screen", "key: f1", partial(app.run_action, "help")  # type: ignore[attr-defined]
    yield from widget


def system_commands(screen: object, app: object) -> Iterator[PaletteCommand]:
    """Textual's own commands (keys, maximize, quit, screenshot, theme), after Muster's: one
    provider yields both, because the palette orders providers' answers by arrival."""
    for command in app.get_system_commands(screen):  # type: ignore[attr-defined]
        if command.discover:
            yield command.title, command.help, command.callback


class MusterCommands(Provider):
    def _commands(self) -> list[PaletteCommand]:
        found = list(screen_commands(self.screen, self.app))
        labels = {label for label, _, _ in found}
        return found + [c for c in system_commands(self.screen, self.app) if c[0] not in labels]

    async def discover(self) -> Hits:
        for label, help_text, callback in self._commands():
            yield DiscoveryHit(Text(inert(label)), callback, text=label, help=escape(inert(help_text)))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for label, help_text, callback in self._commands():
            score = matcher.match(label)
            if score > 0:
                yield Hit(score, Text(inert(label)), callback, text=label, help=escape(inert(help_text)))
