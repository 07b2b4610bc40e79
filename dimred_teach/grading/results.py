"""What a grading run produces: one :class:`TestResult` per exercise, one :class:`WrittenAnswer`
per written part, one :class:`SubmissionResult` per notebook, and the single constructor of a
"not graded" result."""

from __future__ import annotations

from dataclasses import dataclass

from ..checks import RESERVED_MISTAKES, mistake_name

PASSED, FAILED = "passed", "failed"


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
            raise ValueError("its written answers are not a list of at most 50 entries")
        answers = []
        for entry in entries:
            fields = (entry.get("exercise"), entry.get("part"), entry.get("max_points"), entry.get("text"),
                      entry.get("blank"), entry.get("clipped", False)) if isinstance(entry, dict) else ()
            if not (fields and isinstance(fields[0], str) and len(fields[0]) <= 100
                    and isinstance(fields[1], int) and not isinstance(fields[1], bool) and 0 < fields[1] <= 50
                    and isinstance(fields[2], (int, float)) and not isinstance(fields[2], bool) and 0 < fields[2] < 1e6
                    and isinstance(fields[3], str) and len(fields[3]) <= 50_000
                    and isinstance(fields[4], bool) and isinstance(fields[5], bool)):
                raise ValueError("a written answer is not (exercise, part, max_points, text, blank, clipped)")
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
    def from_gradescope(cls, report: dict, report_name: str) -> SubmissionResult:
        """The result a :meth:`to_gradescope` report was written from."""
        extra = report["extra_data"]
        record = extra.get("regrade")
        tests = tuple(TestResult(t["name"], float(t["score"]), float(t["max_score"]), t["status"] == PASSED,
                                 t["output"], str(t.get("extra_data", {}).get("mistake", "")),
                                 str(t.get("extra_data", {}).get("mistake_name", ""))) for t in report["tests"])
        return cls(extra["submission"], report_name, extra["exercise_set"], tests, report["output"],
                   float(report["execution_time"]), bool(extra["graded"]), extra.get("sandbox", ""),
                   str(extra.get("limits", "")), bool(extra.get("skipped", False)),
                   bool(extra.get("accepted_readable_files", False)), WrittenAnswer.from_report(extra.get("written")),
                   str(record["notebook_sha256"]) if record else "",
                   RegradeRecord(str(record["cwd"]), dict(record["options"])) if record else None)


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
