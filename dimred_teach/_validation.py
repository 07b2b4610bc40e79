"""Input validation shared by every module of the library.

Each helper turns user input into a clean NumPy value or raises a ``ValueError`` /
``TypeError`` whose message names the offending argument and says what was wrong.
No NumPy or LAPACK error should ever reach a student: they are caught here first.
"""

from __future__ import annotations

import math
import numbers
import operator
import sys
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = [
    "as_finite_array",
    "as_data_matrix",
    "as_vector",
    "as_square_symmetric",
    "as_distance_matrix",
    "check_int",
    "check_k",
    "check_choice",
    "check_seed",
    "check_bool",
    "Interval",
    "POSITIVE",
    "NONNEGATIVE",
    "OPEN_UNIT",
    "check_real",
    "MAX_ABS_VALUE",
    "MAX_ARRAY_ENTRIES",
    "MAX_INTEGER",
    "check_size",
    "require_finite_result",
    "as_data_matrix_or_sparse",
]


def _to_float_array(value, name: str) -> np.ndarray:
    """Convert ``value`` to a float64 array, refusing non-numeric data."""
    if hasattr(value, "toarray") and hasattr(value, "nnz"):
        raise TypeError(f"{name} is a sparse matrix; this function needs a dense array")
    try:
        array = np.asarray(value)
    except Exception as error:  # ragged lists and the like
        raise TypeError(f"{name} could not be read as a numeric array: {error}") from None
    if array.dtype == object or not (
        np.issubdtype(array.dtype, np.number) or np.issubdtype(array.dtype, np.bool_)
    ):
        raise TypeError(f"{name} must hold numbers, got an array of dtype {array.dtype}")
    if np.issubdtype(array.dtype, np.complexfloating):
        raise TypeError(f"{name} must be real, got complex numbers")
    return np.array(array, dtype=np.float64)


MAX_ABS_VALUE = 1e100
"""Largest magnitude accepted in a data array. Squares (1e200) and sums of many of them stay
far below the float64 limit (1.8e308), so no distance, covariance or kernel overflows to
inf or NaN; data this large is a units mistake, and rescaling it is the way out."""


def _require_finite(array: np.ndarray, name: str) -> None:
    """Refuse NaN, inf and magnitudes above :data:`MAX_ABS_VALUE` (scale-aware guard).

    Two reductions (max and min) and no temporary array: NaN propagates through both.
    """
    largest, smallest = float(array.max(initial=-np.inf)), float(array.min(initial=np.inf))
    if array.size and not (math.isfinite(largest) and math.isfinite(smallest)):
        bad = "NaN" if math.isnan(largest) or math.isnan(smallest) or np.isnan(array).any() else "inf"
        raise ValueError(f"{name} contains {bad}; remove or impute those entries first")
    magnitude = max(abs(largest), abs(smallest)) if array.size else 0.0
    if magnitude > MAX_ABS_VALUE:
        raise ValueError(
            f"{name} has entries as large as {magnitude:.3g}; values beyond {MAX_ABS_VALUE:g} in magnitude "
            f"overflow when squared and summed, so rescale {name} first (divide it by its largest entry)"
        )


def as_finite_array(value, name: str) -> np.ndarray:
    """Validate a finite numeric array of any shape (at least one entry); a float64 copy."""
    array = _to_float_array(value, name)
    if array.size == 0:
        raise ValueError(f"{name} must not be empty, got shape {array.shape}")
    _require_finite(array, name)
    return array


def as_data_matrix(X, name: str = "X", min_rows: int = 2, min_cols: int = 1) -> np.ndarray:
    """Validate a data matrix whose rows are points.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Numbers, finite, two-dimensional. A pandas DataFrame is accepted.
    name : str
        The argument name used in error messages.
    min_rows, min_cols : int
        The smallest accepted n and p.

    Returns
    -------
    numpy.ndarray of float64, shape (n, p)
        A fresh copy: callers may modify it.
    """
    array = _to_float_array(X, name)
    if array.ndim != 2:
        raise ValueError(
            f"{name} must be a 2-D array (rows are points, columns are variables); "
            f"got {array.ndim}-D with shape {array.shape}"
        )
    n, p = array.shape
    if n < min_rows:
        raise ValueError(f"{name} needs at least {min_rows} rows (points), got {n}")
    if p < min_cols:
        raise ValueError(f"{name} needs at least {min_cols} columns (variables), got {p}")
    _require_finite(array, name)
    return array


