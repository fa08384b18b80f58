"""Finding plug-ins, for the ruleset and activation-scheme registries alike: every package
under a folder is imported (importing one registers what it declares), and the classes an
entry-point group of installed distributions names are handed back."""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")


def import_packages(path: Iterable[str], prefix: str) -> None:
    """Import every package directly under `path` (a package's `__path__`), named `prefix` + name."""
    import pkgutil  # a slow import: only when every plug-in is listed, not at start-up

    for info in pkgutil.iter_modules(path, prefix):
        if info.ispkg:
            importlib.import_module(info.name)


def entry_point_classes(group: str, base: type[T]) -> list[type[T]]:
    """The subclasses of `base` that the entry points of `group` name, in order. A point
    naming a module is loaded too: importing it may register its own classes."""
    from importlib.metadata import entry_points  # slow to import: only when every plug-in is listed

    found: list[type[T]] = []
    for point in entry_points(group=group):
        loaded = point.load()
        if isinstance(loaded, type) and issubclass(loaded, base):
            found.append(loaded)
    return found


class LoadOnce:
    """Runs a registry's loader once. Another thread asking meanwhile waits until the
    load has finished (a battle opens in a worker thread while the screen asks for
    names: without the wait it saw a half-filled registry, "unknown activation
    scheme"); the loading thread itself, re-entering through an import, returns at once."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._started = False
        self.done = False

    def __call__(self, load: Callable[[], None]) -> None:
        if self.done:
            return
        with self._lock:
            if self.done or self._started:
                return
            self._started = True
            try:
                load()
            finally:
                self.done = True
