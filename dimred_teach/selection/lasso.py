"""The LASSO, an embedded selection: soft thresholding, and the coefficient path over a grid of
penalties, by the exact homotopy (LARS with the LASSO modification) or by coordinate
descent (what notebook 09 teaches)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.linalg
import scipy.linalg.lapack

from .._read_only import read_only
from .._validation import (
    NONNEGATIVE,
    OPEN_UNIT,
    POSITIVE,
    as_data_matrix,
    as_finite_array,
    as_vector,
    check_int,
    check_real,
    check_seed,
)
from ..linalg import TIE_RTOL, first_best, order_with_ties


def soft_threshold(z, threshold: float) -> np.ndarray:
    """sign(z) * max(|z| - threshold, 0), elementwise: shrink towards 0 by ``threshold``
    and set everything within ``threshold`` of 0 to exactly 0. Same shape as z."""
    z = as_finite_array(z, "z")
    threshold = check_real(threshold, "threshold", NONNEGATIVE)
    return np.sign(z) * np.maximum(np.abs(z) - threshold, 0.0)


@dataclass(frozen=True)
class LassoPathResult:
    """Outcome of :func:`lasso_path`.

    Attributes
    ----------
    alphas : ndarray, shape (m,)
        The penalties, decreasing.
    coefs : ndarray, shape (p, m)
        ``coefs[:, i]`` minimises the LASSO objective at ``alphas[i]`` (as
        ``sklearn.linear_model.lasso_path``).
    entry_order : ndarray of int, shape (q,)
        The columns that are non-zero somewhere on the path, in the order they enter as
        alpha decreases; columns entering at the same alpha come by decreasing |coefficient|
        (at :data:`~dimred_teach.linalg.TIE_RTOL` precision), then by index.
    entry_alphas : ndarray, shape (p,)
        For each column, the largest alpha of the grid at which it is non-zero (NaN if it
        never is).
    n_iter : ndarray of int, shape (m,)
        Coordinate-descent sweeps used at each alpha.
    """

    alphas: np.ndarray
    coefs: np.ndarray
    entry_order: np.ndarray
    entry_alphas: np.ndarray
    n_iter: np.ndarray


def lasso_path(X, y, alphas=None, n_alphas: int = 100, eps: float = 1e-3, tol: float = 1e-12,
               max_iter: int = 100_000, method: str = "homotopy") -> LassoPathResult:
    """The LASSO along a decreasing grid of penalties.

    At each alpha the coefficients b minimise

        (1 / (2n)) ||y - X b||^2 + alpha ||b||_1

    (scikit-learn's objective; no intercept: centre y and standardise X first).

    ``method="homotopy"`` (the default) follows the exact path: b is piecewise linear in
    alpha, and between two breakpoints the active coefficients move along
    d = (X_A' X_A / n)^{-1} sign(c_A), c = X'(y - X b) / n, until a column's |c_j| reaches
    alpha (it enters) or an active coefficient reaches 0 (it leaves): LARS with the LASSO
    modification, about one linear solve per column, then b at each alpha of the grid by
    linear interpolation between breakpoints. Where an active Gram matrix is singular
    (collinear columns, more columns than rows) it falls back to coordinate descent.

    ``method="coordinate"`` is coordinate descent, what notebook 09 teaches. One
    coordinate step sets, with r = y - X b the residual,

        b_j <- S(x_j' r / n + (x_j' x_j / n) b_j, alpha) / (x_j' x_j / n),

    S the :func:`soft_threshold`; sweeps over j = 1..p repeat until no coefficient moves
    by more than ``tol`` times the largest |coefficient|. Each alpha starts from the
    solution of the previous one (warm start). A value |z| within TIE_RTOL of alpha
    counts as reaching it, so a column exactly at its entry point stays 0 on every machine.

    Parameters
    ----------
    X : array_like, shape (n, p)
    y : array_like, shape (n,)
    alphas : array_like, shape (m,), optional
        Positive penalties; sorted decreasing. Default: ``n_alphas`` values spaced evenly on
        a log scale from alpha_max = max_j |x_j' y| / n (the smallest alpha with b = 0)
        down to ``eps * alpha_max``.
    n_alphas : int
    eps : float
        In (0, 1).
    tol : float
        Relative convergence tolerance of the sweeps, > 0.
    max_iter : int
        Most sweeps per alpha; ``RuntimeError`` if they do not converge (coordinate descent).
    method : {"homotopy", "coordinate"}

    Returns
    -------
    LassoPathResult
    """
    if method not in ("homotopy", "coordinate"):
        raise ValueError(f"method must be 'homotopy' or 'coordinate', got {method!r}")
    X = as_data_matrix(X)
    n, p = X.shape
    target = as_vector(y, name="y", length=n)
    tol = check_real(tol, "tol", POSITIVE)
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    if alphas is None:
        n_alphas = check_int(n_alphas, "n_alphas", minimum=1, maximum=10**6)
        eps = check_real(eps, "eps", OPEN_UNIT)
        alpha_max = float(np.abs(X.T @ target).max()) / n
        if alpha_max == 0:
            raise ValueError("y is orthogonal to every column of X (all x_j' y = 0); the path is all zeros "
                             "(pass alphas explicitly)")
        grid = np.geomspace(alpha_max, alpha_max * eps, n_alphas)
    else:
        grid = as_vector(alphas, name="alphas")
        if grid.size == 0 or np.any(grid <= 0):
            raise ValueError("alphas must be a non-empty list of positive penalties")
        grid = np.sort(grid)[::-1]
    path = _homotopy(X, target, grid) if method == "homotopy" else None
    coefs, n_iter = path if path is not None else _coordinate_descent(X, target, grid, tol, max_iter)
    nonzero = coefs != 0
    entered = np.flatnonzero(nonzero.any(axis=1))
    entry_index = np.full(p, grid.size)
    entry_index[entered] = np.argmax(nonzero[entered], axis=1)
    entry_alphas = np.full(p, np.nan)
    entry_alphas[entered] = grid[entry_index[entered]]
    size_at_entry = np.abs(coefs[np.arange(p), np.minimum(entry_index, grid.size - 1)])
    by_size = np.empty(p, dtype=int)
    by_size[order_with_ties(size_at_entry)] = np.arange(p)  # rank of |coefficient| at entry, ties by index
    entry_order = np.lexsort((by_size, entry_index))[:entered.size]
    result = LassoPathResult(grid, coefs, entry_order, entry_alphas, n_iter)
    read_only(result.alphas, result.coefs, result.entry_order, result.entry_alphas, result.n_iter)
    return result


def _coordinate_descent(X: np.ndarray, target: np.ndarray, grid: np.ndarray, tol: float,
                        max_iter: int) -> tuple[np.ndarray, np.ndarray]:
    """Coefficients, shape (p, m), and sweeps per alpha, shape (m,), by cyclic coordinate
    descent with warm starts (see :func:`lasso_path`)."""
    n, p = X.shape
    columns = np.ascontiguousarray(X.T)  # column j as a contiguous row: fast dot products
    squared_norms = [float(c @ c) / n for c in columns]
    usable = [j for j in range(p) if squared_norms[j] > 0]  # an all-zero column keeps coefficient 0
    coefficient = [0.0] * p
    residual = target.copy()
    coefs = np.empty((p, grid.size))
    n_iter = np.empty(grid.size, dtype=int)
    for i, alpha in enumerate(grid):
        for sweeps in range(1, max_iter + 1):  # noqa: B007  (sweeps is recorded after the loop)
            largest_move = 0.0
            for j in usable:
                old = coefficient[j]
                z = float(columns[j] @ residual) / n + squared_norms[j] * old
                new = 0.0 if abs(z) <= alpha * (1 + TIE_RTOL) else (z - math.copysign(alpha, z)) / squared_norms[j]
                if new != old:
                    residual -= (new - old) * columns[j]
                    coefficient[j] = new
                    largest_move = max(largest_move, abs(new - old))
            if largest_move <= tol * max(max(map(abs, coefficient)), np.finfo(float).tiny):
                break
        else:
            raise RuntimeError(f"lasso_path: coordinate descent did not converge in max_iter={max_iter} sweeps at "
                               f"alpha={alpha:.3g}; pass a larger max_iter or a larger tol to lasso_path")
        coefs[:, i] = coefficient
        n_iter[i] = sweeps
    return coefs, n_iter


def _homotopy(X: np.ndarray, target: np.ndarray, grid: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Coefficients, shape (p, m), on the exact LASSO path, and the breakpoints passed down to
    each alpha of ``grid`` (decreasing), shape (m,); None where an active Gram matrix is
    singular (the caller falls back to coordinate descent)."""
    n, p = X.shape
    gram = X.T @ X / n
    correlation = X.T @ target / n
    alpha = float(np.abs(correlation).max())
    beta = np.zeros(p)
    knots, betas = [alpha], [beta.copy()]
    active: list[int] = []
    lower = np.zeros((p, p), order="F")  # lower[:k, :k]: Cholesky factor of the k active columns' Gram matrix
    columns = np.zeros((p, p), order="F")  # columns[:, :k]: those columns of the Gram matrix, in the same order
    floor = float(grid[-1])
    left = -1  # the column that left at the last breakpoint: it does not come back at once
    with np.errstate(divide="ignore", invalid="ignore"):  # a step towards a column parallel to the path: inf
        for _ in range(10 * p + 10):
            # every column whose |c_j| has reached alpha (at TIE_RTOL precision) joins, in index order
            reached = np.abs(correlation) >= alpha * (1 - TIE_RTOL)
            reached[active] = False
            if 0 <= left:
                reached[left] = False
            for joining in np.flatnonzero(reached) if alpha > 0 else ():
                if not _cholesky_append(lower, len(active), gram[active, joining], gram[joining, joining]):
                    return None
                columns[:, len(active)] = gram[:, joining]
                active.append(int(joining))
            if alpha <= floor or not active:
                break
            chosen, k = np.array(active), len(active)
            direction = scipy.linalg.lapack.dpotrs(lower[:k, :k], np.sign(correlation[chosen]), lower=1)[0]
            change = columns[:, :k] @ direction  # the correlations fall by gamma * change
            smallest = alpha * TIE_RTOL  # only forward steps; a column that just left waits
            up, down = (alpha - correlation) / (1 - change), (alpha + correlation) / (1 + change)
            up[~(up > smallest)] = np.inf
            down[~(down > smallest)] = np.inf
            steps = np.minimum(up, down, out=up)
            steps[chosen] = np.inf
            leave = -beta[chosen] / direction
            leave[~(leave > smallest)] = np.inf
            entering, leaving = int(steps.argmin()), int(leave.argmin())
            gamma = min(steps[entering], leave[leaving], alpha - floor)
            beta[chosen] += gamma * direction
            correlation -= gamma * change
            alpha -= gamma
            knots.append(alpha)
            betas.append(beta.copy())
            left = -1
            if gamma == leave[leaving]:  # an active coefficient reaches 0: it leaves; the factor's rows
                left = active.pop(leaving)  # before it stay, those after it are rebuilt
                beta[left] = 0.0
                for position in range(leaving, len(active)):
                    column = active[position]
                    if not _cholesky_append(lower, position, gram[active[:position], column], gram[column, column]):
                        return None
                    columns[:, position] = gram[:, column]
            elif gamma == steps[entering]:
                correlation[entering] = math.copysign(alpha, correlation[entering])  # exactly on the boundary: it joins
    knots, betas = np.array(knots), np.array(betas).T  # decreasing alphas; coefficients (p, k)
    coefs = np.empty((p, grid.size))
    n_iter = np.empty(grid.size, dtype=int)
    for i, target_alpha in enumerate(grid):
        if target_alpha >= knots[0]:
            coefs[:, i], n_iter[i] = 0.0, 0
            continue
        # knots[k] <= alpha < knots[k-1]
        k = min(int(np.searchsorted(-knots, -target_alpha, side="right")), len(knots) - 1)
        left, right = knots[k - 1], knots[k]
        weight = (left - target_alpha) / (left - right) if left > right else 1.0
        coefs[:, i] = betas[:, k - 1] + weight * (betas[:, k] - betas[:, k - 1])
        n_iter[i] = k
    coefs[np.abs(coefs) <= TIE_RTOL * np.abs(coefs).max(initial=0.0)] = 0.0  # exact zeros where a column is out
    return coefs, n_iter


def _cholesky_append(lower: np.ndarray, k: int, cross: np.ndarray, diagonal: float) -> bool:
    """Grow the lower Cholesky factor ``lower[:k, :k]`` of a Gram matrix A by one column, to
    the factor of [[A, c], [c', d]] in ``lower[:k+1, :k+1]``; False (nothing changed) when
    the new column is numerically dependent on the others (relative pivot below 1e-6)."""
    row = scipy.linalg.lapack.dtrtrs(lower[:k, :k], cross, lower=1)[0] if k else np.zeros(0)
    pivot = diagonal - float(row @ row)
    if not pivot > (1e-6) ** 2 * diagonal:
        return False
    lower[k, :k], lower[k, k] = row, math.sqrt(pivot)
    return True


@dataclass(frozen=True)
class LassoCVResult:
    """Outcome of :func:`lasso_cv`.

    Attributes
    ----------
    alphas : ndarray, shape (m,)
        The penalties, decreasing.
    fold_mse : ndarray, shape (folds, m)
        Held-out mean squared error of each fold's LASSO at each alpha (the transpose of
        ``sklearn.linear_model.LassoCV(...).mse_path_`` on the same folds and alphas).
    mean_mse : ndarray, shape (m,)
        ``fold_mse`` averaged over the folds.
    alpha : float
        The penalty with the smallest mean error; errors equal at
        :data:`~dimred_teach.linalg.TIE_RTOL` relative precision tie, and the tie goes to the
        larger penalty (the sparser model).
    coef : ndarray, shape (p,)
        The LASSO on all rows at ``alpha``.
    intercept : float
    """

    alphas: np.ndarray
    fold_mse: np.ndarray
    mean_mse: np.ndarray
    alpha: float
    coef: np.ndarray
    intercept: float


def _centred_lasso(X: np.ndarray, y: np.ndarray, grid: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The LASSO path of (X, y) with an intercept: the coefficients, shape (p, m), and the means of X and y."""
    x_mean, y_mean = X.mean(axis=0), y.mean()
    return lasso_path(X - x_mean, y - y_mean, alphas=grid).coefs, x_mean, y_mean


def lasso_cv(X, y, alphas=None, n_alphas: int = 100, eps: float = 1e-3, folds: int = 5, seed: int = 0
             ) -> LassoCVResult:
    """Choose the LASSO's penalty by k-fold cross-validation.

    On each fold of a seeded split (the folds of :func:`.wrappers.cross_val_accuracy`), fit
    the LASSO path with an intercept on the training rows (centre them with their own means,
    then :func:`lasso_path`) and measure the mean squared error of its predictions on the
    held-out rows at every alpha; keep the alpha with the smallest mean error over the folds
    and refit on all rows. This is ``sklearn.linear_model.LassoCV(alphas=..., cv=<the same
    folds>)``. Standardise X first, as for :func:`lasso_path`.

    Parameters
    ----------
    X : array_like, shape (n, p)
    y : array_like, shape (n,)
    alphas : array_like, shape (m,), optional
        Positive penalties. Default: ``n_alphas`` values on a log scale from the alpha_max of
        the centred data on all rows down to ``eps * alpha_max`` (as ``LassoCV``).
    n_alphas : int
    eps : float
        In (0, 1).
    folds : int
        2 <= folds <= n.
    seed : int
        Seed of the split.

    Returns
    -------
    LassoCVResult
    """
    from .wrappers import _folds

    X = as_data_matrix(X)
    n = X.shape[0]
    target = as_vector(y, name="y", length=n)
    folds = check_int(folds, "folds", minimum=2, maximum=n)
    seed = check_seed(seed)
    if alphas is None:
        grid = lasso_path(X - X.mean(axis=0), target - target.mean(), n_alphas=n_alphas, eps=eps).alphas
    else:
        grid = lasso_path(X, target, alphas=alphas).alphas  # validated and sorted decreasing
    fold_mse = np.empty((folds, grid.size))
    for fold, test in enumerate(_folds(n, folds, seed)):
        train = np.setdiff1d(np.arange(n), test)
        coefs, x_mean, y_mean = _centred_lasso(X[train], target[train], grid)
        prediction = y_mean + (X[test] - x_mean) @ coefs  # shape (len(test), m)
        fold_mse[fold] = np.mean((target[test, None] - prediction) ** 2, axis=0)
    mean_mse = fold_mse.mean(axis=0)
    best = first_best(mean_mse, descending=False)  # the grid is decreasing: ties go to the larger alpha
    coefs, x_mean, y_mean = _centred_lasso(X, target, grid[best:best + 1])
    result = LassoCVResult(grid, fold_mse, mean_mse, float(grid[best]), coefs[:, 0],
                           float(y_mean - x_mean @ coefs[:, 0]))
    read_only(result.alphas, result.fold_mse, result.mean_mse, result.coef)
    return result
