"""The lecturer's gradebook by student, from a roster (:mod:`.roster`), the reports and, once
the written answers are graded, their scores (``--written``, :mod:`.written_scores`):

- ``students.csv``: one row per student: id, name, the points of each exercise set (the
  student's best notebook of the set, its written points counted in), the written points of each
  set, the total and the maximum;
- ``canvas.csv``: Canvas's gradebook import layout: ``Student``, ``ID``, ``SIS User ID``,
  ``SIS Login ID``, ``Section``, then one column per exercise set and per set's written part
  (new columns become new assignments), with the ``Points Possible`` row second;
- ``moodle.csv``: for Moodle's CSV grade import: ``ID number``, ``Email address``, ``Full
  name``, then the same columns; at import, identify users by ID number and map each column to
  a grade item;
- ``feedback/<id>.html``: each student's report as a page to send them (autoescaped);
- ``unmatched.csv``: graded notebooks no student got: on no roster row, or on two (refused),
  with the reason.

Neither LMS file has a total: both import every column that is not a student's identity as one
more assignment (or grade item), which would count every point twice; each LMS adds up its own.
Every text cell of every CSV goes through :func:`dimred_teach._csv_cells.csv_cell`.
"""

from __future__ import annotations

import csv
import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .._csv_cells import csv_cell
from .class_page import points_text
from .class_report import Submission, course_lectures, read_reports, summarise
from .roster import NOT_ON_ROSTER, Student, assign, read_roster
from .written_scores import WrittenScore, read_scores

FEEDBACK_STYLE = """
body { font: 16px/1.5 system-ui, sans-serif; color: #1a1a1a; background: #fff; margin: 0 auto; max-width: 50rem;
       padding: 0 1rem 3rem; overflow-wrap: break-word; }
a { color: #005a8c; }
h2 { border-top: 2px solid #0072B2; padding-top: .5rem; margin: 1.5rem 0 .2rem; font-size: 1.2rem; }
table.summary th[scope=row] { font-size: .95rem; } p { margin: .4rem 0; }
h3 { font-size: 1.05rem; margin: 1rem 0 .3rem; }
table { border-collapse: collapse; width: 100%; } th, td { border-bottom: 1px solid #ccc; padding: .3rem .4rem;
text-align: left; vertical-align: top; } th[scope=row] { font-weight: normal; }
caption { text-align: left; } .note { color: #333; } p.passed { border-left: 4px solid #0072B2; padding-left: .6rem; }
ul.exercises { list-style: none; padding: 0; margin: .3rem 0; }
ul.exercises > li { border-left: 4px solid #D55E00; padding: .1rem 0 .1rem .6rem; margin: 0 0 .5rem; }
ul.exercises > li.written { border-left-color: #0072B2; } .message { white-space: pre-wrap; }
details { margin-top: .2rem; } summary { cursor: pointer; color: #005a8c; }
"""


@dataclass(frozen=True)
class Column:
    """One graded column of the gradebook: its name (``04_mds``, ``04_mds written``), its
    maximum, and a student's points in it."""

    name: str
    maximum: float
    points: Callable[[Student], float]


def columns(submissions: Sequence[Submission], scores: dict[str, dict[tuple[str, int], WrittenScore]]
            ) -> list[Column]:
    """Every exercise set graded, in order (its best notebook's points); then, for each set with
    scored written answers, its written points (those of the same notebook)."""
    written = {name: sum(score.points for score in parts.values()) for name, parts in scores.items()}
    maxima: dict[str, float] = {}
    written_maxima: dict[str, float] = {}
    for submission in submissions:
        maxima[submission.exercise_set] = max(maxima.get(submission.exercise_set, 0.0), submission.max_score)
        if submission.name in scores:
            written_maxima[submission.exercise_set] = max(written_maxima.get(submission.exercise_set, 0.0),
                                                          sum(a.max_points for a in submission.written))

    def auto(exercise_set: str) -> Callable[[Student], float]:
        return lambda student: getattr(student.best(written).get(exercise_set), "score", 0.0)

    def by_hand(exercise_set: str) -> Callable[[Student], float]:
        return lambda student: written.get(getattr(student.best(written).get(exercise_set), "name", None), 0.0)

    return ([Column(name, maximum, auto(name)) for name, maximum in sorted(maxima.items())]
            + [Column(f"{name} written", maximum, by_hand(name)) for name, maximum in sorted(written_maxima.items())])


Rows = list[list]
"""A CSV file's rows, its header first; every text cell already through ``csv_cell``."""


def students_rows(students: Sequence[Student], graded: Sequence[Column]) -> Rows:
    rows = [["id", "name", *(csv_cell(f"{column.name} points") for column in graded), "total", "max_total",
             "notebooks"]]
    for student in students:
        points = [column.points(student) for column in graded]
        rows.append([csv_cell(student.id), csv_cell(student.name), *map(points_text, points), points_text(sum(points)),
                     points_text(sum(column.maximum for column in graded)), len(student.submissions)])
    return rows


def _column(name: str) -> str:
    return csv_cell(f"dimred-teach {name}")


def canvas_rows(students: Sequence[Student], graded: Sequence[Column]) -> Rows:
    rows = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *(_column(c.name) for c in graded)],
            ["Points Possible", "", "", "", "", *(points_text(c.maximum) for c in graded)]]
    for student in students:
        rows.append([csv_cell(student.name), "", csv_cell(student.id), csv_cell(student.login or student.email),
                     csv_cell(student.section), *(points_text(c.points(student)) for c in graded)])
    return rows


