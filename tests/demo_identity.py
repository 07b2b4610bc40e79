"""Does a change keep what a class's grading writes? ``python tests/demo_identity.py BEFORE AFTER``
grades one demo class (sets 03, 04, 07, 12 and 13, 16 students: 80 notebooks, every check kind)
with the course in each checkout (each its own ``.venv``, as ``course.py build`` makes it) and
a fixed seed key, then writes the class report (students' pages included), the written answers'
pages and the gradebook with a roster, and compares every file: byte for byte, else once the
execution times and the output folder's path are put aside. Exit status 1 when any file differs.

A refactoring (issue 49) must leave these files as they were; a change of what the grader says
shows here, file by file. About a minute and a half per checkout on 2 cores."""

from __future__ import annotations

import filecmp
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

SETS = ["03", "04", "07", "12", "13"]
STUDENTS = 16


def _tool(checkout: Path, work: Path, *args: str) -> None:
    """``checkout``'s dimred-teach, run in ``work``, the folder that holds the class (the reports
    record the folder a run was made in, for regrade)."""
    subprocess.run([str(checkout / ".venv" / "bin" / "dimred-teach"), *args], cwd=work, check=True,
                   stdout=subprocess.DEVNULL, env=dict(os.environ, DIMRED_TEACH_SEED_KEY="demo-identity"))


def _roster(path: Path) -> None:
    """Every student but the last on the roster (one notebook on no row), and a name a spreadsheet
    would take for a formula."""
    rows = ["id,name,folder,email,section"]
    rows += [f"S{k:03d},Student {k},student-{k:03d},s{k}@example.edu,A" for k in range(1, STUDENTS)]
    rows.append('S099,"=HYPERLINK(""x"")",nobody,x@example.edu,B')
    path.write_text("\n".join(rows) + "\n")


def grade_the_class(checkout: Path, work: Path, out: Path) -> None:
    """What grading ``work``'s class writes, with the course in ``checkout``, into ``out``."""
    notebooks, roster = work / "class", work / "roster.csv"
    try:
        _tool(checkout, work, "grade", str(notebooks), "--out", str(out / "reports"), "--gradebook",
              str(out / "gradebook.csv"), "--jobs", "2")
    except subprocess.CalledProcessError as error:
        if error.returncode != 1:  # 1: some students do not pass, as built
            raise
    _tool(checkout, work, "class-report", str(out / "reports"), "--out", str(out / "class-report"), "--root",
          str(checkout), "--students")
    _tool(checkout, work, "written", str(out / "reports"), "--out", str(out / "written"), "--root", str(checkout),
          "--seed", "1")
    _tool(checkout, work, "gradebook", str(out / "reports"), "--roster", str(roster), "--out", str(out / "gradebook"),
          "--root", str(checkout))


def _without_timings(path: Path, out: Path) -> str:
    text = path.read_text(encoding="utf-8", errors="replace").replace(str(out), "OUT")
    return re.sub(r'"execution_time": [0-9.]+|time="[0-9.]+"|, [0-9.]+ s\)', "TIME", text)


def differences(before: Path, after: Path) -> tuple[int, list[str]]:
    """How many files the two outputs hold, and those that differ beyond timings."""
    files = sorted(str(p.relative_to(before)) for p in before.rglob("*") if p.is_file())
    other = sorted(str(p.relative_to(after)) for p in after.rglob("*") if p.is_file())
    differ = sorted(set(files) ^ set(other))
    for name in sorted(set(files) & set(other)):
        a, b = before / name, after / name
        if not filecmp.cmp(a, b, shallow=False) and _without_timings(a, before) != _without_timings(b, after):
            differ.append(name)
    return len(files), differ


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    before, after = (Path(arg).resolve() for arg in argv)
    with tempfile.TemporaryDirectory(prefix="demo-identity-") as folder:
        work = Path(folder)
        _tool(after, work, "demo-class", "--out", str(work / "class"), "--size", str(STUDENTS), "--seed", "7", "--sets",
              *SETS, "--root", str(after))  # one class for both: its notebooks name the checkout they came from
        _roster(work / "roster.csv")
        for name, checkout in (("before", before), ("after", after)):
            grade_the_class(checkout, work, work / name)
        count, differ = differences(work / "before", work / "after")
    for name in differ:
        print(f"differs: {name}")
    print(f"{count} files, {count - len(differ)} the same (timings aside), {len(differ)} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
