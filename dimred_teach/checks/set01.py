"""Checks of exercise set 01, PCA from the Lagrangian.

Function exercises are called on fresh random data sets; value exercises are checked
against the crabs measurements, which the exercise notebook also uses.
"""

from __future__ import annotations

import numpy as np

from . import register
from .properties import answer_array, expect, expect_close, expect_unit_columns

CRAB_MEASUREMENTS = ["FL", "RW", "CL", "CW", "BD"]


def crab_matrix() -> np.ndarray:
    """The crabs' five measurements, shape (200, 5), as the exercise notebook loads them."""
    from ..datasets import load_crabs

    return load_crabs()[CRAB_MEASUREMENTS].to_numpy()


def random_data(rng: np.random.Generator, n: int | None = None, p: int | None = None) -> np.ndarray:
    """A fresh correlated data set with distinct eigenvalues, shape (n, p), not centred."""
    n = n or int(rng.integers(20, 60))
    p = p or int(rng.integers(3, 7))
    scales = np.sort(rng.uniform(0.5, 5.0, p))[::-1] * np.linspace(1.0, 0.3, p)
    rotation = np.linalg.qr(rng.standard_normal((p, p)))[0]
    return rng.standard_normal((n, p)) * scales @ rotation.T + rng.normal(0, 10, p)


def _reference_covariance(X: np.ndarray) -> np.ndarray:
    Xc = X - X.mean(axis=0)
    return Xc.T @ Xc / (X.shape[0] - 1)


@register("01.sample_covariance", hint="centre the columns first, then Xc.T @ Xc / (n - 1)")
def _sample_covariance(answer, rng):
    for _ in range(3):
        X = random_data(rng)
        S = answer_array(answer(X.copy()), "sample_covariance(X)", shape=(X.shape[1], X.shape[1]))
        expect_close(S, S.T, "sample_covariance(X) should be symmetric:", atol=1e-10)
        expect(not np.allclose(S, X.T @ X / (X.shape[0] - 1)) or np.allclose(X.mean(axis=0), 0),
               "sample_covariance(X) looks like X.T @ X / (n-1) without centring the columns")
        expect(not np.allclose(S, _reference_covariance(X) * (X.shape[0] - 1) / X.shape[0]),
               "sample_covariance(X) divides by n; this course divides by n - 1")
        expect_close(S, _reference_covariance(X), "S = Xc' Xc / (n - 1)")


@register("01.top_direction", hint="the eigenvector of S with the largest eigenvalue (np.linalg.eigh sorts ascending)")
def _top_direction(answer, rng):
    S = _reference_covariance(crab_matrix())
    w = answer_array(answer, "w", shape=(5,))
    expect_unit_columns(w[:, None], "w")
    lam = float(w @ S @ w)
    expect_close(S @ w, lam * w, "the stationarity condition S w = lambda w", atol=1e-6 * lam)
    expect(np.isclose(lam, np.linalg.eigvalsh(S)[-1]),
           f"w is an eigenvector, but its variance w'Sw = {lam:.4f} is not the largest eigenvalue")


@register("01.lagrangian_gradient", hint="differentiate w'Sw - lam (w'w - 1) with respect to w")
def _lagrangian_gradient(answer, rng):
    for _ in range(3):
        S = _reference_covariance(random_data(rng))
        p = S.shape[0]
        w, lam = rng.standard_normal(p), float(rng.uniform(0.5, 3.0))
        grad = answer_array(answer(S.copy(), w.copy(), lam), "lagrangian_gradient(S, w, lam)", shape=(p,))
        expect_close(grad, 2 * S @ w - 2 * lam * w, "the gradient at a random (w, lam)")
    top_value, top_vector = np.linalg.eigh(S)
    at_optimum = answer_array(answer(S, top_vector[:, -1], float(top_value[-1])), "the gradient at the top eigenpair")
    expect(np.allclose(at_optimum, 0, atol=1e-8), "the gradient should vanish at the top eigenpair")


@register("01.best_projection",
          hint="the r directions minimising the reconstruction error are the top r eigenvectors of S")
def _best_projection(answer, rng):
    for _ in range(3):
        X = random_data(rng)
        n, p = X.shape
        r = int(rng.integers(1, p))
        U = answer_array(answer(X.copy(), r), "best_projection(X, r)", shape=(p, r))
        expect_close(U.T @ U, np.eye(r), "the columns should be orthonormal: U'U = I", atol=1e-8)
        Xc = X - X.mean(axis=0)
        error = float(np.sum((Xc - Xc @ U @ U.T) ** 2))
        dropped = np.sort(np.linalg.eigvalsh(_reference_covariance(X)))[: p - r].sum()
        expect(np.isclose(error, (n - 1) * dropped, rtol=1e-8),
               f"the reconstruction error {error:.4g} is larger than the minimum (n-1) * sum of dropped "
               f"eigenvalues = {(n - 1) * dropped:.4g}")


@register("01.score_covariance", hint="the scores are Xc @ V with all eigenvectors; their covariance is diagonal")
def _score_covariance(answer, rng):
    X = crab_matrix()
    C = answer_array(answer, "score_covariance", shape=(5, 5))
    expect(np.allclose(C - np.diag(np.diag(C)), 0, atol=1e-8),
           "the covariance of the scores should be diagonal (the scores are uncorrelated)")
    eigenvalues = np.sort(np.linalg.eigvalsh(_reference_covariance(X)))[::-1]
    expect_close(np.diag(C), eigenvalues, "the diagonal should be the eigenvalues of S, largest first", atol=1e-8)
