"""Issue 41: a roster turns a class's reports into the lecturer's gradebook: one row per
student with per-set and total points, Canvas's and Moodle's import files in their documented
column layouts, and a feedback page per student (autoescaped)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from dimred_teach.cli import main
from dimred_teach.grading.reports import write_report
from dimred_teach.grading.results import SubmissionResult, TestResult

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = "<script>alert(1)</script>"


def report(folder: Path, submission: str, name: str, exercise_set: str, points: list[float]) -> None:
    tests = tuple(TestResult(f"{exercise_set[:2]}.e{n}", p, 2.0, p == 2.0, f"message {n} {HOSTILE}",
                             "" if p == 2.0 else "other", "" if p == 2.0 else "another mistake")
                  for n, p in enumerate(points))
    write_report(SubmissionResult(submission, name, exercise_set, tests, "", 1.0, True), folder)


def read(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as file:
        return list(csv.reader(file))


@pytest.fixture
def graded(tmp_path) -> Path:
    reports = tmp_path / "reports"
    reports.mkdir()
    report(reports, "class/ada/04_mds.ipynb", "a4", "04_mds", [2, 2, 0])
    report(reports, "class/ada/04_mds_second_try.ipynb", "a4b", "04_mds", [2, 2, 2])  # her best counts
    report(reports, "class/ada/01_pca_lagrangian.ipynb", "a1", "01_pca_lagrangian", [2, 0])
    report(reports, "class/bob/04_mds.ipynb", "b4", "04_mds", [0, 0, 0])
    report(reports, "class/misc/hw_cy_01.ipynb", "c1", "01_pca_lagrangian", [2, 2])
    report(reports, "class/stray/04_mds.ipynb", "s4", "04_mds", [2, 0, 0])
    (tmp_path / "roster.csv").write_text(
        "id,name,folder,pattern,email,login,section\n"
        "S1,\"Lovelace, Ada\",ada,,ada@example.org,alovelace,L1\n"
        f"S2,=HYPERLINK(\"x\") {HOSTILE},bob,,,,L1\n"
        "S3,Cy,,hw_cy_*.ipynb,,,L2\n"
        "S4,Dee,dee,,,,L2\n", encoding="utf-8")
    return tmp_path


def test_the_gradebook_has_a_row_per_student_with_set_and_total_points(graded):
    assert main(["gradebook", str(graded / "reports"), "--roster", str(graded / "roster.csv"),
                 "--out", str(graded / "out"), "--root", str(ROOT)]) == 0
    rows = read(graded / "out/students.csv")
    assert rows[0] == ["id", "name", "01_pca_lagrangian points", "04_mds points", "total", "max_total", "notebooks"]
    by_id = {row[0]: row[2:] for row in rows[1:]}
    assert by_id == {"S1": ["2", "6", "8", "10", "3"], "S2": ["0", "0", "0", "10", "1"],
                     "S3": ["4", "0", "4", "10", "1"], "S4": ["0", "0", "0", "10", "0"]}
    assert read(graded / "out/unmatched.csv")[1:] == [["class/stray/04_mds.ipynb", "04_mds", "2", "on no roster row"]]


CANVAS_IDENTITY = ("Student", "ID", "SIS User ID", "SIS Login ID", "Integration ID", "Section")
CANVAS_READ_ONLY = tuple(f"{kind} {what}" for kind in ("Current", "Unposted Current", "Final", "Unposted Final")
                         for what in ("Score", "Grade", "Points")) + ("Override Score", "Override Grade")
MOODLE_IDENTITY = ("ID number", "Email address", "Full name")


def canvas_import(path: Path) -> dict[str, dict[str, float]]:
    """canvas.csv read as Canvas's gradebook import documents it: the identity columns name the
    student (SIS User ID here), the second row gives Points Possible, the calculated read-only
    columns are ignored, and every other column is an assignment (a new one when no assignment
    has its name). Returns each student's points per assignment."""
    header, possible, *rows = read(path)
    assert possible[0] == "Points Possible"
    assignments = [(i, name) for i, name in enumerate(header) if name not in CANVAS_IDENTITY + CANVAS_READ_ONLY]
    return {row[header.index("SIS User ID")]: {name: float(row[i]) for i, name in assignments} for row in rows}


def moodle_import(path: Path) -> dict[str, dict[str, float]]:
    """moodle.csv read as Moodle's CSV grade import documents it: the lecturer maps ID number to
    the users' ID number, the name and email to nothing, and every other column to a grade item
    (an existing one or a new one; the course total is calculated, never imported)."""
    header, *rows = read(path)
    items = [(i, name) for i, name in enumerate(header) if name not in MOODLE_IDENTITY]
    return {row[header.index("ID number")]: {name: float(row[i]) for i, name in items} for row in rows}


