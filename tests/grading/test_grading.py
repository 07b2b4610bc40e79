"""The grader (``dimred-teach grade``): honest, unanswered and hostile submissions.

Most cases use the test-only exercise set 99 (tests/grading/fixtures: a solution source
and its check module), built with the real ``build_exercise`` into a temporary specs
folder. All fixture submissions are graded in ONE parallel run (module fixture), and each
test asserts on its report. The last tests grade the course's real exercise notebooks
(to 0) and executed solution notebooks (to full marks).
"""

from __future__ import annotations

import copy
import csv
import json
import os
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import nbformat
import pytest

from dimred_teach import checks
from dimred_teach.cli import main
from dimred_teach.course.execution import read_source
from dimred_teach.course.exercises import build_exercise
from dimred_teach.exercise_specs import SPECS_DIR
from dimred_teach.grading import (
    GradingOptions,
    find_submissions,
    grade,
    identify_set,
    plan_cells,
    report_names,
    scrubbed_environment,
    settle_run,
)
from dimred_teach.grading.readable_to_kernels import ACCEPT_VARIABLE
from dimred_teach.grading.reports import markdown_text

pytestmark = [pytest.mark.sandbox, pytest.mark.slow(seconds=200)]

FIXTURES = Path(__file__).parent / "fixtures"
SOURCE = FIXTURES / "99_grading_fixture.py"
ROOT = Path(__file__).resolve().parents[2]
EXERCISES = ["99.column_means", "99.unit_vector", "99.center", "99.norm_of_means"]
POINTS = {"99.column_means": 1, "99.unit_vector": 1, "99.center": 2, "99.norm_of_means": 1}
if str(FIXTURES) not in checks.__path__:
    checks.__path__.append(str(FIXTURES))  # makes dimred_teach.checks.set99 importable here too


@pytest.fixture(scope="module")
def fixture_set(tmp_path_factory):
    """The fixture's spec folder, exercise notebook, solution notebook and grading options."""
    root = tmp_path_factory.mktemp("fixture_set")
    exercise, _, spec = build_exercise(SOURCE)
    (root / "specs").mkdir()
    (root / "specs" / "99_grading_fixture.json").write_text(json.dumps(spec))
    options = GradingOptions(timeout=30, cell_timeout=6, call_timeout=4, recover_timeout=4, memory_mb=2048,
                             specs_dir=root / "specs", extra_check_dirs=(FIXTURES,))
    return {"root": root, "exercise": exercise, "solution": read_source(SOURCE), "spec": spec, "options": options}


def _answered(fixture_set) -> nbformat.NotebookNode:
    """The exercise notebook as an honest student fills it in (ids and metadata kept)."""
    notebook = copy.deepcopy(fixture_set["exercise"])
    for cell, solved in zip(notebook.cells, fixture_set["solution"].cells):
        if cell.cell_type == "code":
            cell.source = solved.source
    return notebook


def _code(notebook, start: str) -> nbformat.NotebookNode:
    """The first code cell whose source starts with ``start``."""
    return next(c for c in notebook.cells if c.cell_type == "code" and c.source.lstrip().startswith(start))


def _insert_after(notebook, start: str, source: str) -> nbformat.NotebookNode:
    cell = _code(notebook, start)
    notebook.cells.insert(notebook.cells.index(cell) + 1, nbformat.v4.new_code_cell(source))
    return notebook


def _wrong_answers(notebook) -> nbformat.NotebookNode:
    _code(notebook, "means =").source = "means = np.zeros(3)"
    _code(notebook, "# BEGIN").source = "w = np.array([1.0, 1.0, 1.0])"
    _code(notebook, "def center").source = "def center(X):\n    return X"
    _code(notebook, "norm =").source = "norm = -1.0"
    return notebook


MARKER = "dimred_grader_pwned"
HOSTILE = {}  # name -> (build(fixture_set, folder) -> Path, expected passes per exercise or None, note)


def case(name, passes, note=""):
    def register(build):
        HOSTILE[name] = (build, passes, note)
        return build
    return register


def _write(notebook, folder: Path, name: str) -> Path:
    path = folder / name
    nbformat.write(notebook, path)
    return path


ALL, NONE = dict.fromkeys(EXERCISES, True), dict.fromkeys(EXERCISES, False)


