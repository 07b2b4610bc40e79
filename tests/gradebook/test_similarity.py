"""Issue 50.3: ``dimred-teach similarity`` finds a disguised copy among honest answers, sets
each score against its exercise's own pairs, names an answer copied from the course's code,
and treats every notebook as data (escaped on the page, neutralised in the CSV files, never
run, never changed). Its scores are recomputed here from copydetect's own fingerprint class
and plain sets."""

from __future__ import annotations

import csv
import hashlib
import inspect
import io
import statistics
import sys
from pathlib import Path

import nbformat
import pytest

from class_reports import cells_as_any_spreadsheet_splits
from dimred_teach import mds
from dimred_teach.cli import main
from dimred_teach.exercise_specs import load_spec
from dimred_teach.gradebook.answer_code import answers, exercise_cells, starter_code
from similar_class import CLASS, HONEST, RIGHT_B, WRONG_B, exercise_notebook, write_class

ROOT = Path(__file__).resolve().parents[2]

@pytest.fixture(scope="module")
def similar(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("similarity")
    write_class(folder)
    (folder / "section-a" / "blank").mkdir()  # handed in as handed out: no answer at all
    nbformat.write(nbformat.read(ROOT / "exercises" / "04_mds.ipynb", as_version=4),
                   folder / "section-a" / "blank" / "04_mds.ipynb")
    assert main(["similarity", str(folder / "section-a"), str(folder / "section-b"), "--out", str(folder / "out"),
                 "--root", str(ROOT)]) == 0
    return folder


def read_csv(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def student(path: str) -> str:
    return Path(path).parent.name


def test_a_disguised_copy_is_its_originals_closest_classmate(similar):
    rows = read_csv(similar / "out" / "pairs.csv")
    mds = [row for row in rows if row["exercise"] == "04.classical_mds"]
    for one, other in (("bo", "ana"), ("ana", "bo")):
        mine = [row for row in mds if one in (student(row["a"]), student(row["b"]))]
        closest = max(mine, key=lambda row: float(row["similarity"]))
        assert {student(closest["a"]), student(closest["b"])} == {one, other}
        assert float(closest["similarity"]) == 1.0  # names, layout and comments are put aside
    # first of every pair: the one-line exercise where every right answer is alike does not flood the top
    assert {student(rows[0]["a"]), student(rows[0]["b"])} == {"ana", "bo"} and rows[0]["exercise"] == "04.classical_mds"
    recover = [row for row in rows if row["exercise"] == "04.recover_b"]
    identical = [row for row in recover if row["similarity"] == "1.0000"]  # two right answers: identical, not unusual
    assert identical and all(float(row["z"]) < 1 < float(rows[0]["z"]) for row in identical)
    assert not any("blank" in (student(row["a"]), student(row["b"])) for row in rows)
    page = (similar / "out" / "index.html").read_text()
    first = page.split('id="pair-1"', 1)[1].split("</section>", 1)[0]
    assert "04.classical_mds" in first and "/ana/" in first and "/bo/" in first
    assert first.count("<mark>") >= 12  # the matching lines are marked on both sides


def test_a_copy_of_the_course_code_is_named(similar):
    rows = read_csv(similar / "out" / "sources.csv")
    assert [(student(row["submission"]), row["exercise"], row["source"]) for row in rows] == [
        ("cy", "04.classical_mds", "dimred_teach/mds.py: classical_mds")]
    starter = set().union(*(fingerprints(code) for code in starter_code(ROOT, "04_mds")))
    answer = fingerprints(CLASS["section-a/cy"]) - starter
    source = fingerprints(inspect.getsource(mds.classical_mds)) - starter
    assert float(rows[0]["share"]) == round(len(answer & source) / len(answer), 4) >= 0.8  # recomputed here
    page = (similar / "out" / "index.html").read_text()
    assert "dimred_teach/mds.py: classical_mds" in page.split('id="course-title"', 1)[1]


def fingerprints(code: str) -> set:
    """copydetect's own CodeFingerprint of a piece of code (every K-gram: window 1)."""
    from copydetect import CodeFingerprint

    from dimred_teach.gradebook.similarity import K

    return set(CodeFingerprint("answer.py", K, 1, language="python", fp=io.StringIO(code)).hashes)


def test_every_score_equals_an_independent_computation(similar):
    """Dice's coefficient of copydetect's fingerprints (the starter code's taken out), and each
    pair's z and percentile among all its exercise's pairs, from plain sets and statistics."""
    starter = set().union(*(fingerprints(code) for code in starter_code(ROOT, "04_mds")))
    written = {Path(who).name: {"04.classical_mds": code, "04.recover_b": WRONG_B.get(Path(who).name, RIGHT_B)}
               for who, code in CLASS.items()}
    rows = read_csv(similar / "out" / "pairs.csv")
    for exercise in ("04.classical_mds", "04.recover_b"):
        prints = {who: fingerprints(code[exercise]) - starter for who, code in written.items()}
        names = sorted(who for who in prints if prints[who])  # an answer with none is too short to compare
        assert len(names) == len(prints) - (exercise == "04.recover_b")  # WRONG_B["eig"] is
        dice = {(a, b): round(2 * len(prints[a] & prints[b]) / (len(prints[a]) + len(prints[b])), 4)
                for i, a in enumerate(names) for b in names[i + 1:]}
        mean, sd = statistics.fmean(dice.values()), statistics.pstdev(dice.values())
        checked = 0
        for row in (row for row in rows if row["exercise"] == exercise):
            pair = tuple(sorted((student(row["a"]), student(row["b"]))))
            assert float(row["similarity"]) == pytest.approx(dice[pair], abs=1e-9), pair
            less = sum(value < dice[pair] for value in dice.values())
            assert float(row["percentile"]) == pytest.approx(round(100 * less / len(dice), 1), abs=1e-9)
            assert row["z"] == ("" if sd < 1e-9 else f"{(dice[pair] - mean) / sd:.2f}"), pair
            checked += 1
        assert checked >= len(names) - 1  # every answer's closest classmates are listed


def test_each_exercise_gets_the_code_of_its_own_section():
    """A code cell belongs to the next check cell of its section; cells after a section's last
    check cell to that check's exercise; check cells, the set-up before the first heading and a
    section without a check cell to none."""
    heading = "## Exercise {} · Title *(5 min, lecture §1)*"
    cells = [nbformat.v4.new_code_cell("import numpy as np"),
             nbformat.v4.new_markdown_cell(heading.format(1)), nbformat.v4.new_code_cell("a = 1"),
             nbformat.v4.new_code_cell('check("04.recover_b", a)'), nbformat.v4.new_code_cell("print(a)"),
             nbformat.v4.new_markdown_cell(heading.format(2)), nbformat.v4.new_code_cell("c = 3"),
             nbformat.v4.new_code_cell("x = 0"), nbformat.v4.new_code_cell("d = 4"),
             nbformat.v4.new_markdown_cell(heading.format(3)), nbformat.v4.new_code_cell("e = 5")]
    cells[7].id = "check-04-classical_mds"  # found by its id although its call was edited away
    notebook = nbformat.v4.new_notebook(cells=cells)
    spec = load_spec("04_mds")
    assert exercise_cells(notebook, spec) == {"04.recover_b": ["a = 1", "print(a)"],
                                              "04.classical_mds": ["c = 3", "d = 4"]}
    handed_out = nbformat.read(ROOT / "exercises" / "04_mds.ipynb", as_version=4)
    assert answers(handed_out, spec, starter_code(ROOT, "04_mds")) == {}  # starter code only: nothing written
    hostile = {"cells": [{"cell_type": "code", "source": ["x = 1\n", 7]}, "not a cell", {"cell_type": "code"}]}
    assert answers(hostile, spec, []) == {}  # any JSON: no error, no check cell, no answer


HOSTILE_CODE = 'x = "</pre></figure><script>alert(1)</script><img src=x onerror=alert(2)>"  # <b>\n' * 3


def test_students_code_and_names_are_data(tmp_path, monkeypatch):
    """A student's code and folder name reach the page as text and the CSV files as no
    formula; notebooks that are not notebooks are skipped with a note; nothing is run."""
    names = ["=HYPERLINK(\"evil\");=2+5", "<img src=x onerror=alert(3)>", "plain", "p2", "p3"]
    for name, honest in zip(names, ["eigh", "eigh", "svd", "eig", "outer"]):  # one pair far more alike: shown
        (tmp_path / "class" / name).mkdir(parents=True)
        code = HOSTILE_CODE + HONEST[honest] + "open('/tmp/similarity-ran', 'w')\n"
        nbformat.write(exercise_notebook(code, "import os; os.system('touch /tmp/similarity-ran')"),
                       tmp_path / "class" / name / "04_mds.ipynb")
    (tmp_path / "class" / "plain" / "04_mds-broken.ipynb").write_text("{ not json")
    monkeypatch.chdir(tmp_path / "class")  # each student's folder given: their names start the cells
    assert main(["similarity", *names, "--out", str(tmp_path / "out"), "--root", str(ROOT), "--jobs", "1"]) == 0
    assert not Path("/tmp/similarity-ran").exists()
    page = (tmp_path / "out" / "index.html").read_text()
    assert "<script" not in page and "<img" not in page and "&lt;/pre&gt;&lt;/figure&gt;&lt;script&gt;" in page
    assert "&lt;img src=x onerror=alert(3)&gt;" in page
    rows = list(csv.DictReader((tmp_path / "out" / "pairs.csv").open(encoding="utf-8")))
    assert {student(row[side]) for row in rows for side in "ab"} == {"'=HYPERLINK(\"evil\");'=2+5", *names[1:]}
    cells = list(cells_as_any_spreadsheet_splits(tmp_path / "out" / "pairs.csv"))
    assert not [cell for cell in cells if cell.lstrip().startswith(("=", "+", "@"))]


def tree_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        digest.update(str(path.relative_to(folder)).encode())
        digest.update(path.read_bytes() if path.is_file() else b"folder")
    return digest.hexdigest()


def test_it_changes_no_submission_and_writes_only_its_out_folder(tmp_path):
    (tmp_path / "class" / "ana").mkdir(parents=True)
    (tmp_path / "class" / "bo").mkdir()
    nbformat.write(exercise_notebook(HONEST["eigh"]), tmp_path / "class" / "ana" / "04_mds.ipynb")
    nbformat.write(exercise_notebook(HONEST["svd"]), tmp_path / "class" / "bo" / "04_mds.ipynb")
    before = tree_digest(tmp_path / "class")
    assert main(["similarity", str(tmp_path / "class"), "--out", str(tmp_path / "out"), "--root", str(ROOT)]) == 0
    assert tree_digest(tmp_path / "class") == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["class", "out"]
    assert sorted(path.name for path in (tmp_path / "out").iterdir()) == ["index.html", "pairs.csv", "sources.csv"]


def test_bad_arguments_get_one_line_naming_them(tmp_path, capsys, monkeypatch):
    assert main(["similarity", str(tmp_path / "missing"), "--out", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err.startswith("error: SUBMISSIONS:")
    (tmp_path / "empty").mkdir()
    assert main(["similarity", str(tmp_path / "empty"), "--out", str(tmp_path / "out")]) == 2
    assert "SUBMISSIONS: no notebook" in capsys.readouterr().err
    assert main(["similarity", str(tmp_path / "empty"), "--out", str(tmp_path / "out"), "--jobs", "0"]) == 2
    assert "--jobs" in capsys.readouterr().err
    (tmp_path / "class" / "ana").mkdir(parents=True)
    nbformat.write(exercise_notebook(HONEST["eigh"]), tmp_path / "class" / "ana" / "04_mds.ipynb")
    assert main(["similarity", str(tmp_path / "class"), "--out", str(tmp_path / "out"), "--root",
                 str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("error: --root:") and error.count("\n") == 1
    monkeypatch.setitem(sys.modules, "copydetect", None)  # the extra not installed
    assert main(["similarity", str(tmp_path / "class"), "--out", str(tmp_path / "out"), "--root", str(ROOT)]) == 2
    assert "the `similarity` extra" in capsys.readouterr().err


def test_the_page_shows_only_pairs_that_stand_out_for_their_exercise(similar):
    """Identical right answers to the one-line 04.recover_b are in pairs.csv but not on the page."""
    page = (similar / "out" / "index.html").read_text()
    headings = [part.split("</h3>", 1)[0] for part in page.split('<h3 id="pair-')[1:]]
    assert headings and all("04.classical_mds" in heading for heading in headings)
    assert all(float(heading.split("z = ", 1)[1].split(" ", 1)[0]) >= 2.0 for heading in headings)
