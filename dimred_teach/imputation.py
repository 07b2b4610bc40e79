"""PCA with missing values: iterative low-rank imputation ("hard impute"), and Roweis's
zero-noise EM for PCA with missing data, which takes other steps to the same stable fits.

The Netflix problem (CMU notes, "Netflix and recommender systems"): a users x items matrix
of ratings with most entries missing. Fit a column mean plus a rank-k matrix to the
*observed* entries only, minimising

    f(A) = sum over observed (i, j) of (X_ij - A_ij)^2,

by alternating two steps: fill every missing entry with the current fit, then replace the
fit by the best mean-plus-rank-k approximation of the filled matrix (column means and a
truncated SVD, Eckart-Young). The observed entries are never changed. Each round cannot
increase f: the new fit is at least as close to the filled matrix as the old one, and on
the missing entries the old fit matched the filled matrix exactly. This is EM (a
majorise-minimise algorithm) for a fixed mean-plus-rank-k matrix observed with Gaussian
noise, the missing entries being the missing data.

It is *not* the zero-noise limit of EM for probabilistic PCA with missing data (Roweis
1998), which :func:`zero_noise_em` implements: there each row's latent coordinates are fitted
to that row's observed entries only (least squares), then each column's loadings to the
rows that rated it, an alternating least squares (ALS). Its steps differ. Every fixed point
of hard impute is a stationary point of ALS (a fit whose residual on the observed entries is
orthogonal to both factors), but not the other way round: with no missing entries, the fit
U_J D_J V_J' on singular vectors J = {2, ..., k + 1} is stationary for ALS, while one
hard-impute step replaces it by the top-k fit. Such points are saddles for ALS (a small
perturbation leaves them), so the stable fixed points of the two methods coincide
(notebook 12, section 3). Hard impute is EM, and its rate is set by the fraction of missing
information: with 80% of the entries missing it takes many more steps than ALS.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._read_only import read_only
from ._validation import NONNEGATIVE, _to_float_array, as_data_matrix, check_bool, check_int, check_k, check_real
from .linalg import fix_signs
from .pca import _svd_scores

__all__ = ["ImputationResult", "low_rank_impute", "zero_noise_em", "mean_plus_rank_k"]


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
        V_k, orthonormal columns, signs as :func:`dimred_teach.pca.pca` gives them (its thin
        SVD, which forms no U for a tall Z).
    """
    means = Z.mean(axis=0) if center else np.zeros(Z.shape[1])
    scores, _, components = _svd_scores(Z - means, k)
    return means, scores, components


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
    X, observed, k, max_iter, tol, fit = _prepared(X, k, center, max_iter, tol)
    errors = [float(np.sum(((X - fit) * observed) ** 2))]
    converged = False
    for _ in range(max_iter):
        means, scores, components = mean_plus_rank_k(np.where(observed, X, fit), k, center)
        fit = scores @ components.T + means
        errors.append(float(np.sum(((X - fit) * observed) ** 2)))
        if observed.all() or errors[-2] - errors[-1] <= tol * errors[-2]:  # complete data: one step is exact
            converged = True
            break
    return _result(X, observed, means, scores, components, errors, converged)


def _prepared(X, k, center: bool, max_iter, tol):
    """The validated arguments of an imputation, and its start: the column means of the
    observed entries (zeros without ``center``) on every entry, shape (n, p)."""
    X, observed = _as_matrix_with_missing(X, "X")
    n, p = X.shape
    center = check_bool(center, "center")
    upper = min(n, p) - (1 if center else 0)
    k = check_k(k, upper, why=f"a {'centred ' if center else ''}{n} x {p} matrix has rank at most {upper}")
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    tol = check_real(tol, "tol", NONNEGATIVE)
    start = np.broadcast_to(X.sum(axis=0) / observed.sum(axis=0) if center else np.zeros(p), X.shape)
    return X, observed, k, max_iter, tol, start


def _result(X, observed, means, scores, components, errors: list, converged: bool) -> ImputationResult:
    """The ImputationResult of the fit ``means + scores @ components.T`` (signs fixed, read-only)."""
    fit = scores @ components.T + means
    components, scores = fix_signs(components, scores)
    completed = np.where(observed, X, fit)
    history = np.sqrt(np.array(errors) / observed.sum())
    read_only(completed, fit, means, scores, components, observed, history)
    return ImputationResult(completed, fit, means, scores, components, observed, history, len(errors) - 1, converged)


def zero_noise_em(X, k: int, center: bool = True, max_iter: int = 500, tol: float = 1e-7) -> ImputationResult:
    """Roweis's EM for PCA with missing data, with the noise variance taken to zero.

    Starts, like :func:`low_rank_impute`, from the column means of the observed entries and
    the loadings W (p x k) of their rank-k truncated SVD, then repeats

    * E-step: for each row i, the coordinates z_i (k,) minimising
      ||x_i - m - W z_i||^2 over the row's observed entries only;
    * M-step: for each column j, the mean m_j and loadings w_j minimising
      ||x_j - m_j - Z w_j||^2 over the rows that observed column j,

    an alternating least squares whose observed error never increases. Parameters and
    result as :func:`low_rank_impute` (``history`` starts at the column-means fit; the
    scores and components are those of the final fit's SVD).
    """
    X, observed, k, max_iter, tol, start = _prepared(X, k, center, max_iter, tol)
    n, p = X.shape
    errors = [float(np.sum(((X - start) * observed) ** 2))]
    means, _, loadings = mean_plus_rank_k(np.where(observed, X, start), k, center)
    scores = np.zeros((n, k))
    converged = False
    for _ in range(max_iter):
        for i in range(n):  # E-step: each row's coordinates from its observed entries
            seen = observed[i]
            scores[i] = np.linalg.lstsq(loadings[seen], X[i, seen] - means[seen], rcond=None)[0]
        design = np.column_stack([np.ones(n), scores]) if center else scores
        for j in range(p):  # M-step: each column's mean and loadings from the rows that observed it
            seen = observed[:, j]
            solution = np.linalg.lstsq(design[seen], X[seen, j], rcond=None)[0]
            means[j], loadings[j] = (solution[0], solution[1:]) if center else (0.0, solution)
        fit = scores @ loadings.T + means
        errors.append(float(np.sum(((X - fit) * observed) ** 2)))
        if observed.all() and errors[-1] == 0 or errors[-2] - errors[-1] <= tol * errors[-2]:
            converged = True
            break
    means, scores, components = mean_plus_rank_k(fit, k, center)  # the same fit, with orthonormal components
    return _result(X, observed, means, scores, components, errors, converged)