def test_canvas_and_moodle_import_each_set_once_and_no_total(graded):
    """Issue 51.3: a total column was imported as one more assignment, doubling every LMS total."""
    assert main(["gradebook", str(graded / "reports"), "--roster", str(graded / "roster.csv"),
                 "--out", str(graded / "out")]) == 0
    canvas = read(graded / "out/canvas.csv")
    assert canvas[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "dimred-teach 01_pca_lagrangian",
                         "dimred-teach 04_mds"]
    assert canvas[1] == ["Points Possible", "", "", "", "", "4", "6"]
    assert canvas[2] == ["Lovelace, Ada", "", "S1", "alovelace", "L1", "2", "6"]
    moodle = read(graded / "out/moodle.csv")
    assert moodle[0] == ["ID number", "Email address", "Full name", "dimred-teach 01_pca_lagrangian",
                         "dimred-teach 04_mds"]
    assert moodle[1] == ["S1", "ada@example.org", "Lovelace, Ada", "2", "6"]
    header = read(graded / "out/students.csv")[0]
    totals = {row[0]: float(row[header.index("total")]) for row in read(graded / "out/students.csv")[1:]}
    for imported in (canvas_import(graded / "out/canvas.csv"), moodle_import(graded / "out/moodle.csv")):
        assert {student: sum(points.values()) for student, points in imported.items()} == totals
        assert all(len(points) == 2 for points in imported.values())  # one grade item per set, nothing else
    for name in ("students.csv", "canvas.csv", "moodle.csv", "unmatched.csv"):
        assert not any(cell.startswith(("=", "+", "-", "@")) for row in read(graded / "out" / name) for cell in row)


def test_each_student_gets_a_feedback_page_of_their_own_report_as_text(graded):
    assert main(["gradebook", str(graded / "reports"), "--roster", str(graded / "roster.csv"),
                 "--out", str(graded / "out"), "--root", str(ROOT)]) == 0
    pages = sorted(p.name for p in (graded / "out/feedback").iterdir())
    assert pages == ["S1.html", "S2.html", "S3.html", "S4.html"]
    ada = (graded / "out/feedback/S1.html").read_text()
    assert "Lovelace, Ada (S1): 8 of 10 points" in ada and "04_mds_second_try.ipynb" in ada
    bob = (graded / "out/feedback/S2.html").read_text()
    assert "<script" not in bob and "&lt;script&gt;alert(1)&lt;/script&gt;" in bob and "another mistake" in bob
    assert "No graded notebook of yours was found." in (graded / "out/feedback/S4.html").read_text()


@pytest.mark.parametrize("roster, named", [
    ("id,name\nS1,Ada\n", "needs the columns id, name and folder or pattern"),
    ("id,name,folder\nS1,Ada,ada\nS1,Bob,bob\n", "line 3 repeats the id 'S1'"),
    ("id,name,folder,pattern\nS1,Ada,ada,*.ipynb\n", "line 2 gives both a folder and a pattern"),
    ("id,name,folder\nS1,Ada,ada\nS2,Ann,,\n", "line 3 lacks"),
])
def test_a_bad_roster_is_refused_naming_the_row(graded, capsys, roster, named):
    (graded / "bad.csv").write_text(roster)
    assert main(["gradebook", str(graded / "reports"), "--roster", str(graded / "bad.csv"),
                 "--out", str(graded / "out")]) == 2
    error = capsys.readouterr().err
    assert "--roster" in error and named in error


def test_a_folder_named_after_a_classmate_refuses_that_notebook_alone(graded, capsys):
    """Issue 52.7: Bob's notebook in a folder he named after Ada's roster folder matches both rows: that
    notebook is refused (listed in unmatched.csv with the reason, and in the account), and everyone else's
    points are exported."""
    report(graded / "reports", "class/bob/ada/04_mds.ipynb", "b4-ada", "04_mds", [2, 2, 2])
    assert main(["gradebook", str(graded / "reports"), "--roster", str(graded / "roster.csv"),
                 "--out", str(graded / "out")]) == 0
    account = capsys.readouterr().out
    assert "1 notebook(s) matching two students' rows" in account
    by_id = {row[0]: row[2:5] for row in read(graded / "out/students.csv")[1:]}
    assert by_id["S1"] == ["2", "6", "8"] and by_id["S2"] == ["0", "0", "0"]  # neither got the ambiguous notebook
    unmatched = read(graded / "out/unmatched.csv")
    assert unmatched[0] == ["submission", "exercise_set", "points", "reason"]
    refused = [row for row in unmatched if row[0] == "class/bob/ada/04_mds.ipynb"]
    assert refused == [["class/bob/ada/04_mds.ipynb", "04_mds", "6",
                        "matches the rows of S1 (Lovelace, Ada) and S2 (=HYPERLINK(\"x\") <script>alert(1)</script>): "
                        "make their folder or pattern tell them apart"]]
    assert ["class/stray/04_mds.ipynb", "04_mds", "2", "on no roster row"] in unmatched
