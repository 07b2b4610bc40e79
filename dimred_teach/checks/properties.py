"""Building blocks for writing checks: each raises :class:`CheckFailure` with a message a
student can act on.

Precision. A float64 answer is judged at the tolerances the check asks for. A float32 answer
(:func:`answer_array` notes the coarsest floating-point type it sees) is judged at the
precision a correct float32 *computation* reaches, never at that of printed digits: every
tolerance (:func:`tolerance`, :func:`is_close`, :func:`expect_close`, ...) is then at least
a number of units of float32's rounding error, relative to the scale of the data, that
depends on what is judged. A function answer is called on the check's random instances, some
of them ill-conditioned, and gets :data:`FUNCTION_SLACK` units; a value answer (the same
numbers for everybody, which the course must never let a student type back) gets
:data:`VALUE_SLACK` units, measured on the solutions' computations carried out in float32.
:func:`evaluate` judges each answer in a fresh :func:`judging_precision` context.
"""

from __future__ import annotations

import collections
import contextlib
import contextvars
import copy
import functools
import math
import numbers
import pickle

import numpy as np

from ..linalg import subspace_distance
from . import CheckFailure

__all__ = ["WRONG_FORM", "TYPED_DIGITS", "looks_typed_back", "note_precision", "expect", "judging_precision",
           "tolerance", "answer_array", "answer_number", "answer_integer", "answer_pair", "is_close", "expect_close",
           "expect_unlike", "expect_same_subspace", "expect_unit_columns", "distinct", "in_random_order",
           "drawn_once"]

FUNCTION_SLACK = 1000.0
"""A function computing in float32 may miss the exact value by this many units of float32's
rounding error (about 1.2e-4), relative to the scale of the data: the check's random
instances include ill-conditioned ones."""
VALUE_SLACK = 10.0
"""A value answer in float32 may miss the exact value by this many units of float32's
rounding error (about 1.2e-6), relative to the scale of the data, unless its check states
the precision its own computation reaches (``register(..., float32_slack=...)``). The
solutions' computations carried out in float32 pass (the "computed in float32" variants of
tests/check_cases); the numbers they print, typed back, fail (tests/checks/test_typed_answers.py)."""

_FLOAT64_RESOLUTION = float(np.finfo(np.float64).eps)
_resolution: contextvars.ContextVar[float] = contextvars.ContextVar("answer_resolution", default=_FLOAT64_RESOLUTION)
_slack: contextvars.ContextVar[float] = contextvars.ContextVar("answer_slack", default=FUNCTION_SLACK)


def expect(condition: bool, message: str, mistake: str = "other") -> None:
    """Fail with ``message`` and the mistake id ``mistake`` unless ``condition`` holds."""
    if not condition:
        raise CheckFailure(message, mistake)


@contextlib.contextmanager
def judging_precision(slack: float = FUNCTION_SLACK):
    """Judge one answer: tolerances start at float64 precision and coarsen to ``slack`` units
    of the rounding error of whatever floating-point type the answer turns out to use
    (:data:`FUNCTION_SLACK` for a function, :data:`VALUE_SLACK` for a value)."""
    tokens = _resolution.set(_FLOAT64_RESOLUTION), _slack.set(slack)
    try:
        yield
    finally:
        _resolution.reset(tokens[0])
        _slack.reset(tokens[1])


COARSEST_RESOLUTION = float(np.finfo(np.float32).eps)
"""Answers are judged at float32 precision at the coarsest: a float16 answer does not buy a
tolerance loose enough to pass a wrong value."""


def note_precision(array: np.ndarray) -> None:
    """Judge the rest of the answer at least at the precision of ``array``'s floating-point type
    (a check calls it on the float32 input it hands a function: a float64 result computed
    from float32 data is then judged as the float32 computation it is)."""
    if np.issubdtype(array.dtype, np.inexact):
        resolution = min(float(np.finfo(array.dtype).eps), COARSEST_RESOLUTION)
        _resolution.set(max(_resolution.get(), resolution))


def tolerance(rtol: float) -> float:
    """The relative tolerance to use: ``rtol``, or the precision of the answer seen so far
    when that is coarser (float64: :data:`FUNCTION_SLACK` units of its rounding error, 2.2e-13;
    float32: the slack of :func:`judging_precision`)."""
    resolution = _resolution.get()
    return max(rtol, (FUNCTION_SLACK if resolution == _FLOAT64_RESOLUTION else _slack.get()) * resolution)


WRONG_FORM = "wrong-form"
"""The mistake id of an answer that is not numbers of the asked shape and kind."""


TYPED_DIGITS = "typed-digits"
"""The mistake id of a value answer that agrees with the right value only to the digits the
course prints (4 decimals or 5 significant digits): numbers copied, not computed."""


