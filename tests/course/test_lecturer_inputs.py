"""A lecturer's mistyped inputs (issue 39): one line on the terminal naming the input and what to
do, exit status 2, and nothing written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from dimred_teach.cli import main

pytestmark = pytest.mark.sandbox

ROOT = Path(__file__).resolve().parents[2]


def one_error_line(capsys) -> str:
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in captured.err, captured.err
    return lines[0]


def test_grading_a_script_names_it_and_writes_nothing(tmp_path, capsys):
    script = tmp_path / "script.py"
    script.write_text("print('hello')\n")
    assert main(["grade", str(script), "--out", str(tmp_path / "out"), "--sandbox", "none"]) == 2
    assert "script.py is not a notebook (.ipynb)" in one_error_line(capsys)
    assert not (tmp_path / "out").exists()


def test_a_notebook_of_no_known_set_names_it_and_the_way_out(tmp_path, capsys):
    notebook = tmp_path / "homework.ipynb"
    blank = json.loads((ROOT / "exercises" / "04_mds.ipynb").read_text())
    blank["metadata"].pop("dimred_teach")
    notebook.write_text(json.dumps(blank))
    assert main(["grade", str(notebook), "--out", str(tmp_path / "out"), "--sandbox", "none"]) == 2
    line = one_error_line(capsys)
    assert "homework.ipynb names no exercise set" in line and "--set NN" in line
    assert not (tmp_path / "out").exists()


def test_out_naming_a_file_is_refused_and_the_file_kept(tmp_path, capsys):
    shutil.copyfile(ROOT / "exercises" / "04_mds.ipynb", tmp_path / "04_mds.ipynb")
    taken = tmp_path / "reports"
    taken.write_text("my notes\n")
    assert main(["grade", str(tmp_path / "04_mds.ipynb"), "--out", str(taken), "--sandbox", "none"]) == 2
    assert "--out:" in one_error_line(capsys) and taken.read_text() == "my notes\n"
    for command in (["demo-class", "--root", str(ROOT)], ["class-report", str(tmp_path)], ["written", str(tmp_path)],
                    ["regrade", str(tmp_path)]):
        assert main([*command, "--out", str(taken)]) == 2, command
        assert "--out:" in one_error_line(capsys) and taken.read_text() == "my notes\n"


def test_demo_class_outside_the_checkout_points_at_root(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["demo-class", "--out", "demo", "--size", "2", "--sets", "04"]) == 2
    assert "--root" in one_error_line(capsys)
    assert list(tmp_path.iterdir()) == []
