"""A class's roster: which graded submissions are whose.

The roster is a CSV file with a header row and one row per student:

- ``id`` (required): the student's id in the institution (Canvas's SIS User ID, Moodle's
  ID number);
- ``name`` (required): the name shown in the gradebook;
- ``folder`` or ``pattern`` (one of them, per row): the student's folder among the
  submissions (a folder per student: any folder of the submission's path with this name),
  or a shell pattern matched against the submission's file name (``*_jdoe_*.ipynb``), or
  its whole path when the pattern holds a ``/``;
- ``email``, ``login``, ``section`` (optional): passed on to the LMS files.

A submission no row matches is listed as not on the roster; one that two students' rows match
(a folder named after a classmate's) is refused alone, with a reason naming both rows, and
counts for neither; a student with no submission gets no points.
"""

from __future__ import annotations

import csv
import dataclasses
import fnmatch
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from .class_report import Submission

REQUIRED = ("id", "name")
OPTIONAL = ("folder", "pattern", "email", "login", "section")
MAX_ROWS = 100_000


NOT_ON_ROSTER = "on no roster row"


class RosterError(ValueError):
    """A roster that cannot be read."""


@dataclass(frozen=True)
class Student:
    """One roster row and the submissions that are the student's."""

    id: str
    name: str
    folder: str = ""
    pattern: str = ""
    email: str = ""
    login: str = ""
    section: str = ""
    submissions: tuple[Submission, ...] = field(default=(), compare=False)

    def owns(self, path: str) -> bool:
        """Whether the submission at ``path`` (as the grader names it) is this student's."""
        parts = PurePosixPath(path)
        if self.folder:
            return self.folder in parts.parts[:-1]
        target = str(parts) if "/" in self.pattern else parts.name
        return fnmatch.fnmatchcase(target, self.pattern)

    def best(self, written: Mapping[str, float] | None = None) -> dict[str, Submission]:
        """Per exercise set, the student's best-scoring submission (the first of equals), its
        written points (``written``: by submission name) counted in."""
        written = written or {}
        best: dict[str, Submission] = {}
        for submission in self.submissions:
            kept = best.get(submission.exercise_set)
            if kept is None or (round(submission.score + written.get(submission.name, 0.0), 6)
                                > round(kept.score + written.get(kept.name, 0.0), 6)):
                best[submission.exercise_set] = submission
        return best


def read_roster(path: Path) -> list[Student]:
    """The students of a roster file, in its order; RosterError naming the row at fault."""
    try:
        with Path(path).open(newline="", encoding="utf-8-sig") as file:
            rows = list(csv.DictReader(file))
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise RosterError(f"--roster: cannot read {path} ({type(error).__name__}: {error})") from None
    if not rows or len(rows) > MAX_ROWS:
        raise RosterError(f"--roster: {path} has no student rows, or more than {MAX_ROWS}")
    header = {key.strip().lower() for key in rows[0] if key}
    missing = [name for name in REQUIRED if name not in header]
    if missing or not header & {"folder", "pattern"}:
        raise RosterError(f"--roster: {path} needs the columns id, name and folder or pattern; "
                          f"it has {', '.join(sorted(header))}")
    students, seen = [], set()
    for number, row in enumerate(rows, start=2):
        values = {key.strip().lower(): (value or "").strip() for key, value in row.items() if key}
        student = Student(**{name: values.get(name, "") for name in REQUIRED + OPTIONAL})
        if not student.id or not student.name or not (student.folder or student.pattern):
            raise RosterError(f"--roster: {path} line {number} lacks an id, a name, or a folder or pattern")
        if student.folder and student.pattern:
            raise RosterError(f"--roster: {path} line {number} gives both a folder and a pattern; give one")
        if student.id in seen:
            raise RosterError(f"--roster: {path} line {number} repeats the id {student.id!r}")
        seen.add(student.id)
        students.append(student)
    return students


def assign(students: Sequence[Student], submissions: Sequence[Submission]
           ) -> tuple[list[Student], list[tuple[Submission, str]]]:
    """The students with their submissions, and each submission no student got with the reason:
    :data:`NOT_ON_ROSTER`, or the two rows it matches (it then counts for neither)."""
    owned: dict[str, list[Submission]] = {student.id: [] for student in students}
    unmatched = []
    for submission in submissions:
        owners = [student for student in students if student.owns(submission.name)]
        if len(owners) == 1:
            owned[owners[0].id].append(submission)
        elif owners:
            unmatched.append((submission, f"matches the rows of {owners[0].id} ({owners[0].name}) and {owners[1].id} "
                                          f"({owners[1].name}): make their folder or pattern tell them apart"))
        else:
            unmatched.append((submission, NOT_ON_ROSTER))
    return [dataclasses.replace(student, submissions=tuple(owned[student.id])) for student in students], unmatched
