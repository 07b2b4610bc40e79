"""Grading a class, timed as the README's commands run it (``python -m tests.benchmarks grading``).

Each row builds a demo class (``dimred-teach demo-class``), grades it with ``dimred-teach grade
--jobs 2`` (the sandbox ``auto`` chooses) and reports on it with ``class-report``: the wall seconds
of the grading and of the report, and the grading rate in notebooks per minute. Then two solutions
of every set (28 notebooks) are graded in each sandbox mode that works here (``user`` with
``--accept-readable-files``, so that a readable checkout does not stop it): what the sandbox costs,
``none`` being the floor. The README and docs/grading.md quote these rows. Like every benchmark
this reports and never fails.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / ".venv" / "bin" / "dimred-teach"
ROWS = {"set 04, 60 students (the README's example)": ["--size", "60", "--sets", "04"],
        "every set, 10 students": ["--size", "10"]}
"""Row name -> demo-class arguments."""


def _timed(command: list[str]) -> tuple[float, str]:
    started = time.perf_counter()
    result = subprocess.run([str(part) for part in command], cwd=ROOT, capture_output=True, text=True)
    return time.perf_counter() - started, result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""


def main() -> int:
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} at the start (other work slows every row)\n")
    print("| class | notebooks | grade --jobs 2 (s) | notebooks per minute | sandbox | class-report (s) |")
    print("|---|---|---|---|---|---|", flush=True)
    for name, arguments in ROWS.items():
        with tempfile.TemporaryDirectory(prefix="bench-grading-") as folder:
            demo, reports = Path(folder) / "demo", Path(folder) / "reports"
            subprocess.run([DEMO, "demo-class", "--out", demo, "--seed", "0", *arguments], cwd=ROOT, check=True,
                           capture_output=True)
            count = len(json.loads((demo / "class.json").read_text())["submissions"])
            wall, last = _timed([DEMO, "grade", demo, "--out", reports, "--jobs", "2", "--pass-fraction", "0"])
            sandbox = last.split("sandbox: ")[1].split(";")[0] if "sandbox: " in last else "?"
            report, _ = _timed([DEMO, "class-report", reports, "--out", Path(folder) / "report"])
        print(f"| {name} | {count} | {wall:.0f} | {60 * count / wall:.0f} | {sandbox} | {report:.1f} |", flush=True)
    per_sandbox()
    return 0


def per_sandbox() -> None:
    """Two solutions of every set, graded with ``--jobs 2`` in each sandbox mode."""
    print("\n| sandbox | notebooks | grade --jobs 2 (s) | notebooks per minute | load average at the start |")
    print("|---|---|---|---|---|", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-sandboxes-") as folder:
        solutions = sorted((ROOT / "solutions").glob("*.ipynb"))
        for copy in ("a", "b"):
            (Path(folder) / "class" / copy).mkdir(parents=True)
            for path in solutions:
                shutil.copy(path, Path(folder) / "class" / copy / path.name)
        for mode in ("bwrap", "user", "none"):
            load = os.getloadavg()[0]
            wall, last = _timed([DEMO, "grade", Path(folder) / "class", "--out", Path(folder) / mode, "--jobs", "2",
                                 "--pass-fraction", "0", "--sandbox", mode, "--accept-readable-files"])
            rate = f"{60 * 2 * len(solutions) / wall:.0f}" if "sandbox: " in last else "does not work here"
            print(f"| {mode} | {2 * len(solutions)} | {wall:.0f} | {rate} | {load:.1f} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
