"""A demo class: exercise notebooks as a class might hand them in, for trying the grader and
``class-report`` without students.

Each demo student's notebook of a set is the exercise notebook with the solution's code in
its cells; then, exercise by exercise, the student is right, leaves the answer blank, or
makes one of the typical mistakes the course's proofs already hold (the mutants of
``tests/check_cases/``, so nothing here is written by hand). A mistake is a cell inserted
before the check cell that swaps the answer for the mutant's (sent as a pickle made with
cloudpickle, so a mutant function travels with the code it needs) and a cell after it that
puts the right answer back, so later exercises are not affected.

Each written answer is, at random, the model answer (so many are identical), its first
sentence (identical too), an answer of the student's own, or blank (see :data:`WRITTEN_RATES`).

``class.json`` records what every notebook was built with: the counts a class report of the
graded class must recover, and the kind of each written answer.
"""

from __future__ import annotations

import base64
import contextlib
import importlib
import json
import re
import sys
from pathlib import Path

import nbformat
import numpy as np

from ..checks import mistakes_of
from ..exercise_specs import load_spec
from ..grading.written import ANSWER_LEAD, ANSWER_MARKDOWN
from .exercises import CHECK_CALL
from .manifest import read_manifest
from .written_parts import read_written_parts

RATES = {"right": 0.55, "mistake": 0.35, "blank": 0.10}
"""How often a demo student gets an exercise right, makes a typical mistake, or leaves it blank."""
WRITTEN_RATES = {"model": 0.4, "first sentence": 0.3, "own": 0.2, "blank": 0.1}
"""How often a demo student's written answer is the model answer, its first sentence, the student's own, or blank."""
STATEFUL = "for three calls"
"""Mutants named so have learnt the check's call order: a hostile answer, not a student's mistake."""
UNSEEN_BY_THE_GRADER = {("07.em_step", "formed-s")}
"""Mistakes ``check()`` reports in the notebook but the grader cannot: 07.em_step measures the
memory an answer allocates with tracemalloc in the checks' own process, and the grader runs a
function answer in the kernel, so the grader never sees a d x d matrix formed there. A demo
student does not make them, so that the graded demo gives back every mistake it planted."""


def _cases_module(root: Path, exercise_set: str):
    """``tests/check_cases/setNN.py`` of the checkout at ``root`` (the proofs' variants and mutants)."""
    tests = str(root / "tests")
    if tests not in sys.path:
        sys.path.insert(0, tests)
    try:
        return importlib.import_module(f"check_cases.set{exercise_set[:2]}")
    except ModuleNotFoundError as error:
        raise ValueError(f"--root: {root} has no tests/check_cases for set {exercise_set[:2]} (the demo class needs "
                         "a checkout of the course)") from error


def typical_mistakes(root: Path, exercise_id: str) -> list:
    """The mutants of ``exercise_id`` a demo student may make, most typical first: each is
    always reported as one named mistake, by the grader too (:data:`UNSEEN_BY_THE_GRADER`), and
    none is a stateful answer that games the check."""
    named = mistakes_of(exercise_id[:2])
    return [
        m
        for m in _cases_module(root, exercise_id).CASES[exercise_id][1]
        if STATEFUL not in m.name
        and len(m.mistakes) == 1
        and (m.mistakes[0] in named or m.mistakes[0] == "wrong-form")
        and (exercise_id, m.mistakes[0]) not in UNSEEN_BY_THE_GRADER
    ]


def _solution_code(root: Path, exercise_set: str) -> list[str]:
    """The solution's code cells, in order, without the solution markers."""
    import jupytext

    notebook = jupytext.read(root / "solutions" / f"{exercise_set}.py")
    marker_free = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        lines = [line.replace("  # SOLUTION", "") for line in cell.source.split("\n")
                 if line.strip() not in ("# BEGIN SOLUTION", "# END SOLUTION")]
        marker_free.append("\n".join(lines))
    return marker_free


@contextlib.contextmanager
def _by_value(modules):
    """cloudpickle pickles functions of these modules by value (the grading kernel cannot import them)."""
    import cloudpickle

    registered = [module for module in {module.__name__: module for module in modules}.values()
                  if module.__name__ not in cloudpickle.list_registry_pickle_by_value()]
    for module in registered:
        cloudpickle.register_pickle_by_value(module)
    try:
        yield cloudpickle
    finally:
        for module in registered:
            cloudpickle.unregister_pickle_by_value(module)


