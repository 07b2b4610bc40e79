"""No check hands over its answer (issue 52): for every function exercise, the expected answer
of each call the check makes is not to be found among what the call passes in.

05.fold_in was once checked only on the training documents of the ``space`` it passed: a
function that looked the query up in ``space.matrix`` and returned that row of
``space.document_coordinates`` passed every seed. Here every call a check makes (on
:data:`SEEDS`) is recorded with the solution's answer to it, and the arguments are walked:
the arguments themselves, the entries of sequences, and the public attributes of objects (their
properties included, methods left out), :data:`DEPTH` levels deep, arrays (dense, sparse or
pandas; sequences of words too) read as NumPy arrays. The answer (each entry of a tuple answer on its own) is looked
for in each array found there: the whole array or its transpose, any one of its rows or
columns (the row may change from call to call: a lookup finds it), or one fixed entry, up to
the sign (a check may accept either), at :data:`RTOL` relative to the answer's largest entry
(at least 1). A place that holds the answer in every recorded call is a handover; one that holds
it in some calls only is not (an answer read from there fails the others).
"""

from __future__ import annotations

import inspect
import numbers

import numpy as np
import pytest

from dimred_teach.checks.set05 import random_texts
from dimred_teach.lsi import lsi, term_document_matrix
from test_policy_scan import attributes_of, function_exercises, recorded_calls

SEEDS = range(3)
DEPTH = 3
"""Attribute levels walked below each argument (``space.matrix`` is level 1)."""
RTOL = 1e-6
"""An entry matches within this much of the answer's largest entry in size (at least 1)."""
LARGEST = 4_000_000
"""Arrays with more entries are not compared (nothing a check passes in comes near)."""


def _as_array(value) -> np.ndarray | None:
    """``value`` as a NumPy array of floats, or of words (a sequence of strings), or None when
    it is neither."""
    if isinstance(value, (list, tuple, np.ndarray)) and len(value) and all(isinstance(v, str) for v in value):
        return np.asarray(value, dtype=str)
    if hasattr(value, "toarray"):  # a SciPy sparse matrix; a large one's stored entries are its .data, walked below
        if np.prod(value.shape, dtype=float) > LARGEST:
            return None
        value = value.toarray()
    elif hasattr(value, "to_numpy"):  # a pandas object
        value = value.to_numpy()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Number, np.ndarray, list, tuple)):
        return None
    try:
        array = np.asarray(value)
    except (TypeError, ValueError):
        return None
    if array.dtype.kind not in "iuf" or array.size > LARGEST:
        return None
    return array.astype(float)


def arrays_within(value, path: str, depth: int = DEPTH, seen: dict | None = None):
    """(path, array) of every array of numbers or words reachable from ``value``: itself, the
    entries of a sequence, the public non-callable attributes of an object, ``depth`` levels deep
    (``seen``: the objects walked already, by id, kept alive so that no id is reused)."""
    seen = {} if seen is None else seen
    if id(value) in seen:
        return
    seen[id(value)] = value
    array = _as_array(value)
    if array is not None:
        yield path, array
    if depth == 0 or isinstance(value, (str, bytes, numbers.Number, np.ndarray)) or inspect.isroutine(value) \
            or inspect.isclass(value) or inspect.ismodule(value):
        return
    if isinstance(value, (list, tuple)):
        for index, item in enumerate(value[:64]):
            yield from arrays_within(item, f"{path}[{index}]", depth - 1, seen)
        return
    for name, attribute in attributes_of(value, private=False):
        if not callable(attribute):
            yield from arrays_within(attribute, f"{path}.{name}", depth - 1, seen)


def _matches(candidates: np.ndarray, answer: np.ndarray) -> np.ndarray:
    """Which of ``candidates`` (shape (m, *answer.shape)) equal ``answer`` up to the sign (words:
    equal)."""
    if answer.dtype.kind == "U" or candidates.dtype.kind == "U":
        if answer.dtype.kind != candidates.dtype.kind:
            return np.zeros(len(candidates), dtype=bool)
        return (candidates == answer).reshape(len(candidates), -1).all(axis=1)
    scale = RTOL * max(1.0, float(np.abs(answer).max(initial=0.0)))
    gaps = [np.abs(candidates - sign * answer).reshape(len(candidates), -1).max(axis=1, initial=0.0)
            for sign in (1.0, -1.0)]
    return np.minimum(*gaps) <= scale


def places_of(answer: np.ndarray, path: str, array: np.ndarray) -> set[str]:
    """The places in ``array`` (reached by ``path``) that hold ``answer``."""
    found = set()
    if answer.ndim == 0:
        flat = array.reshape(-1)
        found |= {f"{path}.flat[{i}]" for i in np.flatnonzero(_matches(flat[:, None], answer.reshape(1)))}
        return found
    for transposed, candidate in ((False, array), (True, array.T)):
        if candidate.shape == answer.shape and _matches(candidate[None], answer)[0]:
            found.add(f"{path}{'.T' if transposed else ''}")
    if answer.ndim == 1 and array.ndim == 2:
        for axis, name in ((0, "a row"), (1, "a column")):
            lines = array if axis == 0 else array.T
            if lines.shape[1] == answer.size and _matches(lines, answer).any():
                found.add(f"{name} of {path}")
    return found


def _parts(answer) -> list[tuple[str, np.ndarray]]:
    """(name, array) of each part of an answer (numbers or words): itself, or each entry of a tuple."""
    if isinstance(answer, tuple):
        return [(f"[{i}]{name}", array) for i, part in enumerate(answer) for name, array in _parts(part)]
    array = _as_array(answer)
    return [] if array is None else [("", array)]


def handovers(calls: list[tuple[tuple, object]]) -> list[str]:
    """The places among the arguments of ``calls`` ((arguments, expected answer) pairs) that hold
    the expected answer in every call."""
    common: dict[str, set[str]] = {}
    for args, expected in calls:
        for part, answer in _parts(expected):
            here = set()
            for index, argument in enumerate(args):
                for path, array in arrays_within(argument, f"argument {index}"):
                    here |= places_of(answer, path, array)
            common[part] = here if part not in common else common[part] & here
    return sorted(f"answer{part} in {place}" for part, places in common.items() for place in places)


@pytest.mark.parametrize("exercise_set, exercise_id", list(function_exercises()))
def test_no_check_hands_over_its_answer(exercise_set, exercise_id):
    calls = recorded_calls(exercise_id, limit=None, seeds=SEEDS)
    assert calls, f"{exercise_id}: the check never called the solution"
    assert handovers(calls) == []


def test_the_calls_05_fold_in_made_before_issue_52_hand_over_the_answer():
    """Training documents only: each query's coordinates are a row of the space's own."""
    rng, calls = np.random.default_rng(0), []
    for _ in range(2):
        texts = random_texts(rng)
        space = lsi(texts, k=3)
        counts = term_document_matrix(texts, vocabulary=space.vocabulary).counts.toarray().astype(float)
        calls += [((space, counts[i]), space.document_coordinates[i]) for i in rng.choice(len(texts), 3, replace=False)]
    assert handovers(calls) == ["answer in a row of argument 0.document_coordinates"]
    assert handovers(calls[:1] + [((calls[0][0][0], calls[0][0][1] * 0), np.ones(3))]) == []
