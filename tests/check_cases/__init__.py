"""Proofs of the exercise checks: correct variants that must pass and mutants that must fail.

Each exercise set has a module ``tests/check_cases/setNN.py`` defining

    CASES: dict[str, tuple[list[Variant], list[Mutant]]]

keyed by exercise id ("NN.name"). A variant is a correct answer in another form (float32, a
list for a tuple, Fortran order, a sign flip, another valid method or convention); it must pass
on every seed. A mutant is a mistake students really make (1/n for 1/(n-1), no centring,
ascending order, a function that depends on call order); it must fail on every seed with a
message matching ``names`` and the mistake id it declares. ``answer`` builds a fresh answer each time it is called, so a
stateful mutant (a function counting its calls) starts anew on every seed.

The helpers below build answers: ``solution(exercise_id)`` gives the solution notebook's own
answer (its code cells run once per session), and ``in_float32``, ``fortran``, ``strided``,
``as_list``, ``returning``, ``given`` and ``first_calls_then`` turn an answer into another
form or into an answer that has learned the order of the check's calls.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import io
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jupytext
import numpy as np

from dimred_teach.course.exercises import CHECK_CALL
from dimred_teach.exercise_specs import SPECS_DIR, load_spec


@dataclass(frozen=True)
class Variant:
    """A correct answer in another equivalent form: must pass on every seed."""

    name: str
    answer: Callable[[], Any]


@dataclass(frozen=True)
class Mutant:
    """A typical mistake: must fail on every seed with a message matching ``names``
    (a regular expression, searched case-insensitively) and the mistake id ``mistake`` (or
    one of the ids in a tuple, when what the check sees depends on the random instance)."""

    name: str
    answer: Callable[[], Any]
    names: str
    mistake: str | tuple[str, ...]

    @property
    def mistakes(self) -> tuple[str, ...]:
        """The mistake ids this mutant may be reported under."""
        return (self.mistake,) if isinstance(self.mistake, str) else tuple(self.mistake)


# --- The solutions' own answers ---------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def solution_namespace(exercise_set: str) -> dict:
    """The names a solution notebook defines for its checks: its code cells up to the last
    check cell run in order (check cells skipped, printed output discarded), once per session."""
    notebook = jupytext.read(ROOT / "solutions" / f"{exercise_set}.py")
    cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    last_check = max(i for i, cell in enumerate(cells) if CHECK_CALL.match(cell.source))
    namespace: dict = {"__name__": f"solution_{exercise_set}"}
    with contextlib.redirect_stdout(io.StringIO()):
        for cell in cells[:last_check]:
            if not CHECK_CALL.match(cell.source):
                exec(compile(cell.source, f"solutions/{exercise_set}.py", "exec"), namespace)  # noqa: S102
    return namespace


def exercise_set_of(exercise_id: str) -> str:
    """The exercise set ("01_pca_lagrangian") whose spec holds ``exercise_id``."""
    for spec_file in sorted(SPECS_DIR.glob(f"{exercise_id[:2]}_*.json")):
        if any(entry["exercise_id"] == exercise_id for entry in load_spec(spec_file.stem)["checks"]):
            return spec_file.stem
    raise KeyError(f"no exercise spec holds {exercise_id!r}")


def solution_answer(exercise_id: str) -> Any:
    """The answer the solution notebook hands to ``check(exercise_id, answer)``: the check
    cell's second argument evaluated in the solution's namespace."""
    exercise_set = exercise_set_of(exercise_id)
    source = next(entry["source"] for entry in load_spec(exercise_set)["checks"]
                  if entry["exercise_id"] == exercise_id)
    call = ast.parse(source, mode="eval").body
    return eval(compile(ast.Expression(call.args[1]), source, "eval"), solution_namespace(exercise_set))  # noqa: S307


def solution(exercise_id: str) -> Callable[[], Any]:
    """A builder of the solution's answer to ``exercise_id`` (for ``Variant.answer``)."""
    return lambda: solution_answer(exercise_id)


# --- Equivalent forms of an answer ------------------------------------------------------------

def float32(value):
    """The value as a float32 array (a float32 scalar for a number)."""
    return np.float32(value) if np.ndim(value) == 0 else np.asarray(value, dtype=np.float32)


def fortran(value):
    """The same array in Fortran (column-major) order."""
    return np.asfortranarray(value)


def strided(value):
    """The same values as a non-contiguous view (every other column of a wider array)."""
    value = np.asarray(value)
    return np.repeat(value, 2, axis=-1)[..., ::2] if value.ndim else value


def as_list(value):
    """The value as nested Python lists (a tuple becomes a list too)."""
    return [as_list(v) for v in value] if isinstance(value, (tuple, list)) else np.asarray(value).tolist()


def returning(function: Callable, transform: Callable) -> Callable:
    """``function`` with ``transform`` applied to what it returns."""
    return lambda *args, **kwargs: transform(function(*args, **kwargs))


def given(function: Callable, transform: Callable) -> Callable:
    """``function`` called with ``transform`` applied to each floating-point array argument
    (float32 inputs, say, so the whole computation runs at that precision)."""
    return lambda *args: function(*(transform(a) if isinstance(a, np.ndarray) and a.dtype.kind == "f" else a
                                    for a in args))


def in_float32(function: Callable) -> Callable:
    """``function`` computing in float32: float inputs cast to float32, and every number or
    array it returns (also inside a tuple or list) cast to float32."""
    def cast(value):
        if isinstance(value, (tuple, list)):
            return type(value)(cast(v) for v in value)
        return float32(value) if isinstance(value, (float, np.floating, np.ndarray)) else value
    return returning(given(function, float32), cast)


def first_calls_then(right: Callable, calls: int, wrong: Callable) -> Callable[[], Callable]:
    """A builder of a function that answers like ``right`` for its first ``calls`` calls and like
    ``wrong`` afterwards: an answer that has learned the order or number of the check's calls."""
    def build():
        count = itertools.count()
        return lambda *args: (right if next(count) < calls else wrong)(*args)
    return build
