"""No library function answers an exercise that asks the student to write it (issue 21):
every public function of the teaching library whose signature fits is tried as the answer
of every function exercise, and none may pass unless its set forbids it (then the grading
kernel does not have it). This is how ``linalg.subspace_distance`` (07.projector_distance)
and ``linalg.center_rows_and_columns`` (04, 08) were found."""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import json
import pkgutil

import jupytext
import pytest
from check_cases import ROOT, solution_answer

import dimred_teach
from dimred_teach.checks import evaluate, policy
from dimred_teach.exercise_specs import SPECS_DIR

NOT_TEACHING = {"checks", "grading", "exercise_specs", "cli", "exercises", "execution", "site", "slides", "display",
                "plotting", "course", "templates", "__main__"}


@functools.lru_cache(maxsize=1)
def library_functions() -> dict[str, object]:
    """Every public function the teaching library defines, by its defining name."""
    found = {}
    for info in pkgutil.walk_packages(dimred_teach.__path__, "dimred_teach."):
        if info.name.split(".")[1] in NOT_TEACHING:
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if inspect.isfunction(value) and not name.startswith("_") and value.__module__ == info.name:
                found[policy.defined_name(value)] = value
    return found


def required(function) -> int:
    return sum(p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
               for p in inspect.signature(function).parameters.values())


def function_exercises():
    """The exercises whose check cell hands over a function the solution defines, found
    by reading the sources (collecting runs no solution: every test process collects)."""
    for path in sorted(SPECS_DIR.glob("*.json")):
        spec = json.loads(path.read_text())
        notebook = jupytext.read(ROOT / "solutions" / f"{spec['exercise_set']}.py")
        defined = {node.name for cell in notebook.cells if cell.cell_type == "code"
                   for node in ast.parse(cell.source).body if isinstance(node, ast.FunctionDef)}
        for check in spec["checks"]:
            answer = ast.parse(check["source"], mode="eval").body.args[1]
            if isinstance(answer, ast.Name) and answer.id in defined:
                yield pytest.param(spec["exercise_set"], check["exercise_id"], id=check["exercise_id"])


@pytest.mark.parametrize("exercise_set, exercise_id", list(function_exercises()))
def test_no_allowed_library_function_answers_a_function_exercise(exercise_set, exercise_id):
    solution = solution_answer(exercise_id)
    assert callable(solution), f"{exercise_id}: the solution hands over {type(solution).__name__}, not a function"
    rules = policy.rules(exercise_set)
    arity = required(solution)
    answering = []
    for name, function in library_functions().items():
        module = name.rsplit(".", 1)[0]
        forbidden = name in rules.functions or any(module == m or module.startswith(m + ".") for m in rules.modules)
        try:
            fits = required(function) <= arity <= len(inspect.signature(function).parameters)
        except (TypeError, ValueError):
            fits = False
        if not forbidden and fits and evaluate(exercise_id, function, seed=1).passed:
            answering.append(name)
    assert answering == [], f"{exercise_id} is answered by {answering}: add them to FORBIDS of its set"


def test_every_exercise_answered_by_a_function_is_scanned():
    """The sources' reading above finds exactly the exercises whose solution answer is callable."""
    scanned = {case.values[1] for case in function_exercises()}
    answered_by_functions = {check["exercise_id"] for path in sorted(SPECS_DIR.glob("*.json"))
                             for check in json.loads(path.read_text())["checks"]
                             if callable(solution_answer(check["exercise_id"]))}
    assert scanned == answered_by_functions