@case("honest", ALL)
def _(fs, folder):
    return _write(_answered(fs), folder, "alice.ipynb")


@case("solution_notebook", ALL)
def _(fs, folder):  # no metadata, ids cell-NNN: found by file name, checks matched by content
    return _write(fs["solution"], folder, "99_grading_fixture.ipynb")


@case("unanswered", NONE)
def _(fs, folder):
    return _write(fs["exercise"], folder, "unanswered.ipynb")


@case("not_json", None, "is not a Jupyter notebook")
def _(fs, folder):
    path = folder / "99_grading_fixture-garbage.ipynb"
    path.write_bytes(b"\x00\xffthis is { not json")
    return path


@case("json_not_notebook", None, "is not a Jupyter notebook")
def _(fs, folder):
    path = folder / "99_grading_fixture-list.ipynb"
    path.write_text(json.dumps({"cells": "none", "nbformat": 4, "nbformat_minor": 5, "metadata": {}}))
    return path


@case("symlink_to_a_device", None, "is not a regular file")
def _(fs, folder):  # reading it would never end
    path = folder / "99_grading_fixture-link.ipynb"
    path.symlink_to("/dev/zero")
    return path


@case("unknown_set", None, "cannot tell which exercise set")
def _(fs, folder):
    notebook = _answered(fs)
    notebook.metadata["dimred_teach"]["exercise_set"] = "../../../etc/passwd"
    return _write(notebook, folder, "homework.ipynb")


@case("another_sets_notebook", NONE, "graded as 99_grading_fixture from its file name")
def _(fs, folder):  # set 01's notebook under this set's file name (set 01 is unknown to these specs)
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import numpy as np\nw = np.ones(3)")])
    notebook.cells.append(nbformat.v4.new_code_cell('from dimred_teach import check\ncheck("01.top_direction", w)'))
    notebook.cells[-1].id = "check-01-top_direction"
    notebook.metadata["dimred_teach"] = {"exercise_set": "01_pca_lagrangian"}
    return _write(notebook, folder, "99_grading_fixture-wrong-set.ipynb")


@case("syntax_error", {**ALL, "99.center": False})
def _(fs, folder):
    notebook = _answered(fs)
    _code(notebook, "def center").source = "def center(X)\n    return X - X.mean(axis=0)"
    return _write(notebook, folder, "syntax.ipynb")


@case("exception_in_every_cell", NONE, "RuntimeError: boom")
def _(fs, folder):
    notebook = _answered(fs)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.source = "raise RuntimeError('boom')\n" + cell.source
    return _write(notebook, folder, "exceptions.ipynb")


@case("sys_exit", ALL, "SystemExit")
def _(fs, folder):
    return _write(_insert_after(_answered(fs), "import numpy", "import sys\nsys.exit(3)"), folder, "sys_exit.ipynb")


@case("os_exit_after_first_check", {**NONE, "99.column_means": True}, "kernel died")
def _(fs, folder):
    notebook = _insert_after(_answered(fs), 'check("99.column_means"', "import os\nos._exit(0)")
    return _write(notebook, folder, "os_exit.ipynb")


@case("kernel_killed", NONE, "kernel died")
def _(fs, folder):
    notebook = _insert_after(_answered(fs), "import numpy", "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)")
    return _write(notebook, folder, "killed.ipynb")


@case("endless_loop", ALL, "was interrupted")
def _(fs, folder):
    return _write(_insert_after(_answered(fs), "import numpy", "while True:\n    pass"), folder, "loop.ipynb")


@case("loop_ignoring_interrupts", NONE, "stopped answering")
def _(fs, folder):
    source = "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass"
    return _write(_insert_after(_answered(fs), "import numpy", source), folder, "stubborn_loop.ipynb")


@case("exits_when_interrupted", NONE, "stopped answering")
def _(fs, folder):  # the grader's reconnection finds no kernel: the run ends with a report, not a grader error
    source = "import os, signal\nsignal.signal(signal.SIGINT, lambda *_: os._exit(1))\nwhile True:\n    pass"
    return _write(_insert_after(_answered(fs), "import numpy", source), folder, "exits_when_interrupted.ipynb")


