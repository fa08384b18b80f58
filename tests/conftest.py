"""Every `async def` test (the Pilot tests) runs in a fresh event loop: no asyncio plugin needed.

Hypothesis runs derandomized and without its example database (the project's rule for
property tests), whatever a test's own @settings say about example counts: every run tries
the same examples, so a failure shows on every machine and CI's time does not vary from
run to run.

Under pytest-xdist, the longest tests go first (tests/durations.txt; see
pytest_collection_modifyitems): a long test that starts last keeps one worker busy while
the others have finished.

The cycle collector is tuned for a test process (see pytest_collection_finish): measured on
Pilot and fuzz tests, it took about a third of their CPU with Python's defaults.

Textual's animations are off in tests (TEXTUAL_ANIMATIONS=none, as a player may set it): a
Pilot press waits for every running animation to end, a scroll's included, which only adds
wall time; what the screen ends up showing is the same.
"""

from __future__ import annotations

import asyncio
import gc
import inspect
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import textual._wait
import textual.constants
import textual._styles_cache
import textual.screen
import textual.strip
from hypothesis import settings

settings.register_profile("muster", derandomize=True, database=None, deadline=None)
settings.load_profile("muster")

# Apps read the level when they are made; the plugin pytest-textual-snapshot imported Textual
# before this file, so the module's value is set too. Subprocess Musters inherit the variable.
os.environ["TEXTUAL_ANIMATIONS"] = "none"
textual.constants.TEXTUAL_ANIMATIONS = "none"

# A Pilot press waits for the app to be idle twice, in windows of Textual's
# SLEEP_GRANULARITY (1/50 s): at least 40 ms of sleep per key, which left the cores idle for
# about half of the Pilot tests' time. Windows of 5 ms, with the screen's refresh period
# (1/60 s) shortened to 4 ms so that it stays shorter than one window, as it is in Textual:
# a refresh still lands inside the wait. Both names checked first: an upgrade that drops them
# fails here, not by slow or flaky waits.
assert isinstance(textual._wait.SLEEP_GRANULARITY, float) and isinstance(textual.screen.UPDATE_PERIOD, float)
textual._wait.SLEEP_GRANULARITY = 0.005
textual.screen.UPDATE_PERIOD = 0.004


# Garbage collection. Each Pilot test leaves its whole app (screens, widgets, their render
# caches) as cyclic garbage that only a full collection frees, and a full collection walks
# every live object: Textual, the test modules, pytest's own. With Python's defaults a worker
# spent about 35% of its CPU in the collector (Pilot and fuzz tests, gc.callbacks timings).
# - What exists once the tests are collected lives to the end: frozen out of collections.
# - Full collections less often (threshold2 50, not 10) and younger collections at 2,000
#   allocations, not 700 (measured best of 700/10/100, 2000/10/50, 5000/20/20, 10000/10/10).
# - Two of Textual's lru_caches key on a widget's StylesCache or a Strip and keep up to 1,024
#   dead apps' render caches alive (about 150,000 objects after a few Pilot tests), which each
#   full collection would walk again: emptied after each test (pytest_runtest_teardown).
# Together: the collector's CPU about a third of what it was. Cycles are still collected.
GC_THRESHOLDS = (2000, 10, 50)
TEXTUAL_LRU_CACHES = (textual._styles_cache.StylesCache.get_inner_outer, textual.strip.Strip.blank)
assert all(callable(getattr(cache, "cache_clear", None)) for cache in TEXTUAL_LRU_CACHES)


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    for cache in TEXTUAL_LRU_CACHES:
        cache.cache_clear()


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run `async def` tests in a fresh event loop."""
    if inspect.iscoroutinefunction(pyfuncitem.obj):
        names = pyfuncitem._fixtureinfo.argnames
        asyncio.run(pyfuncitem.obj(**{name: pyfuncitem.funcargs[name] for name in names}))
        return True
    return None


@pytest.fixture(autouse=True, scope="session")
def _cache_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Battle snapshots (saves/snapshot_cache.py) go to a temporary cache, never the user's."""
    old = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if old is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = old


# The wall time of each long test (at least 1 s), as `pytest --durations` prints it. Refresh:
#   python -m pytest -n 3 -q --durations=0 | awk '/^[0-9.]+s call/ && $1+0 >= 1' > tests/durations.txt
# A test not listed counts as short; a stale line only makes the order less good.
DURATIONS = Path(__file__).with_name("durations.txt")
_DURATION = re.compile(r"^([0-9.]+)s\s+(?:setup|call|teardown)\s+(\S.*?)\s*$")


def _durations() -> dict[str, float]:
    out: dict[str, float] = {}
    for line in DURATIONS.read_text(encoding="utf-8").splitlines() if DURATIONS.exists() else ():
        if m := _DURATION.match(line):
            out[m[2]] = out.get(m[2], 0.0) + float(m[1])
    return out


@pytest.hookimpl(trylast=True)  # after pytest's own grouping by fixture parameters
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With xdist workers, the longest tests first (stable otherwise): the workers take tests
    one at a time (--maxschedchunk=1 in pyproject.toml), so the long ones are spread over
    them and the run ends on short tests. Without xdist the order is left as collected."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    cost = _durations()
    items.sort(key=lambda item: -cost.get(item.nodeid, 0.0))  # sort is stable
