"""What a grading run produces: one :class:`TestResult` per exercise, one :class:`WrittenAnswer`
per written part, one :class:`SubmissionResult` per notebook, the single constructor of a
"not graded" result, and the single reader of a report file (:func:`read_report`).

A report is read back by the watchdog, the merge of shards, ``regrade`` and the class report;
each reads it here, where every field is checked for its type and range, since a report is
a file on disk that anyone with write access to the folder could have changed."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..checks import RESERVED_MISTAKES, mistake_name

PASSED, FAILED = "passed", "failed"
MAX_REPORT_BYTES = 16 * 2**20
"""A file larger than this is not a report (one holds at most a few hundred messages of about
2,000 characters and 50 written answers of at most 50,000)."""


class ReportError(ValueError):
    """A file, or a document, that is not a report of ``dimred-teach grade``."""


def _text(value, what: str) -> str:
    if not isinstance(value, str):
        raise ReportError(f"{what} is not text")
    return value


def _flag(value, what: str) -> bool:
    if not isinstance(value, bool):
        raise ReportError(f"{what} is not true or false")
    return value


def bounded_number(value, what: str, upper: float = 1e6) -> float:
    """``value`` as a float in [0, ``upper``); ReportError otherwise (a bool is not a number)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (0 <= value < upper):
        raise ReportError(f"{what} is not a number from 0 to {upper:g}")
    return float(value)


def clip(text, limit: int = 2000) -> str:
    """``text`` as a string of at most about ``limit`` characters."""
    text = str(text)
    return text if len(text) <= limit else text[:limit] + f" ... [{len(text) - limit} characters cut]"


def points_label(points: float) -> str:
    """``points`` in words: "1 point", "2 points", "0.5 points"."""
    return f"{points:g} point" + ("" if points == 1 else "s")


@dataclass(frozen=True)
class TestResult:
    """One exercise of a submission: its points, the check's message and, when it failed, the
    mistake it made (an id of :data:`dimred_teach.checks.RESERVED_MISTAKES` or of the set's
    ``MISTAKES``, and that mistake's short name)."""

    __test__ = False  # not a pytest class, despite its name
    name: str
    score: float
    max_score: float
    passed: bool
    output: str
    mistake: str = ""
    mistake_name: str = ""


@dataclass(frozen=True)
class WrittenAnswer:
    """What a submission wrote for one written part (plain text, never rendered by the grader):
    ``blank`` when nothing was written, ``clipped`` when the text was cut to the report's limit.
    The points are the lecturer's to give (``dimred-teach written``); ``max_points`` is what the
    part is worth."""

    exercise: str
    part: int
    max_points: float
    text: str
    blank: bool
    clipped: bool = False

    def to_report(self) -> dict:
        return {"exercise": self.exercise, "part": self.part, "max_points": self.max_points, "blank": self.blank,
                "clipped": self.clipped, "text": self.text}

    @classmethod
    def from_report(cls, entries) -> tuple[WrittenAnswer, ...]:
        """The written answers of a report's ``extra_data.written`` (none when absent); ValueError
        for anything that is not a list of such entries of bounded size."""
        if entries is None:
            return ()
        if not isinstance(entries, list) or len(entries) > 50:
            raise ReportError("its written answers are not a list of at most 50 entries")
        answers = []
        for entry in entries:
            fields = (entry.get("exercise"), entry.get("part"), entry.get("max_points"), entry.get("text"),
                      entry.get("blank"), entry.get("clipped", False)) if isinstance(entry, dict) else ()
            if not (fields and isinstance(fields[0], str) and len(fields[0]) <= 100
                    and isinstance(fields[1], int) and not isinstance(fields[1], bool) and 0 < fields[1] <= 50
                    and isinstance(fields[2], (int, float)) and not isinstance(fields[2], bool) and 0 < fields[2] < 1e6
                    and isinstance(fields[3], str) and len(fields[3]) <= 50_000
                    and isinstance(fields[4], bool) and isinstance(fields[5], bool)):
                raise ReportError("a written answer is not (exercise, part, max_points, text, blank, clipped)")
            answers.append(cls(fields[0], fields[1], float(fields[2]), *fields[3:]))
        return tuple(answers)


