"""Whitening, kernels, kernel PCA and kernel MDS (WashU "USL - Dimensionality Reduction" notes, sections 4.3 and 5).

Whitening rotates and rescales centred data so that its sample covariance becomes the
identity. Kernel PCA is PCA in a feature space phi(x) reached only through inner products
k(x, y) = phi(x)'phi(y): centre the n x n kernel matrix in feature space and take its
leading eigenvectors, exactly as PCA through the Gram matrix does for the linear kernel.

Conventions: rows are points (the WashU notes use columns); variances divide by n - 1
(the notes' kernel PCA uses 1/n); eigenpairs are sorted descending and every eigenvector's
largest-magnitude entry is positive (:func:`dimred_teach.linalg.fix_signs`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from ._read_only import read_only
from ._validation import (
    NONNEGATIVE,
    POSITIVE,
    as_data_matrix,
    as_square_symmetric,
    check_choice,
    check_int,
    check_k,
    check_real,
    check_size,
    require_finite_result,
)
from .linalg import center_rows_and_columns, top_eigenpairs
from .pca import _centred, _signed_svd

__all__ = [
    "WhiteningResult",
    "whiten",
    "linear_kernel",
    "polynomial_kernel",
    "rbf_kernel",
    "KERNELS",
    "kernel_matrix",
    "center_kernel",
    "kernel_squared_distances",
    "KernelPCAResult",
    "kernel_pca",
    "KernelMDSResult",
    "kernel_mds",
]


# --- whitening -------------------------------------------------------------------------


@dataclass(frozen=True)
class WhiteningResult:
    """Whitened data and the linear map that whitens.

    Attributes
    ----------
    whitened : ndarray, shape (n, p)
        (X - mean) @ matrix. Its sample covariance (divisor n - 1) is the identity.
    matrix : ndarray, shape (p, p)
        The whitening matrix W = V Lambda^(-1/2): the principal directions V (columns)
        divided by the square roots of their variances.
    mean : ndarray, shape (p,)
        Column means that were subtracted.
    """

    whitened: np.ndarray
    matrix: np.ndarray
    mean: np.ndarray

    def transform(self, Y) -> np.ndarray:
        """Whiten new points Y (shape (m, p)) with the fitted mean and matrix, shape (m, p)."""
        Y = as_data_matrix(Y, name="Y", min_rows=1)
        p = self.mean.shape[0]
        if Y.shape[1] != p:
            raise ValueError(f"Y must have {p} columns like the fitted data, got {Y.shape[1]}")
        return (Y - self.mean) @ self.matrix


def whiten(X) -> WhiteningResult:
    """PCA whitening: centre X, rotate onto the principal axes and scale each to variance 1.

    With the thin SVD of the centred data Xc = U D V', the whitened data are
    Z = Xc V D^-1 sqrt(n - 1) = sqrt(n - 1) U, so Z'Z / (n - 1) = U'U = I.

    The WashU notes (columns are points, eq. 16) whiten by D^-1 U'X and show it equals
    V_d' (their Exercises 4.3 and 4.4). In our layout that is the matrix U of left singular
    vectors, whose columns have length 1; the extra factor sqrt(n - 1) makes the *sample*
    covariance (divisor n - 1) exactly the identity rather than I / (n - 1).

    Whitening is unique only up to a rotation: Z Q has covariance I for any orthogonal Q
    (Q = V' gives the "ZCA" whitening that stays closest to the original axes).

    Parameters
    ----------
    X : array_like, shape (n, p)
        Needs n > p and centred columns that are linearly independent (full rank p):
        a direction with zero variance cannot be scaled to variance 1.

    Returns
    -------
    WhiteningResult
    """
    X = as_data_matrix(X)
    n, p = X.shape
    if n <= p:
        raise ValueError(
            f"X has n={n} points and p={p} variables; whitening needs more points than variables "
            "(the centred data has rank at most n - 1, so some direction has zero variance)"
        )
    mean, _, Xc = _centred(X, scale=False)
    U, d, components = _signed_svd(Xc, p)  # Xc = U D V', so Xc V D^-1 sqrt(n - 1) = sqrt(n - 1) U
    if d[0] <= 0 or d[-1] ** 2 <= 1e-10 * d[0] ** 2:
        raise ValueError(
            "X is rank deficient: some combination of its centred columns is constant (a "
            "covariance eigenvalue is zero), so it cannot be scaled to variance 1; drop the "
            "redundant columns or keep only the first principal components before whitening"
        )
    root = np.sqrt(n - 1)
    matrix = components * (root / d)
    U *= root
    read_only(U, matrix, mean)
    return WhiteningResult(whitened=U, matrix=matrix, mean=mean)


# --- kernels ---------------------------------------------------------------------------


def _pair(X, Y) -> tuple[np.ndarray, np.ndarray]:
    """Validate X (n, p) and Y (m, p); Y defaults to X."""
    X = as_data_matrix(X, min_rows=1)
    if Y is None:
        check_size(X.shape[0] ** 2, f"a kernel matrix between the {X.shape[0]} rows of X")
        return X, X
    Y = as_data_matrix(Y, name="Y", min_rows=1)
    if Y.shape[1] != X.shape[1]:
        raise ValueError(f"Y must have as many columns as X ({X.shape[1]}), got {Y.shape[1]}")
    check_size(X.shape[0] * Y.shape[0], f"a kernel matrix between {X.shape[0]} rows of X and {Y.shape[0]} rows of Y")
    return X, Y


def _gamma(gamma, p: int) -> float:
    return 1.0 / p if gamma is None else check_real(gamma, "gamma", POSITIVE)


def _induced_squared_distances(cross: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """d2[i, j] = rows[i] + cols[j] - 2 cross[i, j], clipped at 0 (rounding can go below).

    ``cross`` is overwritten (the callers own it). rows[i] + cols[j] is formed first, so a
    symmetric ``cross`` with rows == cols gives an exactly symmetric result."""
    squared = np.add.outer(rows, cols)
    cross *= 2.0
    squared -= cross
    return np.maximum(squared, 0.0, out=squared)


def linear_kernel(X, Y=None) -> np.ndarray:
    """k(x, y) = x'y for every row x of X (n, p) and row y of Y (m, p): X Y', shape (n, m).

    Y defaults to X (the n x n Gram matrix)."""
    X, Y = _pair(X, Y)
    return X @ Y.T


def polynomial_kernel(X, Y=None, degree: int = 3, gamma: float | None = None, coef0: float = 1.0) -> np.ndarray:
    """k(x, y) = (gamma x'y + coef0)^degree, shape (n, m).

    Parameters
    ----------
    X : array_like, shape (n, p)
    Y : array_like, shape (m, p), optional
        Defaults to X.
    degree : int
        At least 1. Its feature space holds all monomials of the coordinates up to this degree.
    gamma : float, optional
        Positive scale of the inner product; default 1 / p (as scikit-learn).
    coef0 : float
        Non-negative offset (>= 0 keeps the kernel positive semi-definite); 0 keeps only the
        monomials of degree exactly ``degree``.
    """
    X, Y = _pair(X, Y)
    degree = check_int(degree, "degree", minimum=1)
    coef0 = check_real(coef0, "coef0", NONNEGATIVE)
    gamma = _gamma(gamma, X.shape[1])
    with np.errstate(over="ignore", invalid="ignore"):  # reported below with the arguments to blame
        K = (gamma * (X @ Y.T) + coef0) ** degree
    require_finite_result(K, f"the polynomial kernel (gamma x'y + coef0)^degree with degree={degree}, gamma={gamma:g}",
                          "lower degree or gamma, or rescale X")
    return K


def rbf_kernel(X, Y=None, gamma: float | None = None) -> np.ndarray:
    """Gaussian (radial basis function) kernel k(x, y) = exp(-gamma ||x - y||^2), shape (n, m).

    ``gamma`` (positive, default 1 / p as scikit-learn) is an inverse squared width:
    gamma = 1 / (2 sigma^2) for a Gaussian bump of standard deviation sigma. Large gamma
    means a narrow kernel: each point only "sees" its close neighbours.
    """
    X, Y = _pair(X, Y)
    gamma = _gamma(gamma, X.shape[1])
    squared = _induced_squared_distances(X @ Y.T, np.einsum("ij,ij->i", X, X), np.einsum("ij,ij->i", Y, Y))
    if Y is X:
        np.fill_diagonal(squared, 0.0)
    squared *= -gamma
    return np.exp(squared, out=squared)


KERNELS = MappingProxyType({"linear": linear_kernel, "poly": polynomial_kernel, "rbf": rbf_kernel})
"""The kernels by name, as accepted by ``kernel=`` in :func:`kernel_pca` and :func:`kernel_mds`."""

_PARAMETERS = {"linear": (), "poly": ("degree", "gamma", "coef0"), "rbf": ("gamma",)}


def _kernel_params(kernel: str, params: Mapping) -> dict:
    check_choice(kernel, tuple(KERNELS), "kernel")
    unknown = sorted(set(params) - set(_PARAMETERS[kernel]))
    if unknown:
        allowed = ", ".join(_PARAMETERS[kernel]) or "no parameters"
        raise TypeError(f"kernel {kernel!r} takes {allowed}; got unexpected parameter(s) {', '.join(unknown)}")
    return dict(params)


def kernel_matrix(X, Y=None, kernel: str = "rbf", **params) -> np.ndarray:
    """The kernel named ``kernel`` ("linear", "poly" or "rbf") between the rows of X (n, p)
    and Y (m, p, default X), with its parameters as keywords; shape (n, m)."""
    params = _kernel_params(kernel, params)
    return KERNELS[kernel](X, Y, **params)


def center_kernel(K) -> np.ndarray:
    """Centre a kernel matrix in feature space: H K H with H = I - 11'/n, shape (n, n).

    If K[i, j] = phi(x_i)'phi(x_j), then H K H holds the inner products of the centred
    features phi(x_i) - mean_l phi(x_l), computed without ever forming phi. Entrywise:
    K[i, j] - (row mean i) - (column mean j) + (grand mean). Every row and column of the
    result sums to zero. (Applied to -D2 / 2 this is the double centring of classical MDS.)
    """
    centred = center_rows_and_columns(as_square_symmetric(K, name="K"))
    return (centred + centred.T) / 2


def kernel_squared_distances(K) -> np.ndarray:
    """Squared feature-space distances d2[i, j] = K[i, i] + K[j, j] - 2 K[i, j], shape (n, n).

    ||phi(x_i) - phi(x_j)||^2 expanded into inner products; for the linear kernel these are
    the ordinary squared Euclidean distances, for the RBF kernel 2 - 2 K[i, j].
    """
    K = as_square_symmetric(K, name="K")
    diagonal = np.diag(K).copy()  # K is overwritten below
    squared = _induced_squared_distances(K, diagonal, diagonal)
    np.fill_diagonal(squared, 0.0)
    return squared


def _leading_eigenpairs(B: np.ndarray, k: int, what: str):
    """The k largest eigenpairs of a centred matrix B (n, n, overwritten), all of them positive."""
    values, vectors = top_eigenpairs(B, k)
    tiny = values <= 1e-10 * max(values[0], 0.0)
    if values[0] <= 0 or tiny.any():
        positive = int(np.argmax(tiny)) if values[0] > 0 else 0
        raise ValueError(
            f"k={k} exceeds the number of positive eigenvalues of the {what} ({positive}); "
            "the feature space spanned by these points has fewer dimensions, so lower k "
            "(or, for the RBF kernel, choose a larger gamma)"
        )
    return values, vectors


@dataclass(frozen=True)
class KernelPCAResult:
    """Kernel PCA of n training points.

    Attributes
    ----------
    scores : ndarray, shape (n, k)
        Coordinates of the training points on the k leading components in feature space:
        a_j sqrt(mu_j), with a_j the unit eigenvectors and mu_j the eigenvalues of the
        centred kernel matrix H K H.
    eigenvalues : ndarray, shape (k,)
        Variances of the scores, mu_j / (n - 1), descending (for the linear kernel: the PCA
        eigenvalues). The WashU notes divide by n instead.
    dual_coef : ndarray, shape (n, k)
        a_j / sqrt(mu_j): the component u_j = sum_i dual_coef[i, j] (phi(x_i) - mean phi),
        a unit vector in feature space, so that scores = (H K H) @ dual_coef.
    kernel : str
        "linear", "poly" or "rbf".
    params : mapping
        The kernel's parameters (read-only).
    X_fit : ndarray, shape (n, p)
        The training points (new points are compared with them through the kernel).
    kernel_column_means : ndarray, shape (n,)
        Column means of the uncentred training kernel matrix K.
    kernel_mean : float
        Grand mean of K.
    """

    scores: np.ndarray
    eigenvalues: np.ndarray
    dual_coef: np.ndarray
    kernel: str
    params: Mapping
    X_fit: np.ndarray
    kernel_column_means: np.ndarray
    kernel_mean: float

    @property
    def k(self) -> int:
        """Number of components kept."""
        return self.scores.shape[1]

    def transform(self, Y) -> np.ndarray:
        """Scores of new points Y (shape (m, p)) on the fitted components, shape (m, k).

        The new points' kernel rows are centred with the *training* means: the inner product
        of phi(y) - mean phi with phi(x_i) - mean phi is
        k(y, x_i) - mean_l k(y, x_l) - mean_l k(x_l, x_i) + mean_lm k(x_l, x_m).
        (The second and fourth terms are constant along a row, and every column of
        ``dual_coef`` sums to zero, so only the training column means change the scores;
        the full centring is kept so that the matrix below is what it says it is.)
        """
        cross = kernel_matrix(Y, self.X_fit, self.kernel, **self.params)
        centred = cross - cross.mean(axis=1, keepdims=True) - self.kernel_column_means + self.kernel_mean
        return centred @ self.dual_coef


def kernel_pca(X, k: int, kernel: str = "rbf", **params) -> KernelPCAResult:
    """Kernel PCA: PCA of the points mapped into the feature space of ``kernel``.

    Steps (WashU notes, section 5.2): the kernel matrix K = k(X, X); centring in feature space
    H K H (the notes assume centred features); its k leading eigenvectors a_j (the notes'
    K a = n lambda a); scores a_j sqrt(mu_j). With the linear kernel this is PCA through the
    Gram matrix, so the scores equal the PCA scores up to the sign of each column.

    Parameters
    ----------
    X : array_like, shape (n, p)
    k : int
        Number of components, 1 <= k <= n - 1 (a centred kernel matrix has rank at most n - 1),
        and no more than the number of positive eigenvalues of H K H.
    kernel : {"rbf", "poly", "linear"}
        See :func:`rbf_kernel`, :func:`polynomial_kernel`, :func:`linear_kernel`.
    **params
        The kernel's parameters: ``gamma`` for "rbf"; ``degree``, ``gamma``, ``coef0`` for "poly".

    Returns
    -------
    KernelPCAResult
        With ``.transform(Y)`` for new points.
    """
    X = as_data_matrix(X)
    params = _kernel_params(kernel, params)
    n = X.shape[0]
    k = check_k(k, n - 1, why=f"a centred kernel matrix of n={n} points has rank at most n - 1")
    K = kernel_matrix(X, None, kernel, **params)
    column_means = K.mean(axis=0)
    # K is ours and finite: centre it in place instead of validating a copy
    values, vectors = _leading_eigenpairs(center_rows_and_columns(K, overwrite=True), k, "centred kernel matrix")
    root = np.sqrt(values)
    scores, dual_coef = vectors * root, vectors / root
    eigenvalues = values / (n - 1)
    read_only(scores, dual_coef, eigenvalues, X, column_means)
    return KernelPCAResult(
        scores=scores,
        eigenvalues=eigenvalues,
        dual_coef=dual_coef,
        kernel=kernel,
        params=MappingProxyType(params),
        X_fit=X,
        kernel_column_means=column_means,
        kernel_mean=float(column_means.mean()),
    )


@dataclass(frozen=True)
class KernelMDSResult:
    """Classical MDS on the distances a kernel induces between n points.

    Attributes
    ----------
    embedding : ndarray, shape (n, k)
        v_j sqrt(mu_j) for the k leading eigenpairs of B = -1/2 H D2 H.
    eigenvalues : ndarray, shape (k,)
        The leading eigenvalues mu_j of B, descending.
    squared_distances : ndarray, shape (n, n)
        D2[i, j] = k(x_i, x_i) + k(x_j, x_j) - 2 k(x_i, x_j) = ||phi(x_i) - phi(x_j)||^2.
    """

    embedding: np.ndarray
    eigenvalues: np.ndarray
    squared_distances: np.ndarray


def kernel_mds(X, k: int, kernel: str = "rbf", **params) -> KernelMDSResult:
    """Kernel MDS: classical MDS on the squared distances the kernel induces in feature space.

    Kernel MDS and kernel PCA give the same coordinates. Writing the squared distances as
    D2 = diag(K) 1' + 1 diag(K)' - 2K, double centring removes the two rank-one terms
    (H 1 = 0), so B = -1/2 H D2 H = H K H: the centred kernel matrix of kernel PCA. Both
    methods then take the same eigenvectors scaled by the square roots of the same
    eigenvalues (and fix their signs by the same rule), so ``embedding`` equals
    ``kernel_pca(X, k, kernel, **params).scores``; only the reported eigenvalues differ by the
    factor n - 1. This is the WashU notes' "kernelise MDS by replacing the Gram matrix by
    a kernel matrix" (section 5.1), the non-linear version of "MDS = PCA".

    Parameters and errors as :func:`kernel_pca`.

    Returns
    -------
    KernelMDSResult
    """
    X = as_data_matrix(X)
    params = _kernel_params(kernel, params)
    n = X.shape[0]
    k = check_k(k, n - 1, why=f"a double-centred matrix of n={n} points has rank at most n - 1")
    squared = kernel_squared_distances(kernel_matrix(X, None, kernel, **params))
    B = center_rows_and_columns(-0.5 * squared, overwrite=True)
    values, vectors = _leading_eigenpairs(B, k, "double-centred distance matrix")
    embedding = vectors * np.sqrt(values)
    read_only(embedding, values, squared)
    return KernelMDSResult(embedding=embedding, eigenvalues=values, squared_distances=squared)
