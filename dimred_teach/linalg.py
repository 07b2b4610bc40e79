"""Linear-algebra conventions shared by every method: one sign rule, sorted eigenpairs,
and comparing subspaces through their projectors.

Eigenvectors and singular vectors are only defined up to sign. So that printed output is
the same on every machine, every method in this library passes its vectors through
:func:`fix_signs`: each vector's largest-magnitude entry is made positive.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg

from ._validation import as_data_matrix, as_square_symmetric, check_k

__all__ = ["fix_signs", "sorted_eigh", "center_rows_and_columns", "projector", "subspace_distance"]


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
    Ties in magnitude (to 10 decimals) go to the first such entry, so the rule does not
    depend on rounding noise in the last bits.
    """
    vectors = np.asarray(vectors, dtype=float)
    if vectors.ndim != 2:
        raise ValueError(f"vectors must be 2-D (one vector per column), got shape {vectors.shape}")
    if vectors.shape[1] == 0:
        signs = np.ones(0)
    else:
        magnitudes = np.round(np.abs(vectors), 10)
        rows = np.argmax(magnitudes, axis=0)
        signs = np.where(vectors[rows, np.arange(vectors.shape[1])] < 0, -1.0, 1.0)
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


def sorted_eigh(A, k: int | None = None, name: str = "A"):
    """Eigenpairs of a symmetric matrix, largest eigenvalue first, signs fixed.

    Parameters
    ----------
    A : array_like, shape (m, m)
        Symmetric matrix.
    k : int, optional
        Only the k largest eigenpairs (computed with a subset eigensolver, which is
        much cheaper than the full decomposition when k << m). Default: all m.

    Returns
    -------
    eigenvalues : ndarray, shape (k,)
        Descending.
    eigenvectors : ndarray, shape (m, k)
        Orthonormal columns, each with its largest-magnitude entry positive.
    """
    A = as_square_symmetric(A, name=name)
    m = A.shape[0]
    if k is None or k == m:
        values, vectors = np.linalg.eigh(A)
    else:
        k = check_k(k, m, why=f"{name} is {m} x {m}")
        values, vectors = scipy.linalg.eigh(A, subset_by_index=(m - k, m - 1))
    order = np.argsort(values)[::-1]
    return values[order], fix_signs(vectors[:, order])


def center_rows_and_columns(A: np.ndarray) -> np.ndarray:
    """H A H with H = I - 11'/n, for a symmetric A of shape (n, n), without forming H.

    Entrywise A[i, j] - (mean of row i) - (mean of column j) + (grand mean); every row and
    column of the result sums to zero. Classical MDS applies it to -D2/2 (giving B) and
    kernel PCA to a kernel matrix (centring in feature space). The caller validates A.
    """
    means = A.mean(axis=1)  # = column means, A being symmetric
    return A - means[:, None] - means[None, :] + means.mean()


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
