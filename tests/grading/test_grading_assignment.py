"""The assignment decides what is graded (issue 21): ``--set`` names the exercise sets, a
notebook of another set or whose file name and metadata disagree is not graded, a lecture
saved into a student's folder is skipped (issue 23), and Gradescope grades one notebook per
set, so uploading copies adds nothing."""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest

from dimred_teach.cli import main
from dimred_teach.grading.readable_to_kernels import ACCEPT_VARIABLE
from dimred_teach.grading.submissions import identify_set, is_exercise_notebook, load_specs, resolve_sets
from test_grading import ROOT

pytestmark = [pytest.mark.sandbox, pytest.mark.slow(seconds=80)]

SPECS = load_specs()


def _notebook(folder: str, name: str):
    return nbformat.read(ROOT / folder / f"{name}.ipynb", as_version=4)


def _with_metadata_of(notebook, exercise_set: str):
    """``notebook`` claiming ``exercise_set`` in its metadata, as the generated exercise notebooks do."""
    notebook = copy.deepcopy(notebook)
    notebook.metadata["dimred_teach"] = {"exercise_set": exercise_set}
    return notebook


def test_set_values_resolve_to_set_names():
    assert resolve_sets(["04", "06_random_projections,01"], SPECS) == ("04_mds", "06_random_projections",
                                                                      "01_pca_lagrangian")
    with pytest.raises(ValueError, match="--set 99"):
        resolve_sets(["99"], SPECS)


def test_the_assignment_and_not_the_notebook_decides():
    six = _with_metadata_of(_notebook("solutions", "06_random_projections"), "06_random_projections")
    assert identify_set(six, Path("06_random_projections.ipynb"), SPECS) == ("06_random_projections", "")
    found, why = identify_set(six, Path("04_mds.ipynb"), SPECS)  # set 06 saved under set 04's name
    assert found is None and "06_random_projections in its metadata but 04_mds in its file name" in why
    found, why = identify_set(six, Path("answers.ipynb"), SPECS, ("04_mds",))
    assert found is None and "this assignment is 04_mds" in why
    assert identify_set({"metadata": {}, "cells": []}, Path("answers.ipynb"), SPECS, ("04_mds",))[0] == "04_mds"


def test_a_lecture_is_not_an_exercise_notebook():
    spec = SPECS["04_mds"]
    assert not is_exercise_notebook(_notebook("notebooks", "04_mds"), spec)
    assert is_exercise_notebook(_notebook("exercises", "04_mds"), spec)
    assert is_exercise_notebook(_notebook("solutions", "04_mds"), spec)  # its check cells
    stripped = _notebook("exercises", "04_mds")
    stripped.metadata.pop("dimred_teach")
    assert is_exercise_notebook(stripped, spec)  # cell ids and check calls remain


def test_grading_with_and_without_the_assignment(tmp_path):
    """Honest notebook beside a set-06 notebook under set 04's name and a lecture copy."""
    folder = tmp_path / "my-work"
    folder.mkdir()
    shutil.copy(ROOT / "solutions" / "04_mds.ipynb", folder / "04_mds.ipynb")
    nbformat.write(_with_metadata_of(_notebook("solutions", "06_random_projections"), "06_random_projections"),
                   folder / "04_mds-copy.ipynb")
    shutil.copy(ROOT / "notebooks" / "05_lsi.ipynb", folder / "05_lsi.ipynb")
    out = tmp_path / "out"
    status = main(["grade", str(folder), "--out", str(out), "--sandbox", "none", "--jobs", "2", "--pass-fraction", "0"])
    reports = {path.stem: json.loads(path.read_text()) for path in out.glob("*.json")}
    assert reports["04_mds"]["score"] == reports["04_mds"]["max_score"] == 12
    assert reports["04_mds-copy"]["extra_data"]["graded"] is False and reports["04_mds-copy"]["score"] == 0
    assert reports["05_lsi"]["extra_data"]["skipped"] is True and reports["05_lsi"]["tests"] == []
    summary = (out / "summary.md").read_text()
    assert "1 notebook(s) skipped: not exercise notebooks" in summary and "| skipped |" in summary
    assert status == 1  # a notebook that could not be graded fails the run, even at --pass-fraction 0
    assert main(["grade", str(folder / "04_mds.ipynb"), str(folder / "05_lsi.ipynb"), "--out", str(tmp_path / "two"),
                 "--sandbox", "none"]) == 0  # the skipped lecture changes nothing
    out = tmp_path / "assigned"
    assert main(["grade", str(folder / "04_mds-copy.ipynb"), str(folder / "04_mds.ipynb"), "--out", str(out),
                 "--sandbox", "none", "--set", "04", "--gradebook", str(out / "book.csv")]) == 1
    copy_report = json.loads((out / "04_mds-copy.json").read_text())
    assert (
        copy_report["max_score"] == 12
        and copy_report["score"] == 0
        and copy_report["extra_data"]["exercise_set"] == "04_mds"
    )
    assert "passed" in (out / "book.csv").read_text().splitlines()[0]


