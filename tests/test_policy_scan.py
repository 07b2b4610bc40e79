"""No library function answers an exercise that asks the student to write it (issue 21):
every public function of the teaching library whose signature fits is tried as the answer
of every function exercise, and none may pass unless its set forbids it (then the grading
kernel does not have it). This is how ``linalg.subspace_distance`` (07.projector_distance)
and ``linalg.center_rows_and_columns`` (04, 08) were found."""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import pkgutil

import pytest
from check_cases import solution_answer

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
    for path in sorted(SPECS_DIR.glob("*.json")):
        spec = json.loads(path.read_text())
        for check in spec["checks"]:
            answer = solution_answer(check["exercise_id"])
            if callable(answer):
                yield pytest.param(spec["exercise_set"], check["exercise_id"], answer, id=check["exercise_id"])


@pytest.mark.parametrize("exercise_set, exercise_id, solution", list(function_exercises()))
def test_no_allowed_library_function_answers_a_function_exercise(exercise_set, exercise_id, solution):
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
