"""GitHub Classroom: ``dimred-teach classroom-grade`` grades a student's repository and hands the
points to Classroom's grading reporter.

Classroom's reporter (``classroom-resources/autograding-grading-reporter``) reads, for each runner
id it is given, the environment variable ``<ID>_RESULTS``: base64 of a JSON object
``{"version": 1, "status": "pass" | "fail" | "error", "max_score": M, "tests": [...]}``, each test
``{"name", "status", "score", "message", ...}``. It adds up the tests' ``score`` and writes
"Points <score>/<max_score>" on the check run Classroom reads. The step that grades writes that
object as its output ``result`` (to ``$GITHUB_OUTPUT``); :func:`classroom_result` builds it.

One notebook per exercise set of the assignment is graded (the one named ``NN_slug.ipynb`` if
there is one, as on Gradescope), and a set without a notebook scores 0 of its points, so
``max_score`` is always the assignment's points and copies add nothing.
"""

from __future__ import annotations

import base64
import json
import os
import sys
from pathlib import Path

from .results import SubmissionResult, clip

__all__ = ["classroom_result", "encoded_result", "command_classroom_grade"]

VERSION = 1


def classroom_result(results: list[SubmissionResult]) -> dict:
    """The object Classroom's reporter reads: one test per exercise of every set in ``results``
    (points when it passed, else 0, with the check's message); status ``error`` when a set's
    notebook could not be graded at all, ``fail`` when an exercise has not passed, else ``pass``."""
    tests = []
    for result in results:
        for test in result.tests:
            tests.append({"name": f"{test.name} ({test.max_score:g} points)", "status": "pass" if test.passed else "fail",
                          "score": test.score, "message": clip(test.output, 1000), "test_code": "",
                          "filename": Path(result.submission).name, "line_no": 0})
    status = ("error" if any(not r.graded for r in results) or not results
              else "pass" if all(t["status"] == "pass" for t in tests) else "fail")
    return {"version": VERSION, "status": status, "max_score": sum(r.max_score for r in results), "tests": tests}


def encoded_result(result: dict) -> str:
    """``result`` as the reporter decodes it: base64 of its JSON (one line, no newline)."""
    return base64.b64encode(json.dumps(result, separators=(",", ":")).encode()).decode("ascii")


def command_classroom_grade(args) -> int:
    """``dimred-teach classroom-grade NOTEBOOKS... --out DIR``: grade one notebook per set of the
    assignment (``--set``; default every set), write the reports, ``DIR/classroom-result.json``
    and the step output ``result``. Exit 0 once written (the reporter turns a failed exercise
    into a red check), 2 for a usage error or a sandbox that does not work."""
    from .command import append_step_summary, options_from
    from .gradescope import grade_one_per_set
    from .reports import write_reports
    from .run_settings import settle_run
    from .sandbox import SandboxUnavailable
    from .submissions import find_submissions, load_specs

    try:
        options = options_from(args)
        plan = settle_run(options, args.set or sorted(load_specs(options.specs_dir)))
        paths = find_submissions(args.submissions)
        args.out.mkdir(parents=True, exist_ok=True)
    except (ValueError, OSError, SandboxUnavailable) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    results, notes = grade_one_per_set(paths, args.out, plan, args.jobs)
    write_reports(results, args.out, 1.0)
    append_step_summary(args.out)
    result = classroom_result(results)
    (args.out / "classroom-result.json").write_text(json.dumps(result, indent=1) + "\n")
    for note in notes:
        print(f"note: {note}")
    output = os.environ.get("GITHUB_OUTPUT")
    if output:
        with open(output, "a") as file:
            file.write(f"result={encoded_result(result)}\n")
    score = sum(test["score"] for test in result["tests"])
    print(f"{score:g} / {result['max_score']:g} points ({result['status']}); sandbox: {plan.mode.name}; "
          f"reports in {args.out}" + ("; step output `result` written" if output else ""))
    return 0