def looks_typed_back(answer, right) -> bool:
    """Whether ``answer`` agrees with the right value ``right`` to printed precision (within
    1e-4 of each entry, or 1e-4 of its size), up to the sign of each column (of the whole
    vector), while not being the right value: copied digits, not a computation."""
    try:
        value, right = np.asarray(answer, dtype=float), np.asarray(right, dtype=float)
    except (TypeError, ValueError):
        return False
    if value.shape != right.shape or value.size == 0 or not np.all(np.isfinite(value)):
        return False
    signs = np.sign(np.sum(value * right, axis=0)) if value.ndim else 1.0
    gaps = np.abs(value - np.where(signs == 0, 1.0, signs) * right)
    return bool(np.all(gaps <= 1e-4 * np.maximum(1.0, np.abs(right)))) and bool(np.any(gaps > 0))


def answer_array(answer, what: str, shape: tuple | None = None, wrong_shape: str = WRONG_FORM) -> np.ndarray:
    """The answer (an array, list, tuple, pandas object or number) as a finite float64 array
    of the given shape (None entries are free); notes the answer's precision. A wrong shape
    fails with the mistake id ``wrong_shape`` (a named mistake, when a typical one gives that
    shape), anything else with ``wrong-form``."""
    try:
        raw = np.asarray(answer)
        if raw.dtype == object:
            raw = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        raise CheckFailure(f"{what} should be an array of numbers, got {type(answer).__name__}", WRONG_FORM) from None
    if np.iscomplexobj(raw):
        expect(bool(np.all(np.abs(raw.imag) <= 1e-12 * max(1.0, float(np.abs(raw).max(initial=0))))),
               f"{what} has complex entries; for a symmetric matrix use np.linalg.eigh, whose results are real",
               WRONG_FORM)
        raw = raw.real
    expect(raw.dtype.kind in "biuf", f"{what} should hold numbers, got {raw.dtype} entries", WRONG_FORM)
    note_precision(raw)
    array = raw.astype(float)
    if shape is not None:
        ok = array.ndim == len(shape) and all(s is None or s == a for s, a in zip(shape, array.shape))
        wanted = "(" + ", ".join("any" if s is None else str(s) for s in shape) + (",)" if len(shape) == 1 else ")")
        expect(ok, f"{what} should have shape {wanted}, got {array.shape}", wrong_shape)
    expect(bool(np.all(np.isfinite(array))), f"{what} contains NaN or inf", WRONG_FORM)
    return array


def answer_number(value, what: str) -> float:
    """A single real number (Python or NumPy scalar, or an array of size 1) as a float."""
    expect(not isinstance(value, (bool, np.bool_, str)), f"{what} should be a number, got {value!r}", WRONG_FORM)
    array = answer_array(value, what)
    expect(array.size == 1, f"{what} should be a single number, got shape {array.shape}", WRONG_FORM)
    return float(array.reshape(()))


def answer_integer(value, what: str) -> int:
    """A whole number given as an integer (Python or NumPy), not a bool, float or string."""
    expect(isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)),
           f"{what} should be an integer (a whole number, int), got {type(value).__name__} {value!r}", WRONG_FORM)
    return int(value)


def answer_pair(answer, what: str, names: str) -> tuple:
    """The two parts of an answer that should be a pair (a tuple, list or length-2 array)."""
    is_pair = isinstance(answer, (tuple, list)) or (isinstance(answer, np.ndarray) and answer.ndim >= 1)
    expect(is_pair and len(answer) == 2, f"{what} should return a pair {names}, got {type(answer).__name__}",
           WRONG_FORM)
    return answer[0], answer[1]


def distinct(actual: float, expected: float) -> tuple[str, str]:
    """Both numbers printed with enough significant digits to see where they differ."""
    actual, expected = float(actual), float(expected)
    gap = abs(actual - expected)
    size = max(abs(actual), abs(expected))
    digits = 4 if gap == 0 or size == 0 else int(min(17, max(4, 2 + math.ceil(-math.log10(gap / size)))))
    return f"{actual:.{digits}g}", f"{expected:.{digits}g}"


def _scale(expected: np.ndarray, scale: float | None) -> float:
    if scale is not None:
        return float(scale)
    size = float(np.abs(expected).max(initial=0.0))
    return size if size > 0 else 1.0


def is_close(actual, expected, rtol: float = 1e-8, scale: float | None = None, atol: float = 0.0) -> bool:
    """Whether ``actual`` and ``expected`` (same shape) agree within ``tolerance(rtol)`` times
    ``scale`` (by default the largest entry of ``expected`` in absolute value), or within
    ``atol`` if that is larger."""
    actual, expected = np.asarray(actual, dtype=float), np.asarray(expected, dtype=float)
    if actual.shape != expected.shape:
        return False
    allowed = max(atol, tolerance(rtol) * _scale(expected, scale))
    return bool(np.all(np.abs(actual - expected) <= allowed))


