"""Exercise sets generated from solution sources (``dimred-teach build``).

``solutions/NN_topic.py`` (jupytext py:percent) is the only hand-written file of an
exercise set. Solution code sits between ``# BEGIN SOLUTION`` and ``# END SOLUTION`` or on
a single line ending in ``# SOLUTION``. Generating the exercise:

* a solution inside a function (indented) becomes ``raise NotImplementedError(...)``;
* a top-level solution becomes ``name = ...`` for every name it assigns (so the check
  cells still run and report "not yet"), or ``pass`` (a blank cell that prints nothing);
* the set-up cell (the first code cell) starts with :func:`install_guard`: opened outside the
  course (Colab, a downloaded file), its error says how to install the package;
* a markdown cell tagged ``solution`` (a written answer: the model answer and its rubric,
  :mod:`.written_parts`) becomes an empty answer cell marked with its exercise and part;
* outputs are cleared, and the notebook is tagged with its exercise set.

The notebook carries the ``kernelspec`` and ``language_info`` of the executed solution
(what a kernel start in JupyterLab records) and no jupytext pairing, so opening and saving
a copy in JupyterLab changes nothing. The py:percent text returned beside it is a
readable, unpaired copy for reviewing the generated exercise.

A check cell is a code cell holding exactly one ``check("NN.name", answer)`` call; its
points come from the cell metadata (``# %% points=2``, default 1). The check cells are
also written to ``dimred_teach/exercise_specs/NN_topic.json``, which the grader uses to
restore them in a submission, with the written parts (exercise, part, points and cell id: no
model answer or rubric, which stay in the solution source).
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

import jupytext
import nbformat

from ..checks import get_check
from ..checks.policy import library_needs
from ..grading.written import ANSWER_MARKDOWN, marker
from .execution import KERNELSPEC

__all__ = ["strip_solutions", "install_guard", "build_exercise", "check_header", "CHECK_CALL", "GOING_FURTHER"]

BEGIN, END, LINE = "# BEGIN SOLUTION", "# END SOLUTION", "# SOLUTION"
CHECK_CALL = re.compile(r"""^\s*check\(\s*["'](?P<id>\d\d\.\w+)["']\s*,""")


EXERCISE_HEADING = re.compile(r"^## Exercise (?P<number>\d+) · (?P<title>.+) \*\((?P<minutes>\d+) min, lecture"
                              r"(?: §(?P<section>\d+)|(?P<further>: going further))\)\*$", re.M)
"""An exercise's heading: its number, title, minutes and the lecture section it practises
(``lecture §3``, or ``lecture: going further`` for the lecture's optional last section)."""
GOING_FURTHER = "going further"
"""The section of an exercise on the lecture's optional last section ("Going further")."""
TIME_LINE = re.compile(r"^\*Time: about (?P<minutes>\d+) minutes\.\*$", re.M)
OBJECTIVE_ITEM = re.compile(r"^(?P<number>\d+)\. ", re.M)


class SolutionMarkupError(ValueError):
    """The solution markers of a source file are unbalanced or misplaced."""


def _assigned_names(block: str) -> list[str]:
    """Names bound at top level by a block of code, in order of first assignment."""
    names: list[str] = []

    def add(target):
        if isinstance(target, ast.Name) and target.id not in names:
            names.append(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                add(element)
        elif isinstance(target, ast.Starred):
            add(target.value)

    for node in ast.parse(textwrap.dedent(block)).body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                add(target)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            add(node.target)
    return names


def _stub(block_lines: list[str], indent: str) -> list[str]:
    if indent:
        return [f'{indent}raise NotImplementedError("exercise: replace this line with your code")']
    names = _assigned_names("\n".join(block_lines))
    return ["# YOUR CODE HERE"] + ([f"{name} = ..." for name in names] or ["pass"])


def install_guard(repository: str | None) -> str:
    """The lines that open an exercise notebook's set-up cell: where the course's package is not
    installed, stop with a ``%pip install`` line for the course's repository (``[course]
    repository`` in course.toml), instead of a bare ModuleNotFoundError."""
    url = repository or "<the course's repository URL>"
    message = "the course package is not installed; run this in a cell, then restart the kernel: "
    install = "%pip install " + repr("dimred-teach @ git+" + url)
    return ("import importlib.util\n\n"
            'if importlib.util.find_spec("dimred_teach") is None:  # opened outside the course (Colab, a download)\n'
            f"    raise ModuleNotFoundError({message!r}\n"
            f"                              {install!r})\n")


def strip_solutions(code: str) -> str:
    """Replace the solution regions of a code cell by stubs (see module docstring)."""
    out: list[str] = []
    block: list[str] | None = None
    indent = ""
    for number, line in enumerate(code.split("\n"), start=1):
        stripped = line.strip()
        if stripped == BEGIN:
            if block is not None:
                raise SolutionMarkupError(f"line {number}: nested {BEGIN}")
            block, indent = [], line[: len(line) - len(line.lstrip())]
        elif stripped == END:
            if block is None:
                raise SolutionMarkupError(f"line {number}: {END} without {BEGIN}")
            out.extend(_stub(block, indent))
            block = None
        elif block is not None:
            block.append(line)
        elif line.rstrip().endswith(LINE) and stripped != LINE:
            body = line.rstrip()[: -len(LINE)].rstrip()
            out.extend(_stub([body], line[: len(line) - len(line.lstrip())]))
        else:
            out.append(line)
    if block is not None:
        raise SolutionMarkupError(f"{BEGIN} without {END}")
    return "\n".join(out)


@dataclass(frozen=True)
class CheckCell:
    """A check cell of an exercise set, as the grader needs it."""

    exercise_id: str
    points: float
    cell_id: str
    cell_index: int
    source: str
    section: int | str
    """The lecture section the exercise practises (its heading's ``lecture §S``), or
    :data:`GOING_FURTHER`."""


def _check_id(source: str, where: str) -> str | None:
    calls = [m.group("id") for line in source.split("\n") if (m := CHECK_CALL.match(line))]
    if not calls:
        return None
    tree = ast.parse(source)
    if len(calls) != 1 or len(tree.body) != 1:
        raise SolutionMarkupError(f"{where}: a check cell must hold exactly one check(...) call and nothing else")
    return calls[0]


def check_header(header: str, markdown_cells: list[str], where: str) -> None:
    """Refuse a set whose header no longer describes its exercises.

    Every exercise is a markdown heading ``## Exercise K · Title *(M min, lecture §S)*``, numbered 1, 2, ...
    in order; the header (the first cell) states ``*Time: about N minutes.*`` with N the sum
    of the exercises' minutes, and lists its **Objectives.** as a numbered list with one item
    per exercise. Adding, removing or re-timing an exercise therefore fails the build until
    the header says so.
    """
    headings = [match for text in markdown_cells for match in EXERCISE_HEADING.finditer(text)]
    numbers = [int(match["number"]) for match in headings]
    if numbers != list(range(1, len(numbers) + 1)) or not numbers:
        raise SolutionMarkupError(f"{where}: exercise headings must be '## Exercise K · Title *(M min, lecture §S)*' "
                                  f"numbered 1, 2, ... in order; found numbers {numbers}")
    minutes = sum(int(match["minutes"]) for match in headings)
    time = TIME_LINE.findall(header)
    if time != [str(minutes)]:
        raise SolutionMarkupError(f"{where}: the header must say '*Time: about {minutes} minutes.*' (the sum of the "
                                  f"{len(numbers)} exercises' minutes); it says {time or 'nothing'}")
    objectives = header.split("**Objectives.**", 1)
    items = [int(n) for n in OBJECTIVE_ITEM.findall(objectives[1])] if len(objectives) == 2 else []
    if items != numbers:
        raise SolutionMarkupError(f"{where}: the header's **Objectives.** must be a numbered list with one item per "
                                  f"exercise ({len(numbers)}); it has {len(items)}")


def build_exercise(solution: Path, repository: str | None = None) -> tuple[nbformat.NotebookNode, str, dict]:
    """Generate the exercise notebook, its py:percent text and its grading spec.

    Parameters
    ----------
    solution : Path
        ``solutions/NN_topic.py``.
    repository : str, optional
        The course's repository URL, for the install line of :func:`install_guard`.

    Returns
    -------
    notebook : NotebookNode
        Outputs cleared, solutions stubbed, deterministic cell ids.
    text : str
        The same notebook as jupytext py:percent.
    spec : dict
        ``exercise_set``, ``source``, the list of check cells (see :class:`CheckCell`) and the
        written parts (``exercise``, ``part``, ``points``, ``cell_id``, ``cell_index``).
    """
    from .written_parts import written_parts  # (which reads this module's markup)

    solution = Path(solution)
    stem = solution.stem
    number = stem[:2]
    source_nb = jupytext.read(solution)
    written = {part.cell_index: part for part in written_parts(source_nb.cells, number, solution.name)}
    cells = []
    checks: list[CheckCell] = []
    section = None  # the lecture section of the exercise being read
    guarded = False
    for index, cell in enumerate(source_nb.cells):
        where = f"{solution.name}, cell {index}"
        if index == 0:  # "# Solutions 04 · Title" in the source, "# Exercises 04 · Title" for the student
            heading = f"# Solutions {number} "
            if cell.cell_type != "markdown" or not cell.source.startswith(heading):
                raise SolutionMarkupError(f"{where}: the first cell must be the heading '{heading}· Title'")
            cell.source = f"# Exercises {number} " + cell.source[len(heading):]
        if cell.cell_type == "markdown":
            section = next((GOING_FURTHER if m["further"] else int(m["section"])
                            for m in EXERCISE_HEADING.finditer(cell.source)), section)
            new = nbformat.v4.new_markdown_cell(ANSWER_MARKDOWN if index in written else cell.source)
            if index in written:
                new.metadata.update(marker(written[index].exercise, written[index].part))
                new.id = written[index].cell_id
        elif cell.cell_type == "code":
            try:
                code = strip_solutions(cell.source)
            except SolutionMarkupError as error:
                raise SolutionMarkupError(f"{where}: {error}") from None
            if not guarded:
                code, guarded = install_guard(repository) + "\n" + code, True
            new = nbformat.v4.new_code_cell(code)
            exercise_id = _check_id(cell.source, where)
            if exercise_id is not None:
                if not exercise_id.startswith(number + "."):
                    raise SolutionMarkupError(f"{where}: exercise id {exercise_id!r} must start with {number}.")
                get_check(exercise_id)  # fails loudly when the check is not registered
                if any(c.exercise_id == exercise_id for c in checks):
                    raise SolutionMarkupError(f"{where}: {exercise_id!r} is checked twice")
                if section is None:
                    raise SolutionMarkupError(f"{where}: the check of {exercise_id!r} comes before any exercise "
                                              "heading")
                points = cell.metadata.get("points", 1)
                new.metadata["tags"] = ["check"]
                new.metadata["points"] = points
                new.id = "check-" + exercise_id.replace(".", "-")
                checks.append(CheckCell(exercise_id, points, new.id, index, code, section))
        else:
            new = nbformat.v4.new_raw_cell(cell.source)
        if not new.id.startswith(("check-", "written-")):
            new.id = f"cell-{index:03d}"
        cells.append(new)
    if not checks:
        raise SolutionMarkupError(f"{solution.name} has no check cells")
    check_header(source_nb.cells[0].source, [c.source for c in source_nb.cells if c.cell_type == "markdown"],
                 solution.name)
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata = {
        "kernelspec": dict(KERNELSPEC),
        "language_info": _language_info(solution.with_suffix(".ipynb")),
        "dimred_teach": {"exercise_set": stem, "generated_from": f"solutions/{solution.name}"},
    }
    spec = {
        "exercise_set": stem,
        "source": f"solutions/{solution.name}",
        "max_score": sum(c.points for c in checks),
        "checks": [c.__dict__ for c in checks],
        "written": [{"exercise": part.exercise, "part": part.part, "points": part.points, "cell_id": part.cell_id,
                     "cell_index": part.cell_index} for part in written.values()],
        "library": library_needs([c.source for c in source_nb.cells if c.cell_type == "code"]),
    }
    readable = nbformat.from_dict(notebook)
    readable.metadata = {"jupytext": {"notebook_metadata_filter": "-all"}}
    return notebook, jupytext.writes(readable, fmt="py:percent"), spec


def _language_info(executed_solution: Path) -> dict:
    """The ``language_info`` the kernel recorded in the executed solution notebook.

    JupyterLab writes the kernel's full ``language_info`` into a notebook when its kernel
    starts; taking it from the committed solution keeps ``dimred-teach build --check``
    independent of the Python running it. Before the solution is first executed, only the
    language's name is known.
    """
    if not executed_solution.is_file():
        return {"name": "python"}
    return nbformat.read(executed_solution, as_version=4).metadata.get("language_info", {"name": "python"})