@dataclass(frozen=True)
class RegradeRecord:
    """What ``dimred-teach regrade`` needs to grade a report's submission again: the folder the
    run's paths were relative to (the submission's path is the report's ``submission``) and the
    run's options (:meth:`.options.GradingOptions.record`: no secret, no test-only source)."""

    cwd: str
    options: dict


@dataclass(frozen=True)
class SubmissionResult:
    """The grade of one submission (``graded`` is False when it could not be run at all;
    ``skipped`` when it is not an exercise notebook at all, a lecture copy, and counts for nothing).

    ``sandbox`` names the isolation its kernel ran in (``bwrap``, ``user`` or ``none``),
    ``limits`` the kernel's resource limits in words, ``accepted_readable`` whether its run
    accepted the weaker guarantees of files other users can read (``--accept-readable-files``),
    ``written`` its written answers (read from the notebook, whatever happened in its kernel),
    ``notebook_sha256`` the digest of the notebook as graded (:func:`.submissions.notebook_digest`)
    and ``regrade`` what its run records for ``regrade``.
    """

    submission: str
    report_name: str
    exercise_set: str | None
    tests: tuple[TestResult, ...]
    output: str
    execution_time: float
    graded: bool
    sandbox: str = ""
    limits: str = ""
    skipped: bool = False
    accepted_readable: bool = False
    written: tuple[WrittenAnswer, ...] = ()
    notebook_sha256: str = ""
    regrade: RegradeRecord | None = None

    @property
    def score(self) -> float:
        return sum(test.score for test in self.tests)

    @property
    def max_score(self) -> float:
        return sum(test.max_score for test in self.tests)

    def passes(self, pass_fraction: float) -> bool:
        """Graded, and at least ``pass_fraction`` of the points."""
        return self.graded and self.max_score > 0 and self.score >= pass_fraction * self.max_score - 1e-9

    def to_gradescope(self, visibility: str | None = None) -> dict:
        """The report as Gradescope's ``results.json`` (``visibility`` set on every test when given)."""
        tests = [{"name": t.name, "score": t.score, "max_score": t.max_score,
                  "status": PASSED if t.passed else FAILED, "output": t.output,
                  "extra_data": {"mistake": t.mistake, "mistake_name": t.mistake_name}} for t in self.tests]
        if visibility is not None:
            for test in tests:
                test["visibility"] = visibility
        extra = {"submission": self.submission, "exercise_set": self.exercise_set, "graded": self.graded,
                 "skipped": self.skipped, "sandbox": self.sandbox, "limits": self.limits,
                 "accepted_readable_files": self.accepted_readable,
                 "written": [answer.to_report() for answer in self.written]}
        if self.regrade is not None:
            extra["regrade"] = {"cwd": self.regrade.cwd, "options": self.regrade.options,
                                "notebook_sha256": self.notebook_sha256}
        return {
            "score": self.score,
            "max_score": self.max_score,
            "execution_time": round(self.execution_time, 1),
            "output": self.output,
            "tests": tests,
            "extra_data": extra,
        }

    @classmethod
    def from_gradescope(cls, report, report_name: str) -> SubmissionResult:
        """The result a :meth:`to_gradescope` report was written from; ReportError naming the
        first field that is missing or of the wrong type."""
        if not (isinstance(report, dict) and isinstance(report.get("extra_data"), dict)
                and isinstance(report.get("tests"), list)):
            raise ReportError("it has no extra_data and tests")
        extra = report["extra_data"]
        exercise_set = extra.get("exercise_set")
        return cls(_text(extra.get("submission"), "the submission's name"), report_name,
                   None if exercise_set is None else _text(exercise_set, "the exercise set"),
                   tuple(_test_from_report(number, test) for number, test in enumerate(report["tests"])),
                   _text(report.get("output"), "the report's output"),
                   bounded_number(report.get("execution_time"), "the execution time", upper=1e7),
                   _flag(extra.get("graded"), "graded"), _text(extra.get("sandbox", ""), "the sandbox"),
                   _text(extra.get("limits", ""), "the limits"), _flag(extra.get("skipped", False), "skipped"),
                   _flag(extra.get("accepted_readable_files", False), "accepted_readable_files"),
                   WrittenAnswer.from_report(extra.get("written")), *_regrade_from_report(extra.get("regrade")))


