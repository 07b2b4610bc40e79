"""Run every benchmark module and print one table of time ratios and peak memory.

    python -m tests.benchmarks            # all modules, then the test suite's wall time by part
    python -m tests.benchmarks pca mds    # only bench_pca.py and bench_mds.py
    python -m tests.benchmarks suite      # only the test suite's wall time by part (suite.py)
    python -m tests.benchmarks grading    # only grading a demo class (grading.py; not in the default run)

Columns: ours and the peer's best time, their ratio (below 1: ours is faster), the peak
memory of one run of each (tracemalloc), and the time of the bare LAPACK / sparse call that
does the numerical work alone (the physical limit), where one exists. A ratio above 1
comes with its reason in the last column. Benchmarks report; they never fail.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits

from .harness import best_times, peak_megabytes


def _machine() -> str:
    """BLAS kernel and thread count (threadpoolctl) and the SIMD levels NumPy dispatches to
    (X86_V3 = AVX2, X86_V4 = AVX-512; NPY_DISABLE_CPU_FEATURES switches them off)."""
    blas = ", ".join(f"{i['internal_api']} {i.get('version')} kernel {i.get('architecture')} "
                     f"threads {i['num_threads']}" for i in threadpool_info() if i["user_api"] == "blas")
    try:
        from numpy._core._multiarray_umath import __cpu_features__
    except ImportError:  # pragma: no cover - NumPy internals moved
        return f"{blas}; NumPy {np.__version__}"
    levels = " ".join(name for name in ("X86_V2", "X86_V3", "X86_V4") if __cpu_features__.get(name))
    return f"{blas}; NumPy {np.__version__} SIMD levels in use: {levels or 'baseline only'}"


def main(selected: list[str]) -> int:
    threadpool_limits(1)  # one BLAS thread for every contender, as in the test run
    print(f"machine: {_machine()}\n")
    folder = Path(__file__).parent
    if selected == ["grading"]:
        from . import grading

        return grading.main()
    names = sorted(p.stem for p in folder.glob("bench_*.py"))
    if selected:
        names = [n for n in names if n.removeprefix("bench_") in selected]
    header = ("benchmark", "peer", "ours (s)", "peer (s)", "ratio", "ours peak MB", "peer peak MB",
              "bare LAPACK call (s)", "why above 1")
    if names:
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join("---" for _ in header) + "|", flush=True)
    notes = []
    for name in names:
        module = importlib.import_module(f"{__package__}.{name}")
        for bench in module.benchmarks():
            contenders = [bench.ours, *bench.baselines.values(), *([bench.floor[1]] if bench.floor else [])]
            ours, *times = best_times(contenders, bench.repeat, bench.warmup)
            ours_memory = peak_megabytes(bench.ours)
            floor = f"{times.pop():.4f} ({bench.floor[0]})" if bench.floor else ""
            for (baseline, function), theirs in zip(bench.baselines.items(), times):
                ratio = ours / theirs
                row = (bench.label, baseline, f"{ours:.4f}", f"{theirs:.4f}", f"{ratio:.2f}", f"{ours_memory:.1f}",
                       f"{peak_megabytes(function):.1f}", floor, bench.why if ratio > 1.0 else "")
                print("| " + " | ".join(row) + " |", flush=True)  # row by row: a long run shows progress
            if bench.notes is not None:
                notes.append(f"- {bench.label}: {bench.notes()}")
    if notes:
        print("\nnotes:")
        print("\n".join(notes))
    if not selected or "suite" in selected:
        from . import suite

        print()
        suite.main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
