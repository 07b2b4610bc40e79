"""The code a student wrote for each exercise of an exercise notebook (for :mod:`.similarity`).

A notebook's code cells are mapped to the exercises whose check cells close them. A check
cell, ``check("NN.name", answer)``, is found as the grader finds it: by its cell id, else by
its call. A code cell belongs to the exercise of the next check cell in its section (between
two ``## Exercise K · Title`` headings); the cells after a section's last check cell belong to
that check's exercise (the numbers a written answer quotes). Check cells, the set-up cells
before the first heading and the cells of a section without a check cell belong to none.

The exercise notebook's own code (its starter cells, the same in every student's copy) is then
left out: every cell equal to one of the exercise notebook's code cells, trailing spaces and
blank lines aside. What remains of each exercise is its answer: one string, its cells joined
by a blank line, at most :data:`MAX_ANSWER_CHARS` characters.

Nothing here runs a student's code: it is text read from the notebook's JSON.
"""

from __future__ import annotations

from pathlib import Path

from ..course.exercises import CHECK_CALL, EXERCISE_HEADING
from ..grading.submission_cells import cell_text

MAX_ANSWER_CHARS = 20_000
"""An exercise's answer is cut at this many characters (a few pages of code)."""


def _normalised(source: str) -> str:
    """A cell's source with trailing spaces and blank lines at either end put aside."""
    return "\n".join(line.rstrip() for line in source.strip("\n").splitlines()).strip("\n")


def exercise_cells(notebook: dict, spec: dict) -> dict[str, list[str]]:
    """Each exercise's code cells (their sources, in the notebook's order), by exercise id, for
    the exercises of ``spec`` (a grading spec) the notebook has a check cell of."""
    by_cell_id = {check["cell_id"]: check["exercise_id"] for check in spec["checks"]}
    exercises = set(by_cell_id.values())
    cells: dict[str, list[str]] = {}
    pending: list[str] = []
    last = None  # the exercise of the current section's last check cell
    for cell in notebook.get("cells", []) if isinstance(notebook.get("cells"), list) else []:
        text = cell_text(cell)
        if text is None:
            continue
        if cell.get("cell_type") == "markdown" and EXERCISE_HEADING.search(text):
            if last is not None:
                cells[last] += pending
            pending, last = [], None
        elif cell.get("cell_type") == "code":
            cell_id = cell.get("id") if isinstance(cell.get("id"), str) else None
            call = CHECK_CALL.match(text)
            exercise = by_cell_id.get(cell_id) or (call["id"] if call and call["id"] in exercises else None)
            if exercise is None:
                pending.append(text)
            else:
                cells.setdefault(exercise, []).extend(pending)
                pending, last = [], exercise
    if last is not None:
        cells[last] += pending
    return cells


def starter_code(root: Path, exercise_set: str) -> list[str]:
    """Every code cell of the exercise notebook ``root/exercises/<exercise_set>.ipynb``."""
    import nbformat

    path = Path(root) / "exercises" / f"{exercise_set}.ipynb"
    if not path.is_file():
        raise ValueError(f"--root: {Path(root).resolve()} has no exercises/{exercise_set}.ipynb (the starter code "
                         f"of set {exercise_set[:2]}); give the course's checkout")
    return [cell.source for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "code"]


def answers(notebook: dict, spec: dict, starter: list[str]) -> dict[str, str]:
    """Each exercise's answer (see the module's docstring), by exercise id; an exercise whose
    cells are all starter code is left out."""
    handed_out = {_normalised(source) for source in starter}
    found = {}
    for exercise, sources in exercise_cells(notebook, spec).items():
        own = [source for source in sources if _normalised(source) not in handed_out and source.strip()]
        if own:
            found[exercise] = "\n\n".join(own)[:MAX_ANSWER_CHARS]
    return found


__all__ = ["exercise_cells", "starter_code", "answers", "MAX_ANSWER_CHARS"]