def expect_close(actual, expected, what: str, rtol: float = 1e-8, scale: float | None = None,
                 atol: float = 0.0, mistake: str = "other") -> None:
    """Fail (with the mistake id ``mistake``) unless ``actual`` and ``expected`` agree
    elementwise (see :func:`is_close`); the message names the worst entry and the student's
    value there, never the expected one."""
    actual = np.asarray(actual, dtype=float)
    expected = np.asarray(expected, dtype=float)
    expect(actual.shape == expected.shape, f"{what}: expected shape {expected.shape}, got {actual.shape}", WRONG_FORM)
    if is_close(actual, expected, rtol, scale, atol):
        return
    gaps = np.abs(actual - expected)
    worst = np.unravel_index(int(np.argmax(gaps)), gaps.shape)
    where = f" at entry {tuple(int(i) for i in worst)}" if actual.ndim else ""
    # the right value is never shown: a student could copy it instead of finding the mistake
    yours, _ = distinct(actual[worst], expected[worst])  # enough digits to see that it differs
    raise CheckFailure(f"{what} does not hold: yours is {yours}{where}, where it is furthest from the right value",
                       mistake)


def expect_unlike(actual, mistaken, expected, message: str, rtol: float = 1e-8, scale: float | None = None,
                  mistake: str = "other") -> None:
    """Fail with ``message`` and the mistake id ``mistake`` (a typical mistake) when ``actual``
    matches what that mistake gives, ``mistaken``, unless the mistake happens to give the right
    value here."""
    if is_close(actual, mistaken, rtol, scale) and not is_close(mistaken, expected, rtol, scale):
        raise CheckFailure(message, mistake)


def expect_unit_columns(vectors: np.ndarray, what: str, rtol: float = 1e-8, atol: float = 0.0,
                        mistake: str = "other") -> None:
    """Fail (with the mistake id ``mistake``) unless every column has length 1."""
    norms = np.linalg.norm(np.atleast_2d(vectors.T).T, axis=0)
    expect(is_close(norms, np.ones_like(norms), rtol, atol=atol),
           f"{what} should have length 1, got length(s) {', '.join(f'{x:.6g}' for x in norms)}", mistake)


def expect_same_subspace(actual, expected, what: str, rtol: float = 1e-6, atol: float = 0.0,
                         mistake: str = "other") -> None:
    """Fail unless the column spaces agree (compared through their projectors, so signs,
    rotations and scaling of the basis do not matter)."""
    actual = np.atleast_2d(np.asarray(actual, dtype=float).T).T
    expected = np.atleast_2d(np.asarray(expected, dtype=float).T).T
    expect(actual.shape == expected.shape, f"{what}: expected shape {expected.shape}, got {actual.shape}", WRONG_FORM)
    distance = subspace_distance(actual, expected)
    expect(distance <= max(atol, tolerance(rtol)),
           f"{what} spans the wrong subspace (projector distance {distance:.3g})", mistake)


def random_orthogonal(rng: np.random.Generator, size: int) -> np.ndarray:
    """A uniformly random orthogonal matrix, shape (size, size): half of them rotations, half
    reflections. (Q of a QR alone is not: its determinant is fixed by ``size``, and for size 2
    it is a single Householder reflection, always symmetric. Scaling Q's columns by the signs
    of R's diagonal makes it uniform.)"""
    Q, R = np.linalg.qr(rng.normal(size=(size, size)))
    return Q * np.sign(np.diag(R))


def in_random_order(rng: np.random.Generator, cases: list) -> list:
    """The cases shuffled with the check's generator, so a function answer cannot learn the
    order (or count) of the calls."""
    return [cases[i] for i in rng.permutation(len(cases))]


def drawn_once(maxsize: int = 128):
    """Decorator for ``draw(rng, *args)``, a function that draws a random instance from the
    generator ``rng`` and depends on nothing else (not on the answer, not on the judging
    precision): each instance is computed once per state of ``rng`` and arguments.

    Checking many answers on one seed (the proofs in tests/check_cases, the policy scan)
    draws the same instances again and again, and some take most of a check's time (a
    rejection loop of eigendecompositions, a 40 x 3000 sample). A repeated draw returns a
    deep copy of the first one's result and leaves ``rng`` in the state the first draw left
    it in, so everything the check draws afterwards is the same as without the cache. The
    last ``maxsize`` instances are kept: enough for every instance of the proofs' 20 seeds,
    which are drawn in turn for one answer after another (a cache smaller than that cycle
    would miss every time).
    """
    def decorator(draw):
        cache: collections.OrderedDict = collections.OrderedDict()

        @functools.wraps(draw)
        def cached(rng: np.random.Generator, *args, **kwargs):
            key = (pickle.dumps(rng.bit_generator.state), args, tuple(sorted(kwargs.items())))
            if key in cache:
                cache.move_to_end(key)
                result, state = cache[key]
                rng.bit_generator.state = state
                return copy.deepcopy(result)
            result = draw(rng, *args, **kwargs)
            cache[key] = (copy.deepcopy(result), rng.bit_generator.state)
            if len(cache) > maxsize:
                cache.popitem(last=False)
            return result

        cached.cache_clear = cache.clear
        return cached

    return decorator