@case("huge_output", None)
def _(fs, folder):  # 400 MB in messages the socket drops, a flood of short lines, 100 MB to fd 2
    source = ("for _ in range(40):\n    print('x' * 10_000_000)\nfor i in range(200_000):\n    print(i)\n"
              "import os\nos.write(2, b'x' * 10**8)")
    return _write(_insert_after(_answered(fs), "import numpy", source), folder, "huge_output.ipynb")


@case("prints_one_huge_output", ALL)
def _(fs, folder):  # an honest slip: one output bigger than the grader takes (8 MB)
    return _write(_insert_after(_answered(fs), "import numpy", "print('x' * 10_000_000)"), folder, "big_print.ipynb")


@case("memory_hog", ALL, "MemoryError")
def _(fs, folder):
    source = "hog = [np.zeros(10**8) for _ in range(40)]  # 800 MB each"
    return _write(_insert_after(_answered(fs), "import numpy", source), folder, "memory_hog.ipynb")


@case("deleted_checks", ALL, "was missing; the grader put it back")
def _(fs, folder):
    notebook = _answered(fs)
    notebook.cells = [c for c in notebook.cells if "check" not in c.metadata.get("tags", [])]
    return _write(notebook, folder, "deleted_checks.ipynb")


@case("edited_checks", {**ALL, "99.column_means": False}, "was edited; the grader restored it")
def _(fs, folder):
    notebook = _answered(fs)
    _code(notebook, "means =").source = "means = np.zeros(3)"
    _code(notebook, 'check("99.column_means"').source = 'check("99.column_means", X.mean(axis=0))'
    _code(notebook, 'check("99.unit_vector"').source = 'print("[passed] 99.unit_vector: all properties hold")'
    _code(notebook, "norm =").source = "norm = float(np.linalg.norm(X.mean(axis=0)))"
    for cell in notebook.cells:  # tags nbclient would honour if the grader kept cell metadata
        if "check" in cell.metadata.get("tags", []):
            cell.metadata["tags"] = ["skip-execution", "raises-exception"]
    return _write(notebook, folder, "edited_checks.ipynb")


@case("moved_and_duplicated_checks", ALL)
def _(fs, folder):
    notebook = _answered(fs)
    checks_ = [c for c in notebook.cells if "check" in c.metadata.get("tags", [])]
    notebook.cells = [c for c in notebook.cells if c not in checks_] + checks_
    impostor = nbformat.v4.new_code_cell("means = np.zeros(3)  # runs after the real check cell")
    impostor.id = checks_[0].id + "-copy"
    notebook.cells.append(impostor)
    return _write(notebook, folder, "moved_checks.ipynb")


@case("redefined_check", NONE)
def _(fs, folder):
    notebook = _wrong_answers(_answered(fs))
    source = ("import dimred_teach, dimred_teach.checks as c\n"
              "def check(*args, **kwargs):\n    print('[passed]')\n"
              "dimred_teach.check = c.check = check\n"
              "c.evaluate = lambda *a, **k: c.Verdict(a[0], True, 'all properties hold', '')")
    return _write(_insert_after(notebook, "import numpy", source), folder, "redefined_check.ipynb")


@case("patched_numpy", NONE)
def _(fs, folder):
    notebook = _wrong_answers(_answered(fs))
    source = ("np.allclose = lambda *a, **k: True\nnp.isclose = lambda *a, **k: True\n"
              "np.linalg.norm = lambda *a, **k: 1.0\nnp.all = lambda *a, **k: True\nnp.max = lambda *a, **k: 0.0")
    return _write(_insert_after(notebook, "import numpy", source), folder, "patched_numpy.ipynb")


@case("fake_success_output", NONE)
def _(fs, folder):
    notebook = _wrong_answers(_answered(fs))
    lines = "".join(f"print('[passed] {e}: all properties hold')\n" for e in EXERCISES)
    return _write(_insert_after(notebook, "norm =", lines), folder, "fake_success.ipynb")


@case("malicious_pickle", ALL, "")  # crosses as its numbers: __reduce__ is never called
def _(fs, folder):
    notebook = _answered(fs)
    _code(notebook, "means =").source = (
        "means = X.mean(axis=0)\n"
        "class Evil(np.ndarray):\n"
        "    def __reduce__(self):\n"
        f"        return (os.system, ('touch {{}}/{MARKER}'.format(os.environ['DIMRED_TEST_MARKER_DIR']),))\n"
        "import os\nmeans = means.view(Evil)")
    _code(notebook, "norm =").source = "norm = float(np.linalg.norm(np.asarray(means)))"
    return _write(notebook, folder, "malicious_pickle.ipynb")