def _test_from_report(number: int, test) -> TestResult:
    if not isinstance(test, dict) or test.get("status") not in (PASSED, FAILED):
        raise ReportError(f"test {number} is not an object whose status is {PASSED} or {FAILED}")
    details = test.get("extra_data", {})
    if not isinstance(details, dict):
        raise ReportError(f"test {number}'s extra_data is not an object")
    return TestResult(_text(test.get("name"), f"test {number}'s name"),
                      bounded_number(test.get("score"), "a score"),
                      bounded_number(test.get("max_score"), "a max_score"), test["status"] == PASSED,
                      _text(test.get("output", ""), f"test {number}'s output"),
                      _text(details.get("mistake", ""), f"test {number}'s mistake"),
                      _text(details.get("mistake_name", ""), f"test {number}'s mistake name"))


def _regrade_from_report(record) -> tuple[str, RegradeRecord | None]:
    """A report's notebook digest and regrade record (none in a report of a run that recorded none)."""
    if record is None:
        return "", None
    if not (isinstance(record, dict) and isinstance(record.get("options"), dict)):
        raise ReportError("its regrade record is not an object with options")
    return (_text(record.get("notebook_sha256"), "the notebook's digest"),
            RegradeRecord(_text(record.get("cwd"), "the regrade folder"), dict(record["options"])))


def refuse_if_too_large(path: Path) -> None:
    """ReportError when the file ``path`` is larger than :data:`MAX_REPORT_BYTES` (OSError when it
    cannot be looked at)."""
    if Path(path).stat().st_size > MAX_REPORT_BYTES:
        raise ReportError(f"it is larger than {MAX_REPORT_BYTES // 2**20} MiB")


def read_report(path: Path, report_name: str | None = None) -> SubmissionResult:
    """The result a report file holds, named ``report_name`` (else the file's stem); ReportError
    for a file that is unreadable, too large, not JSON or not a report of ``dimred-teach grade``."""
    path = Path(path)
    try:
        refuse_if_too_large(path)
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ReportError(str(error)) from None
    except RecursionError:
        raise ReportError("its JSON nests too deeply") from None
    return SubmissionResult.from_gradescope(document, report_name or path.stem)


NOT_GRADED = "not-graded"


def known_mistake(exercise_id: str, mistake) -> str:
    """``mistake`` when it is an id ``exercise_id`` can report, else ``other`` (what crosses a
    process boundary is checked, not trusted)."""
    try:
        mistake_name(exercise_id, mistake)
    except (ValueError, TypeError):
        return "other"
    return mistake


def not_graded_test(exercise_id: str, points: float, message: str) -> TestResult:
    """An exercise the grader could not judge: no points, the mistake ``not-graded``."""
    return TestResult(exercise_id, 0.0, float(points), False, message, NOT_GRADED, RESERVED_MISTAKES[NOT_GRADED])


def failed_tests(spec: dict | None, message: str) -> tuple[TestResult, ...]:
    """Every exercise of ``spec`` not graded, with ``message`` (none without a spec)."""
    if spec is None:
        return ()
    return tuple(not_graded_test(c["exercise_id"], c["points"], message) for c in spec["checks"])


def not_graded(submission: str, report_name: str, exercise_set: str | None, spec: dict | None, reason: str,
               elapsed: float = 0.0, sandbox: str = "", limits: str = "", skipped: bool = False) -> SubmissionResult:
    """A submission that could not be graded: every exercise fails with "not graded: <reason>"
    (a skipped one has no exercises at all)."""
    tests = (
        () if skipped else failed_tests(spec, reason if reason.startswith("not graded") else f"not graded: {reason}")
    )
    return SubmissionResult(
        submission, report_name, exercise_set, tests, reason, elapsed, False, sandbox, limits, skipped
    )
