"""Input validation shared by every module of the library.

Each helper turns user input into a clean NumPy value or raises a ``ValueError`` /
``TypeError`` whose message names the offending argument and says what was wrong.
No NumPy or LAPACK error should ever reach a student: they are caught here first.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np

__all__ = [
    "as_data_matrix",
    "as_vector",
    "as_square_symmetric",
    "as_distance_matrix",
    "check_int",
    "check_k",
    "check_choice",
    "check_seed",
    "check_open_unit",
    "check_positive",
    "check_nonnegative",
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


def _require_finite(array: np.ndarray, name: str) -> None:
    if not np.all(np.isfinite(array)):
        bad = "NaN" if np.isnan(array).any() else "inf"
        raise ValueError(f"{name} contains {bad}; remove or impute those entries first")


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


def as_square_symmetric(A, name: str = "A", atol: float = 1e-8) -> np.ndarray:
    """Validate a finite square symmetric matrix, shape (m, m); returns its exact symmetrisation."""
    array = _to_float_array(A, name)
    if array.ndim != 2 or array.shape[0] != array.shape[1]:
        raise ValueError(f"{name} must be a square matrix, got shape {array.shape}")
    _require_finite(array, name)
    scale = max(1.0, float(np.abs(array).max(initial=0.0)))
    if not np.allclose(array, array.T, rtol=0.0, atol=atol * scale):
        raise ValueError(f"{name} must be symmetric; it differs from its transpose")
    return (array + array.T) / 2


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


def check_int(value, name: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """Validate an integer (not a bool) in [minimum, maximum]."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be at most {maximum}, got {value}")
    return value


def check_k(k, upper: int, name: str = "k", why: str = "") -> int:
    """Validate a number of components 1 <= k <= upper; ``why`` explains the upper bound."""
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise TypeError(f"{name} must be a positive integer, got {type(k).__name__} {k!r}")
    k = int(k)
    if k < 1 or k > upper:
        reason = f" ({why})" if why else ""
        raise ValueError(f"{name} must be between 1 and {upper}{reason}, got {k}")
    return k


def check_choice(value, choices: Sequence[str], name: str) -> str:
    """Validate that ``value`` is one of ``choices``."""
    if value not in choices:
        options = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {options}; got {value!r}")
    return value


def check_seed(seed, name: str = "seed") -> int:
    """Validate an explicit integer seed for ``numpy.random.default_rng``."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(
            f"{name} must be an integer (every random draw in this course takes an explicit "
            f"seed), got {type(seed).__name__} {seed!r}"
        )
    if seed < 0:
        raise ValueError(f"{name} must be non-negative, got {seed}")
    return int(seed)


def check_open_unit(value, name: str) -> float:
    """Validate a real number strictly between 0 and 1."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r}")
    value = float(value)
    if not (0.0 < value < 1.0):
        raise ValueError(f"{name} must lie strictly between 0 and 1, got {value}")
    return value


def check_positive(value, name: str) -> float:
    """Validate a finite real number strictly greater than 0 (a variance, a tolerance)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r}")
    value = float(value)
    if not np.isfinite(value) or value <= 0.0:
        raise ValueError(f"{name} must be a finite number greater than 0, got {value}")
    return value


def check_nonnegative(value, name: str) -> float:
    """Validate a finite real number greater than or equal to 0 (a noise level, an offset)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r}")
    value = float(value)
    if not np.isfinite(value) or value < 0.0:
        raise ValueError(f"{name} must be a finite number of at least 0, got {value}")
    return value


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