@case("late_forgery", {**ALL, "99.column_means": False})
def _(fs, folder):  # after its check ran, hand the grader a correct answer through its own channel
    notebook = _answered(fs)
    _code(notebook, "means =").source = "means = np.zeros(3)"
    source = ("import sys\nfor name, module in list(sys.modules.items()):\n"
              "    if name.startswith('_dimred_grader_'):\n"
              "        module.capture('99.column_means', X.mean(axis=0))")
    _insert_after(notebook, 'check("99.column_means"', source)
    _code(notebook, "norm =").source = "norm = float(np.linalg.norm(X.mean(axis=0)))"
    return _write(notebook, folder, "late_forgery.ipynb")


@case("function_loops_forever", {**ALL, "99.center": False}, "")
def _(fs, folder):
    notebook = _answered(fs)
    _code(notebook, "def center").source = "def center(X):\n    while True:\n        pass"
    return _write(notebook, folder, "function_loops.ipynb")


@case("function_kills_kernel", {**ALL, "99.center": False, "99.norm_of_means": False}, "kernel died")
def _(fs, folder):
    notebook = _answered(fs)
    _code(notebook, "def center").source = "def center(X):\n    import os\n    os._exit(1)"
    return _write(notebook, folder, "function_kills.ipynb")


@case("kills_its_grading_process", ALL)
def _(fs, folder):  # in the sandbox its parent is the sandbox's init, which ignores the signal
    source = "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)"
    return _write(_insert_after(_answered(fs), "import numpy", source), folder, "kills_grader.ipynb")


@case("reads_secrets_and_folder", ALL)
def _(fs, folder):  # w is a unit vector only when no secret leaked and the kernel runs elsewhere
    notebook = _answered(fs)
    _code(notebook, "# BEGIN").source = (
        "import os\nleaked = any('s3cret' in value for value in os.environ.values())\n"
        f"at_home = os.path.exists({str(folder)!r}) and os.path.samefile(os.getcwd(), {str(folder)!r})\n"
        "w = np.array([2.0, 0.0, 0.0]) if leaked or at_home else np.array([1.0, 0.0, 0.0])")
    return _write(notebook, folder, "secrets.ipynb")


@case("imports_the_debugger", ALL)
def _(fs, folder):  # w is a unit vector only when the kernel started without its debugger and debugpy still imports
    notebook = _answered(fs)
    _code(notebook, "# BEGIN").source = (
        "import sys\nimport debugpy\n"
        "debugger_on = sys.modules['ipykernel.debugger']._is_debugpy_available\n"
        "w = np.array([2.0, 0.0, 0.0]) if debugger_on else np.array([1.0, 0.0, 0.0])")
    return _write(notebook, folder, "debugger.ipynb")


@case("empty_notebook", NONE, "was missing")
def _(fs, folder):
    notebook = _answered(fs)
    notebook.cells = []
    return _write(notebook, folder, "empty.ipynb")


@pytest.fixture(scope="module")
def graded(fixture_set, tmp_path_factory):
    """Every case graded in one run; name -> (result, report dict)."""
    folder = tmp_path_factory.mktemp("submissions")
    marker_dir = tmp_path_factory.mktemp("marker")
    paths = {name: build(fixture_set, folder) for name, (build, _, _) in HOSTILE.items()}
    out = fixture_set["root"] / "reports"
    with pytest.MonkeyPatch.context() as patch:  # secrets the kernels must not see
        for key, value in {
            "GITHUB_TOKEN": "s3cret",
            "MY_API_KEY": "s3cret",
            "DIMRED_TEST_MARKER_DIR": str(marker_dir),
        }.items():
            patch.setenv(key, value)
        started = time.monotonic()
        results = grade(
            list(paths.values()), out, settle_run(fixture_set["options"]), jobs=3, gradebook=out / "book.csv"
        )
        wall = time.monotonic() - started
    by_name = {name: result for name, result in zip(paths, results)}
    reports = {name: json.loads((out / f"{r.report_name}.json").read_text()) for name, r in by_name.items()}
    return {"results": by_name, "reports": reports, "out": out, "wall": wall, "marker": marker_dir / MARKER,
            "paths": paths}


