"""PCA with missing values: iterative low-rank imputation ("hard impute", EM for PCA in the
limit of no noise).

The Netflix problem (CMU notes, "Netflix and recommender systems"): a users x items matrix
of ratings with most entries missing. Fit a column mean plus a rank-k matrix to the
*observed* entries only, minimising

    f(A) = sum over observed (i, j) of (X_ij - A_ij)^2,

by alternating two steps: fill every missing entry with the current fit, then replace the
fit by the best mean-plus-rank-k approximation of the filled matrix (column means and a
truncated SVD, Eckart-Young). The observed entries are never changed. Each round cannot
increase f: the new fit is at least as close to the filled matrix as the old one, and on
the missing entries the old fit matched the filled matrix exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._results import read_only
from ._validation import NONNEGATIVE, _to_float_array, as_data_matrix, check_int, check_k, check_real
from .linalg import fix_signs

__all__ = ["ImputationResult", "low_rank_impute", "mean_plus_rank_k"]


@dataclass(frozen=True)
class ImputationResult:
    """Outcome of :func:`low_rank_impute`.

    The fit is ``means + scores @ components.T``: an item mean for each column plus k
    user "tastes" (scores) times k item profiles (components). This answers the CMU notes'
    second question: a user's predicted rating of an item is the item's mean plus the inner
    product of the user's scores with the item's loadings.

    Attributes
    ----------
    completed : ndarray, shape (n, p)
        The observed entries unchanged, the missing ones filled from the fit.
    fit : ndarray, shape (n, p)
        The final fit on every entry (on observed entries it differs from the data by the
        residual).
    means : ndarray, shape (p,)
        Column (item) means of the last filled matrix; zeros when ``center=False``.
    scores : ndarray, shape (n, k)
        Row (user) coordinates U_k S_k.
    components : ndarray, shape (p, k)
        Orthonormal column (item) directions V_k, each with its largest-magnitude entry
        positive.
    observed : ndarray of bool, shape (n, p)
        True where X had a value.
    history : ndarray, shape (n_iter + 1,)
        Root mean squared error of the fit on the observed entries: first for the start
        (column means, or zeros when ``center=False``), then after every iteration; never
        increases.
    n_iter : int
    converged : bool
        Whether the relative decrease of the squared error fell below ``tol``.
    """

    completed: np.ndarray
    fit: np.ndarray
    means: np.ndarray
    scores: np.ndarray
    components: np.ndarray
    observed: np.ndarray
    history: np.ndarray
    n_iter: int
    converged: bool

    @property
    def k(self) -> int:
        """Rank of the fit."""
        return self.scores.shape[1]


def mean_plus_rank_k(Z: np.ndarray, k: int, center: bool = True):
    """The best approximation ``means + scores @ components.T`` of a complete matrix (Eckart-Young).

    Parameters
    ----------
    Z : ndarray, shape (n, p)
        Complete and finite (not validated: this is the inner step of :func:`low_rank_impute`).
    k : int
    center : bool
        Fit column means first; False gives the plain rank-k truncated SVD (means are zeros).

    Returns
    -------
    means : ndarray, shape (p,)
    scores : ndarray, shape (n, k)
        U_k S_k of the centred Z.
    components : ndarray, shape (p, k)
        V_k, orthonormal columns (signs as the SVD returns them).
    """
    means = Z.mean(axis=0) if center else np.zeros(Z.shape[1])
    U, s, Vt = np.linalg.svd(Z - means, full_matrices=False)
    return means, U[:, :k] * s[:k], Vt[:k].T


def _as_matrix_with_missing(X, name: str) -> tuple[np.ndarray, np.ndarray]:
    """X as float64 with zeros in place of the missing entries, and the mask of observed ones."""
    array = _to_float_array(X, name)
    if array.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array (rows are users, columns are items); got shape {array.shape}")
    observed = ~np.isnan(array)
    filled = as_data_matrix(np.where(observed, array, 0.0), name=name)  # refuses inf, too few rows
    empty = np.flatnonzero(~observed.any(axis=0))
    if empty.size:
        raise ValueError(f"{name} has columns with no observed value at all ({empty[:5].tolist()}); "
                         "nothing can be learnt about them, drop them first")
    return filled, observed


def low_rank_impute(X, k: int, center: bool = True, max_iter: int = 500, tol: float = 1e-7) -> ImputationResult:
    """Fill the missing entries of X with a column-means-plus-rank-k fit to the observed ones.

    Start from the column means of the observed entries (zeros with ``center=False``); then
    repeat: fill the missing entries with the current fit, and refit the column means and
    the rank-k truncated SVD of the filled matrix. With no missing entries one step gives
    the best rank-k approximation of X (of the centred X plus its means with ``center``).

    Parameters
    ----------
    X : array_like, shape (n, p)
        The data with ``NaN`` for each missing entry; every column needs at least one value.
    k : int
        Rank of the fit, 1 <= k <= min(n, p) - 1 with ``center`` (min(n, p) without).
    center : bool
        Fit column means (item means) besides the rank-k part.
    max_iter : int
        At most this many iterations.
    tol : float
        Stop when the squared error on the observed entries decreases by less than ``tol``
        times its value (or reaches 0).

    Returns
    -------
    ImputationResult
    """
    X, observed = _as_matrix_with_missing(X, "X")
    n, p = X.shape
    upper = min(n, p) - (1 if center else 0)
    k = check_k(k, upper, why=f"a {'centred ' if center else ''}{n} x {p} matrix has rank at most {upper}")
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    tol = check_real(tol, "tol", NONNEGATIVE)
    fit = np.broadcast_to(X.sum(axis=0) / observed.sum(axis=0) if center else np.zeros(p), X.shape)
    errors = [float(np.sum(((X - fit) * observed) ** 2))]
    converged = False
    for _ in range(max_iter):
        means, scores, components = mean_plus_rank_k(np.where(observed, X, fit), k, center)
        fit = scores @ components.T + means
        errors.append(float(np.sum(((X - fit) * observed) ** 2)))
        if observed.all() or errors[-2] - errors[-1] <= tol * errors[-2]:  # complete data: one step is exact
            converged = True
            break
    components, scores = fix_signs(components, scores)
    completed = np.where(observed, X, fit)
    history = np.sqrt(np.array(errors) / observed.sum())
    read_only(completed, fit, means, scores, components, observed, history)
    return ImputationResult(completed, fit, means, scores, components, observed, history, len(errors) - 1, converged)
