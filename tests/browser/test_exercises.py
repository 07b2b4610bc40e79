"""A student's exercise work in JupyterLab: blank -> [not yet] -> typed answer -> [passed]
-> saved -> reopened, in my-work/, and a course update pulled by git on top of it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import labpage
from support import git, load_course_script

pytestmark = pytest.mark.slow(seconds=60)

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"

# exercise: (notebook, the answer typed into the cell whose source starts like its first line)
ANSWERS = {
    "01.sample_covariance": ("01_pca_lagrangian", [
        "def sample_covariance(X):",
        "return (X - X.mean(axis=0)).T @ (X - X.mean(axis=0)) / (len(X) - 1)"]),
    "01.lagrangian_gradient": ("01_pca_lagrangian", [
        "def lagrangian_gradient(S, w, lam):",
        "return 2 * S @ w - 2 * lam * w"]),
    "02.eigenvalues_from_svd": ("02_eig_vs_svd", [
        "def eigenvalues_from_svd(X):",
        "return np.linalg.svd(X - X.mean(axis=0), compute_uv=False) ** 2 / (len(X) - 1)"]),
}


def stored_source(path: Path, index: int) -> str:
    return "".join(json.loads(path.read_text())["cells"][index]["source"])


def solve(page, lab, exercise: str, screenshot: str | None = None) -> Path:
    """Open the student's copy, see [not yet], type the answer, see [passed], save, reopen."""
    name, lines = ANSWERS[exercise]
    path = f"my-work/{name}.ipynb"
    labpage.open_notebook(page, lab, path)
    stub, check = labpage.cell_index(page, lines[0]), labpage.cell_index(page, f'check("{exercise}"')
    _, state = labpage.run_all(page, lab.root / path)
    assert state["errors"] == 0, labpage.error_text(page)
    blank = labpage.output_text(page, check)
    assert f"[not yet] {exercise}" in blank and "hint:" in blank, blank

    labpage.replace_cell_text(page, stub, lines)
    labpage.run_cell(page, stub)
    labpage.run_cell(page, check)
    page.wait_for_function(
        """([index, text]) => document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell')[index]
               .querySelector('.jp-OutputArea').textContent.includes(text)""",
        arg=[check, f"[passed] {exercise}"], timeout=60_000)
    if screenshot:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / screenshot))
    labpage.save(page)
    labpage.leave(page, lab)

    labpage.open_notebook(page, lab, path)  # reopened: the answer is in the editor and on disk
    stub = labpage.cell_index(page, lines[0])
    assert lines[1] in labpage.code_cell(page, stub).locator(".cm-content").inner_text()
    assert lines[1] in stored_source(lab.root / path, stub)
    labpage.leave(page, lab)
    return lab.root / path


def build_check(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dimred_teach", "build", "--check", "--root", str(root)],
                          capture_output=True, text=True)


def test_exercise_flow_blank_to_passed(page, lab):
    saved = solve(page, lab, "01.sample_covariance", screenshot="exercise-passed.png")
    assert git("status", "--porcelain", cwd=lab.root) == "", "a tracked file changed"
    result = build_check(lab.root)
    assert result.returncode == 0, result.stdout + result.stderr
    assert saved.parent.name == "my-work"


def test_student_flow_survives_a_course_update(page, lab, course_clone):
    solved = [solve(page, lab, exercise) for exercise in ("01.lagrangian_gradient", "02.eigenvalues_from_svd")]
    answers = {path: path.read_bytes() for path in solved}

    readme = course_clone.origin / "README.md"  # the lecturer publishes an update
    readme.write_text(readme.read_text() + "\nA course update.\n")
    git("commit", "-q", "-am", "course update", cwd=course_clone.origin)
    student = course_clone.student
    git("pull", "-q", "--no-rebase", cwd=student)
    git("checkout", ".", cwd=student)
    git("stash", cwd=student)

    assert "A course update." in (student / "README.md").read_text()
    assert git("status", "--porcelain", cwd=student) == ""
    assert load_course_script().seed_work_folder(student) == []  # nothing new, nothing overwritten
    assert {path: path.read_bytes() for path in solved} == answers
    result = build_check(student)
    assert result.returncode == 0, result.stdout + result.stderr
