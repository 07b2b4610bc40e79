"""Classroom 50 (``foundation50/classroom50``), the successor of GitHub Classroom (retired in
2026): ``python -m dimred_teach.grading.classroom --set NN`` is what an assignment's
``autograder.py`` (written by ``dimred-teach classroom50``, :mod:`dimred_teach.course.classroom`)
runs once it has the course's grader.

Classroom 50's runner runs the autograder once per submission, in the student's checkout (the
working directory), with ``CLASSROOM``, ``ASSIGNMENT``, ``SUBMISSION_TAG``, ``OWNER``,
``COMMIT_URL``, ``RELEASE_URL`` and ``REVIEW_URL`` in the environment. It publishes
``./result.json`` (:func:`result_document`, schema ``classroom50/result/v1``: whole points, one
test per exercise, extra fields kept) and ``./release-body.md`` as the submission's Release, and
takes a non-zero exit status for an infrastructure error: no result is published then.

Here: the notebooks in ``exercises/`` are copied into a folder only this user can read (no
kernel reads the checkout, whatever its permissions), one notebook per exercise set of the
assignment is graded (``NN_slug.ipynb`` when there is one, as on Gradescope; a set without one
scores 0, so the maximum is always the assignment's points), and both files are written. Exit 0
once they are; 2 when grading cannot start (a variable missing, no working sandbox); 3 when the
grader's own trouble left a notebook not graded.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .options import GradingOptions
from .reports import markdown_text, summary
from .results import SubmissionResult, clip, points_label

SCHEMA = "classroom50/result/v1"
REQUIRED = ("CLASSROOM", "ASSIGNMENT", "SUBMISSION_TAG", "COMMIT_URL", "RELEASE_URL")
"""What the runner always sets; ``OWNER`` and ``REVIEW_URL`` are taken when set."""
WORK_FOLDER = "exercises"
JOBS = 2
"""Notebooks graded at once: GitHub's hosted Linux runners have 2 cores or more."""


def whole_points(points: float, what: str) -> int:
    """``points`` as the whole number Classroom 50 takes (ValueError naming ``what`` otherwise)."""
    if points != int(points):
        raise ValueError(f"{what} is worth {points:g} points: Classroom 50 records whole points only")
    return int(points)


def submitted_at(checkout: Path) -> str:
    """The graded commit's committer date in UTC (``2026-09-01T14:32:01Z``), the submission's
    instant; now when the checkout's history cannot be read."""
    found = subprocess.run(["git", "-c", "safe.directory=*", "-C", str(checkout), "log", "-1", "--format=%ct"],
                           capture_output=True, text=True, check=False)
    stamp = float(found.stdout) if found.returncode == 0 and found.stdout.strip().isdigit() else None
    when = datetime.datetime.fromtimestamp(stamp, datetime.UTC) if stamp else datetime.datetime.now(
        datetime.UTC)
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def result_document(results: list[SubmissionResult], environment: dict, when: str, sandbox: str) -> dict:
    """Classroom 50's ``result.json`` for the graded notebooks: one test per exercise, named by its
    id (its points when it passed, else 0), keeping the mistake id, its name, the check's message
    and the exercise set beside Classroom 50's own fields."""
    tests = [
        {
            "test-name": test.name,
            "passed": test.passed,
            "score": whole_points(test.score, test.name),
            "max-score": whole_points(test.max_score, test.name),
            "mistake": test.mistake,
            "mistake-name": test.mistake_name,
            "message": clip(test.output, 1000),
            "exercise-set": result.exercise_set,
        }
        for result in results
        for test in result.tests
    ]
    document = {"schema": SCHEMA, "classroom": environment["CLASSROOM"], "assignment": environment["ASSIGNMENT"],
                "submission": environment["SUBMISSION_TAG"], "commit": environment["COMMIT_URL"],
                "release": environment["RELEASE_URL"],
                "review": environment.get("REVIEW_URL") or environment["COMMIT_URL"], "datetime": when,
                "score": sum(test["score"] for test in tests), "max-score": sum(test["max-score"] for test in tests),
                "tests": tests, "sandbox": sandbox}
    if environment.get("OWNER"):
        document["owner"] = environment["OWNER"]
    return document


