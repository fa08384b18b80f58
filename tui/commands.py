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
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.markup import escape

from campaign.inert_text import inert

PaletteCommand = tuple[str, str, Callable[[], object]]  # (label, help, callback)


def screen_commands(screen: object, app: object) -> Iterator[PaletteCommand]:
    """The screen's own bindings and extra commands, then the app's."""
    seen: set[str] = set()
    for active in screen.active_bindings.values():  # type: ignore[attr-defined]
        binding = active.binding
        if not binding.description or binding.action in seen:
            continue
        seen.add(binding.action)
        key = app.get_key_display(binding)  # type: ignore[attr-defined]
        run = partial(app.run_action, binding.action, active.node)  # type: ignore[attr-defined]
        yield binding.description, f"key: {key}", run
    extra = getattr(screen, "palette_commands", None)
    if extra is not None:
        yield from extra()
    yield "Toggle light / dark theme", "key: ctrl+t", partial(app.run_action, "toggle_theme")  # type: ignore[attr-defined]
    yield "Help for this screen", "key: f1", partial(app.run_action, "help")  # type: ignore[attr-defined]


class MusterCommands(Provider):
    def _commands(self) -> list[PaletteCommand]:
        return list(screen_commands(self.screen, self.app))

    async def discover(self) -> Hits:
        for label, help_text, callback in self._commands():
            yield DiscoveryHit(Text(inert(label)), callback, text=label, help=escape(inert(help_text)))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for label, help_text, callback in self._commands():
            score = matcher.match(label)
            if score > 0:
                yield Hit(score, Text(inert(label)), callback, text=label, help=escape(inert(help_text)))
