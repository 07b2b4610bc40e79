"""Every exercise check is proven: the solution's answer and every equivalent correct answer
(a variant) pass on 20 seeds, and every typical mistake (a mutant) fails on 20 seeds with a
message that names it and the mistake id it declares; every mistake id a set names is proven
by a mutant. The exercises are discovered (every registered check and every
exercise spec), so a new exercise without variants and mutants is a failing test.

The grader draws a fresh seed for every submission, so a check that misses a mistake on one
instance in a hundred misses it for a student in every class. Twenty seeds do not see that;
before changing a check, sweep many more: ``DIMRED_PROOF_SEEDS=0:1000 python -m pytest -n 2
tests/checks/test_check_proofs.py -k 02.pseudo_inverse`` (a range ``start:stop``; about
50 times the default's time).
"""

from __future__ import annotations

import importlib
import json
import os
import re
from pathlib import Path

import pytest

import check_cases
from check_cases import solution_answer
from dimred_teach.checks import MISTAKE_ID, RESERVED_MISTAKES, evaluate, mistakes_of, registered_ids
from dimred_teach.exercise_specs import SPECS_DIR

pytestmark = pytest.mark.slow(seconds=290)


def proof_seeds(setting: str | None) -> range:
    """The seeds every proof runs on: ``range(20)``, or ``range(start, stop)`` from a
    ``DIMRED_PROOF_SEEDS`` of the form ``start:stop``."""
    if not setting:
        return range(20)
    start, _, stop = setting.partition(":")
    if not (start.isdigit() and stop.isdigit() and int(start) < int(stop)):
        raise ValueError(f"DIMRED_PROOF_SEEDS should be start:stop with 0 <= start < stop, got {setting!r}")
    return range(int(start), int(stop))


SEEDS = proof_seeds(os.environ.get("DIMRED_PROOF_SEEDS"))


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
        assert verdict.mistake == verdict.mistake_name == "", f"variant {variant.name!r} passed with a mistake"


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # mistakes may well divide by zero
@pytest.mark.parametrize(("exercise_id", "mutant"), all_cases(1))
def test_mutant_fails_and_is_named(exercise_id, mutant):
    for seed in SEEDS:
        verdict = evaluate(exercise_id, mutant.answer(), seed=seed)
        assert not verdict.passed, f"mutant {mutant.name!r} passed on seed {seed}"
        assert re.search(mutant.names, verdict.message, re.IGNORECASE), (
            f"mutant {mutant.name!r}, seed {seed}: the message does not name the mistake ({mutant.names!r}): "
            f"{verdict.message}")
        assert verdict.mistake in mutant.mistakes, (
            f"mutant {mutant.name!r}, seed {seed}: reported as mistake {verdict.mistake!r}, declared {mutant.mistakes}")
        assert verdict.mistake_name, f"mutant {mutant.name!r}: the mistake {verdict.mistake!r} has no name"


@pytest.mark.parametrize("exercise_set", sorted({exercise_id[:2] for exercise_id in EXERCISES}))
def test_every_named_mistake_is_declared_used_and_proven(exercise_set):
    """A set's ``MISTAKES`` are valid ids, none reserved; each is spelled somewhere in the set's
    checks besides its declaration (no dead entry) and is declared by at least one mutant of the
    set (so the proofs show the check can report it)."""
    named = mistakes_of(exercise_set)
    source = Path(importlib.import_module(f"dimred_teach.checks.set{exercise_set}").__file__).read_text()
    start = source.index("\nMISTAKES = {")
    body = source.replace(source[start:source.index("\n}\n", start)], "")
    proven = {mistake for exercise_id in EXERCISES if exercise_id.startswith(exercise_set + ".")
              for mutant in cases_of(exercise_id)[1] for mistake in mutant.mistakes}
    for mistake, name in named.items():
        assert MISTAKE_ID.match(mistake) and mistake not in RESERVED_MISTAKES, f"set {exercise_set}: bad id {mistake!r}"
        assert name and len(name) <= 100 and not name.endswith("."), (
            f"set {exercise_set}: {mistake!r} needs a short name")
        assert f'"{mistake}"' in body, f"set {exercise_set}: {mistake!r} is declared but no check reports it"
        assert mistake in proven, f"set {exercise_set}: no mutant proves that a check reports {mistake!r}"
    unknown = {m for m in proven if m not in named and m not in RESERVED_MISTAKES}
    assert not unknown, f"set {exercise_set}: mutants declare mistakes nobody named: {sorted(unknown)}"


def test_reserved_mistakes_have_valid_ids_and_names():
    for mistake, name in RESERVED_MISTAKES.items():
        assert MISTAKE_ID.match(mistake) and name
