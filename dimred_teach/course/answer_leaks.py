"""No answer in the course: ``dimred-teach build --check`` refuses a course whose lectures or
exercise notebooks show the answer of a value exercise.

A value exercise hands ``check`` a value (the same for everybody), not a function; its check
registers the right value (``register(..., answer=...)``), computed from the exercise's
data as the solution computes it. The build looks for that value, to printed precision, in
every cell (source and stored output) of every lecture notebook and exercise notebook:

* an array is shown when :data:`RUN` of its entries in a row (along a row or a column, signs
  ignored) appear one after another among the numbers of one cell (in reading order, or down
  a column of a printed table), at least two of them neither 0 nor 1 at printed precision
  (rows of zeros show nothing);
* a single number is shown when an exercise notebook's code binds a name to it (``rank=4``:
  the set-up showing a generating parameter the student is asked to find).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat
import numpy as np

from ..checks import get_check
from ..exercise_specs import load_spec

__all__ = ["RUN", "MANY_RIGHT_ANSWERS", "Leak", "value_exercises", "shows", "answer_leaks"]

RUN = 4
"""Entries of an array answer that must appear in a row, as printed, for it to count as shown."""

MANY_RIGHT_ANSWERS = {
    "04.non_euclidean_metric": "any metric with room in every triangle inequality and a negative eigenvalue of B "
                               "passes; the lecture's star (equality in the triangle inequality) fails",
}
"""Value exercises with no single right answer to look for, and why what the course shows does not pass."""

_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?![\w.])")


@dataclass(frozen=True)
class Leak:
    """A value exercise whose answer a notebook shows (or that the build cannot look for)."""

    exercise_id: str
    where: str

    def __str__(self) -> str:
        return f"{self.exercise_id}: {self.where}"


def value_exercises(exercise_set: str, solution: Path) -> list[str]:
    """The value exercises of an exercise set: those whose check cell hands ``check`` something
    other than a function the solution defines (``def name(``)."""
    functions = set(re.findall(r"^\s*def (\w+)\(", solution.read_text(encoding="utf-8"), re.M))
    found = []
    for entry in load_spec(exercise_set)["checks"]:
        argument = ast.parse(entry["source"], mode="eval").body.args[1]
        if not (isinstance(argument, ast.Name) and argument.id in functions):
            found.append(entry["exercise_id"])
    return found


def _sequences(text: str) -> list[list[float]]:
    """The numbers of a text in reading order, and down each column of each table in it (a run
    of lines holding the same count of numbers, such as a printed matrix or DataFrame)."""
    lines = [[float(m) for m in _NUMBER.findall(line)] for line in text.splitlines()]
    sequences = [[x for line in lines for x in line]]
    start = 0
    for end in range(1, len(lines) + 1):
        if end == len(lines) or len(lines[end]) != len(lines[start]):
            if end - start > 1:
                sequences += [[line[j] for line in lines[start:end]] for j in range(len(lines[start]))]
            start = end
    return sequences


def _runs(answer: np.ndarray) -> np.ndarray:
    """The flat indices of every :data:`RUN` consecutive entries (fewer when a row or column is
    shorter) along the rows and columns of ``answer``, shape (runs, run), keeping the runs with
    at least two entries that are neither 0 nor 1 when printed (rows of zeros show nothing)."""
    index = np.arange(answer.size).reshape(answer.shape if answer.ndim == 2 else (1, answer.size))
    run = min(RUN, index.shape[1]) if answer.ndim < 2 else min(RUN, *index.shape)
    lines = [*index, *index.T] if answer.ndim == 2 else [index[0]]
    runs = np.array([line[start:start + run] for line in lines for start in range(line.size - run + 1)])
    telling = ~np.isin(np.round(np.abs(answer.ravel()), 4), (0.0, 1.0))
    return runs[telling[runs].sum(axis=1) >= min(2, run)]


def _array_shown(text: str, answer: np.ndarray, runs: np.ndarray) -> bool:
    """Whether one of the ``runs`` of ``answer`` appears in a row among the numbers of ``text``, at
    printed precision (4 decimals or 5 significant digits), signs ignored."""
    numbers = np.abs(np.concatenate([[*sequence, np.nan] for sequence in _sequences(text)]))
    run = runs.shape[1]
    if runs.size == 0 or numbers.size < run:
        return False
    values = np.abs(answer.ravel())
    matches = np.abs(values[:, None] - numbers[None, :]) <= np.maximum(5e-5, 5e-5 * values)[:, None]
    starts = np.ones((len(runs), numbers.size - run + 1), dtype=bool)
    for k in range(run):
        starts &= matches[runs[:, k], k:k + numbers.size - run + 1]
    return bool(starts.any())


def _cell_texts(notebook: nbformat.NotebookNode):
    """(cell number, source and output text) of each cell."""
    for number, cell in enumerate(notebook.cells, start=1):
        outputs = []
        for output in cell.get("outputs", []):
            outputs.append(output.get("text", ""))
            outputs.extend(str(v) for k, v in output.get("data", {}).items() if k.startswith("text/"))
        yield number, cell.source + "\n" + "\n".join(outputs)


def shows(notebook: nbformat.NotebookNode, answer, setup: bool) -> str | None:
    """Where ``notebook`` shows ``answer`` ("cell 12"), or None. A single number counts only in
    the code of a notebook whose set-up is checked (``setup``), bound to a name."""
    value = np.asarray(answer)
    if value.dtype.kind not in "biuf":
        return None
    if value.ndim == 0:
        if not setup:
            return None
        bound = re.compile(rf"\b\w+\s*=\s*{re.escape(repr(value.item()))}(?![\w.])")
        return next((f"cell {n}" for n, cell in enumerate(notebook.cells, start=1)
                     if cell.cell_type == "code" and bound.search(cell.source)), None)
    value = value.astype(float)
    runs = _runs(value)
    for number, text in _cell_texts(notebook):
        if _array_shown(text, value, runs):
            return f"cell {number}"
    return None


def answer_leaks(lectures) -> list[Leak]:
    """The value exercises whose answer a lecture or exercise notebook shows, and those whose
    check registers no answer to look for (beyond :data:`MANY_RIGHT_ANSWERS`)."""
    notebooks = [(lecture.lecture_notebook, False) for lecture in lectures if lecture.lecture_notebook.is_file()]
    notebooks += [(lecture.exercise_notebook, True) for lecture in lectures
                  if lecture.exercises and lecture.exercise_notebook.is_file()]
    read = [(path, nbformat.read(path, as_version=4), setup) for path, setup in notebooks]
    leaks = []
    for lecture in lectures:
        if not lecture.exercises or not lecture.solution_source.is_file():
            continue
        for exercise_id in value_exercises(lecture.stem, lecture.solution_source):
            reference = get_check(exercise_id).answer
            if reference is None:
                if exercise_id not in MANY_RIGHT_ANSWERS:
                    leaks.append(Leak(exercise_id, "a value exercise whose check registers no answer "
                                                   "(register(..., answer=...)), so the build cannot look for it"))
                continue
            answer = reference()
            for path, notebook, setup in read:
                where = shows(notebook, answer, setup and path.stem == lecture.stem)
                if where:
                    leaks.append(Leak(exercise_id, f"{path.parent.name}/{path.name} shows the answer ({where})"))
    return leaks