ABSENT_IN_KERNEL = (b"dimred_teach.exercise_specs", b"dimred_teach.course", b"dimred_teach.grading", b"jupytext")
"""What a grading kernel cannot import: a pickle naming one of these would not load there."""


def _pickled(mutant, exercise_set: str, cases) -> str | None:
    """The mutant's answer as base64 of a cloudpickle, with every module the kernel of this set
    may not be able to import pickled by value: the whole library (a set's kernel holds only what
    the set's own cells use, so a mutant calling ``pca.pca`` in set 12 would fail to load, and
    the right answer would stay), the check cases, and the third-party modules the set forbids.
    None when it still needs what a grading kernel does not have (a mutant that runs the
    solution notebook each time it is called)."""
    forbidden = getattr(importlib.import_module(f"dimred_teach.checks.set{exercise_set[:2]}"), "FORBIDS", ())
    modules = [sys.modules["dimred_teach"], sys.modules["check_cases"], cases]
    for entry in (entry for entry in forbidden if not entry.startswith("dimred_teach.")):
        parts = entry.split(".")  # a module, or a function or method of one: its module
        for end in range(len(parts), 0, -1):
            try:
                modules.append(importlib.import_module(".".join(parts[:end])))
                break
            except ModuleNotFoundError:
                continue
    with _by_value(modules) as cloudpickle:
        data = cloudpickle.dumps(mutant.answer())
    return None if any(name in data for name in ABSENT_IN_KERNEL) else base64.b64encode(data).decode("ascii")


def _swap_cells(name: str, answer_source: str, exercise_id: str) -> tuple[nbformat.NotebookNode, nbformat.NotebookNode]:
    """The cells before and after a check cell that swap the answer ``name`` and put it back."""
    saved = f"_demo_saved_{exercise_id.replace('.', '_')}"
    before = nbformat.v4.new_code_cell(f"{saved} = {name}\n{name} = {answer_source}")
    after = nbformat.v4.new_code_cell(f"{name} = {saved}")
    suffix = exercise_id.replace(".", "-")
    before.id, after.id = f"demo-swap-{suffix}", f"demo-restore-{suffix}"
    return before, after


def written_answer(kind: str, model_answer: str, student: int) -> str:
    """A demo student's written answer of ``kind`` (a key of :data:`WRITTEN_RATES`), as the answer
    cell's text ("" for blank)."""
    first = re.split(r"(?<=\.)\s", model_answer, maxsplit=1)[0]
    text = {"model": model_answer, "first sentence": first, "own": f"As I see it (demo student {student}): {first}",
            "blank": ""}[kind]
    return f"{ANSWER_LEAD} {text}" if text else ANSWER_MARKDOWN


def demo_notebook(root: Path, exercise_set: str, choices: dict[str, tuple[str, object]],
                  written: dict[str, str] | None = None) -> nbformat.NotebookNode:
    """The exercise notebook of ``exercise_set`` filled with the solution's code, with each
    exercise's answer swapped as ``choices`` says: ("right", None), ("blank", None) or
    ("mistake", base64 pickle), and each written answer's cell holding ``written``'s text (by
    cell id; the cell is left as it is when absent)."""
    notebook = nbformat.read(root / "exercises" / f"{exercise_set}.ipynb", as_version=4)
    for cell in notebook.cells:
        if cell.id in (written or {}):
            cell.source = written[cell.id]
    code = iter(_solution_code(root, exercise_set))
    answer_names = {entry["exercise_id"]: entry["source"] for entry in load_spec(exercise_set)["checks"]}
    cells = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            cells.append(cell)
            continue
        cell.source = next(code)
        match = CHECK_CALL.match(cell.source)
        choice = choices.get(match.group("id")) if match else None
        if choice is None or choice[0] == "right":
            cells.append(cell)
            continue
        exercise_id = match.group("id")
        name = answer_names[exercise_id].split(",", 1)[1].strip().rstrip(")").strip()
        source = "..." if choice[0] == "blank" else (
            f"__import__('pickle').loads(__import__('base64').b64decode('{choice[1]}'))  # a typical mistake")
        before, after = _swap_cells(name, source, exercise_id)
        cells += [before, cell, after]
    notebook.cells = cells
    return notebook


def _choose(rng, exercise_id: str, mistakes: list, pickles: dict) -> tuple[tuple[str, object], str]:
    """One student's answer to ``exercise_id`` at :data:`RATES`: its choice for
    :func:`demo_notebook` and the mistake id it plants ("" right, "no-answer" blank)."""
    outcome = list(RATES)[rng.choice(len(RATES), p=list(RATES.values()))]
    if outcome == "mistake" and mistakes:
        weights = 1.0 / np.arange(1, len(mistakes) + 1)  # the first mutants are the typical ones
        return _mistake(exercise_id, mistakes[rng.choice(len(weights), p=weights / weights.sum())], pickles)
    return ("blank", None) if outcome == "blank" else ("right", None), "no-answer" if outcome == "blank" else ""


