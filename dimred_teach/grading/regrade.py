"""``dimred-teach regrade OUT --out NEW_OUT``: what the grader installed now gives the notebooks a
run graded, before anything is published.

Every report of ``grade`` records what grading its notebook again takes (``extra_data.regrade``,
:class:`.results.RegradeRecord`): the folder the run's paths were relative to (the path is the
report's ``submission``), the run's options (limits, sandbox, ``--set``), and the SHA-256 of the
notebook's content as graded. Recorded rather than asked for again, so that a regrade differs from
the run only by the grader: the same notebooks, the same options. Not recorded: the seed key (a
secret; give ``DIMRED_TEACH_SEED_KEY`` as for the run, and the checks' random instances are the
same), and where the specs and checks come from (that is the grader installed now).

``regrade`` reads OUT and never writes there. It refuses, before grading, a report without a
record, reports of runs with other options or folders, and a notebook that is gone or changed since
(its points could then move for another reason than the grader). It grades the notebooks into
NEW_OUT (a new or empty folder, not inside OUT) as ``grade`` does, writes ``NEW_OUT/changes.csv``,
one row per exercise whose points moved (``submission``, ``exercise``, ``old``, ``new``; empty
when the exercise is new or gone), and prints how many submissions' totals move, and by how much.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from .._csv_cells import csv_cell
from ..exercise_specs import SPECS_DIR
from .options import GradingOptions
from .results import ReportError, SubmissionResult, read_report
from .run_settings import settle_run
from .sandbox import SandboxUnavailable
from .submissions import display_path, notebook_digest, read_notebook
from .watchdog import grade_supervised

CHANGES = "changes.csv"


def old_reports(out: Path) -> list[SubmissionResult]:
    """The reports directly in ``out`` (``grade``'s ``--out``), each with its regrade record;
    ValueError naming ``OUT`` otherwise."""
    results = []
    for path in sorted(Path(out).glob("*.json")):
        try:
            result = read_report(path)
        except ReportError:
            continue  # not a report of grade
        if result.regrade is None:
            raise ValueError(f"OUT: {path.name} records nothing to regrade with (written before reports recorded "
                             "their run): grade the class again with this grader instead")
        results.append(result)
    if not results:
        raise ValueError(f"OUT: {out} holds no report of `dimred-teach grade`")
    return results


def notebooks(results: Sequence[SubmissionResult], max_bytes: int) -> list[Path]:
    """Each report's notebook, where its run found it; ValueError naming the first that is gone
    or changed since (and how many are)."""
    cwd = Path(results[0].regrade.cwd)
    paths, problems = [], []
    for result in results:
        path = cwd / result.submission
        try:
            same = (
                not result.notebook_sha256 or notebook_digest(read_notebook(path, max_bytes)) == result.notebook_sha256
            )
        except (OSError, ValueError):
            problems.append(f"{display_path(path)} is gone or unreadable")
            continue
        if not same:
            problems.append(f"{display_path(path)} changed since it was graded")
        paths.append(Path(result.submission))
    if problems:
        raise ValueError(f"OUT: {problems[0]} ({len(problems)} of {len(results)} notebook(s)); regrade grades the "
                         "notebooks a run graded, as they were")
    return paths


def changes(old: Sequence[SubmissionResult], new: Sequence[SubmissionResult]) -> list[tuple[str, str, str, str]]:
    """(submission, exercise, old points, new points) for every exercise whose points moved (at
    6 decimals), in the reports' order; "" for an exercise one side does not have."""
    rows = []
    for before, after in zip(old, new):
        points = [{test.name: round(test.score, 6) for test in result.tests} for result in (before, after)]
        for exercise in dict.fromkeys([*points[0], *points[1]]):
            was, now = points[0].get(exercise), points[1].get(exercise)
            if was != now:
                rows.append((before.submission, exercise, "" if was is None else f"{was:g}",
                             "" if now is None else f"{now:g}"))
    return rows


@contextlib.contextmanager
def _working_folder(folder: str):
    """Run in ``folder`` (the run's, so its relative paths and the reports' names are the same)."""
    here = os.getcwd()
    try:
        os.chdir(folder)
    except OSError as error:
        raise ValueError(
            f"OUT: the folder its run graded from, {folder}, cannot be entered ({error.strerror})"
        ) from None
    try:
        yield
    finally:
        os.chdir(here)


def regrade(out: Path, new_out: Path, jobs: int = 1, specs_dir: Path = SPECS_DIR,
            extra_check_dirs: tuple[Path, ...] = ()) -> str:
    """Grade OUT's notebooks again into ``new_out`` and write its ``changes.csv``; returns the
    account to print. ValueError (or SandboxUnavailable) naming the argument at fault, before any
    kernel starts."""
    out, new_out = Path(out).resolve(), Path(new_out).resolve()
    if new_out == out or out in new_out.parents:
        raise ValueError(f"--out: {new_out} is OUT or inside it; regrade never writes into OUT: name another folder")
    if new_out.exists() and (not new_out.is_dir() or any(new_out.iterdir())):
        raise ValueError(f"--out: {new_out} exists and is not an empty folder; name a new folder")
    if not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"--jobs must be at least 1, got {jobs!r}")
    old = old_reports(out)
    records = {json.dumps([r.regrade.cwd, r.regrade.options], sort_keys=True) for r in old}
    if len(records) > 1:
        raise ValueError(f"OUT: its reports come from {len(records)} runs with other options or folders; regrade "
                         "each run's --out folder on its own")
    options = GradingOptions.from_record(old[0].regrade.options, specs_dir=Path(specs_dir).resolve(),
                                         extra_check_dirs=tuple(Path(d).resolve() for d in extra_check_dirs),
                                         seed_key=os.environ.get("DIMRED_TEACH_SEED_KEY", ""))
    with _working_folder(old[0].regrade.cwd):
        paths = notebooks(old, options.max_notebook_bytes)
        # the notebooks, OUT (its reports hold classmates' answers) and NEW_OUT: out of every kernel's
        # reach, as grade keeps its class and --out, or the run fails closed
        settings = settle_run(options, (), [*paths, out], new_out)
        new_out.mkdir(parents=True, exist_ok=True)
        new = grade_supervised(paths, new_out, settings, jobs=jobs)
    rows = changes(old, new)
    with (new_out / CHANGES).open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(["submission", "exercise", "old", "new"])
        writer.writerows(
            [csv_cell(submission), csv_cell(exercise), was, now] for submission, exercise, was, now in rows
        )
    moves = Counter(round(after.score - before.score, 6) for before, after in zip(old, new)
                    if round(after.score, 6) != round(before.score, 6))
    by = ", ".join(f"{delta:+g} point(s): {count}" for delta, count in sorted(moves.items()))
    return (f"regraded {len(new)} submission(s) with the grader installed now: {sum(moves.values())} total(s) move"
            + (f" ({by})" if moves else "") + f"; {len(rows)} exercise(s) changed: {new_out / CHANGES}")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``dimred-teach regrade``."""
    parser.add_argument("old_out", type=Path, metavar="OUT", help="the --out folder of a run of grade (read only)")
    parser.add_argument("--out", type=Path, required=True, metavar="NEW_OUT",
                        help="a new folder for the new reports and changes.csv")
    parser.add_argument("--jobs", type=int, default=1, help="submissions graded at once (default 1)")
    parser.add_argument("--specs-dir", type=Path, default=SPECS_DIR, help=argparse.SUPPRESS)  # tests: a fixture's
    parser.add_argument("--extra-check-dir", type=Path, action="append", default=[], help=argparse.SUPPRESS)


def run(args) -> int:
    """``dimred-teach regrade``: 0 when it ran; a bad argument raises ValueError (exit 2)."""
    try:
        print(regrade(args.old_out, args.out, args.jobs, args.specs_dir, tuple(args.extra_check_dir)))
    except SandboxUnavailable as error:
        raise ValueError(str(error)) from None
    return 0
