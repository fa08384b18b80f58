"""The cycle collector paused over a batch of steps (a replay, a battle played by a bot).

A battle's steps make no reference cycles (tests/engine/test_collector.py checks replays
and played battles of every ruleset), but what they keep (log entries, events, the rules'
kept views) makes Python's collector walk the young objects again and again, about a
twentieth of a long replay's instructions. Over a batch of steps the collector is paused
and resumed after it, as it was: nothing is left for it, and what the batch kept is
walked once, by the next collection.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cycle collector for the block; re-enable it after only if it was enabled
    before (nested pauses, and a caller that paused it itself, are left as they were)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
