"""The written parts of an exercise set ("explain why", "justify with the numbers"), read from
its solution source, which only the lecturer works from.

In ``solutions/NN_topic.py`` a written part is a markdown cell tagged ``solution``: the model
answer, then its rubric, a line ``**Rubric.**`` followed by a list of items, each with its points::

    # %% [markdown] tags=["solution"]
    # **Why.** For centred points ... (the model answer)
    #
    # **Rubric.**
    #
    # - 1 point: H1 = 0 removes the terms with 1.
    # - 2 points: concludes H D2 H = -2B.

The part's points are the sum of its items'. It belongs to the exercise under whose heading it
stands, named by that exercise's check (``04.recover_b``); an exercise with no check, or with
several, names the part's exercise in the cell's header (``exercise="05.uncentred_component"``).
The parts of one exercise are numbered 1, 2, ... in order.

The build (:mod:`.exercises`) replaces each such cell by an empty answer cell marked with its
exercise and part, and puts only the exercise, part and points into the grading spec: the model
answer and the rubric stay in the solution source (the spec travels with the package, into
every student's copy). ``dimred-teach written`` reads them from there again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .exercises import CHECK_CALL, EXERCISE_HEADING, SolutionMarkupError

__all__ = ["RubricItem", "WrittenPart", "written_parts", "read_written_parts"]

RUBRIC_LINE = "**Rubric.**"
ITEM = re.compile(r"^- (?P<points>\d+(?:\.\d+)?) points?: (?P<text>\S.*)$")
EXERCISE_ID = re.compile(r"^\d\d\.[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class RubricItem:
    """One thing a written answer earns points for."""

    points: float
    text: str


@dataclass(frozen=True)
class WrittenPart:
    """One written answer of an exercise set, as the lecturer grades it.

    ``cell_index`` is the answer cell's position in the solution (and in the exercise notebook),
    ``title`` the exercise's heading (``Exercise 1 · Recover $\\mathbf B$ from $\\mathbf D$``),
    ``model_answer`` Markdown with TeX math.
    """

    exercise: str
    part: int
    cell_index: int
    title: str
    model_answer: str
    rubric: tuple[RubricItem, ...]

    @property
    def points(self) -> float:
        return sum(item.points for item in self.rubric)

    @property
    def cell_id(self) -> str:
        """The answer cell's id in the exercise notebook."""
        return f"written-{self.exercise.replace('.', '-')}-{self.part}"


def _split(source: str, where: str) -> tuple[str, tuple[RubricItem, ...]]:
    """A written part's cell text as (model answer, rubric items)."""
    lines = source.split("\n")
    if lines.count(RUBRIC_LINE) != 1:
        raise SolutionMarkupError(f"{where}: a written answer's cell ends with its rubric: one line '{RUBRIC_LINE}' "
                                  "after the model answer, then items '- N points: what earns them'")
    at = lines.index(RUBRIC_LINE)
    model, items = "\n".join(lines[:at]).strip(), []
    for line in lines[at + 1:]:
        match = ITEM.match(line)
        if match:
            items.append([float(match["points"]), match["text"]])
        elif line.startswith("  ") and items:  # an item's text continues
            items[-1][1] += " " + line.strip()
        elif line.strip():
            raise SolutionMarkupError(f"{where}: the rubric line {line!r} is not an item '- N points: ...'")
    if not model or not items or any(points <= 0 for points, _ in items):
        raise SolutionMarkupError(f"{where}: a written answer needs a model answer and at least one rubric item "
                                  "with positive points")
    return model, tuple(RubricItem(points, text) for points, text in items)


def written_parts(cells, number: str, where: str) -> list[WrittenPart]:
    """The written parts of an exercise set's solution cells (jupytext's cells of
    ``solutions/NN_topic.py``; ``number`` is the set's ``NN``, ``where`` its file name);
    SolutionMarkupError naming the cell for a part whose exercise cannot be told, a rubric that
    does not parse, or a model answer that holds the next exercise's heading (the student would
    lose that heading with the answer)."""
    exercise_of_cell: dict[int, str] = {}  # cell index -> the number of the exercise it stands under
    titles: dict[str, str] = {}
    checks: dict[str, list[str]] = {}
    current = None
    for index, cell in enumerate(cells):
        if cell.cell_type == "markdown":
            headings = list(EXERCISE_HEADING.finditer(cell.source))
            if headings and "solution" in cell.metadata.get("tags", []):
                raise SolutionMarkupError(f"{where}, cell {index}: the written answer holds the heading of exercise "
                                          f"{headings[0]['number']}, which the student's copy would lose with the "
                                          "answer: start a new markdown cell (# %% [markdown]) before the heading")
            for heading in headings:
                current = heading["number"]
                titles[current] = f"Exercise {current} · {heading['title']}"
        elif cell.cell_type == "code" and current is not None:
            checks.setdefault(current, []).extend(m["id"] for line in cell.source.split("\n")
                                                  if (m := CHECK_CALL.match(line)))
        exercise_of_cell[index] = current
    parts: list[WrittenPart] = []
    for index, cell in enumerate(cells):
        if cell.cell_type != "markdown" or "solution" not in cell.metadata.get("tags", []):
            continue
        here = f"{where}, cell {index}"
        number_in_set = exercise_of_cell[index]
        declared = cell.metadata.get("exercise")
        own = checks.get(number_in_set, []) if number_in_set else []
        if declared is not None:
            if not (isinstance(declared, str) and EXERCISE_ID.match(declared) and declared.startswith(number + ".")):
                raise SolutionMarkupError(f"{here}: exercise={declared!r} must be an id {number}.lowercase_words")
            exercise = declared
        elif len(own) == 1:
            exercise = own[0]
        else:
            raise SolutionMarkupError(
                f"{here}: the exercise of this written answer has {len(own)} checks, so it cannot "
                f'be named after one: give the cell exercise="{number}.name" in its header'
            )
        taken = {check for key, ids in checks.items() if key != number_in_set for check in ids}
        if exercise in taken:
            raise SolutionMarkupError(f"{here}: exercise={exercise!r} is another exercise's check")
        model, rubric = _split(cell.source, here)
        part = 1 + sum(p.exercise == exercise for p in parts)
        parts.append(WrittenPart(exercise, part, index, titles.get(number_in_set, ""), model, rubric))
    return parts


def read_written_parts(solution: Path) -> list[WrittenPart]:
    """The written parts of ``solutions/NN_topic.py`` (see :func:`written_parts`)."""
    import jupytext

    solution = Path(solution)
    return written_parts(jupytext.read(solution).cells, solution.stem[:2], solution.name)