def as_vector(v, name: str = "v", length: int | None = None) -> np.ndarray:
    """Validate a finite 1-D numeric vector, shape (length,)."""
    array = _to_float_array(v, name)
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {array.shape}")
    if length is not None and array.shape[0] != length:
        raise ValueError(f"{name} must have length {length}, got {array.shape[0]}")
    _require_finite(array, name)
    return array


def as_square_symmetric(A, name: str = "A", atol: float = 1e-8, min_size: int = 1) -> np.ndarray:
    """Validate a finite square symmetric matrix, shape (m, m), m >= ``min_size``.

    Returns a fresh copy made exactly symmetric, (A + A') / 2. Symmetry is checked (to
    ``atol`` times the largest magnitude, at least 1) and enforced in place, a strip of
    rows at a time, so besides the copy only temporaries of one strip are allocated.
    """
    array = _to_float_array(A, name)
    if array.ndim != 2 or array.shape[0] != array.shape[1]:
        raise ValueError(f"{name} must be a square matrix, got shape {array.shape}")
    m = array.shape[0]
    if m < min_size:
        raise ValueError(f"{name} needs at least {min_size} rows and columns, got {m}")
    _require_finite(array, name)
    tolerance = atol * max(1.0, float(array.max(initial=0.0)), -float(array.min(initial=0.0)))
    strip = max(1, 2**20 // max(m, 1))  # about 8 MB per temporary
    for start in range(0, m, strip):
        stop = min(start + strip, m)
        upper, lower = array[start:stop, start:], array[start:, start:stop].T
        half_difference = (lower - upper) / 2
        if np.abs(half_difference).max(initial=0.0) > tolerance / 2:
            raise ValueError(f"{name} must be symmetric; it differs from its transpose")
        upper += half_difference
        array[start:, start:stop] = upper.T
    return array


def as_distance_matrix(D, name: str = "D", min_points: int = 2) -> np.ndarray:
    """Validate a matrix of pairwise dissimilarities, shape (n, n).

    It must be square, finite, symmetric, non-negative and have a zero diagonal. It
    need not be Euclidean (classical MDS reports the negative eigenvalues instead).
    """
    array = _to_float_array(D, name)
    if array.ndim != 2 or array.shape[0] != array.shape[1]:
        raise ValueError(f"{name} must be a square distance matrix, got shape {array.shape}")
    n = array.shape[0]
    if n < min_points:
        raise ValueError(f"{name} needs at least {min_points} points, got {n}")
    _require_finite(array, name)
    scale = max(1.0, float(array.max(initial=0.0)))
    if not np.allclose(array, array.T, rtol=0.0, atol=1e-10 * scale):
        raise ValueError(f"{name} must be symmetric: D[i, j] must equal D[j, i]")
    if (array < 0).any():
        raise ValueError(f"{name} has negative entries; distances are never negative")
    if np.abs(np.diag(array)).max() > 1e-12 * scale:
        raise ValueError(f"{name} must have a zero diagonal (each point is at distance 0 from itself)")
    array = (array + array.T) / 2
    np.fill_diagonal(array, 0.0)
    return array


def _shown(value) -> str:
    """``value`` as an error message names it: its type and its repr, or for an array or a
    container its shape or length (a whole array in a message is unreadable, and formatting
    one costs more than the call that failed)."""
    shape = getattr(value, "shape", None)
    if isinstance(shape, tuple) and shape != ():
        return f"{type(value).__name__} of shape {shape}"
    if isinstance(value, (list, tuple, dict, set, frozenset)):
        return f"{type(value).__name__} of length {len(value)}"
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 60 else text[:57] + '...'}"


