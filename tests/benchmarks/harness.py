"""The protocol every ``tests/benchmarks/bench_*.py`` module follows.

A module defines ``benchmarks()`` yielding :class:`Benchmark` objects. Each compares the
course's function (``ours``) with one or more baselines on the same data, prepared
before timing. The runner times every callable (best of ``repeat`` runs, after one
warm-up) and prints one table of ratios ours / baseline: below 1 means ours is faster.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Benchmark:
    """One comparison.

    label : what is compared and on which data, e.g. "pca svd, n=5000 p=200"
    ours : the course's call
    baselines : name -> call doing the same job (scikit-learn, the bare LAPACK call, ...)
    notes : optional callable returning a short string shown under the table (accuracy
            agreement, peak memory, iteration counts, ...)
    repeat : timed runs per callable (the best is kept)
    warmup : run each callable once untimed first (turn off for calls that take minutes)
    """

    label: str
    ours: Callable[[], object]
    baselines: dict[str, Callable[[], object]]
    notes: Callable[[], str] | None = None
    repeat: int = 3
    warmup: bool = True


def best_time(function: Callable[[], object], repeat: int, warmup: bool = True) -> float:
    """Best wall-clock seconds of ``repeat`` runs, after one untimed warm-up run if asked."""
    if warmup:
        function()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best