def test_at_least_twelve_hostile_cases():
    assert len(HOSTILE) - 3 >= 12


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_each_submission_is_graded_correctly_within_its_limit(graded, fixture_set, name):
    _, passes, note = HOSTILE[name]
    result, report = graded["results"][name], graded["reports"][name]
    options = fixture_set["options"]
    assert result.execution_time < options.hard_limit
    assert report["max_score"] == (5 if result.graded else report["max_score"])
    if passes is not None:
        assert result.graded
        assert {t["name"]: t["status"] == "passed" for t in report["tests"]} == passes, report
        assert report["score"] == sum(POINTS[e] for e, ok in passes.items() if ok)
    if note:
        texts = report["output"] + "".join(t["output"] for t in report["tests"])
        assert note in texts, report


def test_ungradable_files_are_reported_not_graded(graded):
    for name in ("not_json", "json_not_notebook", "symlink_to_a_device", "unknown_set"):
        result = graded["results"][name]
        assert not result.graded and result.score == 0 and not result.passes(0.0)


def test_a_flood_of_output_ends_with_a_report(graded):
    result = graded["results"]["huge_output"]
    assert result.graded
    # full marks, unless the flood ran into the time limit (how far the run gets then depends
    # on the machine's load: the kernel is still sending output when the next cells run)
    out_of_time = "interrupted" in result.output or "ran out of time" in result.output
    assert all(t.passed for t in result.tests) or out_of_time, result
    assert len(graded["reports"]["huge_output"]["output"]) < 10_000


def test_one_huge_output_costs_the_cells_after_it_nothing(graded):
    """libzmq cuts the grader's output channel for good at a message bigger than it takes; the
    grader reconnects, where nbclient alone would wait 2 s (its iopub_timeout) at the end of
    every later cell (13 cells and calls here: 28 s instead of 3 s)."""
    result = graded["results"]["prints_one_huge_output"]
    assert result.execution_time < 12, result


def test_a_malicious_pickle_runs_nothing_in_the_grader(graded):
    """No pickle crosses: an ndarray subclass with a hostile ``__reduce__`` arrives as its numbers."""
    assert not graded["marker"].exists()


def test_function_answers_have_a_time_limit_per_call(graded):
    message = next(t.output for t in graded["results"]["function_loops_forever"].tests if t.name == "99.center")
    assert "did not return within 4 s" in message and "seed" in message


def test_the_run_is_parallel_and_bounded(graded, fixture_set):
    assert graded["wall"] < 0.8 * sum(r.execution_time for r in graded["results"].values())


def test_junit_summary_and_gradebook(graded):
    out = graded["out"]
    suites = ET.parse(out / "junit.xml").getroot()
    assert len(suites) == len(HOSTILE)
    honest = next(s for s in suites if s.get("name") == "alice")
    assert honest.get("failures") == "0" and honest.get("tests") == str(len(EXERCISES) + 1)
    summary = (out / "summary.md").read_text()
    assert "| alice.ipynb" not in summary  # full paths are shown
    assert markdown_text(graded["paths"]["honest"], 120) in summary
    rows = list(csv.DictReader((out / "book.csv").open()))
    assert len(rows) == len(HOSTILE)
    honest_row = next(r for r in rows if r["submission"].endswith("alice.ipynb"))
    assert honest_row["score"] == "5" and honest_row["passed"] == "True" and honest_row["99.center"] == "2"


