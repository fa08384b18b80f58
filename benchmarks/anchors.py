"""Anchors the benchmarks print their figures beside, so a reader sees ratios, not machine times."""

from __future__ import annotations

import random
import time


def bare_dice(n: int) -> float:
    """Seconds for `n` d6 faces from a bare `random()` loop: the floor any dice engine sits on."""
    rng = random.Random(1)
    start = time.perf_counter()
    for _ in range(n):
        int(rng.random() * 6) + 1
    return time.perf_counter() - start
