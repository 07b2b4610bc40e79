"""Grading a class, timed as the README's commands run it (``python -m tests.benchmarks grading``).

Each row builds a demo class (``dimred-teach demo-class``), grades it with ``dimred-teach grade
--jobs 2`` (the sandbox ``auto`` chooses) and reports on it with ``class-report``: the wall seconds
of the grading and of the report, and the grading rate in notebooks per minute. The README and
docs/grading.md quote these rows. Like every benchmark this reports and never fails.
"""

from __future__ import annotations

import json
import os
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