def test_same_verdict_as_check_in_the_notebook(fixture_set, graded, tmp_path):
    """check() in a notebook and the grader agree exercise by exercise on a half-right notebook."""
    from nbclient import NotebookClient

    notebook = _wrong_answers(_answered(fixture_set))
    _code(notebook, "means =").source = "means = X.mean(axis=0)"
    _code(notebook, "def center").source = "def center(X):\n    return X - X.mean(axis=0)"  # no ValueError
    notebook.cells.insert(0, nbformat.v4.new_code_cell(  # lets check() in this kernel find set 99
        f"import dimred_teach.checks\ndimred_teach.checks.__path__.append({str(FIXTURES)!r})"))
    NotebookClient(notebook, timeout=60, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    printed = {}
    for cell in notebook.cells:
        if "check" in cell.metadata.get("tags", []):
            text = "".join(o.get("text", "") for o in cell.outputs)
            printed[text.split("] ")[1].split(":")[0]] = text.startswith("[passed]")
    path = _write(notebook, tmp_path, "half.ipynb")
    result = grade([path], tmp_path / "out", settle_run(fixture_set["options"]))[0]
    assert printed == {t.name: t.passed for t in result.tests} == {
        "99.column_means": True, "99.unit_vector": False, "99.center": False, "99.norm_of_means": False}


# --------------------------------------------------------------------------- units (no kernel)


def test_restoring_check_cells_keeps_their_place(fixture_set):
    notebook = _answered(fixture_set)
    ids = [c.id for c in notebook.cells if c.cell_type == "code"]
    notebook.cells = [c for c in notebook.cells if c.id != "check-99-center"]
    cells, notes = plan_cells(notebook, fixture_set["spec"], "_m")
    assert [c.cell_id for c in cells] == ids
    assert sum(c.check is not None for c in cells) == len(EXERCISES)
    assert any("99.center was missing" in note for note in notes)
    assert all(c.source.startswith("__import__('_m').capture(") for c in cells if c.check)


def test_the_set_comes_from_metadata_then_file_name(fixture_set):
    specs = {"99_grading_fixture": fixture_set["spec"]}
    tagged = {"metadata": {"dimred_teach": {"exercise_set": "99_grading_fixture"}}}
    assert identify_set(tagged, Path("anything.ipynb"), specs) == ("99_grading_fixture", "")
    assert identify_set({"metadata": {}}, Path("99_grading_fixture-bob.ipynb"), specs)[0] == "99_grading_fixture"
    assert identify_set({"metadata": {}}, Path("99_other.ipynb"), specs)[0] == "99_grading_fixture"
    assert identify_set({"metadata": {}}, Path("homework.ipynb"), specs)[0] is None


def test_submissions_from_folders_get_distinctreport_names(tmp_path):
    for student in ("alice", "bob"):
        (tmp_path / student / ".ipynb_checkpoints").mkdir(parents=True)
        (tmp_path / student / "01_pca.ipynb").write_text("{}")
        (tmp_path / student / ".ipynb_checkpoints" / "01_pca-checkpoint.ipynb").write_text("{}")
    found = find_submissions([tmp_path, tmp_path / "alice" / "01_pca.ipynb"])
    assert [p.relative_to(tmp_path).as_posix() for p in found] == ["alice/01_pca.ipynb", "bob/01_pca.ipynb"]
    assert report_names(found) == ["alice__01_pca", "bob__01_pca"]
    assert report_names(found[:1]) == ["01_pca"]
    with pytest.raises(FileNotFoundError, match="missing"):
        find_submissions([tmp_path / "missing.ipynb"])


def test_the_kernel_environment_is_scrubbed(tmp_path):
    env = scrubbed_environment(
        tmp_path,
        {
            "PATH": "/bin",
            "HOME": "/h",
            "GITHUB_TOKEN": "x",
            "AWS_SECRET_ACCESS_KEY": "y",
            "ACTIONS_RUNTIME_TOKEN": "z",
            "LC_ALL": "C",
            "MPLBACKEND": "Agg",
        },
    )
    assert env["PATH"] == "/bin" and env["LC_ALL"] == "C" and env["OMP_NUM_THREADS"] == "1"
    assert not {"GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "ACTIONS_RUNTIME_TOKEN", "MPLBACKEND"} & set(env)
    assert env["TMPDIR"] == str(tmp_path)


def test_bad_options_are_errors():
    with pytest.raises(ValueError, match="timeout"):
        GradingOptions(timeout=0)
    with pytest.raises(ValueError, match="memory_mb"):
        GradingOptions(memory_mb=10)
    with pytest.raises(ValueError, match="jobs"):
        grade([], Path("unused"), settle_run(GradingOptions(sandbox="none")), jobs=0)


# --------------------------------------------------------------------------- the command line


def test_cli_usage_errors_exit_2(tmp_path, capsys):
    assert main(["grade", str(tmp_path / "missing.ipynb"), "--out", str(tmp_path / "o")]) == 2
    assert main(["grade", str(tmp_path), "--out", str(tmp_path / "o")]) == 2  # no notebooks
    (tmp_path / "a.ipynb").write_text("{}")
    assert main(["grade", str(tmp_path / "a.ipynb"), "--out", str(tmp_path / "o"), "--pass-fraction", "1.5"]) == 2
    assert main(["grade", str(tmp_path / "a.ipynb"), "--out", str(tmp_path / "o"), "--jobs", "0"]) == 2
    with pytest.raises(SystemExit) as exit_:
        main(["grade", str(tmp_path / "a.ipynb")])  # --out is required
    assert exit_.value.code == 2
    assert "error" in capsys.readouterr().err


def test_cli_exit_status_and_step_summary(fixture_set, graded, tmp_path, monkeypatch):
    """Exit 0 when all pass, 1 otherwise; the summary is appended to $GITHUB_STEP_SUMMARY;
    without a sandbox, a grader killed by its submission leaves the provisional report (in a subprocess)."""
    step = tmp_path / "step.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step))
    hidden = ["--specs-dir", str(fixture_set["options"].specs_dir), "--extra-check-dir", str(FIXTURES),
              "--cell-timeout", "6", "--timeout", "30"]
    honest = graded["paths"]["honest"]
    assert main(["grade", str(honest), "--out", str(tmp_path / "a"), *hidden]) == 0
    assert "dimred-teach grade" in step.read_text()
    unanswered = graded["paths"]["unanswered"]
    killer = _insert_after(_answered(fixture_set), "import numpy", (
        "import os, signal\nppid = int(open(f'/proc/{os.getppid()}/stat').read().rsplit(')', 1)[1].split()[1])\n"
        "os.kill(ppid, signal.SIGKILL)"))
    killer_path = _write(killer, tmp_path, "99_grading_fixture.ipynb")
    run = subprocess.run([sys.executable, "-m", "dimred_teach", "grade", str(killer_path), "--out", str(tmp_path / "k"),
                          *hidden, "--sandbox", "none"], capture_output=True, text=True, timeout=120)
    assert run.returncode != 0
    report = json.loads((tmp_path / "k" / "99_grading_fixture.json").read_text())
    assert report["score"] == 0 and "did not finish" in report["output"] and report["max_score"] == 5
    assert report["output"].startswith("not isolated") and report["extra_data"]["sandbox"] == "none"
    assert main(["grade", str(unanswered), "--out", str(tmp_path / "b"), *hidden, "--pass-fraction", "0.5"]) == 1


# --------------------------------------------------------------------------- the course's real sets, on Gradescope

REAL_SETS = sorted(p.stem for p in SPECS_DIR.glob("*.json"))


@pytest.fixture(scope="module")
def gradescope(tmp_path_factory):
    """The bundle of `dimred-teach gradescope`, run by its own run_autograder in two
    folders laid out like Gradescope's (this Python instead of the one setup.sh installs):
    one submission of every set's solution notebook, one of every blank exercise notebook.
    As root it grades in ``user`` mode, as a root container without user namespaces does
    (test_grading_installs.py runs the same layout in bubblewrap)."""
    base = tmp_path_factory.mktemp("gradescope")
    bundle = base / "autograder.zip"
    sandbox = "user" if os.geteuid() == 0 else "auto"  # what Gradescope's root container without user namespaces gets
    assert main(["gradescope", "--out", str(bundle), "--timeout", "300", "--visibility", "after_published",
                 "--sandbox", sandbox]) == 0
    runs = {}
    for folder in ("solutions", "exercises"):
        root = base / folder
        with zipfile.ZipFile(bundle) as archive:
            archive.extractall(root / "source")
            modes = {info.filename: info.external_attr >> 16 for info in archive.infolist()}
        (root / "submission").mkdir()
        for name in REAL_SETS:
            shutil.copy(ROOT / folder / f"{name}.ipynb", root / "submission")
        env = {**os.environ, "AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": sys.executable,
               ACCEPT_VARIABLE: "1"}  # user mode from a readable checkout (setup.sh makes it private)
        runs[folder] = (root, subprocess.Popen(["bash", str(root / "source" / "run_autograder")], env=env,
                                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    results = {}
    for folder, (root, process) in runs.items():
        output = process.communicate(timeout=900)[0]
        assert process.returncode == 0, output
        results[folder] = json.loads((root / "results" / "results.json").read_text())
    return {"results": results, "modes": modes, "bundle": bundle}


def test_the_gradescope_bundle_holds_what_gradescope_needs(gradescope):
    with zipfile.ZipFile(gradescope["bundle"]) as archive:
        names = set(archive.namelist())
        settings = json.loads(archive.read("settings.json"))
        requirements = archive.read("requirements.txt").decode()
    assert {"setup.sh", "run_autograder", "requirements.txt", "constraints.txt", "settings.json",
            "course/pyproject.toml", "course/dimred_teach/grading/submission_worker.py",
            "course/data/crabs.csv"} <= names
    assert gradescope["modes"]["setup.sh"] & 0o111 and gradescope["modes"]["run_autograder"] & 0o111
    assert settings == {"timeout": 300, "cell_timeout": 120, "call_timeout": 20, "memory_mb": 2048, "processes": 64,
                        "open_files": 1024, "file_mb": 256, "scratch_mb": 1024,
                        "sandbox": "user" if os.geteuid() == 0 else "auto", "jobs": 2, "visibility": "after_published",
                        "assignment": []}
    assert "numpy==" in requirements and "-c constraints.txt" in requirements


def test_gradescope_grades_solutions_to_full_marks_and_blank_exercises_to_zero(gradescope):
    from dimred_teach.grading.gradescope import SUBMITTED

    solutions, exercises = gradescope["results"]["solutions"], gradescope["results"]["exercises"]
    for results in (solutions, exercises):
        submitted = results["tests"].pop(0)  # what was graded: visible whatever --visibility says
        assert submitted["name"] == SUBMITTED and submitted["visibility"] == "visible"
        assert submitted["output"].count("graded: ") == len(REAL_SETS) and submitted["max_score"] == 0
        assert {t["name"].split(".ipynb:")[0] for t in results["tests"]} == set(REAL_SETS)
        assert all(t["visibility"] == "after_published" for t in results["tests"])
    assert [t["name"] for t in solutions["tests"]] == [t["name"] for t in exercises["tests"]]
    assert all(t["status"] == "passed" and t["score"] == t["max_score"] > 0 for t in solutions["tests"]), solutions
    assert solutions["score"] == sum(t["max_score"] for t in solutions["tests"])
    assert exercises["score"] == 0 and all(t["status"] == "failed" for t in exercises["tests"])
    assert not [line for line in exercises["output"].split("\n") if "raised" in line], exercises["output"]


def test_a_kernel_gets_a_control_group_of_its_own_where_the_grader_can_make_one():
    """A process started by ``join_command`` is in its worker's groups, with the limits set
    (processes and threads, memory of the whole tree, one CPU core), and ``remove_stale``
    kills what is left in them and removes them. Without writable cgroups (a grader that is
    not root) nothing is created and the rlimits alone hold."""
    from dimred_teach.grading import cgroup

    if not cgroup.available():
        assert os.geteuid() != 0 or not any(os.access(p, os.W_OK) for p in cgroup.ROOT.glob("*/cgroup.procs"))
        assert cgroup.create(64, 2**30) == [] and cgroup.join_command([], ["true"]) == ["true"]
        return
    procs = cgroup.create(64, 2**30)
    try:
        sleeper = subprocess.Popen(cgroup.join_command(procs, [sys.executable, "-c", "import time; time.sleep(60)"]))
        deadline = time.monotonic() + 10
        while str(sleeper.pid) not in Path(procs[0]).read_text().split() and time.monotonic() < deadline:
            time.sleep(0.05)
        groups = [Path(p).parent for p in procs]
        assert all(str(sleeper.pid) in (g / "cgroup.procs").read_text().split() for g in groups)
        limits = {f.name: f.read_text().strip() for g in groups for f in g.iterdir()
                  if f.name in ("pids.max", "memory.max", "memory.limit_in_bytes", "cpu.max", "cpu.cfs_quota_us")}
        assert limits["pids.max"] == "64"
        assert limits.get("memory.max", limits.get("memory.limit_in_bytes")) == str(2**30)
        assert limits.get("cpu.max", "100000 100000").split()[0] == limits.get("cpu.cfs_quota_us", "100000")
    finally:
        cgroup.remove_stale()
    assert sleeper.wait(10) == -9  # killed by remove_stale
    assert not any(g.exists() for g in groups)
