"""Helpers of the tests of a class's outputs: synthetic reports of ``dimred-teach grade`` for
the class-report tests (written by the grader's own report writer, with outcomes drawn at
random from each set's real exercises and the mistakes their mutants make, tests/check_cases,
and the counts they were drawn with), every cell of a CSV file as a spreadsheet reads it, and
the comparison of one run's outputs with a merge's."""

from __future__ import annotations

import csv
import filecmp
import importlib
import io
import re
from collections import Counter
from pathlib import Path

import numpy as np

from dimred_teach.checks import RESERVED_MISTAKES, mistakes_of
from dimred_teach.exercise_specs import SPECS_DIR, load_spec
from dimred_teach.grading.reports import write_report
from dimred_teach.grading.results import SubmissionResult, TestResult

SETS = sorted(path.stem for path in SPECS_DIR.glob("*.json"))


def write_synthetic_reports(out: Path, count: int, seed: int, message: str = "") -> Counter:
    """``count`` reports in ``out`` (random sets, outcomes and mistakes); returns the counts of
    (exercise, mistake id) drawn, "" standing for passed."""
    rng = np.random.default_rng(seed)
    out.mkdir(parents=True, exist_ok=True)
    drawn: Counter = Counter()
    for number in range(count):
        exercise_set = SETS[rng.integers(len(SETS))]
        cases = importlib.import_module(f"check_cases.set{exercise_set[:2]}").CASES
        tests = []
        for check in load_spec(exercise_set)["checks"]:
            exercise, points = check["exercise_id"], float(check["points"])
            named = sorted({m for mutant in cases[exercise][1] for m in mutant.mistakes}) + ["other"]
            kind = rng.choice(["passed", "mistake", "no-answer", "not-graded"], p=[0.5, 0.35, 0.1, 0.05])
            mistake = "" if kind == "passed" else named[rng.integers(len(named))] if kind == "mistake" else str(kind)
            name = "" if not mistake else RESERVED_MISTAKES.get(mistake) or mistakes_of(exercise[:2])[mistake]
            tests.append(TestResult(exercise, points if not mistake else 0.0, points, not mistake,
                                    message or f"the check's message for {mistake or 'a pass'}", mistake, name))
            drawn[(exercise, mistake)] += 1
        write_report(SubmissionResult(f"my-work/student {number}/{exercise_set}.ipynb", f"report-{number:04d}",
                                      exercise_set, tuple(tests), "", 1.0, True, "bwrap"), out)
    return drawn


def without_timings(path: Path) -> str:
    text = path.read_text()
    return re.sub(r'"execution_time": [0-9.]+|time="[0-9.]+"', "TIME", text)


def assert_same_outputs(single: Path, merged: Path, notebooks: int) -> None:
    """The same files (reports, junit.xml, summary.md, gradebook.csv, the class report's five
    files), each equal byte for byte once the timings are put aside."""
    files = sorted(p.relative_to(single) for p in single.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(merged) for p in merged.rglob("*") if p.is_file())
    assert len(files) == notebooks + 2 + 1 + 5
    for name in files:
        a, b = single / name, merged / name
        assert filecmp.cmp(a, b, shallow=False) or without_timings(a) == without_timings(b), name


def cells_as_any_spreadsheet_splits(path: Path):
    """Every cell of a CSV file as a spreadsheet reads it when it splits lines on ``,``, on
    ``;`` (many European locales) or on a tab, honouring double quotes as RFC 4180 says."""
    text = path.read_text(encoding="utf-8")
    for delimiter in (",", ";", "\t"):
        for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter):
            yield from row