def test_gradescope_grades_one_notebook_per_set_of_the_assignment(tmp_path):
    """Copies of set 06's solution and a set 01 solution beside set 04 and 06 notebooks: the
    total is never more than the assignment's points, and the extras are reported."""
    bundle = tmp_path / "autograder.zip"
    sandbox = "user" if os.geteuid() == 0 else "auto"
    assert main(["gradescope", "--out", str(bundle), "--set", "04,06", "--sandbox", sandbox, "--timeout", "300",
                 "--visibility", "after_published"]) == 0
    root = tmp_path / "autograder"
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(root / "source")
    assert json.loads((root / "source" / "settings.json").read_text())["assignment"] == [
        "04_mds",
        "06_random_projections",
    ]
    submission = root / "submission"
    submission.mkdir()
    six = ROOT / "solutions" / "06_random_projections.ipynb"
    for name in ("06_random_projections.ipynb", "06_random_projections (1).ipynb", "06_random_projections-2.ipynb"):
        shutil.copy(six, submission / name)
    shutil.copy(ROOT / "solutions" / "01_pca_lagrangian.ipynb", submission / "01_pca_lagrangian.ipynb")
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": sys.executable,
           ACCEPT_VARIABLE: "1"}  # user mode from a readable checkout (setup.sh makes it private)
    run = subprocess.run(["bash", str(root / "source" / "run_autograder")], env=env, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    assignment_points = sum(c["points"] for s in ("04_mds", "06_random_projections") for c in SPECS[s]["checks"])
    assert results["score"] == 6 <= assignment_points  # set 06 once; set 04 not submitted; set 01 not added
    assert sum(t["max_score"] for t in results["tests"]) == assignment_points
    assert results["output"].count("another notebook of exercise set 06_random_projections") == 2
    assert (
        "01_pca_lagrangian.ipynb: not graded: 01_pca_lagrangian.ipynb is exercise set 01_pca_lagrangian"
        in results["output"]
    )
    assert "no notebook of exercise set 04_mds was submitted" in results["output"]
    submitted = results["tests"][0]  # issue 39: the notes stay visible when the tests are not yet
    assert submitted["visibility"] == "visible" and submitted["status"] == "failed"
    assert (
        "06_random_projections (1).ipynb: another notebook of exercise set 06_random_projections" in submitted["output"]
    )
    log = run.stdout  # the instructor's log (Gradescope keeps stdout from the student)
    assert "assignment 04_mds, 06_random_projections; sandbox" in log and "06_random_projections.ipynb: 6 / " in log
    assert log.strip().splitlines()[-1].startswith(f"total 6 / {assignment_points:g} in ")


def test_a_gradescope_bundle_without_sets_is_built_with_a_warning(tmp_path, capsys):
    """Issue 39: without --set a student's total depends on what is uploaded; say so at build time."""
    assert main(["gradescope", "--out", str(tmp_path / "any.zip")]) == 0
    assert "warning: no --set" in capsys.readouterr().err
    assert main(["gradescope", "--out", str(tmp_path / "set.zip"), "--set", "04"]) == 0
    assert "warning" not in capsys.readouterr().err