def release_body(results: list[SubmissionResult], document: dict, notes: list[str]) -> str:
    """``release-body.md``: the points, the notes on notebooks not graded, then the grader's
    summary (every exercise with its points, each one not passed yet with its mistake and
    message; whatever the student wrote, escaped as text)."""
    head = f"### {document['score']} of {points_label(document['max-score'])}\n\n"
    notes_text = "".join(f"* note: {markdown_text(note, 400)}\n" for note in notes)
    return head + (notes_text + "\n" if notes else "") + summary(results, 1.0)


def _private_copies(checkout: Path, folder: Path) -> list[Path]:
    """The regular ``*.ipynb`` files inside ``checkout/exercises`` (no links, nothing a link
    leads to, no checkpoints), copied into ``folder`` (mode 0700) under their relative paths."""
    work = checkout / WORK_FOLDER
    copies = []
    for path in sorted(work.rglob("*.ipynb")) if not work.is_symlink() else []:
        inside = path.resolve().is_relative_to(work.resolve())
        if path.is_symlink() or not path.is_file() or not inside or ".ipynb_checkpoints" in path.parts:
            continue
        target = folder / path.relative_to(work)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target, follow_symlinks=False)
        copies.append(target)
    return copies


def grade_checkout(checkout: Path, sets: list[str], environment: dict | None = None) -> int:
    """Grade the checkout at ``checkout`` for the assignment's exercise sets ``sets`` and write
    ``checkout/result.json`` and ``checkout/release-body.md``; the exit status (module docstring)."""
    from .gradescope import grade_one_per_set
    from .run_settings import settle_run
    from .sandbox import SandboxUnavailable
    from .scheduler import grader_errors

    environment = dict(os.environ if environment is None else environment)
    try:
        missing = [name for name in REQUIRED if not environment.get(name)]
        if missing:
            raise ValueError(f"{', '.join(missing)} not set: Classroom 50's runner sets them (run the autograder "
                             "as its runner does)")
        settings = settle_run(GradingOptions(), sets)  # bubblewrap, or where root has no namespaces "user"
    except (ValueError, SandboxUnavailable) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="dimred-classroom50-") as private:
        copies = Path(private) / WORK_FOLDER
        results, notes = grade_one_per_set(_private_copies(checkout, copies), Path(private) / "reports", settings, JOBS)
    results = [dataclasses.replace(result, submission=result.submission.replace(str(copies), WORK_FOLDER))
               for result in results]  # the student's path, not the copy's
    if grader_errors(results):
        print(f"error: the grader's own trouble left {grader_errors(results)} notebook(s) not graded; grade again",
              file=sys.stderr)
        return 3
    document = result_document(results, environment, submitted_at(checkout), settings.mode.name)
    for name, text in (("result.json", json.dumps(document, indent=1) + "\n"),
                       ("release-body.md", release_body(results, document, notes))):
        (checkout / name).unlink(missing_ok=True)  # a link the student committed there leads nowhere
        (checkout / name).write_text(text)
    print(f"{document['score']} of {points_label(document['max-score'])}; sandbox: {settings.mode.name}; "
          "wrote result.json and release-body.md")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dimred_teach.grading.classroom",
                                     description="Grade a Classroom 50 submission (the working directory).")
    parser.add_argument("--set", action="append", required=True, metavar="NN",
                        help="the assignment's exercise sets (04 or 04_mds; repeat or comma-separate)")
    return grade_checkout(Path.cwd(), parser.parse_args(argv).set)


if __name__ == "__main__":
    sys.exit(main())
