"""Checking auto dice against predicted odds: fixed seeds, 3-sigma tolerance.

Pure functions for tests and benchmarks: sample an outcome with many seeds, then check
each outcome's count lies within `sigmas` standard deviations of n * p.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction


def sample(trial: Callable[[int], int], seeds: Iterable[int]) -> Counter[int]:
    """Counts of `trial(seed)` over the seeds (each trial builds its own AutoDice(seed))."""
    return Counter(trial(seed) for seed in seeds)


def mismatches(counts: Mapping[int, int], predicted: Mapping[int, Fraction], sigmas: float = 3.0) -> list[str]:
    """Readable lines for each outcome whose count is off by more than `sigmas` SDs
    (and any outcome seen that was predicted impossible). Empty: the dice fit."""
    n = sum(counts.values())
    out = []
    for value in sorted(set(counts) | set(predicted)):
        p = float(predicted.get(value, 0))
        seen = counts.get(value, 0)
        if p == 0:
            if seen:
                out.append(f"outcome {value}: seen {seen} times, predicted impossible")
            continue
        sd = math.sqrt(n * p * (1 - p))
        if abs(seen - n * p) > sigmas * sd + 1e-9:
            out.append(f"outcome {value}: seen {seen}, expected {n * p:.1f} +- {sigmas * sd:.1f}")
    return out


def assert_matches(counts: Mapping[int, int], predicted: Mapping[int, Fraction], sigmas: float = 3.0) -> None:
    problems = mismatches(counts, predicted, sigmas)
    if problems:
        raise AssertionError("auto dice do not match the predicted odds:\n" + "\n".join(problems))
