"""Issue 50.4: a regrade preview. ``dimred-teach regrade OUT --out NEW_OUT`` grades the notebooks of
OUT's reports again with the grader installed now (the run's paths and options come from the reports),
writes the new reports and ``changes.csv`` into NEW_OUT, and never touches OUT.

The class is four notebooks of the test-only exercise set 99 graded in a subprocess (as a lecturer's
``grade``); "the grader installed now" is the same checks, or a copy of set 99's checks with one check
made stricter (``--extra-check-dir``, as the grader's tests install set 99), each in a fresh process."""

from __future__ import annotations

import copy
import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from dimred_teach import checks
from dimred_teach.cli import main
from dimred_teach.course.execution import read_source
from dimred_teach.course.exercises import build_exercise

pytestmark = pytest.mark.sandbox

FIXTURES = Path(__file__).parent / "fixtures"
SOURCE = FIXTURES / "99_grading_fixture.py"
DIMRED_TEACH = Path(sys.executable).with_name("dimred-teach")
STRICTER = ('''    expect_unit_columns(answer_array(answer, "w", shape=(3,)), "w")''',
            '''    w = answer_array(answer, "w", shape=(3,))
    expect_unit_columns(w, "w")
    expect(bool((w >= 0).all()), "every entry of w is at least 0")''')
"""The changed check: 99.unit_vector now also wants no negative entry."""
if str(FIXTURES) not in checks.__path__:
    checks.__path__.append(str(FIXTURES))  # build_exercise checks that set 99's checks exist


def dimred(*arguments, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(DIMRED_TEACH), *map(str, arguments)], cwd=cwd, capture_output=True, text=True,
                          timeout=600)


def snapshot(folder: Path) -> dict:
    """Every entry's bytes and modification time, the folder's own included."""
    return {str(path): (path.read_bytes() if path.is_file() else None, path.stat().st_mtime_ns)
            for path in [folder, *sorted(folder.rglob("*"))]}


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> dict:
    """Set 99's specs, four notebooks in ``class/`` (graded from the class's parent folder, with relative
    paths, as a lecturer would) and the run's reports in ``out/``."""
    root = tmp_path_factory.mktemp("regrade")
    exercise, _, spec = build_exercise(SOURCE)
    (root / "specs").mkdir()
    (root / "specs" / "99_grading_fixture.json").write_text(json.dumps(spec))
    solved = copy.deepcopy(exercise)
    for cell, source in zip(solved.cells, read_source(SOURCE).cells):
        if cell.cell_type == "code":
            cell.source = source.source
    unit = next(c for c in solved.cells if c.cell_type == "code" and "w = w / np.linalg.norm(w)" in c.source)
    for name, w in (("ann", None), ("ben", "np.array([0.0, 0.0, -1.0])"), ("cat", "np.array([1.0, 1.0, 1.0])"),
                    ("dan", None)):
        notebook = copy.deepcopy(solved)
        if w:
            notebook.cells[solved.cells.index(unit)].source = f"w = {w}"
        (root / "class" / name).mkdir(parents=True)
        nbformat.write(notebook, root / "class" / name / "99_grading_fixture.ipynb")
    stricter = root / "stricter-checks"
    stricter.mkdir()
    text = (FIXTURES / "set99.py").read_text()
    assert STRICTER[0] in text
    (stricter / "set99.py").write_text(text.replace(*STRICTER))
    result = dimred("grade", "class", "--out", "out", "--jobs", "2", "--timeout", "60", "--specs-dir", root / "specs",
                    "--extra-check-dir", FIXTURES, cwd=root)
    assert result.returncode == 1, result.stderr[-3000:]  # ben and cat lose a point
    return {"root": root, "specs": root / "specs", "stricter": stricter}


def regrade(graded, new_out: str, checks: Path, cwd: Path | None = None) -> subprocess.CompletedProcess:
    root = graded["root"]
    return dimred("regrade", root / "out", "--out", root / new_out, "--jobs", "2", "--specs-dir", graded["specs"],
                  "--extra-check-dir", checks, cwd=cwd or root.parent)


