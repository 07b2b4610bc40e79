"""Building blocks for writing checks: each raises :class:`CheckFailure` with a message a
student can act on."""

from __future__ import annotations

import numpy as np

from . import CheckFailure
from ..linalg import subspace_distance

__all__ = ["expect", "answer_array", "expect_close", "expect_same_subspace", "expect_unit_columns"]


def expect(condition: bool, message: str) -> None:
    """Fail with ``message`` unless ``condition`` holds."""
    if not condition:
        raise CheckFailure(message)


def answer_array(answer, what: str, shape: tuple | None = None) -> np.ndarray:
    """The answer as a finite float array of the given shape (None entries are free)."""
    try:
        array = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        raise CheckFailure(f"{what} should be an array of numbers, got {type(answer).__name__}") from None
    if shape is not None:
        ok = array.ndim == len(shape) and all(s is None or s == a for s, a in zip(shape, array.shape))
        wanted = "(" + ", ".join("any" if s is None else str(s) for s in shape) + ")"
        expect(ok, f"{what} should have shape {wanted}, got {array.shape}")
    expect(bool(np.all(np.isfinite(array))), f"{what} contains NaN or inf")
    return array


def expect_close(actual, expected, what: str, atol: float = 1e-8, rtol: float = 1e-6) -> None:
    """Fail unless ``actual`` and ``expected`` agree elementwise (same shape)."""
    actual = np.asarray(actual, dtype=float)
    expected = np.asarray(expected, dtype=float)
    expect(actual.shape == expected.shape, f"{what}: expected shape {expected.shape}, got {actual.shape}")
    if not np.allclose(actual, expected, atol=atol, rtol=rtol):
        worst = float(np.max(np.abs(actual - expected)))
        raise CheckFailure(f"{what} does not hold (largest difference {worst:.3g})")


def expect_unit_columns(vectors: np.ndarray, what: str, atol: float = 1e-8) -> None:
    """Fail unless every column has length 1."""
    norms = np.linalg.norm(np.atleast_2d(vectors.T).T, axis=0)
    expect(bool(np.allclose(norms, 1.0, atol=atol)), f"{what} should have length 1, got lengths {np.round(norms, 4)}")


def expect_same_subspace(actual, expected, what: str, atol: float = 1e-6) -> None:
    """Fail unless the column spaces agree (compared through their projectors, so signs,
    rotations and scaling of the basis do not matter)."""
    actual = np.atleast_2d(np.asarray(actual, dtype=float).T).T
    expected = np.atleast_2d(np.asarray(expected, dtype=float).T).T
    expect(actual.shape == expected.shape, f"{what}: expected shape {expected.shape}, got {actual.shape}")
    distance = subspace_distance(actual, expected)
    expect(distance <= atol, f"{what} spans the wrong subspace (projector distance {distance:.3g})")
