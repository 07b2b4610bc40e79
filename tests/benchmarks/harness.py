"""The protocol every ``tests/benchmarks/bench_*.py`` module follows.

A module defines ``benchmarks()`` yielding :class:`Benchmark` objects. Each compares the
course's function (``ours``) with its peers (scikit-learn, SciPy) on the same data,
prepared before timing, and optionally with the bare LAPACK (or sparse-kernel) call that
does the numerical work alone: the physical limit no wrapper can beat. The runner times
every callable (the best of ``repeat`` rounds, each running every contender in turn, after
one warm-up), measures the peak memory of one more run with ``tracemalloc``, and prints one
table of ratios ours / peer: below 1 means ours is faster. Benchmarks report; they never fail.
"""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass
class Benchmark:
    """One comparison.

    label : what is compared and on which data, e.g. "pca svd, n=5000 p=200"
    ours : the course's call
    baselines : name -> call doing the same job (scikit-learn, SciPy, ...)
    floor : optional (name, call): the bare LAPACK / sparse call alone, the physical limit
    why : one line saying why the ratio cannot be <= 1 (empty when it can)
    notes : optional callable returning a short string shown under the table (accuracy
            agreement, iteration counts, ...)
    repeat : timed rounds; each runs every callable once (the best of each is kept)
    warmup : run each callable once untimed first (turn off for calls that take minutes)
    """

    label: str
    ours: Callable[[], object]
    baselines: dict[str, Callable[[], object]]
    floor: tuple[str, Callable[[], object]] | None = None
    why: str = ""
    notes: Callable[[], str] | None = None
    repeat: int = 3
    warmup: bool = True


def best_times(functions: Sequence[Callable[[], object]], repeat: int, warmup: bool = True) -> list[float]:
    """Best wall-clock seconds of each function over ``repeat`` rounds, after one untimed
    warm-up run of each if asked. A round runs every function once, in turn: a shared machine
    that slows down for a while slows every contender alike, and the ratios stay put."""
    if warmup:
        for function in functions:
            function()
    best = [float("inf")] * len(functions)
    for _ in range(repeat):
        for index, function in enumerate(functions):
            start = time.perf_counter()
            function()
            best[index] = min(best[index], time.perf_counter() - start)
    return best


def peak_megabytes(function: Callable[[], object]) -> float:
    """Peak memory (MB) allocated through Python and NumPy during one run of ``function``
    (``tracemalloc``; BLAS/LAPACK's own small work buffers are not seen)."""
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()
