"""The wall time of the course's own test suite, part by part (``python -m tests.benchmarks suite``).

Each part runs alone, as the README's test command runs it (``python3 course.py test``: every
core, one file per worker, the same environment), and the whole command runs last, its
``build --check`` included. A part's time is what someone who changed that part waits for.
Like every benchmark this reports and never fails; it takes about twice the suite's time.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import course  # noqa: E402  (the README's test command: its parallel options and environment)

GRADER = ["tests/grading/test_grading.py", "tests/grading/test_grading_assignment.py",
          "tests/grading/test_grading_construction.py", "tests/grading/test_grading_hostile.py",
          "tests/grading/test_plain_data.py", "tests/gradebook/test_class_report.py"]
PROOFS = ["tests/checks/test_check_proofs.py"]
PARTS = {
    "unit (library, build, checks' own tests)": ["tests", *(f"--ignore={path}" for path in GRADER + PROOFS)],
    "check proofs (variants and mutants, 20 seeds)": PROOFS,
    "grader (sandbox, attacks, Gradescope, class report)": GRADER,
    "nbval (lecture and solution notebooks)": ["notebooks", "solutions"],
}
"""Part name -> pytest arguments choosing its tests."""


def _run(command: list[str]) -> tuple[float, str]:
    """Wall seconds and the summary line ("2153 passed in ...") of one command."""
    started = time.perf_counter()
    result = subprocess.run(command, cwd=ROOT, env=course.test_environment(course.course_environment()),
                            capture_output=True, text=True)
    wall = time.perf_counter() - started
    lines = [line for line in result.stdout.splitlines() if re.search(r"\d+ (passed|failed)", line)]
    summary = lines[-1].strip("= ") if lines else f"exit status {result.returncode}"
    return wall, summary


def main() -> int:
    python = str(ROOT / ".venv" / "bin" / "python")
    print("| part of `python3 course.py test` | tests | wall (s) |")
    print("|---|---|---|", flush=True)
    for name, paths in PARTS.items():
        wall, summary = _run([python, "-m", "pytest", "-q", *course.parallel([]), *paths])
        print(f"| {name} | {summary} | {wall:.0f} |", flush=True)
    wall, summary = _run([sys.executable, str(ROOT / "course.py"), "test", "-q"])
    print(f"| **the whole command** (`build --check` included) | {summary} | {wall:.0f} |", flush=True)
    return 0
