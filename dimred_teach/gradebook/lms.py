"""The lecturer's gradebook by student, from a roster (:mod:`.roster`) and the reports:

- ``students.csv``: one row per student: id, name, the points of each exercise set (the
  student's best notebook of the set), the total and the maximum;
- ``canvas.csv``: Canvas's gradebook import layout: ``Student``, ``ID``, ``SIS User ID``,
  ``SIS Login ID``, ``Section``, then one column per exercise set (new columns become new
  assignments), with the ``Points Possible`` row second;
- ``moodle.csv``: for Moodle's CSV grade import: ``ID number``, ``Email address``, ``Full
  name``, then one column per set; at import, identify users by ID number and map each column
  to a grade item.

Neither LMS file has a total: both import every column that is not a student's identity as one
more assignment (or grade item), which would count every point twice; each LMS adds up its own.
- ``feedback/<id>.html``: each student's report as a page to send them (autoescaped);
- ``unmatched.csv``: graded notebooks no student got: on no roster row, or on two (refused), with the reason.

Every text cell of every CSV goes through :func:`dimred_teach._csv_cells.csv_cell`.
"""

from __future__ import annotations

import csv
import hashlib
import re
from collections.abc import Sequence
from pathlib import Path

from .._csv_cells import csv_cell
from .class_page import points_text
from .class_report import Submission, course_lectures, read_reports, summarise
from .roster import NOT_ON_ROSTER, Student, assign, read_roster

FEEDBACK_STYLE = """
body { font: 16px/1.5 system-ui, sans-serif; color: #1a1a1a; background: #fff; margin: 0 auto; max-width: 50rem;
       padding: 0 1rem 3rem; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; } th, td { border-bottom: 1px solid #ccc; padding: .3rem .4rem;
text-align: left; vertical-align: top; } th[scope=row] { font-weight: normal; } .note { color: #333; }
.message { white-space: pre-wrap; }
"""


def set_columns(submissions: Sequence[Submission]) -> dict[str, float]:
    """Every exercise set graded, in order, with its maximum points."""
    maxima: dict[str, float] = {}
    for submission in submissions:
        maxima[submission.exercise_set] = max(maxima.get(submission.exercise_set, 0.0), submission.max_score)
    return dict(sorted(maxima.items()))


def _points(student: Student, sets: dict[str, float]) -> list[float]:
    best = student.best()
    return [best[name].score if name in best else 0.0 for name in sets]


def write_students(out: Path, students: Sequence[Student], sets: dict[str, float]) -> None:
    with (out / "students.csv").open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(["id", "name", *(csv_cell(f"{name} points") for name in sets), "total", "max_total", "notebooks"])
        for student in students:
            points = _points(student, sets)
            writer.writerow([csv_cell(student.id), csv_cell(student.name), *map(points_text, points), points_text(sum(points)),
                             points_text(sum(sets.values())), len(student.submissions)])


def _column(name: str) -> str:
    return csv_cell(f"dimred-teach {name}")


def write_canvas(out: Path, students: Sequence[Student], sets: dict[str, float]) -> None:
    with (out / "canvas.csv").open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *map(_column, sets)])
        writer.writerow(["Points Possible", "", "", "", "", *map(points_text, sets.values())])
        for student in students:
            writer.writerow([csv_cell(student.name), "", csv_cell(student.id), csv_cell(student.login or student.email),
                             csv_cell(student.section), *map(points_text, _points(student, sets))])


def write_moodle(out: Path, students: Sequence[Student], sets: dict[str, float]) -> None:
    with (out / "moodle.csv").open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(["ID number", "Email address", "Full name", *map(_column, sets)])
        for student in students:
            writer.writerow([csv_cell(student.id), csv_cell(student.email), csv_cell(student.name),
                             *map(points_text, _points(student, sets))])


def feedback_names(students: Sequence[Student]) -> dict[str, str]:
    """Each student's feedback file name: the id in a safe alphabet (and a hash of the id when
    two ids would give one name)."""
    names = {student.id: re.sub(r"[^A-Za-z0-9_-]", "_", student.id)[:60] or "student" for student in students}
    counts = {name: list(names.values()).count(name) for name in names.values()}
    return {key: (f"{name}-{hashlib.sha256(key.encode()).hexdigest()[:8]}" if counts[name] > 1 else name) + ".html"
            for key, name in names.items()}


def write_feedback(out: Path, students: Sequence[Student], titles: dict[str, str], revisit: dict[str, str]) -> None:
    from jinja2 import Environment, PackageLoader, StrictUndefined
    from markupsafe import Markup

    template = Environment(loader=PackageLoader("dimred_teach.gradebook", "templates/class_report"), autoescape=True,
                           undefined=StrictUndefined).get_template("feedback.html.j2")
    folder = out / "feedback"
    folder.mkdir(parents=True, exist_ok=True)
    for student, name in zip(students, feedback_names(students).values()):
        best = student.best()
        sets = [{"number": key[:2], "title": titles.get(key[:2], ""), "submission": best[key]} for key in sorted(best)]
        total = sum(s["submission"].score for s in sets)
        maximum = sum(s["submission"].max_score for s in sets)
        page = template.render(style=Markup(FEEDBACK_STYLE), student=student, sets=sets, number=points_text,
                               total=points_text(total), maximum=points_text(maximum), revisit=revisit)
        (folder / name).write_text(page, encoding="utf-8")


def student_outputs(paths: Sequence[Path], roster: Path, out: Path, root: Path) -> str:
    """Read the reports and the roster, write the files above into ``out``; a one-line account."""
    submissions, skipped = read_reports(paths)
    if not submissions:
        raise ValueError(f"REPORTS: no graded submission found in {', '.join(map(str, paths))}")
    students, unmatched = assign(read_roster(roster), submissions)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    sets = set_columns(submissions)
    write_students(out, students, sets)
    write_canvas(out, students, sets)
    write_moodle(out, students, sets)
    lectures = course_lectures(root)
    summaries, _ = summarise(submissions, lectures)
    write_feedback(out, students, {number: lecture.title for number, lecture in lectures.items()},
                   {summary.exercise: summary.revisit for summary in summaries if summary.revisit})
    with (out / "unmatched.csv").open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(["submission", "exercise_set", "points", "reason"])
        for submission, reason in unmatched:
            writer.writerow([csv_cell(submission.name), csv_cell(submission.exercise_set), points_text(submission.score),
                             csv_cell(reason)])
    without = sum(not student.submissions for student in students)
    ambiguous = sum(reason != NOT_ON_ROSTER for _, reason in unmatched)
    return (f"{len(students)} student(s) ({without} without a graded notebook), {len(unmatched) - ambiguous} "
            f"notebook(s) not on the roster, {ambiguous} notebook(s) matching two students' rows (refused, see "
            f"unmatched.csv): {out / 'students.csv'}, canvas.csv, moodle.csv, feedback/, unmatched.csv"
            + "".join(f"\nskipped {note}" for note in skipped))
