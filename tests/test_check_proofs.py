"""Every exercise check is proven: the solution's answer and every equivalent correct answer
(a variant) pass on 20 seeds, and every typical mistake (a mutant) fails on 20 seeds with a
message that names it. The exercises are discovered (every registered check and every
exercise spec), so a new exercise without variants and mutants is a failing test.
"""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest

import check_cases
from check_cases import solution_answer

from dimred_teach.checks import evaluate, registered_ids
from dimred_teach.exercise_specs import SPECS_DIR

SEEDS = range(20)


def spec_ids() -> set[str]:
    return {entry["exercise_id"] for path in SPECS_DIR.glob("*.json")
            for entry in json.loads(path.read_text())["checks"]}


EXERCISES = sorted(set(registered_ids()) | spec_ids())


def cases_of(exercise_id: str):
    """(variants, mutants) of an exercise, or None when its set has no case module or entry."""
    try:
        module = importlib.import_module(f"check_cases.set{exercise_id[:2]}")
    except ModuleNotFoundError:
        return None
    return module.CASES.get(exercise_id)


def all_cases(kind: int):
    found = []
    for exercise_id in EXERCISES:
        cases = cases_of(exercise_id)
        for case in (cases[kind] if cases else []):
            found.append(pytest.param(exercise_id, case, id=f"{exercise_id}-{case.name}"))
    return found


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_every_exercise_has_variants_and_mutants(exercise_id):
    cases = cases_of(exercise_id)
    assert cases is not None, f"tests/check_cases/set{exercise_id[:2]}.py has no CASES entry for {exercise_id}"
    variants, mutants = cases
    assert variants, f"{exercise_id} has no variant (an equivalent correct answer that must pass)"
    assert mutants, f"{exercise_id} has no mutant (a typical mistake that must fail)"
    names = [case.name for case in (*variants, *mutants)]
    assert len(names) == len(set(names)), f"{exercise_id}: case names repeat: {names}"


def test_no_cases_for_unknown_exercises():
    for path in sorted((Path(check_cases.__file__).parent).glob("set*.py")):
        module = importlib.import_module(f"check_cases.{path.stem}")
        unknown = sorted(set(module.CASES) - set(EXERCISES))
        assert not unknown, f"{path.name} has cases for exercises nobody registered: {unknown}"


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_the_solutions_answer_passes(exercise_id):
    for seed in SEEDS:
        verdict = evaluate(exercise_id, solution_answer(exercise_id), seed=seed)
        assert verdict.passed, f"seed {seed}: {verdict.message}"


@pytest.mark.parametrize(("exercise_id", "variant"), all_cases(0))
def test_variant_passes(exercise_id, variant):
    for seed in SEEDS:
        verdict = evaluate(exercise_id, variant.answer(), seed=seed)
        assert verdict.passed, f"variant {variant.name!r}, seed {seed}: {verdict.message}"


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # mistakes may well divide by zero
@pytest.mark.parametrize(("exercise_id", "mutant"), all_cases(1))
def test_mutant_fails_and_is_named(exercise_id, mutant):
    for seed in SEEDS:
        verdict = evaluate(exercise_id, mutant.answer(), seed=seed)
        assert not verdict.passed, f"mutant {mutant.name!r} passed on seed {seed}"
        assert re.search(mutant.names, verdict.message, re.IGNORECASE), (
            f"mutant {mutant.name!r}, seed {seed}: the message does not name the mistake ({mutant.names!r}): "
            f"{verdict.message}")