def _approximately(number) -> str:
    """A number to 3 significant digits, as ``:.3g`` writes it, an int beyond the float range
    too (10**400 as 1e+400), where ``float()`` overflows."""
    if isinstance(number, int) and abs(number) > sys.float_info.max:
        exponent = math.floor(math.log10(abs(number)))  # log10 takes an int of any size
        return f"{'-' if number < 0 else ''}{abs(number) / 10**exponent:.3g}e+{exponent}"
    return f"{float(number):.3g}"


def _integer(value: int) -> str:
    """An int as a message shows it: its digits up to 15 of them, beyond that 3 significant
    digits (10**400 as 1e+400: its digits are unreadable, and beyond 4300 Python refuses to
    print them). Anything but an integer is refused at once (a large array or sparse matrix
    would otherwise be compared entry by entry first)."""
    value = operator.index(value)
    return str(value) if abs(value) < 10**15 else _approximately(value)


MAX_INTEGER = int(sys.float_info.max)
"""Largest magnitude of an integer argument, about 1.8e308 (the largest float64): every count,
size and index of the library meets float64 arithmetic (a bound, a size in bytes, a step), where
a larger integer overflows (``OverflowError``) instead of being refused by name."""


def check_int(value, name: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """Validate an integer (Python or NumPy, not a bool) in [minimum, maximum], and at most
    :data:`MAX_INTEGER` in magnitude."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {_shown(value)}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {_integer(value)}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be at most {maximum}, got {_integer(value)}")
    if abs(value) > MAX_INTEGER:
        raise ValueError(f"{name} must be at most {MAX_INTEGER:.3g} in magnitude (the largest float64; the library "
                         f"computes with it in floating point), got {_integer(value)}")
    return value


def check_k(k, upper: int, name: str = "k", why: str = "") -> int:
    """Validate a number of components 1 <= k <= upper; ``why`` explains the upper bound."""
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral):
        raise TypeError(f"{name} must be a positive integer, got {_shown(k)}")
    k = int(k)
    if k < 1 or k > upper:
        reason = f" ({why})" if why else ""
        raise ValueError(f"{name} must be between 1 and {upper}{reason}, got {_integer(k)}")
    return k


def check_choice(value, choices: Sequence[str], name: str) -> str:
    """Validate that ``value`` is one of ``choices``."""
    if not isinstance(value, str) or value not in choices:
        options = ", ".join(repr(c) for c in choices)
        got = repr(value) if isinstance(value, str) else _shown(value)
        raise ValueError(f"{name} must be one of {options}; got {got}")
    return value


def check_seed(seed, name: str = "seed") -> int:
    """Validate an explicit integer seed for ``numpy.random.default_rng``."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral):
        raise TypeError(
            f"{name} must be an integer (every random draw in this course takes an explicit "
            f"seed), got {_shown(seed)}"
        )
    if seed < 0:
        raise ValueError(f"{name} must be non-negative, got {_integer(seed)}")
    return int(seed)


def check_bool(value, name: str) -> bool:
    """Validate a flag: ``True``/``False`` or a NumPy bool. A truthy string such as "no"
    is refused rather than read as True."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {_shown(value)}")
    return bool(value)


@dataclass(frozen=True)
class Interval:
    """A range of real numbers, like scikit-learn's ``Interval``: ``low`` and ``high`` may be
    -inf / inf; ``closed`` says which ends belong to it ("both", "left", "right", "neither").
    An infinite end never belongs to it, so every accepted value is finite."""

    low: float
    high: float
    closed: str = "both"

    def __contains__(self, value: float) -> bool:
        low_ok = value >= self.low if self.closed in ("both", "left") else value > self.low
        high_ok = value <= self.high if self.closed in ("both", "right") else value < self.high
        return bool(low_ok and high_ok and math.isfinite(value))

    def __str__(self) -> str:
        left = "[" if self.closed in ("both", "left") and math.isfinite(self.low) else "("
        right = "]" if self.closed in ("both", "right") and math.isfinite(self.high) else ")"
        return f"{left}{self.low:g}, {self.high:g}{right}"


POSITIVE = Interval(0.0, math.inf, "neither")
"""Finite numbers above 0 (variances, tolerances, step sizes)."""
NONNEGATIVE = Interval(0.0, math.inf, "left")
"""Finite numbers of at least 0 (noise levels, offsets, penalties)."""
OPEN_UNIT = Interval(0.0, 1.0, "neither")
"""Numbers strictly between 0 and 1 (probabilities that must not be 0 or 1)."""


def check_real(value, name: str, interval: Interval = Interval(-math.inf, math.inf), why: str = "") -> float:
    """Validate a real number (Python or NumPy scalar, not a bool) lying in ``interval``.

    The one validator of every real parameter of the library. The message names the
    argument, the accepted range (with ``why``, the meaning of the range) and the value
    received. NaN and inf are never accepted.

    Returns
    -------
    float
    """
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number in {interval}, got {_shown(value)}")
    value = float(value)
    if value not in interval:
        reason = f" ({why})" if why else ""
        raise ValueError(f"{name} must lie in {interval}{reason}, got {value!r}")
    return value


MAX_ARRAY_ENTRIES = 2**27
"""Largest array the library allocates from a size given as an argument: 2**27 float64
numbers, 1 GiB. Beyond it a clear ``ValueError`` is raised before any allocation, instead
of a ``MemoryError`` (or an exhausted machine)."""


def check_size(entries: int | float, what: str, advice: str = "") -> None:
    """Refuse an allocation of ``entries`` numbers above :data:`MAX_ARRAY_ENTRIES`;
    ``what`` names the arguments that set the size, e.g. "n = 10**11 rows times p = 5"."""
    if entries > MAX_ARRAY_ENTRIES:
        hint = f"; {advice}" if advice else ""
        # 8 bytes each, 2**30 to a GiB; an int beyond the float range (10**200 times 10**200) is
        # floor-divided, as its true quotient overflows a float (and 3 digits cannot show the floor)
        huge = isinstance(entries, int) and entries > sys.float_info.max
        gibibytes = entries // 2**27 if huge else entries / 2**27
        raise ValueError(
            f"{what} asks for {_approximately(entries)} numbers ({_approximately(gibibytes)} GiB of float64), "
            f"more than this library allocates ({MAX_ARRAY_ENTRIES} numbers, 1 GiB){hint}"
        )


def require_finite_result(value, what: str, advice: str) -> None:
    """Raise a ``ValueError`` when a computed ``value`` (array or number) overflowed to inf or
    NaN; ``what`` names the result and the arguments behind it, ``advice`` the way out."""
    if not np.all(np.isfinite(value)):
        raise ValueError(f"{what} overflows the range of float64 (it would be inf or NaN); {advice}")


def as_data_matrix_or_sparse(X, name: str = "X", min_rows: int = 2, min_cols: int = 1):
    """Validate a data matrix, rows are points, that may be a ``scipy.sparse`` matrix.

    Dense input goes through :func:`as_data_matrix`. Sparse input must be 2-D, real,
    numeric and finite; it comes back as a float64 CSR copy of the same family
    (``csr_matrix`` or ``csr_array``), so a large sparse matrix is never made dense.

    Returns
    -------
    numpy.ndarray or scipy.sparse CSR, float64, shape (n, p)
    """
    import scipy.sparse

    if not scipy.sparse.issparse(X):
        return as_data_matrix(X, name=name, min_rows=min_rows, min_cols=min_cols)
    if X.ndim != 2:
        raise ValueError(f"{name} must be a 2-D sparse matrix (rows are points), got {X.ndim}-D")
    if not (np.issubdtype(X.dtype, np.number) or np.issubdtype(X.dtype, np.bool_)):
        raise TypeError(f"{name} must hold numbers, got a sparse matrix of dtype {X.dtype}")
    if np.issubdtype(X.dtype, np.complexfloating):
        raise TypeError(f"{name} must be real, got complex numbers")
    n, p = X.shape
    if n < min_rows:
        raise ValueError(f"{name} needs at least {min_rows} rows (points), got {n}")
    if p < min_cols:
        raise ValueError(f"{name} needs at least {min_cols} columns (variables), got {p}")
    X = X.tocsr().astype(np.float64, copy=True)
    _require_finite(X.data, name)
    return X