def _mistake(exercise_id: str, mutant, pickles: dict) -> tuple[tuple[str, object], str]:
    return ("mistake", pickles[(exercise_id, mutant.name)]), mutant.mistakes[0]


def demo_class(root: Path, out: Path, size: int, seed: int, sets: list[str] | None = None,
               every_mistake: bool = False) -> dict:
    """Write ``size`` demo students' notebooks of every set (or ``sets``: numbers like "04")
    into ``out/student-NNN/`` and ``out/class.json``; returns what ``class.json`` holds: the
    mistake id each notebook plants per exercise ("" right, "no-answer" blank), and per exercise
    the typical mistakes that cannot be planted (their answer needs what a grading kernel does
    not have).

    With ``every_mistake`` the class is built to hold every typical mistake once instead of
    drawn at random: student K (from 1) makes the K-th typical mistake of each exercise and
    answers right where the exercise has fewer, so a set has as many students as its
    exercise with the most typical mistakes (``size`` and ``seed`` are not used)."""
    if not every_mistake and (not isinstance(size, int) or size < 1):
        raise ValueError(f"--size must be a whole number of students, at least 1; got {size!r}")
    lectures = [lecture for lecture in read_manifest(root) if lecture.exercises]
    if sets:
        unknown = sorted(set(sets) - {lecture.number for lecture in lectures})
        if unknown:
            raise ValueError(f"--sets: no exercise set {', '.join(unknown)}; the course has "
                             f"{', '.join(lecture.number for lecture in lectures)}")
        lectures = [lecture for lecture in lectures if lecture.number in sets]
    rng = np.random.default_rng(seed)
    words = np.random.default_rng([seed, 50])  # a stream of its own: the code answers stay as they were
    record: dict = ({"every_mistake": True} if every_mistake else {"size": size, "seed": seed, "rates": RATES})
    record.update(written_rates=WRITTEN_RATES, submissions={}, not_planted={}, written={})
    out = Path(out)
    for lecture in lectures:
        exercise_set = lecture.stem
        cases = _cases_module(root, exercise_set)
        exercises = [entry["exercise_id"] for entry in load_spec(exercise_set)["checks"]]
        parts = read_written_parts(lecture.solution_source)
        candidates = {exercise_id: typical_mistakes(root, exercise_id) for exercise_id in exercises}
        pickles = {(exercise_id, mutant.name): _pickled(mutant, exercise_set, cases)
                   for exercise_id, mutants in candidates.items() for mutant in mutants}
        mistakes = {exercise_id: [mutant for mutant in mutants if pickles[(exercise_id, mutant.name)] is not None]
                    for exercise_id, mutants in candidates.items()}
        record["not_planted"].update(
            {
                exercise_id: [m.name for m in mutants if m not in mistakes[exercise_id]]
                for exercise_id, mutants in candidates.items()
                if mutants != mistakes[exercise_id]
            }
        )
        students = max(map(len, mistakes.values())) if every_mistake else size
        for student in range(1, students + 1):
            chosen = {exercise_id: (_mistake(exercise_id, mistakes[exercise_id][student - 1], pickles)
                                    if student <= len(mistakes[exercise_id]) else (("right", None), ""))
                      if every_mistake else _choose(rng, exercise_id, mistakes[exercise_id], pickles)
                      for exercise_id in exercises}
            kinds = {part.cell_id: list(WRITTEN_RATES)[words.choice(len(WRITTEN_RATES), p=list(WRITTEN_RATES.values()))]
                     for part in parts}
            texts = {part.cell_id: written_answer(kinds[part.cell_id], part.model_answer, student) for part in parts}
            name = f"student-{student:03d}/{exercise_set}.ipynb"
            (out / name).parent.mkdir(parents=True, exist_ok=True)
            nbformat.write(demo_notebook(root, exercise_set, {e: c[0] for e, c in chosen.items()}, texts), out / name)
            record["submissions"][name] = {e: c[1] for e, c in chosen.items()}
            record["written"][name] = {f"{part.exercise} part {part.part}": kinds[part.cell_id] for part in parts}
    (out / "class.json").write_text(json.dumps(record, indent=1) + "\n")
    return record
