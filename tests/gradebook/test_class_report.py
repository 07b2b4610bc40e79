"""Issue 24: the class report counts what a class got wrong, from the grader's reports.

Synthetic reports (written by the grader's own report writer) test the counting, the
gradebook path and hostile input without grading; two classes graded for real test the
whole way from notebooks to counts: a demo class built from the proofs' mutants, and a class
built by hand from the exercise notebook.
"""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import nbformat
import pytest

from class_reports import cells_as_any_spreadsheet_splits, write_synthetic_reports
from dimred_teach.cli import main
from dimred_teach.gradebook.class_report import read_reports, summarise, write_csvs
from dimred_teach.grading.reports import write_gradebook, write_report
from dimred_teach.grading.results import SubmissionResult, TestResult, read_report

pytestmark = [pytest.mark.sandbox, pytest.mark.slow(seconds=120)]

ROOT = Path(__file__).resolve().parents[2]
DIMRED_TEACH = Path(sys.executable).with_name("dimred-teach")


def read_csv(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def counted(out: Path) -> Counter:
    """(exercise, mistake id) -> count, from mistakes.csv; passes, blanks and ungraded from exercises.csv."""
    counts = Counter({(row["exercise"], row["id"]): int(row["count"]) for row in read_csv(out / "mistakes.csv")})
    for row in read_csv(out / "exercises.csv"):
        for column, mistake in (("passed", ""), ("no_answer", "no-answer"), ("not_graded", "not-graded")):
            if int(row[column]):
                counts[(row["exercise"], mistake)] = int(row[column])
    return counts


def test_a_thousand_reports_summarise_in_seconds_to_the_counts_they_were_drawn_with(tmp_path):
    drawn = write_synthetic_reports(tmp_path / "reports", 1000, seed=3)
    started = time.perf_counter()
    submissions, skipped = read_reports([tmp_path / "reports"])
    summaries, mistakes = summarise(submissions)
    write_csvs(tmp_path, summaries, mistakes)
    elapsed = time.perf_counter() - started
    assert (len(submissions), skipped) == (1000, [])
    assert counted(tmp_path) == +drawn
    assert elapsed < 10, f"1,000 reports took {elapsed:.1f} s to summarise"
    shares = {(row["exercise"], row["id"]): float(row["share"]) for row in read_csv(tmp_path / "mistakes.csv")}
    attempted = {row["exercise"]: int(row["attempted"]) for row in read_csv(tmp_path / "exercises.csv")}
    for (exercise, mistake), share in shares.items():
        assert share == pytest.approx(drawn[(exercise, mistake)] / attempted[exercise], abs=1e-4)


def test_a_gradebook_gives_the_counts_of_the_reports(tmp_path):
    drawn = write_synthetic_reports(tmp_path / "reports", 80, seed=4)
    results = [read_report(path)
               for path in sorted((tmp_path / "reports").glob("*.json"))]
    write_gradebook(results, tmp_path / "gradebook.csv", 1.0)
    assert main(["class-report", str(tmp_path / "gradebook.csv"), "--out", str(tmp_path / "from-gradebook"),
                 "--root", str(ROOT)]) == 0
    assert counted(tmp_path / "from-gradebook") == +drawn
    names = {row["id"]: row["mistake"] for row in read_csv(tmp_path / "from-gradebook" / "mistakes.csv")}
    assert names.get("missing-half", "forgot the factor -1/2") == "forgot the factor -1/2"


HOSTILE = "<script>alert(1)</script><img src=x onerror=alert(2)> [link](http://evil.example) =cmd|' /C calc'!A0"


def test_hostile_reports_are_data_never_markup_and_names_stay_hidden(tmp_path, capsys):
    reports = tmp_path / "reports"
    write_synthetic_reports(reports, 5, seed=5, message=HOSTILE)
    (reports / "not-json.json").write_text("{ this is not json")
    (reports / "a-list.json").write_text("[1, 2, 3]")
    (reports / "huge.json").write_bytes(b" " * (5 * 2**20))
    test = TestResult("04.recover_b", 0.0, 2.0, False, HOSTILE, "<b>id</b>", HOSTILE)
    write_report(SubmissionResult(HOSTILE, "hostile", "04_mds", (test,), "", 1.0, True), reports)
    assert main(["class-report", str(reports), "--out", str(tmp_path / "page"), "--root", str(ROOT)]) == 0
    printed = capsys.readouterr().out
    assert printed.count("skipped") == 3 and "6 submission(s)" in printed
    page = (tmp_path / "page" / "index.html").read_text()
    # one script, the page's own (it opens every set to print)
    assert page.count("<script") == 1 and "<img src=x" not in page and "student 0" not in page
    assert "&lt;img src=x onerror=alert(2)&gt;" in page  # the message, as text
    rows = read_csv(tmp_path / "page" / "mistakes.csv")
    hostile = [row for row in rows if row["exercise"] == "04.recover_b" and row["id"] == "other"]
    assert hostile and all(not row["mistake"].startswith(("=", "+", "-", "@")) for row in rows)
    assert main(["class-report", str(reports), "--out", str(tmp_path / "named"), "--root", str(ROOT), "--students",
                 "--names"]) == 0
    named = (tmp_path / "named" / "index.html").read_text()
    assert (
        "my-work/student 0/" in named
        and "&lt;script&gt;alert(1)&lt;/script&gt;" in named
        and named.count("<script") == 1
    )
    assert main(["class-report", str(reports), "--out", str(tmp_path / "numbered"), "--students"]) == 0
    assert "submission 1" in (tmp_path / "numbered" / "index.html").read_text()


def test_bad_arguments_get_a_message_naming_them(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["class-report", str(tmp_path / "empty"), "--out", str(tmp_path / "out")]) == 2
    assert "REPORTS: no graded submission" in capsys.readouterr().err
    assert main(["class-report", str(tmp_path / "missing"), "--out", str(tmp_path / "out")]) == 2
    assert "REPORTS:" in capsys.readouterr().err
    assert main(["class-report", str(tmp_path / "empty"), "--out", str(tmp_path / "out"), "--names"]) == 2
    assert capsys.readouterr().err.startswith("error: --names: the names appear only in the table of --students")
    assert main(["demo-class", "--out", str(tmp_path / "demo"), "--size", "0", "--root", str(ROOT)]) == 2
    assert "--size" in capsys.readouterr().err
    assert main(["demo-class", "--out", str(tmp_path / "demo"), "--sets", "77", "--root", str(ROOT)]) == 2
    assert "--sets: no exercise set 77" in capsys.readouterr().err


def grade_and_report(notebooks: Path, out: Path) -> None:
    """``dimred-teach grade`` (sandboxed, as in a course's CI), then ``class-report`` on its reports."""
    graded = subprocess.run([str(DIMRED_TEACH), "grade", str(notebooks), "--out", str(out / "reports"), "--jobs", "2"],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert graded.returncode in (0, 1), graded.stderr[-3000:]
    assert main(["class-report", str(out / "reports"), "--out", str(out / "report"), "--root", str(ROOT)]) == 0


def test_a_graded_demo_class_gives_back_the_mistakes_it_was_built_with(tmp_path):
    assert main(["demo-class", "--out", str(tmp_path / "class"), "--size", "8", "--seed", "2", "--sets", "04",
                 "--root", str(ROOT)]) == 0
    built = json.loads((tmp_path / "class" / "class.json").read_text())["submissions"]
    expected = Counter((exercise, mistake) for made in built.values() for exercise, mistake in made.items())
    assert len({key for key in expected if key[1] not in ("", "no-answer")}) >= 3  # a class with several mistakes
    grade_and_report(tmp_path / "class", tmp_path)
    assert counted(tmp_path / "report") == expected


def test_a_class_built_by_hand_is_counted_under_the_mistakes_names(tmp_path):
    """Four correct answers to 04.recover_b, two that forgot the factor -1/2, one that centred
    the rows only; every other exercise left as handed out (blank)."""
    answers = {"right": "-0.5 * (D2 - D2.mean(axis=0) - D2.mean(axis=1)[:, None] + D2.mean())",
               "missing-half": "D2 - D2.mean(axis=0) - D2.mean(axis=1)[:, None] + D2.mean()",
               "rows-only": "-0.5 * (D2 - D2.mean(axis=0))"}
    handed_out = nbformat.read(ROOT / "exercises" / "04_mds.ipynb", as_version=4)
    blank = next(i for i, cell in enumerate(handed_out.cells) if cell.cell_type == "code" and "B = ..." in cell.source)
    for number, kind in enumerate(["right"] * 4 + ["missing-half"] * 2 + ["rows-only"]):
        notebook = nbformat.read(ROOT / "exercises" / "04_mds.ipynb", as_version=4)
        notebook.cells[blank].source = f"B = {answers[kind]}"
        (tmp_path / "class" / f"student-{number}").mkdir(parents=True)
        nbformat.write(notebook, tmp_path / "class" / f"student-{number}" / "04_mds.ipynb")
    grade_and_report(tmp_path / "class", tmp_path)
    rows = {
        row["id"]: row for row in read_csv(tmp_path / "report" / "mistakes.csv") if row["exercise"] == "04.recover_b"
    }
    assert {key: (row["mistake"], int(row["count"])) for key, row in rows.items()} == {
        "missing-half": ("forgot the factor -1/2", 2), "rows-only": ("centred the rows only", 1)}
    exercises = {row["exercise"]: row for row in read_csv(tmp_path / "report" / "exercises.csv")}
    assert exercises["04.recover_b"]["passed"] == "4" and exercises["04.classical_mds"]["no_answer"] == "7"
    assert "lecture 04 §2" in exercises["04.recover_b"]["revisit"]


HOSTILE_NAMES = ["x'><script>alert(1)</script>", '04.a" onmouseover="alert(2)', "=HYPERLINK(\"http://evil\")",
                 "+cmd|' /C calc'!A0", "@SUM(1)", "-1+2", "<img src=x onerror=alert(3)>"]


def test_exercise_and_set_names_from_reports_are_text_everywhere(tmp_path):
    """Issue 37.6: a report's exercise names (and its set, and its mistake name) are the
    student's: on the page they are text, never markup, ids or attributes; in every CSV no
    text cell starts as a formula."""
    reports = tmp_path / "reports"
    reports.mkdir()
    for number, name in enumerate(HOSTILE_NAMES):
        tests = (TestResult(name, 0.0, 2.0, False, "msg", "other", f"{name} mistake"),
                 TestResult("04.recover_b", 2.0, 2.0, True, ""))
        write_report(SubmissionResult(f"s{number}.ipynb", f"r{number}", "04_mds", tests, "", 1.0, True), reports)
    write_report(SubmissionResult("t.ipynb", "t", "=04_mds\"'><b>", (TestResult("=x", 0.0, 1.0, False, "m", "other"),),
                                  "", 1.0, True), reports)
    assert main(["class-report", str(reports), "--out", str(tmp_path / "page"), "--root", str(ROOT), "--students",
                 "--names"]) == 0
    page = (tmp_path / "page" / "index.html").read_text()
    from html.parser import HTMLParser

    class Collect(HTMLParser):
        tags, attributes = [], []

        def handle_starttag(self, tag, attrs):
            self.tags.append(tag)
            self.attributes += attrs

    collected = Collect()
    collected.feed(page)
    assert collected.tags.count("script") == 1 and "onmouseover" not in {name for name, _ in collected.attributes}
    assert set(collected.tags) <= {"html", "head", "meta", "title", "style", "body", "header", "h1", "p", "main",
                                   "section", "h2", "ol", "li", "span", "code", "strong", "a", "table", "thead", "tr",
                                   "th", "td", "tbody", "ul", "br", "details", "summary", "h3", "h4", "script"}
    for name, value in collected.attributes:
        if name in ("id", "aria-labelledby") or (name == "href" and value.startswith("#")):
            assert re.fullmatch(r"#?[a-z0-9-]+", value), (name, value)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "&lt;img src=x onerror=alert(3)&gt;" in page
    for csv_file in ("mistakes.csv", "exercises.csv"):
        for row in csv.reader((tmp_path / "page" / csv_file).open(encoding="utf-8")):
            assert not any(cell.startswith(("=", "+", "-", "@")) for cell in row), (csv_file, row)


def test_a_formula_after_a_separator_starts_no_cell_in_any_csv(tmp_path):
    """Issue 52.6: a submission named ``01_pca_lagrangian;=2+5;.ipynb`` must start no cell with
    ``=`` in the gradebook or the class report's files, whatever the spreadsheet splits on."""
    reports = tmp_path / "reports"
    reports.mkdir()
    name = "01_pca_lagrangian;=2+5;.ipynb"
    tests = (TestResult("04.recover_b;=1+1", 0.0, 2.0, False, "a;=3+3", "other", "x\t=4+4"),)
    result = SubmissionResult(name, "r0", "04_mds", tests, "", 1.0, True)
    write_report(result, reports)
    write_gradebook([result], tmp_path / "gradebook.csv", 1.0)
    assert main(["class-report", str(reports), "--out", str(tmp_path / "page"), "--root", str(ROOT)]) == 0
    for csv_file in (
        tmp_path / "gradebook.csv",
        tmp_path / "page" / "mistakes.csv",
        tmp_path / "page" / "exercises.csv",
    ):
        cells = list(cells_as_any_spreadsheet_splits(csv_file))
        assert any("=2+5" in cell or "=1+1" in cell for cell in cells), csv_file  # the names are there, as text
        assert not [cell for cell in cells if cell.lstrip().startswith(("=", "+", "@"))], csv_file


def test_failures_no_named_mistake_explains_are_ranked_apart_from_the_named_ones(tmp_path):
    """Issue 50: "other" took three of the top ten places of the demo class; it is not a
    misunderstanding to teach against, so the ranking holds named mistakes only, and the
    unexplained failures are counted beside it."""
    reports = tmp_path / "reports"
    reports.mkdir()
    for number in range(12):
        tests = (TestResult("04.align", 0.0, 2.0, False, "m", "other"),  # 12: the most common failure
                 TestResult("04.recover_b", 0.0, 2.0, False, "m", "missing-half" if number < 5 else "other"),
                 TestResult("04.classical_mds", 3.0 * (number >= 3), 3.0, number >= 3, "m",
                            "smallest-eigenpairs" if number < 3 else ""))
        write_report(SubmissionResult(f"s{number}.ipynb", f"r{number}", "04_mds", tests, "", 1.0, True), reports)
    assert main(["class-report", str(reports), "--out", str(tmp_path / "page"), "--root", str(ROOT)]) == 0
    page = (tmp_path / "page" / "index.html").read_text()
    ranking = page.split('<ol class="top">', 1)[1].split("</ol>", 1)[0]
    assert ranking.count("<li>") == 2 and "no named mistake" not in ranking
    assert ranking.index("forgot the factor -1/2") < ranking.index("the smallest eigenpairs")
    unexplained = " ".join(page.split('<p class="unexplained">', 1)[1].split("</p>", 1)[0].split())
    assert unexplained.startswith("Not ranked with them: 19 failed attempt(s) on 2 exercise(s) that no named mistake")
    assert "<code>04.align</code> (12 of 12 attempts), <code>04.recover_b</code> (7 of 12 attempts)" in unexplained
    rows = read_csv(tmp_path / "page" / "mistakes.csv")  # the CSV still counts every failure
    assert {(row["exercise"], row["id"]): row["count"] for row in rows}[("04.align", "other")] == "12"


def test_section_titles_with_math_read_as_plain_words():
    """Issue 50: a section to revisit is a link's words: its LaTeX reads as text (``X^\\top``
    read ``X^→p`` before, ``\\times d`` lost its space, ``\\Sigma`` read ``Sigma``)."""
    from dimred_teach.gradebook.class_report import _revisit, course_lectures, plain_title

    assert plain_title(r"$S = V\Lambda V^\top$ against $\mathbf X_c = U D V^\top$") == "S = VΛVᵀ against X_c = UDVᵀ"
    assert plain_title(r"Forming $\mathbf X^\top \mathbf X$ can lose digits") == "Forming XᵀX can lose digits"
    assert (
        plain_title(r"The log-likelihood without a $d\times d$ matrix") == "The log-likelihood without a d × d matrix"
    )
    assert plain_title(r"The second component and $\gamma_2 = 0$") == "The second component and γ₂ = 0"
    assert plain_title(r"$\Sigma^{-1}$, $\tfrac12 \hat x$ and $\Lambda^{1/2}$") == "Σ⁻¹, 1/2x̂ and Λ^(1/2)"
    assert plain_title(r"$\operatorname{Var}[\text{the scores}] = \Lambda$") == "Var[the scores] = Λ"
    assert plain_title("a $ left open") == "a $ left open"
    lectures = course_lectures(ROOT)
    for lecture in lectures.values():
        if lecture.exercises:
            for words, _ in _revisit(lecture.stem, lectures).values():
                assert not set(words) & set("\\${}^"), words
