"""Value answers (the same for everybody) need the work: the right numbers printed as the
course prints them and typed back fail, and an integer answer one or two away from the
right one gets a message that names neither the right answer nor a number next to it.
Every exercise of every set whose solution hands a value (not a function) to ``check`` is
taken; its right answer is the solution's.
"""

from __future__ import annotations

import functools
import re

import numpy as np
import pytest

from check_cases import solution_answer
from dimred_teach.checks import evaluate
from test_check_proofs import EXERCISES

EXACT_WHEN_PRINTED = {
    "04.non_euclidean_metric": "many answers are right; the solution's whole numbers print exactly",
}
"""Value exercises whose right answer loses nothing when printed to 4 decimals: typing it back
is not copying printed digits (their answers must not be printed in the course at all, which
``dimred-teach build --check`` enforces)."""


@functools.cache
def right_answer(exercise_id: str):
    return solution_answer(exercise_id)


def value_exercises() -> list[str]:
    return [exercise_id for exercise_id in EXERCISES if not callable(right_answer(exercise_id))]


def printed(value: np.ndarray) -> dict[str, np.ndarray]:
    """The numbers as the course prints them (4 fixed decimals) and in scientific form with 5
    significant digits, read back."""
    return {"4 decimals": np.round(value, 4),
            "5 significant digits": np.vectorize(lambda x: float(f"{x:.4e}"), otypes=[float])(value)}


def is_float_value(answer) -> bool:
    return not isinstance(answer, (bool, int, np.integer, str)) and np.asarray(answer).dtype.kind == "f"


def test_the_value_exercises_are_found():
    found = value_exercises()
    assert {"01.top_direction", "04.eurodist_spectrum", "07.shrinkage"} <= set(found)
    assert set(EXACT_WHEN_PRINTED) <= set(found)


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_printed_digits_typed_back_fail(exercise_id):
    answer = right_answer(exercise_id)
    if callable(answer) or not is_float_value(answer):
        return
    value = np.asarray(answer, dtype=float)
    forms = printed(value)
    exact = all(np.array_equal(form, value) for form in forms.values())
    assert exact == (exercise_id in EXACT_WHEN_PRINTED), (
        f"{exercise_id}: printed to 4 decimals its answer {'is' if exact else 'is not'} exact; "
        f"EXACT_WHEN_PRINTED says otherwise")
    if exact:
        return
    for form, typed in forms.items():
        for dtype in (np.float64, np.float32):
            verdict = evaluate(exercise_id, typed.astype(dtype).reshape(value.shape), seed=0)
            assert not verdict.passed, f"{exercise_id}: the answer printed with {form}, typed back as " \
                                       f"{dtype.__name__}, passes"


def integer_exercises() -> list[str]:
    return [e for e in value_exercises() if isinstance(right_answer(e), (int, np.integer))
            and not isinstance(right_answer(e), bool)]


def named_numbers(message: str) -> set[int]:
    """The whole numbers a message names (digits not inside a longer number or a name)."""
    return {int(m) for m in re.findall(r"(?<![\w.])\d+(?![\w.]*\d)", message)}


@pytest.mark.parametrize("exercise_id", ["03.species_component"])
def test_integer_answers_near_the_right_one_learn_nothing(exercise_id):
    """Answers 1 and 2 away from the right one (on three seeds) fail with messages that name no
    number within 2 of the right answer, except the one tried and numbers every message names
    (``count from 1: PC1 is component 1``). The hint is the same for every answer: it cannot
    walk towards the right one."""
    assert exercise_id in integer_exercises()
    right = int(right_answer(exercise_id))
    messages = {}
    for tried in (right - 2, right - 1, right + 1, right + 2):
        for seed in range(3):
            verdict = evaluate(exercise_id, tried, seed=seed)
            assert not verdict.passed, f"{exercise_id}: {tried} passes, though the right answer is {right}"
            messages[tried, seed] = verdict.message
    constant = set.intersection(*(named_numbers(message) for message in messages.values()))
    leaks = [f"answered {tried}, the message names {sorted(near)}: {message}"
             for (tried, _), message in messages.items()
             if (near := (named_numbers(message) - constant - {tried}) & set(range(right - 2, right + 3)))]
    assert not leaks, "\n".join(leaks)


def test_every_integer_exercise_is_tried():
    tried = {"03.species_component"}
    assert set(integer_exercises()) == tried