def moodle_rows(students: Sequence[Student], graded: Sequence[Column]) -> Rows:
    rows = [["ID number", "Email address", "Full name", *(_column(c.name) for c in graded)]]
    for student in students:
        rows.append([csv_cell(student.id), csv_cell(student.email), csv_cell(student.name),
                     *(points_text(c.points(student)) for c in graded)])
    return rows


EXPORTS: dict[str, Callable[[Sequence[Student], Sequence[Column]], Rows]] = {
    "students.csv": students_rows,
    "canvas.csv": canvas_rows,
    "moodle.csv": moodle_rows,
}
"""The gradebook's files by name, each the rows of one layout: a new LMS's layout is one function
and one entry here."""


def write_rows(path: Path, rows: Rows) -> None:
    with path.open("w", newline="", encoding="utf-8") as file:
        csv.writer(file).writerows(rows)


def feedback_names(students: Sequence[Student]) -> dict[str, str]:
    """Each student's feedback file name: the id in a safe alphabet (and a hash of the id when
    two ids would give one name)."""
    names = {student.id: re.sub(r"[^A-Za-z0-9_-]", "_", student.id)[:60] or "student" for student in students}
    counts = {name: list(names.values()).count(name) for name in names.values()}
    return {key: (f"{name}-{hashlib.sha256(key.encode()).hexdigest()[:8]}" if counts[name] > 1 else name) + ".html"
            for key, name in names.items()}


def write_feedback(out: Path, students: Sequence[Student], titles: dict[str, str], revisit: dict[str, str],
                   scores: dict[str, dict[tuple[str, int], WrittenScore]]) -> None:
    """``feedback/<id>.html`` per student: a summary of every set first, then each set's exercises
    (a failed one with what its check said, the rest one line each) and its written parts with the
    lecturer's points and comment."""
    from jinja2 import Environment, PackageLoader, StrictUndefined
    from markupsafe import Markup

    template = Environment(loader=PackageLoader("dimred_teach.gradebook", "templates/class_report"), autoescape=True,
                           undefined=StrictUndefined).get_template("feedback.html.j2")
    folder = out / "feedback"
    folder.mkdir(parents=True, exist_ok=True)
    written = {name: sum(score.points for score in parts.values()) for name, parts in scores.items()}
    for student, name in zip(students, feedback_names(students).values()):
        best = student.best(written)
        sets = []
        for key in sorted(best):
            submission = best[key]
            own = scores.get(submission.name, {})
            parts = [
                {"answer": answer, "score": own.get((answer.exercise, answer.part))} for answer in submission.written
            ]
            sets.append({"number": key[:2], "title": titles.get(key[:2], ""), "submission": submission,
                         "passed": sum(o.passed for o in submission.outcomes), "written": parts if own else [],
                         "written_points": written.get(submission.name, 0.0),
                         "written_max": sum(a.max_points for a in submission.written) if own else 0.0})
        total = sum(s["submission"].score + s["written_points"] for s in sets)
        maximum = sum(s["submission"].max_score + s["written_max"] for s in sets)
        page = template.render(style=Markup(FEEDBACK_STYLE), student=student, sets=sets, number=points_text,
                               total=points_text(total), maximum=points_text(maximum), revisit=revisit,
                               any_written=any(s["written"] for s in sets))
        (folder / name).write_text(page, encoding="utf-8")


def student_outputs(paths: Sequence[Path], roster: Path, out: Path, root: Path, written: Path | None = None) -> str:
    """Read the reports, the roster and the written scores, then write the files above into
    ``out``; a one-line account. ValueError naming the argument at fault, before anything is written."""
    submissions, skipped = read_reports(paths)
    if not submissions:
        raise ValueError(f"REPORTS: no graded submission found in {', '.join(map(str, paths))}")
    students, unmatched = assign(read_roster(roster), submissions)
    scores = read_scores(written, submissions) if written is not None else {}
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    graded = columns(submissions, scores)
    for name, rows in EXPORTS.items():
        write_rows(out / name, rows(students, graded))
    lectures = course_lectures(root)
    summaries, _ = summarise(submissions, lectures)
    write_feedback(out, students, {number: lecture.title for number, lecture in lectures.items()},
                   {summary.exercise: summary.revisit for summary in summaries if summary.revisit}, scores)
    write_rows(out / "unmatched.csv", [["submission", "exercise_set", "points", "reason"]] + [
        [csv_cell(submission.name), csv_cell(submission.exercise_set), points_text(submission.score), csv_cell(reason)]
        for submission, reason in unmatched])
    without = sum(not student.submissions for student in students)
    ambiguous = sum(reason != NOT_ON_ROSTER for _, reason in unmatched)
    scored = sum(len(parts) for parts in scores.values())
    return (f"{len(students)} student(s) ({without} without a graded notebook), {len(unmatched) - ambiguous} "
            f"notebook(s) not on the roster, {ambiguous} notebook(s) matching two students' rows (refused, see "
            f"unmatched.csv)" + (f", {scored} written answer(s) scored" if written is not None else "")
            + f": {out / 'students.csv'}, canvas.csv, moodle.csv, feedback/, unmatched.csv"
            + "".join(f"\nskipped {note}" for note in skipped))
