"""Run every benchmark module and print one table of time ratios.

    python -m tests.benchmarks            # all modules
    python -m tests.benchmarks pca mds    # only bench_pca.py and bench_mds.py
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from threadpoolctl import threadpool_limits

from .harness import best_time


def main(selected: list[str]) -> int:
    threadpool_limits(1)  # one BLAS thread for every contender, as in the test run
    folder = Path(__file__).parent
    names = sorted(p.stem for p in folder.glob("bench_*.py"))
    if selected:
        names = [n for n in names if n.removeprefix("bench_") in selected]
    rows, notes = [], []
    for name in names:
        module = importlib.import_module(f"{__package__}.{name}")
        for bench in module.benchmarks():
            ours = best_time(bench.ours, bench.repeat, bench.warmup)
            for baseline, function in bench.baselines.items():
                theirs = best_time(function, bench.repeat, bench.warmup)
                rows.append((bench.label, baseline, ours, theirs, ours / theirs))
            if bench.notes is not None:
                notes.append(f"- {bench.label}: {bench.notes()}")
            print(f"done: {bench.label}", file=sys.stderr, flush=True)
    header = ("benchmark", "baseline", "ours (s)", "baseline (s)", "ratio")
    widths = [max(len(str(r[i])) if i < 2 else 12 for r in rows + [header]) for i in range(5)]
    print(" | ".join(h.ljust(w) for h, w in zip(header, widths)))
    print("-|-".join("-" * w for w in widths))
    for label, baseline, ours, theirs, ratio in rows:
        print(" | ".join([label.ljust(widths[0]), baseline.ljust(widths[1]), f"{ours:.4f}".rjust(widths[2]),
                          f"{theirs:.4f}".rjust(widths[3]), f"{ratio:.2f}".rjust(widths[4])]))
    if notes:
        print("\nnotes:")
        print("\n".join(notes))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
