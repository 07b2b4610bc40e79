"""Principal component analysis: centring, covariance, three ways to the components,
reconstruction, power iteration and choosing k.

Conventions (the course's, see README): rows are points, X has shape (n, p); the sample
covariance divides by n - 1 unless ``ddof`` says otherwise; eigenvalues are sorted
descending; every component has its largest-magnitude entry positive
(:func:`dimred_teach.linalg.fix_signs`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.linalg

from ._read_only import read_only
from ._validation import (
    POSITIVE,
    Interval,
    as_data_matrix,
    as_square_symmetric,
    as_vector,
    check_bool,
    check_choice,
    check_int,
    check_k,
    check_real,
    check_seed,
    check_size,
)
from .linalg import first_best, fix_signs, sign_flips, sorted_eigh

__all__ = [
    "center",
    "standardize",
    "covariance",
    "PCAResult",
    "pca",
    "reconstruction_error",
    "PowerIterationResult",
    "power_iteration",
    "choose_k",
    "BootstrapPCAResult",
    "bootstrap_pca",
]

METHODS = ("svd", "eig", "gram")


def center(X) -> np.ndarray:
    """Subtract the column means: the centred data matrix, shape (n, p)."""
    X = as_data_matrix(X)
    return X - X.mean(axis=0)


def standardize(X, ddof: int = 1) -> np.ndarray:
    """Centre each column and divide it by its standard deviation, shape (n, p).

    Raises ``ValueError`` naming the column when a column is constant (its standard
    deviation is zero, so it cannot be scaled).
    """
    X = as_data_matrix(X)
    ddof = check_int(ddof, "ddof", minimum=0, maximum=X.shape[0] - 1)
    return _standardised(X, ddof)


def _standardised(X: np.ndarray, ddof: int = 1) -> np.ndarray:
    """:func:`standardize` of a validated X, shape (n, p), or of each matrix of a stack of
    them, shape (..., n, p); the error names the constant columns of the first matrix that
    has any."""
    std = X.std(axis=-2, ddof=ddof, keepdims=True)
    constant = (std <= 1e-12 * np.maximum(1.0, np.abs(X).max(axis=-2, keepdims=True))).reshape(-1, X.shape[-1])
    if constant.any():
        columns = np.flatnonzero(constant[constant.any(axis=1)][0])
        raise ValueError(
            f"X has zero variance in column(s) {columns.tolist()}; a constant column "
            "cannot be standardised (drop it first)"
        )
    return (X - X.mean(axis=-2, keepdims=True)) / std


def covariance(X, ddof: int = 1) -> np.ndarray:
    """Sample covariance matrix S = Xc' Xc / (n - ddof), shape (p, p).

    ``ddof=1`` (the default) is the Oxford notes' 1/(n-1); ``ddof=0`` gives the 1/n of the
    CMU and MML notes.
    """
    X = as_data_matrix(X)  # a fresh copy, centred in place
    ddof = check_int(ddof, "ddof", minimum=0, maximum=X.shape[0] - 1)
    X -= X.mean(axis=0)
    return X.T @ X / (X.shape[0] - ddof)


@dataclass(frozen=True)
class PCAResult:
    """The fitted principal components of a data matrix X of shape (n, p).

    Attributes
    ----------
    components : ndarray, shape (p, k)
        Orthonormal principal directions (eigenvectors of the covariance), one per column,
        each with its largest-magnitude entry positive.
    scores : ndarray, shape (n, k)
        Coordinates of the training points on the components: Xc @ components.
    eigenvalues : ndarray, shape (k,)
        Variances of the scores, descending: lambda_j = d_j**2 / (n - 1).
    singular_values : ndarray, shape (k,)
        Singular values d_j of the centred (and scaled) data matrix.
    explained_variance_ratio : ndarray, shape (k,)
        eigenvalues / total_variance.
    mean : ndarray, shape (p,)
        Column means that were subtracted.
    scale : ndarray, shape (p,) or None
        Column standard deviations that were divided out (``scale=True``), else None.
    total_variance : float
        Sum of all p eigenvalues (the trace of the covariance).
    n_samples : int
        n, the number of rows the model was fitted on.
    method : str
        "svd", "eig" or "gram".
    """

    components: np.ndarray
    scores: np.ndarray
    eigenvalues: np.ndarray
    singular_values: np.ndarray
    explained_variance_ratio: np.ndarray
    mean: np.ndarray
    scale: np.ndarray | None
    total_variance: float
    n_samples: int
    method: str

    @property
    def k(self) -> int:
        """Number of components kept."""
        return self.components.shape[1]

    def _prepare(self, X) -> np.ndarray:
        X = as_data_matrix(X, min_rows=1)
        p = self.components.shape[0]
        if X.shape[1] != p:
            raise ValueError(f"X must have {p} columns like the fitted data, got {X.shape[1]}")
        X = X - self.mean
        return X if self.scale is None else X / self.scale

    def transform(self, X) -> np.ndarray:
        """Scores of new points X (shape (m, p)) on the components, shape (m, k)."""
        return self._prepare(X) @ self.components

    def reconstruct(self, Z) -> np.ndarray:
        """Map scores Z (shape (m, k)) back to the original units, shape (m, p)."""
        Z = as_data_matrix(Z, name="Z", min_rows=1)
        if Z.shape[1] != self.k:
            raise ValueError(f"Z must have {self.k} columns (one per component), got {Z.shape[1]}")
        X = Z @ self.components.T
        if self.scale is not None:
            X = X * self.scale
        return X + self.mean


def _centred(X: np.ndarray, scale: bool):
    """(mean, column standard deviations or None, centred (scaled) data) of a validated X
    that the caller owns: without scaling X is centred in place, no copy."""
    mean = X.mean(axis=0)
    if scale:
        return mean, X.std(axis=0, ddof=1), standardize(X)
    X -= mean
    return mean, None, X


def _signed_svd(Xc: np.ndarray, k: int):
    """The k leading singular triplets of Xc (shape (n, p), overwritten) with the course's
    signs: U (n, k), d (k,), V (p, k), each column of V with its largest entry positive."""
    U, d, Vt = scipy.linalg.svd(Xc, full_matrices=False, overwrite_a=True, check_finite=False)
    signs = sign_flips(Vt[:k].T)
    return U[:, :k] * signs, d[:k], Vt[:k].T * signs


def _svd_scores(Xc: np.ndarray, k: int):
    """PCA by the thin SVD Xc = U D V' (Xc of shape (n, p), which may be overwritten): the
    scores U D (n, k), d (k,) and V (p, k), with the signs of :func:`_signed_svd`.

    A tall Xc (n >= 2p) is first reduced to the p x p triangle R of Xc = QR, which has the
    same singular values and right singular vectors (LAPACK's SVD takes this step itself
    there); the scores are then Xc V, so neither Q nor U (n x p each) is ever formed: about
    two thirds of the time of the thin SVD of Xc.
    """
    n, p = Xc.shape
    if n < 2 * p:
        U, d, V = _signed_svd(Xc, k)
        return U * d, d, V
    _, R = scipy.linalg.qr(Xc, mode="raw", check_finite=False)  # Xc itself is kept for the scores
    _, d, V = _signed_svd(R, k)
    return Xc @ V, d, V


def pca(X, k: int | None = None, method: str = "svd", scale: bool = False) -> PCAResult:
    """Principal component analysis of X, rows are points.

    Parameters
    ----------
    X : array_like, shape (n, p)
    k : int, optional
        Number of components, 1 <= k <= min(n, p). Default min(n - 1, p): a centred
        matrix has rank at most n - 1, so further components carry no variance.
    method : {"svd", "eig", "gram"}
        "svd": thin SVD of the centred data, Xc = U D V'.
        "eig": eigendecomposition of the p x p covariance S = Xc'Xc / (n-1), O(p^3).
        "gram": eigendecomposition of the n x n Gram matrix Xc Xc', O(n^3), then
        V = Xc' U D^-1; the cheap route when p >> n. It needs the k kept components
        to have non-zero variance.
    scale : bool
        Standardise each column (divide by its standard deviation) before the analysis:
        PCA of the correlation matrix.

    Returns
    -------
    PCAResult
    """
    X = as_data_matrix(X)
    n, p = X.shape
    method = check_choice(method, METHODS, "method")
    if k is None:
        k = max(1, min(n - 1, p))
    k = check_k(k, min(n, p), why=f"X has n={n} rows and p={p} columns")
    scale = check_bool(scale, "scale")
    mean, column_scale, Xc = _centred(X, scale)
    total_variance = float(np.einsum("ij,ij->", Xc, Xc)) / (n - 1)

    if method == "svd":
        scores, singular_values, components = _svd_scores(Xc, k)
        eigenvalues = singular_values**2 / (n - 1)
    elif method == "eig":
        eigenvalues, components = sorted_eigh(Xc.T @ Xc / (n - 1), k=k)
        eigenvalues = np.clip(eigenvalues, 0.0, None)
        scores = Xc @ components
        singular_values = np.sqrt(eigenvalues * (n - 1))
    else:
        gram_values, U = sorted_eigh(Xc @ Xc.T, k=k)
        # rounding leaves eigenvalues of about eps * n * largest where the true value is 0,
        # so a component is only recoverable above 1e-12 of the largest eigenvalue
        tiny = gram_values <= 1e-12 * gram_values[0] if gram_values[0] > 0 else np.ones(k, bool)
        if tiny.any():
            rank = int(np.argmax(tiny))
            raise ValueError(
                f"k={k} exceeds the rank of the centred data ({rank}); method='gram' can only "
                "recover components with non-zero variance"
            )
        singular_values = np.sqrt(gram_values)
        components, scores = fix_signs(Xc.T @ U / singular_values, U * singular_values)
        eigenvalues = singular_values**2 / (n - 1)

    ratio = eigenvalues / total_variance if total_variance > 0 else np.zeros_like(eigenvalues)
    read_only(components, scores, eigenvalues, singular_values, ratio, mean, column_scale)
    return PCAResult(
        components=components,
        scores=scores,
        eigenvalues=eigenvalues,
        singular_values=singular_values,
        explained_variance_ratio=ratio,
        mean=mean,
        scale=column_scale,
        total_variance=total_variance,
        n_samples=n,
        method=method,
    )


@dataclass(frozen=True)
class BootstrapPCAResult:
    """How much the first k principal components move when the rows are resampled.

    Attributes
    ----------
    eigenvalues : ndarray, shape (n_boot, k)
        The k leading eigenvalues of each bootstrap replicate, descending in each row.
    angles : ndarray, shape (n_boot, k)
        Angle in degrees, in [0, 90], between component j of each replicate and component
        j of the full data: arccos |v_j^(b) . v_j|, folded so a sign flip counts as 0.
    components : ndarray, shape (n_boot, p, k)
        The components of each replicate, with the course's sign rule.
    full : PCAResult
        The PCA of the full data that the replicates are compared with.
    """

    eigenvalues: np.ndarray
    angles: np.ndarray
    components: np.ndarray
    full: PCAResult


BOOTSTRAP_BATCH_ENTRIES = 2**20
"""Numbers in the stack of replicates that :func:`bootstrap_pca` decomposes at once (8 MiB
of float64): large enough for one call of the SVD to fit many replicates, small enough
that a large X does not need n_boot copies of itself in memory."""


def _stacked_pca(replicates: np.ndarray, k: int, scale: bool):
    """The k leading eigenvalues, shape (b, k), and components, shape (b, p, k), of each
    matrix of a stack ``replicates`` (shape (b, n, p), overwritten), as :func:`pca` with the
    SVD method fits them, in one SVD of the whole stack."""
    if scale:
        replicates = _standardised(replicates)
    else:
        replicates -= replicates.mean(axis=1, keepdims=True)
    _, d, Vt = np.linalg.svd(replicates, full_matrices=False)  # d: (b, min(n, p)), Vt: (b, min(n, p), p)
    components = Vt[:, :k].transpose(0, 2, 1)
    components = components * sign_flips(components)[:, None, :]
    return d[:, :k] ** 2 / (replicates.shape[1] - 1), components


def bootstrap_pca(X, k: int, n_boot: int = 200, seed: int = 0, scale: bool = False) -> BootstrapPCAResult:
    """Bootstrap the first k principal components of X: refit PCA on ``n_boot`` samples of
    n rows drawn with replacement, and record each replicate's eigenvalues and the angle of
    each of its components to the full-data component of the same rank.

    Parameters
    ----------
    X : array_like, shape (n, p)
    k : int
        Number of components, 1 <= k <= min(n, p).
    n_boot : int
        Number of bootstrap replicates, at least 1.
    seed : int
        Seed of ``numpy.random.default_rng`` that draws the rows; same seed, same result.
    scale : bool
        Standardise the columns (of the full data and of each replicate) first.

    Returns
    -------
    BootstrapPCAResult
        ``eigenvalues`` and ``angles``, both shape (n_boot, k), the replicates'
        ``components``, shape (n_boot, p, k), and the full-data PCA.

    Notes
    -----
    Replicate b is ``pca(X[rows_b], k, scale=scale)`` with ``rows_b = rng.integers(0, n, size=n)``
    drawn after the rows of replicates 0, ..., b - 1. Rather than calling :func:`pca` n_boot
    times, the replicates are stacked into an array of shape (n_boot, n, p) and decomposed by
    one call of ``np.linalg.svd`` (in stacks of at most :data:`BOOTSTRAP_BATCH_ENTRIES`
    numbers): the same results (up to rounding), several times faster.
    """
    X = as_data_matrix(X)
    n, p = X.shape
    k = check_k(k, min(n, p), why=f"X has n={n} rows and p={p} columns")
    n_boot = check_int(n_boot, "n_boot", minimum=1)
    check_size(n_boot * p * k, f"n_boot = {n_boot} replicates of {p} x {k} components", "lower n_boot")
    rng = np.random.default_rng(check_seed(seed))
    scale = check_bool(scale, "scale")
    full = pca(X, k, scale=scale)
    eigenvalues = np.empty((n_boot, k))
    components = np.empty((n_boot, p, k))
    batch = max(1, BOOTSTRAP_BATCH_ENTRIES // (n * p))  # replicates fitted together
    for start in range(0, n_boot, batch):
        stop = min(start + batch, n_boot)
        # n row indices per replicate, one replicate after the other (the same numbers as
        # fitting pca(X[rows]) replicate by replicate), shape (stop - start, n)
        rows = np.stack([rng.integers(0, n, size=n) for _ in range(start, stop)])
        eigenvalues[start:stop], components[start:stop] = _stacked_pca(X[rows], k, scale)
    cosines = np.abs(np.einsum("bpj,pj->bj", components, full.components))
    angles = np.degrees(np.arccos(np.clip(cosines, 0.0, 1.0)))
    read_only(eigenvalues, angles, components)
    return BootstrapPCAResult(eigenvalues=eigenvalues, angles=angles, components=components, full=full)


def reconstruction_error(X, result: PCAResult) -> float:
    """Sum of squared errors ||X - X_hat||_F^2 when X is projected on the components.

    For the training data (without scaling) this equals (n - 1) times the sum of the
    dropped eigenvalues (WashU notes, eq. 10).
    """
    if not isinstance(result, PCAResult):
        raise TypeError(f"result must be a PCAResult from pca(), got {type(result).__name__}")
    X = as_data_matrix(X, min_rows=1)
    X_hat = result.reconstruct(result.transform(X))
    return float(np.sum((X - X_hat) ** 2))


@dataclass(frozen=True)
class PowerIterationResult:
    """Outcome of :func:`power_iteration`.

    Attributes
    ----------
    eigenvalue : float
        Rayleigh quotient v'Av at the last iterate.
    eigenvector : ndarray, shape (m,)
        Unit vector, largest-magnitude entry positive.
    n_iter : int
        Iterations performed.
    converged : bool
        Whether the change fell below ``tol`` within ``max_iter``.
    changes : ndarray, shape (n_iter,)
        ||v_t - v_{t-1}|| after aligning signs, per iteration: it shrinks roughly by the
        factor lambda_2 / lambda_1 each step.
    """

    eigenvalue: float
    eigenvector: np.ndarray
    n_iter: int
    converged: bool
    changes: np.ndarray


def power_iteration(A, seed: int = 0, max_iter: int = 1000, tol: float = 1e-10) -> PowerIterationResult:
    """Leading eigenpair of a symmetric matrix A (shape (m, m)) by repeated multiplication.

    Starts from a seeded random unit vector and iterates v <- Av / ||Av||.
    """
    A = as_square_symmetric(A)
    seed = check_seed(seed)
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    tol = check_real(tol, "tol", POSITIVE)
    rng = np.random.default_rng(seed)
    v = rng.standard_normal(A.shape[0])
    v /= np.linalg.norm(v)
    changes = []
    converged = False
    for _ in range(max_iter):
        w = A @ v
        norm = np.linalg.norm(w)
        if norm == 0.0:
            raise ValueError("A maps the start vector to zero; A has no dominant eigenvector (is A zero?)")
        w /= norm
        if w @ v < 0:  # a negative dominant eigenvalue flips the sign each step
            w = -w
        changes.append(float(np.linalg.norm(w - v)))
        v = w
        if changes[-1] < tol:
            converged = True
            break
    v = fix_signs(v[:, None])[:, 0]
    changes = np.array(changes)
    read_only(v, changes)
    return PowerIterationResult(float(v @ A @ v), v, len(changes), converged, changes)


def choose_k(eigenvalues, threshold: float = 0.9, method: str = "variance") -> int:
    """Choose the number of components from the full eigenspectrum.

    Parameters
    ----------
    eigenvalues : array_like, shape (m,)
        All eigenvalues of the covariance, any order, non-negative.
    threshold : float
        For ``method="variance"``: the smallest k whose components keep at least this
        fraction of the total variance, 0 < threshold <= 1. Equivalently, the relative
        reconstruction error sum(dropped) / sum(all) is at most 1 - threshold (the WashU
        notes' tolerance rule).
    method : {"variance", "gap"}
        "gap": the k with the largest drop lambda_k / lambda_{k+1} (the elbow of the
        scree plot); ``threshold`` is ignored. Drops equal to 12 significant digits are
        ties, won by the smaller k, so the answer does not depend on the machine.

    Returns
    -------
    int
    """
    values = np.sort(as_vector(eigenvalues, name="eigenvalues"))[::-1]
    method = check_choice(method, ("variance", "gap"), "method")
    if values.size == 0:
        raise ValueError("eigenvalues must not be empty")
    if values[-1] < -1e-12 * max(1.0, values[0]):
        raise ValueError("eigenvalues of a covariance matrix cannot be negative")
    if values[0] <= 0:
        raise ValueError("eigenvalues are all zero: the data has no variance")
    values = np.clip(values, 0.0, None)
    if method == "variance":
        threshold = check_real(threshold, "threshold", Interval(0.0, 1.0, "right"), why="a fraction of the variance")
        kept = np.cumsum(values) / values.sum()
        return int(np.searchsorted(kept, threshold - 1e-12) + 1)
    if values.size < 2:
        raise ValueError("method='gap' needs at least two eigenvalues")
    positive = values[values > 1e-12 * values[0]]
    if positive.size < 2:
        return 1
    return first_best(positive[:-1] / positive[1:]) + 1  # equal drops (at 1e-12): the smaller k
