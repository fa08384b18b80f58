"""Anchors the benchmarks print their figures beside, so a reader sees ratios, not machine times."""

from __future__ import annotations

import random
import time


def cpu() -> float:
    """CPU seconds of this process: the benchmarks time with it, so that other work on a
    shared machine does not count against Muster (wall time would)."""
    return time.process_time()


def bare_dice(n: int, repeat: int = 5) -> float:
    """CPU seconds for `n` d6 faces from a bare `random()` loop (best of `repeat`): the floor
    any dice engine sits on."""
    best = float("inf")
    for _ in range(repeat):
        rng = random.Random(1)
        start = cpu()
        for _ in range(n):
            int(rng.random() * 6) + 1
        best = min(best, cpu() - start)
    return best
