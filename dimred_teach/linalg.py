"""Linear-algebra conventions shared by every method: one sign rule, sorted eigenpairs,
and comparing subspaces through their projectors.

Eigenvectors and singular vectors are only defined up to sign. So that printed output is
the same on every machine, every method in this library passes its vectors through
:func:`fix_signs`: each vector's largest-magnitude entry is made positive.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.linalg.blas
import scipy.sparse.linalg

from ._validation import as_data_matrix, as_square_symmetric, check_k

__all__ = ["TIE_RTOL", "order_with_ties", "first_best", "sign_flips", "fix_signs", "top_eigenpairs", "sorted_eigh",
           "center_rows_and_columns", "projector", "subspace_distance"]

TIE_RTOL = 1e-12
"""Two computed floats closer than TIE_RTOL times the largest magnitude being compared are a
tie. Rounding in the last bits depends on the CPU (SIMD width, BLAS kernel), so every
ordering in the library compares at this precision first and then breaks ties by a stated
rule; the order is then the same on every machine."""


def order_with_ties(values, descending: bool = True, tie_break=None) -> np.ndarray:
    """Indices that sort ``values``, treating values within :data:`TIE_RTOL` (relative to the
    largest finite magnitude) of their neighbour as equal.

    Parameters
    ----------
    values : array_like, shape (m,)
        Real numbers; +-inf allowed (equal infinities tie).
    descending : bool
        Largest first (default) or smallest first.
    tie_break : array_like, shape (m,), optional
        Secondary key, ascending, for values that tie (default: the index, so the earlier
        entry comes first). Entries tied on both keys come in index order.

    Returns
    -------
    ndarray of int, shape (m,)
    """
    values = np.asarray(values, dtype=float)
    tie_break = np.arange(values.size) if tie_break is None else np.asarray(tie_break)
    return _order_with_ties(-values if descending else values, tie_break, _magnitude(values))


def _magnitude(values: np.ndarray) -> float:
    """The largest finite magnitude in ``values``: what :data:`TIE_RTOL` is relative to."""
    return float(np.abs(values[np.isfinite(values)]).max(initial=0.0))


def _order_with_ties(key: np.ndarray, tie_break: np.ndarray, scale: float) -> np.ndarray:
    """:func:`order_with_ties` of ``key``, smallest first, ties within TIE_RTOL * scale."""
    order = np.lexsort((tie_break, key))
    ordered = key[order]
    with np.errstate(invalid="ignore"):  # inf - inf: equal infinities are caught by ==
        same = (ordered[1:] == ordered[:-1]) | (np.diff(ordered) <= TIE_RTOL * scale)
    group = np.cumsum(np.concatenate(([True], ~same)))
    return order[np.lexsort((order, tie_break[order], group))]  # then the index: never the noise


def first_best(values, descending: bool = True) -> int:
    """Index of the largest (``descending``) or smallest value, at :data:`TIE_RTOL`
    precision; among tied values the first one: ``order_with_ties(values, descending)[0]``,
    in linear time (only the values that can tie with the best are sorted)."""
    values = np.asarray(values, dtype=float)
    key = -values if descending else values
    scale = _magnitude(values)
    best = key.min(initial=np.inf)
    if np.isfinite(best):
        # a chain of ties, each within TIE_RTOL * scale of the next, ends at most
        # (size - 1) * TIE_RTOL * scale from the best value
        near = np.flatnonzero(key <= best + (key.size - 1) * TIE_RTOL * scale)
    else:  # an infinity (or a NaN) is the best: the general rule
        near = np.arange(key.size)
    return int(near[_order_with_ties(key[near], near, scale)[0]])


def sign_flips(vectors: np.ndarray) -> np.ndarray:
    """The signs (+1 or -1, shape (k,)) that make the largest-magnitude entry of each column
    of ``vectors`` (shape (m, k)) positive; ties within :data:`TIE_RTOL` of the largest go
    to the first such entry. Multiply the columns (and their companions) by them.

    A stack of such matrices, shape (..., m, k), gets the signs of each matrix's columns,
    shape (..., k): multiply the stack by ``signs[..., None, :]``.
    """
    vectors = np.asarray(vectors, dtype=float)
    if vectors.ndim < 2:
        raise ValueError(f"vectors must be 2-D (one vector per column) or a stack of such, got shape {vectors.shape}")
    if np.isnan(vectors).any():
        raise ValueError("vectors contains NaN; signs of undefined vectors cannot be fixed")
    if vectors.shape[-1] == 0 or vectors.shape[-2] == 0:
        return np.ones(vectors.shape[:-2] + vectors.shape[-1:])
    magnitudes = np.abs(vectors)
    near_largest = magnitudes >= magnitudes.max(axis=-2, keepdims=True) * (1.0 - TIE_RTOL)
    rows = np.argmax(near_largest, axis=-2)  # the first entry tied with the largest, shape (..., k)
    largest = np.take_along_axis(vectors, rows[..., None, :], axis=-2)[..., 0, :]
    return np.where(largest < 0, -1.0, 1.0)


def fix_signs(vectors: np.ndarray, *companions: np.ndarray):
    """Flip each column of ``vectors`` so that its largest-magnitude entry is positive.

    Parameters
    ----------
    vectors : ndarray, shape (m, k)
        Columns are eigenvectors, singular vectors or principal directions.
    *companions : ndarray, shape (r, k) each
        Arrays whose columns belong to the same vectors (scores, left singular vectors);
        column j is flipped whenever column j of ``vectors`` is.

    Returns
    -------
    ndarray, shape (m, k), or a tuple of it followed by the flipped companions.

    Notes
    -----
    Ties in magnitude (within :data:`TIE_RTOL` of the column's largest magnitude) go to the
    first such entry, so the rule does not depend on rounding noise in the last bits
    (:func:`sign_flips`). A NaN is refused.
    """
    vectors = np.asarray(vectors, dtype=float)
    if vectors.ndim != 2:  # a stack needs signs[..., None, :] (sign_flips)
        raise ValueError(f"vectors must be 2-D (one vector per column), got shape {vectors.shape}")
    signs = sign_flips(vectors)
    flipped = vectors * signs
    if not companions:
        return flipped
    for companion in companions:
        if np.shape(companion)[-1] != signs.shape[0]:
            raise ValueError(
                f"each companion needs {signs.shape[0]} columns to match vectors, "
                f"got shape {np.shape(companion)}"
            )
    return (flipped, *(np.asarray(c, dtype=float) * signs for c in companions))


ARPACK_MIN_SIZE = 500
"""Matrices from this size up use ARPACK (Lanczos) for a few eigenpairs; below it, LAPACK."""


def top_eigenpairs(A: np.ndarray, k: int, seed: int = 0):
    """The k largest eigenpairs of a symmetric A (shape (m, m), already validated), largest
    first, signs fixed. A may be overwritten.

    When k is small (m >= :data:`ARPACK_MIN_SIZE` and k <= m / 20) ARPACK's Lanczos
    iteration (``scipy.sparse.linalg.eigsh``, seeded start vector, converged to machine
    precision) needs only products A v, O(m^2) each (:func:`_symmetric_product`); otherwise
    LAPACK's subset solver (``dsyevr`` through ``scipy.linalg.eigh``) reduces A to
    tridiagonal form, O(m^3). Both give the same pairs to rounding.
    """
    m = A.shape[0]
    if k == m:
        values, vectors = np.linalg.eigh(A)
    elif m >= ARPACK_MIN_SIZE and 20 * k <= m:
        start = np.random.default_rng(seed).uniform(-1.0, 1.0, m)
        values, vectors = scipy.sparse.linalg.eigsh(_symmetric_product(A), k=k, which="LA", v0=start, tol=0.0)
    else:
        values, vectors = scipy.linalg.eigh(A, subset_by_index=(m - k, m - 1), overwrite_a=True, check_finite=False)
    order = order_with_ties(values)  # equal eigenvalues keep the solver's order, on every machine
    values, vectors = values[order], vectors[:, order]
    vectors *= sign_flips(vectors)
    return values, vectors


def _symmetric_product(A: np.ndarray) -> scipy.sparse.linalg.LinearOperator:
    """v -> A v for a symmetric A of shape (m, m), by BLAS ``dsymv``, which reads one triangle
    of A: the product is bound by reading A from memory, and at m = 2000 it takes a third of
    the time of ``A @ v``. (The transpose of a C-ordered A is the same matrix in the column
    order ``dsymv`` reads; another layout is copied once.)"""
    columns = A.T if A.flags.c_contiguous else np.asfortranarray(A)
    return scipy.sparse.linalg.LinearOperator(
        A.shape, matvec=lambda v: scipy.linalg.blas.dsymv(1.0, columns, np.ravel(v)), dtype=np.float64)


def sorted_eigh(A, k: int | None = None, name: str = "A"):
    """Eigenpairs of a symmetric matrix, largest eigenvalue first, signs fixed.

    Parameters
    ----------
    A : array_like, shape (m, m)
        Symmetric matrix.
    k : int, optional
        Only the k largest eigenpairs (computed with a subset eigensolver, or ARPACK when
        k << m, see :func:`top_eigenpairs`; much cheaper than the full decomposition).
        Default: all m.

    Returns
    -------
    eigenvalues : ndarray, shape (k,)
        Descending; equal eigenvalues (to 12 significant digits) keep the solver's order.
    eigenvectors : ndarray, shape (m, k)
        Orthonormal columns, each with its largest-magnitude entry positive.
    """
    A = as_square_symmetric(A, name=name)  # a fresh copy, so it may be overwritten
    m = A.shape[0]
    k = m if k is None else check_k(k, m, why=f"{name} is {m} x {m}")
    return top_eigenpairs(A, k)


def center_rows_and_columns(A: np.ndarray, overwrite: bool = False) -> np.ndarray:
    """H A H with H = I - 11'/n, for a symmetric A of shape (n, n), without forming H.

    Entrywise A[i, j] - (mean of row i) - (mean of column j) + (grand mean); every row and
    column of the result sums to zero. Classical MDS applies it to -D2/2 (giving B) and
    kernel PCA to a kernel matrix (centring in feature space). The caller validates A.
    ``overwrite=True`` centres A in place (no n x n temporary); the result is then
    symmetric to the last bit only up to one rounding.
    """
    means = A.mean(axis=1)  # = column means, A being symmetric
    if not overwrite:
        return A - means[:, None] - means[None, :] + means.mean()
    A -= means[:, None]
    A -= means[None, :]
    A += means.mean()
    return A


def projector(basis) -> np.ndarray:
    """Orthogonal projector onto the column space of ``basis``, shape (m, m).

    ``basis`` (shape (m, k)) need not be orthonormal; it is orthonormalised by a QR
    decomposition, so any basis of the same subspace gives the same projector.
    """
    basis = as_data_matrix(basis, name="basis", min_rows=1)
    q, _ = np.linalg.qr(basis)
    return q @ q.T


def subspace_distance(A, B) -> float:
    """Distance between the column spaces of A and B (both shape (m, k)).

    The spectral norm of the difference of their projectors: 0 for the same subspace,
    1 when some direction of one is orthogonal to the other. It ignores signs,
    rotations within the subspace and the scaling of the basis vectors.
    """
    A = as_data_matrix(A, name="A", min_rows=1)
    B = as_data_matrix(B, name="B", min_rows=1)
    if A.shape[0] != B.shape[0]:
        raise ValueError(f"A and B must live in the same space: A has {A.shape[0]} rows, B has {B.shape[0]}")
    return float(np.linalg.norm(projector(A) - projector(B), ord=2))