def changes(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def test_the_reports_record_what_a_regrade_needs(graded):
    report = json.loads((graded["root"] / "out" / "ann__99_grading_fixture.json").read_text())
    record = report["extra_data"]["regrade"]
    assert (
        record["cwd"] == str(graded["root"])
        and report["extra_data"]["submission"] == "class/ann/99_grading_fixture.ipynb"
    )
    assert record["options"]["timeout"] == 60 and record["options"]["sandbox"] == "auto"
    assert "seed_key" not in record["options"] and "specs_dir" not in record["options"]
    assert len(record["notebook_sha256"]) == 64


def test_the_same_grader_changes_nothing_and_out_is_untouched(graded):
    before = snapshot(graded["root"] / "out")
    result = regrade(graded, "same", FIXTURES)  # run from elsewhere: the reports say where the run was
    assert result.returncode == 0, result.stderr[-3000:]
    assert (
        "regraded 4 submission(s) with the grader installed now: 0 total(s) move; 0 exercise(s) changed"
        in result.stdout
    )
    assert changes(graded["root"] / "same" / "changes.csv") == []
    new = json.loads((graded["root"] / "same" / "ben__99_grading_fixture.json").read_text())
    assert new["extra_data"]["submission"] == "class/ben/99_grading_fixture.ipynb" and new["score"] == 5
    assert snapshot(graded["root"] / "out") == before


def test_a_changed_check_lists_exactly_the_students_it_affects(graded):
    before = snapshot(graded["root"] / "out")
    result = regrade(graded, "stricter", graded["stricter"])
    assert result.returncode == 0, result.stderr[-3000:]
    # ben's w = (0, 0, -1) is a unit vector, not a non-negative one; cat's failed before and fails now
    assert changes(graded["root"] / "stricter" / "changes.csv") == [
        {"submission": "class/ben/99_grading_fixture.ipynb", "exercise": "99.unit_vector", "old": "1", "new": "0"}]
    assert "1 total(s) move (-1 point(s): 1); 1 exercise(s) changed" in result.stdout
    assert json.loads((graded["root"] / "stricter" / "ben__99_grading_fixture.json").read_text())["score"] == 4
    assert snapshot(graded["root"] / "out") == before


def test_a_notebook_changed_since_grading_is_refused_before_anything_is_graded(graded, tmp_path):
    copied = tmp_path / "run"
    shutil.copytree(graded["root"], copied, ignore=shutil.ignore_patterns("same", "stricter"))
    for report in (copied / "out").glob("*.json"):  # the copied run's folder
        data = json.loads(report.read_text())
        data["extra_data"]["regrade"]["cwd"] = str(copied)
        report.write_text(json.dumps(data))
    notebook = nbformat.read(copied / "class" / "dan" / "99_grading_fixture.ipynb", as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell("print('added later')"))
    nbformat.write(notebook, copied / "class" / "dan" / "99_grading_fixture.ipynb")
    (copied / "class" / "cat" / "99_grading_fixture.ipynb").unlink()
    result = dimred("regrade", copied / "out", "--out", copied / "new", "--specs-dir", graded["specs"],
                    "--extra-check-dir", FIXTURES, cwd=copied)
    assert result.returncode == 2
    assert result.stderr.strip() == (f"error: OUT: {copied}/class/cat/99_grading_fixture.ipynb is gone or unreadable "
                                     "(2 of 4 notebook(s)); regrade grades the notebooks a run graded, as they were")
    assert not (copied / "new").exists()


@pytest.mark.parametrize("arguments, message", [
    (["{out}", "--out", "{out}/inside"], "--out: {out}/inside is OUT or inside it"),
    (["{out}", "--out", "{out}"], "is OUT or inside it"),
    (["{root}/specs", "--out", "{root}/new"], "OUT: {root}/specs holds no report"),
])
def test_bad_arguments_are_refused_in_one_line(graded, capsys, arguments, message):
    fill = {"out": graded["root"] / "out", "root": graded["root"]}
    assert main(["regrade", *(a.format(**fill) for a in arguments)]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("error: ") and message.format(**fill) in error and "\n" not in error


def test_a_report_of_an_older_grader_says_to_grade_again(graded, tmp_path, capsys):
    old = tmp_path / "old"
    old.mkdir()
    data = json.loads((graded["root"] / "out" / "ann__99_grading_fixture.json").read_text())
    del data["extra_data"]["regrade"]
    (old / "ann__99_grading_fixture.json").write_text(json.dumps(data))
    assert main(["regrade", str(old), "--out", str(tmp_path / "new")]) == 2
    assert "ann__99_grading_fixture.json records nothing to regrade with" in capsys.readouterr().err
    assert os.listdir(old) == ["ann__99_grading_fixture.json"]
