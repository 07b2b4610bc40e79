"""Random projections and the Johnson-Lindenstrauss (JL) bound.

A random q x p matrix U maps each point x (a row of X) to U x. With Gaussian entries
N(0, 1/q), E ||U x||^2 = ||x||^2 for every x, and the ratio ||U x||^2 / ||x||^2
concentrates around 1 as q grows. The form of the JL theorem in the CMU notes (36-467,
"Linear Dimension Reduction", random projections): with probability at least 1 - delta,
U is an eps-isometry of n given points, i.e. for every pair

    (1 - eps) ||x_i - x_j||^2 <= ||U x_i - U x_j||^2 <= (1 + eps) ||x_i - x_j||^2,

as soon as q >= 8 / eps^2 * log(n / sqrt(delta)). Neither p nor the data enter the bound.

Rows are points: the projected data are ``Y = X @ U.T``, shape (n, q). Every random draw
takes an explicit integer seed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse
from scipy.spatial.distance import pdist

from ._read_only import read_only
from ._validation import (
    MAX_ARRAY_ENTRIES,
    OPEN_UNIT,
    as_data_matrix_or_sparse,
    check_choice,
    check_int,
    check_real,
    check_seed,
    check_size,
)
from .linalg import first_best

__all__ = [
    "jl_min_dim",
    "jl_epsilon",
    "jl_delta",
    "RandomProjectionResult",
    "random_projection",
    "DistortionResult",
    "distortion",
    "worst_distortions",
]

KINDS = ("gaussian", "sparse")
MAX_DENSE_ENTRIES = MAX_ARRAY_ENTRIES
"""Largest q * p for a dense Gaussian matrix (1 GiB of float64); beyond it use "sparse"."""

_ROUNDING_SLACK = 1e-9
"""Relative slack when rounding the bound up, so floating-point noise in a bound that is
an integer (for instance q fed back through :func:`jl_epsilon`) does not add 1."""


def _log_term(n: int, delta: float) -> float:
    """log(n / sqrt(delta)) = log n + log(1/delta) / 2."""
    return math.log(n) - 0.5 * math.log(delta)


def jl_min_dim(n: int, eps: float, delta: float) -> int:
    """Smallest q allowed by the CMU notes' JL bound, q >= 8 / eps^2 * log(n / sqrt(delta)).

    Parameters
    ----------
    n : int
        Number of points, at least 2.
    eps : float in (0, 1)
        Allowed relative distortion of every squared pairwise distance.
    delta : float in (0, 1)
        Allowed probability that some pair is distorted by more than ``eps``.

    Returns
    -------
    int
        The bound rounded up: the least integer q satisfying the inequality. It does not
        depend on p. Example: ``jl_min_dim(205, 0.2, 0.05) == 1365``.

    Notes
    -----
    The constant 8 matches the tails of ||U x||^2 / ||x||^2 (a chi-square(q) / q) only for
    small eps. The upper tail is heavier: Dasgupta and Gupta (2002) bound it by
    exp(-q (eps^2 / 4 - eps^3 / 6)) (an upper bound, not the exact tail), which through the
    same union bound gives q >= 8 / (eps^2 (1 - 2 eps / 3)) * log(n / sqrt(delta)), valid for
    every eps < 1: only that form is a theorem. The notes' form is optimistic for eps near 1, and
    for large n at any eps (n = 2e6, eps = 0.2: the union bound with the exact tails at its q
    is 0.0500072 > delta; notebook 06's optional section). scikit-learn's ``johnson_lindenstrauss_min_dim``,
    4 log(n) / (eps^2 / 2 - eps^3 / 3), is that Dasgupta-Gupta form with delta = 1 (no delta
    term), truncated to an integer.
    """
    n = check_int(n, "n", minimum=2)
    eps = check_real(eps, "eps", OPEN_UNIT)
    delta = check_real(delta, "delta", OPEN_UNIT)
    try:
        bound = 8.0 / eps**2 * _log_term(n, delta)
    except ZeroDivisionError:  # eps**2 underflows to 0
        bound = math.inf
    if not math.isfinite(bound):
        raise ValueError(f"eps = {eps!r} is so small that the bound 8 / eps^2 * log(n / sqrt(delta)) is "
                         "beyond the float range; choose a larger eps")
    return math.ceil(bound * (1.0 - _ROUNDING_SLACK))


def jl_epsilon(n: int, q: int, delta: float) -> float:
    """The distortion the bound guarantees with q dimensions: eps = sqrt(8 log(n / sqrt(delta)) / q).

    The inverse of :func:`jl_min_dim`: ``jl_min_dim(n, jl_epsilon(n, q, delta), delta) == q``
    whenever the result is below 1. A result of 1 or more means q is too small for the
    bound to promise anything (a squared distance could shrink to 0).

    Parameters
    ----------
    n : int, at least 2
    q : int, at least 1
    delta : float in (0, 1)

    Returns
    -------
    float
    """
    n = check_int(n, "n", minimum=2)
    q = check_int(q, "q", minimum=1)
    delta = check_real(delta, "delta", OPEN_UNIT)
    return math.sqrt(8.0 * _log_term(n, delta) / q)


def jl_delta(n: int, q: int, eps: float) -> float:
    """The failure probability the bound allows with q dimensions: delta = n^2 exp(-q eps^2 / 4).

    Solving q = 8 / eps^2 * log(n / sqrt(delta)) for delta. A value of 1 or more means the
    bound promises nothing at this q.

    Parameters
    ----------
    n : int, at least 2
    q : int, at least 1
    eps : float in (0, 1)

    Returns
    -------
    float
    """
    n = check_int(n, "n", minimum=2)
    q = check_int(q, "q", minimum=1)
    eps = check_real(eps, "eps", OPEN_UNIT)
    exponent = 2.0 * math.log(n) - q * eps**2 / 4.0
    if exponent > math.log(np.finfo(float).max):
        raise ValueError(f"n = {n} is so large for q = {q} and eps = {eps} that delta = n^2 exp(-q eps^2 / 4) "
                         "overflows (it is far above 1: the bound promises nothing); increase q")
    return math.exp(exponent)


def _resolve_density(kind: str, density, p: int) -> float:
    """Expected fraction of non-zero entries of U: 1 for "gaussian", default 1/sqrt(p) for "sparse"."""
    if kind == "gaussian":
        if density is not None:
            raise ValueError("density only applies to kind='sparse'; leave it as None for 'gaussian'")
        return 1.0
    if density is None:
        return min(1.0, 1.0 / math.sqrt(p))
    return check_real(density, "density", OPEN_UNIT)


def _bernoulli_positions(size: int, density: float, rng: np.random.Generator) -> np.ndarray:
    """Sorted positions of the successes among ``size`` independent Bernoulli(density) trials.

    The gaps between successes are geometric, so only the successes are drawn (about
    size * density numbers), never all ``size`` trials.
    """
    expected = size * density
    chunk = int(expected + 6.0 * math.sqrt(expected) + 16)
    positions, last = [], -1
    while last < size:
        # a gap beyond ``size`` ends the draw whatever its value; capping it keeps the
        # cumulative sum from overflowing when density is tiny (geometric() saturates)
        steps = last + np.cumsum(np.minimum(rng.geometric(density, chunk), size + 1))
        positions.append(steps)
        last = int(steps[-1])
    positions = np.concatenate(positions)
    return positions[positions < size]


def _draw_matrix(q: int, p: int, kind: str, density: float, rng: np.random.Generator):
    """A q x p projection matrix whose entries have mean 0 and variance 1/q.

    "gaussian": N(0, 1/q) entries, dense. "sparse": each entry is +-sqrt(1/(density q))
    with probability density/2 each and 0 otherwise, stored as CSR.
    """
    if kind == "gaussian":
        check_size(q * p, f"a dense Gaussian matrix of q * p = {q} * {p} entries", "use kind='sparse'")
        return rng.standard_normal((q, p)) / math.sqrt(q)
    check_size(q * p * density, f"a sparse matrix with q = {q}, p = {p} and density = {density:g} (expected non-zeros)",
               "lower q or density")
    rows, cols = np.divmod(_bernoulli_positions(q * p, density, rng), p)
    values = np.where(rng.random(rows.size) < 0.5, -1.0, 1.0) / math.sqrt(density * q)
    indptr = np.concatenate(([0], np.cumsum(np.bincount(rows, minlength=q))))
    return scipy.sparse.csr_array((values, cols, indptr), shape=(q, p))


def _apply(X, U):
    """Y = X @ U.T, shape (n, q): sparse when both are sparse (same family as X), else dense."""
    if scipy.sparse.issparse(X):
        Y = X @ U.T
        if scipy.sparse.issparse(Y):
            return scipy.sparse.csr_matrix(Y) if isinstance(X, scipy.sparse.spmatrix) else scipy.sparse.csr_array(Y)
        return np.ascontiguousarray(Y)
    return np.ascontiguousarray((U @ X.T).T)


@dataclass(frozen=True)
class RandomProjectionResult:
    """A random projection of the rows of X (shape (n, p)) to q dimensions.

    Attributes
    ----------
    embedding : ndarray or scipy.sparse CSR, shape (n, q)
        The projected points Y = X @ matrix.T. Sparse (of X's family) when X is sparse
        and ``kind="sparse"``; a dense ndarray otherwise.
    matrix : ndarray (kind "gaussian") or scipy.sparse.csr_array (kind "sparse"), shape (q, p)
        The projection U; every entry has mean 0 and variance 1/q, so
        E ||U x||^2 = ||x||^2.
    kind : str
        "gaussian" or "sparse".
    density : float
        Fraction of non-zero entries expected in ``matrix`` (1.0 for "gaussian").
    seed : int
        The seed the matrix was drawn with.
    """

    embedding: np.ndarray | scipy.sparse.sparray | scipy.sparse.spmatrix
    matrix: np.ndarray | scipy.sparse.sparray
    kind: str
    density: float
    seed: int

    @property
    def q(self) -> int:
        """Target dimension."""
        return self.matrix.shape[0]

    def transform(self, X):
        """Project new points X (shape (m, p), dense or sparse) with the same matrix, shape (m, q)."""
        p = self.matrix.shape[1]
        X = as_data_matrix_or_sparse(X, min_rows=1)
        if X.shape[1] != p:
            raise ValueError(f"X must have {p} columns like the projected data, got {X.shape[1]}")
        return _apply(X, self.matrix)


def random_projection(X, q: int, kind: str = "gaussian", seed: int = 0,
                      density: float | None = None) -> RandomProjectionResult:
    """Project the rows of X onto q random directions: Y = X @ U.T.

    Parameters
    ----------
    X : array_like or scipy.sparse matrix, shape (n, p)
        Rows are points. A sparse X stays sparse with ``kind="sparse"``.
    q : int
        Target dimension, at least 1 (q > p is allowed, though it reduces nothing).
    kind : {"gaussian", "sparse"}
        "gaussian": U = Z / sqrt(q) with Z_ij ~ N(0, 1) independent (the CMU notes).
        "sparse": the sparse projection of Achlioptas (2003) and Li, Hastie and Church
        (2006): U_ij = +-1 / sqrt(density q) with probability density/2 each, else 0.
    seed : int
        Seed of ``numpy.random.default_rng``.
    density : float in (0, 1), optional
        Only for "sparse": expected fraction of non-zero entries. Default 1/sqrt(p) (Li
        et al.'s "very sparse" projection); 1/3 is Achlioptas'.

    Returns
    -------
    RandomProjectionResult
        With ``embedding`` (n, q) and the ``matrix`` U (q, p).
    """
    X = as_data_matrix_or_sparse(X, min_rows=1)
    q = check_int(q, "q", minimum=1)
    kind = check_choice(kind, KINDS, "kind")
    seed = check_seed(seed)
    density = _resolve_density(kind, density, X.shape[1])
    check_size(X.shape[0] * q, f"the projected data of n = {X.shape[0]} rows and q = {q} columns", "lower q")
    U = _draw_matrix(q, X.shape[1], kind, density, np.random.default_rng(seed))
    Y = _apply(X, U)
    read_only(Y, U)
    return RandomProjectionResult(embedding=Y, matrix=U, kind=kind, density=density, seed=seed)


def _squared_distances(X) -> np.ndarray:
    """Squared distances ||x_i - x_j||^2 for i < j, in scipy's condensed order, shape (n(n-1)/2,).

    Dense input uses exact differences; sparse input uses the Gram matrix,
    ||x_i||^2 + ||x_j||^2 - 2 x_i . x_j, so it never becomes dense.
    """
    n = X.shape[0]
    check_size(n * n, f"the pairwise distances of n = {n} points", "use fewer points")
    if not scipy.sparse.issparse(X):
        return pdist(X, "sqeuclidean")
    gram = (X @ X.T).toarray()
    norms = np.diag(gram)
    i, j = np.triu_indices(X.shape[0], k=1)
    return np.maximum(norms[i] + norms[j] - 2.0 * gram[i, j], 0.0)


def _zero_pairs(squared: np.ndarray, X) -> np.ndarray:
    """Mask of pairs at (numerically) zero distance, relative to the points' norms."""
    if scipy.sparse.issparse(X):
        norms = np.asarray(X.multiply(X).sum(axis=1)).ravel()
    else:
        norms = np.einsum("ij,ij->i", X, X)
    i, j = np.triu_indices(X.shape[0], k=1)
    return squared <= 1e-12 * (norms[i] + norms[j])


def _original_distances(X, name: str) -> np.ndarray:
    squared = _squared_distances(X)
    zero = _zero_pairs(squared, X)
    if zero.any():
        i, j = np.triu_indices(X.shape[0], k=1)
        first = int(np.flatnonzero(zero)[0])
        raise ValueError(
            f"{name} has identical rows {i[first]} and {j[first]}: their distance is 0, so the "
            "distortion ratio is undefined (drop duplicate points first)"
        )
    return squared


@dataclass(frozen=True)
class DistortionResult:
    """How a map X -> Y distorted the n(n-1)/2 pairwise squared distances.

    Attributes
    ----------
    ratios : ndarray, shape (n(n-1)/2,)
        ||y_i - y_j||^2 / ||x_i - x_j||^2 for i < j, in scipy's condensed (``pdist``) order.
    worst : float
        max |ratio - 1|: the smallest eps for which the map is an eps-isometry of X.
    worst_pair : tuple of int
        The pair (i, j), i < j, where the worst ratio occurs.
    """

    ratios: np.ndarray
    worst: float
    worst_pair: tuple[int, int]

    def within(self, eps: float) -> bool:
        """True when every ratio lies in [1 - eps, 1 + eps]."""
        return self.worst <= float(eps)


def distortion(X, Y) -> DistortionResult:
    """Ratios of pairwise squared distances after / before a map, and their worst deviation from 1.

    Parameters
    ----------
    X : array_like or scipy.sparse matrix, shape (n, p)
        The original points; no two rows may be identical.
    Y : array_like or scipy.sparse matrix, shape (n, q)
        The same points after the map (for instance ``random_projection(X, q).embedding``).

    Returns
    -------
    DistortionResult
    """
    X = as_data_matrix_or_sparse(X, name="X")
    Y = as_data_matrix_or_sparse(Y, name="Y")
    if Y.shape[0] != X.shape[0]:
        raise ValueError(f"Y must have one row per row of X ({X.shape[0]}), got {Y.shape[0]}")
    ratios = _squared_distances(Y) / _original_distances(X, "X")
    read_only(ratios)
    deviation = np.abs(ratios - 1.0)
    index = first_best(deviation)  # pairs equally distorted to 12 significant digits: the first
    i, j = np.triu_indices(X.shape[0], k=1)
    return DistortionResult(ratios=ratios, worst=float(deviation[index]), worst_pair=(int(i[index]), int(j[index])))


def worst_distortions(X, q: int, n_trials: int, kind: str = "gaussian", seed: int = 0,
                      density: float | None = None) -> np.ndarray:
    """The worst distortion of X under ``n_trials`` independent random projections.

    Trial t uses ``random_projection(X, q, kind, seed=seed + t, density=density)``, so trial
    0 reproduces a single call with ``seed``. The fraction of trials above eps estimates
    the probability that a projection fails to be an eps-isometry (the bound's delta).

    Parameters
    ----------
    X : array_like or scipy.sparse matrix, shape (n, p)
    q : int, at least 1
    n_trials : int, at least 1
    kind, seed, density : as in :func:`random_projection`

    Returns
    -------
    ndarray, shape (n_trials,)
        ``distortion(X, Y_t).worst`` for each trial t.
    """
    X = as_data_matrix_or_sparse(X, name="X")
    q = check_int(q, "q", minimum=1)
    n_trials = check_int(n_trials, "n_trials", minimum=1)
    check_size(n_trials, f"n_trials = {n_trials} (one worst distortion is kept per trial)", "lower n_trials")
    kind = check_choice(kind, KINDS, "kind")
    seed = check_seed(seed)
    density = _resolve_density(kind, density, X.shape[1])
    check_size(X.shape[0] * q, f"the projected data of n = {X.shape[0]} rows and q = {q} columns", "lower q")
    original = _original_distances(X, "X")
    worst = np.empty(n_trials)
    for t in range(n_trials):
        U = _draw_matrix(q, X.shape[1], kind, density, np.random.default_rng(seed + t))
        worst[t] = np.abs(_squared_distances(_apply(X, U)) / original - 1.0).max()
    return worst
