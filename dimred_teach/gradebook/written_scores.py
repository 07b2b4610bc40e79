"""``written-scores.csv``: the lecturer's points for the written answers.

``dimred-teach written`` writes it with one row per submission and written part, in the order
of its pages: ``submission``, ``exercise``, ``part``, ``points`` (empty, for the lecturer to fill;
0 for a blank answer), ``max_points`` and ``comment`` (for the student's feedback page; a blank
answer's says so). ``dimred-teach gradebook --written FILE`` reads it back (:func:`read_scores`):
every row must name a submission of the reports and one of its written parts, with points
between 0 and the part's maximum; the first row that does not is refused, naming its line.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .._csv_cells import csv_cell
from ..grading.results import WrittenAnswer
from .class_report import Submission

SCORES_FILE = "written-scores.csv"
COLUMNS = ("submission", "exercise", "part", "points", "max_points", "comment")
BLANK_COMMENT = "no answer written"
MAX_ROWS, MAX_COMMENT = 200_000, 4000


@dataclass(frozen=True)
class WrittenScore:
    """The lecturer's points and comment for one written part of one submission."""

    exercise: str
    part: int
    points: float
    max_points: float
    comment: str


def write_scores(path: Path, rows: Sequence[tuple[Submission, WrittenAnswer]]) -> None:
    """The scores file to fill in: one row per (submission, answer), blanks scored 0."""
    with Path(path).open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(COLUMNS)
        for submission, answer in rows:
            writer.writerow([csv_cell(submission.name), csv_cell(answer.exercise), answer.part,
                             "0" if answer.blank else "", f"{answer.max_points:g}",
                             BLANK_COMMENT if answer.blank else ""])


def _number(text: str, what: str) -> float:
    try:
        value = float(text.strip())
    except ValueError:
        raise ValueError(f"{what} {text!r} is not a number (write 2.5, not 2,5)") from None
    if not 0 <= value < 1e6:
        raise ValueError(f"{what} {text!r} is not a number of points")
    return value


def read_scores(path: Path, submissions: Sequence[Submission]) -> dict[str, dict[tuple[str, int], WrittenScore]]:
    """Each submission's scores (by its name, then by (exercise, part)), checked against the
    written answers its report holds. ValueError naming ``--written``, the file's line and the
    fault: an unknown submission or part, a part given twice, points missing, not a number or
    above the part's maximum, a maximum that is not the part's."""
    answers = {s.name: {(a.exercise, a.part): a for a in s.written} for s in submissions}
    # as written (through csv_cell, a formula-like name has a "'"), or as a spreadsheet saved it (without)
    names = {**{csv_cell(name): name for name in answers}, **{name: name for name in answers}}
    try:
        with Path(path).open(newline="", encoding="utf-8-sig") as file:
            reader = csv.DictReader(file)
            missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
            if missing:
                raise ValueError(f"--written: {path} needs the columns {', '.join(COLUMNS)} (written by `dimred-teach "
                                 f"written`); it lacks {', '.join(missing)}")
            rows = []
            for row in reader:
                rows.append(row)
                if len(rows) > MAX_ROWS:
                    raise ValueError(f"--written: {path} has more than {MAX_ROWS} rows")
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise ValueError(f"--written: cannot read {path} ({type(error).__name__}: {error})") from None
    scores: dict[str, dict[tuple[str, int], WrittenScore]] = {}
    for line, row in enumerate(rows, start=2):
        where = f"--written: {path} line {line}"
        given, exercise = (row.get("submission") or "").strip(), (row.get("exercise") or "").strip()
        name = names.get(given)
        if name is None:
            raise ValueError(f"{where}: submission {given!r} is not among the reports' submissions with written "
                             "answers")
        try:
            part = int((row.get("part") or "").strip())
        except ValueError:
            raise ValueError(f"{where}: part {row.get('part')!r} is not a part number") from None
        answer = answers[name].get((exercise, part))
        if answer is None:
            raise ValueError(f"{where}: {name} has no written part {exercise!r} {part} (exercise and part as "
                             "`dimred-teach written` wrote them)")
        if (exercise, part) in scores.get(name, {}):
            raise ValueError(f"{where}: {name} {exercise} part {part} is scored twice")
        if not (row.get("points") or "").strip():
            raise ValueError(f"{where}: no points for {name} {exercise} part {part}; fill them in or delete the row")
        try:
            points = _number(row["points"], "points")
            maximum = _number(row.get("max_points") or "", "max_points")
        except ValueError as error:
            raise ValueError(f"{where}: {error}") from None
        if round(maximum, 6) != round(answer.max_points, 6):
            raise ValueError(f"{where}: max_points {maximum:g} is not the {answer.max_points:g} points {exercise} part "
                             f"{part} is worth")
        if round(points, 6) > round(answer.max_points, 6):
            raise ValueError(f"{where}: {points:g} points for {name} {exercise} part {part}, above its "
                             f"{answer.max_points:g}")
        scores.setdefault(name, {})[(exercise, part)] = WrittenScore(exercise, part, points, answer.max_points,
                                                                     (row.get("comment") or "")[:MAX_COMMENT])
    return scores
