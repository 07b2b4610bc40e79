"""Checks of exercise set 01, PCA from the Lagrangian.

Function exercises are called on fresh random data sets, in a random order; value
exercises are checked against the crabs measurements of one species (the orange crabs for
the top direction, the blue ones for the scores), which the exercise notebook also uses: the
lecture analyses all 200 crabs, so its printed numbers are not the exercises' answers.
"""

from __future__ import annotations

import functools

import numpy as np

from . import register
from .properties import (
    WRONG_FORM,
    answer_array,
    answer_number,
    expect,
    expect_close,
    expect_same_subspace,
    expect_unit_columns,
    in_random_order,
    is_close,
)

FORBIDS = ("dimred_teach.pca",)  # compute the covariance and the components yourself
"""What this set's answers may not use (modules or functions of the library): the grader's
kernel for this set does not have them, and ``check()`` fails an answer that uses them
(:mod:`dimred_teach.checks.policy`)."""

MISTAKES = {
    "rows-as-variables": "the covariance of the rows (X X') instead of the columns",
    "no-centring": "no centring: the columns' means were not subtracted",
    "divides-by-n": "divided by n instead of n - 1",
    "wrong-covariance": "not the sample covariance",
    "not-unit": "not scaled to length 1",
    "not-eigenvector": "not an eigenvector of S (a row of the eigenvector matrix, or X'X uncentred)",
    "smallest-eigenvalue": "the eigenvector of the smallest eigenvalue",
    "no-multiplier-term": "left out the multiplier term -2 lambda w",
    "half-gradient": "half the gradient (d/dw w'Sw = 2 S w)",
    "wrong-sign": "the gradient with the wrong sign",
    "not-orthonormal": "columns not orthonormal",
    "smallest-eigenvalues": "the eigenvectors of the smallest eigenvalues",
    "not-best-subspace": "not the best k-dimensional subspace",
    "correlated-scores": "correlated columns: not the scores on all the eigenvectors (X itself, say)",
    "rescaled-scores": "scores rescaled (standardised, or eigenvectors not of length 1)",
    "too-few-components": "the scores on fewer than all five components",
    "lecture-data": "the lecture's data, not the exercise's",
    "percentage": "a percentage, not a proportion",
    "unsquared": "singular values not squared",
    "kept-sum": "divided by the sum of the kept eigenvalues, not by the total",
    "one-component": "the share of the k-th component alone",
    "wrong-proportion": "not the share of the variance the first k components keep",
}
"""The typical mistakes this set's checks name: id (stable, counted by ``dimred-teach class-report``) to
short name. A failure no named mistake explains is ``other``."""


CRAB_MEASUREMENTS = ["FL", "RW", "CL", "CW", "BD"]


@functools.lru_cache(maxsize=1)
def crab_matrix() -> np.ndarray:
    """The crabs' five measurements, shape (200, 5), as the exercise notebook loads them (read-only)."""
    from ..datasets import load_crabs

    X = load_crabs()[CRAB_MEASUREMENTS].to_numpy(dtype=float)
    X.setflags(write=False)
    return X


def species_matrix(species: str) -> np.ndarray:
    """The measurements of the 100 crabs of one species (``"B"`` blue, ``"O"`` orange), shape
    (100, 5), read-only: exercise 01.top_direction uses the orange crabs, 01.score_covariance
    the blue ones (the lecture analyses all 200)."""
    from ..datasets import load_crabs

    X = crab_matrix()[load_crabs()["species"].to_numpy() == species]
    X.setflags(write=False)
    return X


def blue_crab_matrix() -> np.ndarray:
    """The 100 blue crabs' measurements, shape (100, 5), of exercise 01.score_covariance."""
    return species_matrix("B")


def orange_crab_matrix() -> np.ndarray:
    """The 100 orange crabs' measurements, shape (100, 5), of exercise 01.top_direction."""
    return species_matrix("O")


def random_data(rng: np.random.Generator, n: int | None = None, p: int | None = None) -> np.ndarray:
    """A fresh correlated data set with distinct eigenvalues, shape (n, p), not centred."""
    n = n or int(rng.integers(20, 60))
    p = p or int(rng.integers(3, 7))
    scales = np.sort(rng.uniform(0.5, 5.0, p))[::-1] * np.linspace(1.0, 0.3, p)
    rotation = np.linalg.qr(rng.standard_normal((p, p)))[0]
    return rng.standard_normal((n, p)) * scales @ rotation.T + rng.normal(0, 10, p)


def covariance(X: np.ndarray, ddof: int = 1) -> np.ndarray:
    """The covariance Xc' Xc / (n - ddof) of the centred X."""
    Xc = X - X.mean(axis=0)
    return Xc.T @ Xc / (X.shape[0] - ddof)


N_VERSUS_N_MINUS_1 = "(n versus n - 1: this course's sample covariance divides by n - 1, not n)"


@register("01.sample_covariance", hint="centre the columns first, then Xc.T @ Xc / (n - 1)")
def _sample_covariance(answer, rng):
    for X in in_random_order(rng, [random_data(rng) for _ in range(int(rng.integers(4, 7)))]):
        n, p = X.shape
        S = answer_array(answer(X.copy()), "sample_covariance(X)", shape=(p, p), wrong_shape="rows-as-variables")
        expected = covariance(X)
        expect(not is_close(S, X.T @ X / (n - 1), 1e-6),
               "sample_covariance(X) looks like X.T @ X / (n - 1) without centring the columns: subtract the "
               "column means first", mistake="no-centring")
        expect(not is_close(S, covariance(X, ddof=0), 1e-6),
               f"sample_covariance(X) divides by n {N_VERSUS_N_MINUS_1}", mistake="divides-by-n")
        expect_close(S, S.T, "sample_covariance(X) should be symmetric: S = S'")
        expect_close(S, expected, f"S = Xc' Xc / (n - 1) for a data set of shape {X.shape}", mistake="wrong-covariance")


def _top_eigenvector(X: np.ndarray) -> np.ndarray:
    """The unit eigenvector of the largest eigenvalue of X's covariance, largest entry positive."""
    w = np.linalg.eigh(covariance(X))[1][:, -1]
    return w * np.sign(w[np.argmax(np.abs(w))])


@register("01.top_direction", hint="the eigenvector of S with the largest eigenvalue (np.linalg.eigh sorts ascending "
                                   "and returns the eigenvectors as columns), for the orange crabs",
          answer=lambda: _top_eigenvector(orange_crab_matrix()))
def _top_direction(answer, rng):
    S = covariance(orange_crab_matrix())
    w = answer_array(answer, "w", shape=(5,))
    expect_unit_columns(w[:, None], "w", mistake="not-unit")
    lecture = _top_eigenvector(crab_matrix())
    expect(not is_close(np.abs(w), np.abs(lecture), 1e-6, scale=1.0),
           "w is the top direction of all 200 crabs, the lecture's data: the exercise asks for the orange crabs",
           mistake="lecture-data")
    lam = float(w @ S @ w)
    expect_close(S @ w, lam * w, "the stationarity condition S w = lambda w (is w a COLUMN of the eigenvector "
                                 "matrix of S?)", scale=np.linalg.eigvalsh(S)[-1], mistake="not-eigenvector")
    largest = float(np.linalg.eigvalsh(S)[-1])
    expect(is_close(lam, largest, 1e-8),
           f"w is an eigenvector, but its variance w'Sw = {lam:.6g} is not the largest eigenvalue of S (is it the "
           "eigenvector of another eigenvalue? np.linalg.eigh sorts them in ascending order)",
           mistake="smallest-eigenvalue")


@register("01.lagrangian_gradient", hint="differentiate w'Sw - lam (w'w - 1) with respect to w")
def _lagrangian_gradient(answer, rng):
    cases = []
    for _ in range(int(rng.integers(4, 7))):
        S = covariance(random_data(rng))
        cases.append((S, rng.standard_normal(S.shape[0]), float(rng.uniform(0.5, 3.0)), False))
    values, vectors = np.linalg.eigh(S)
    cases.append((S, vectors[:, -1], float(values[-1]), True))
    for S, w, lam, at_optimum in in_random_order(rng, cases):
        p = S.shape[0]
        grad = answer_array(answer(S.copy(), w.copy(), lam), "lagrangian_gradient(S, w, lam)", shape=(p,))
        expected = 2 * S @ w - 2 * lam * w
        scale = float(np.abs(S).max() * np.abs(w).max() + lam * np.abs(w).max())
        if at_optimum:
            expect_close(grad, expected, "the gradient vanishes at the top eigenpair (w, lambda) of S:", scale=scale,
                         mistake="no-multiplier-term")
            continue
        expect(not is_close(grad, expected / 2, 1e-8, scale=scale),
               "your gradient is half the right one: d/dw (w'Sw) = 2 S w and d/dw (w'w) = 2 w", mistake="half-gradient")
        expect(not is_close(grad, -expected, 1e-8, scale=scale),
               "your gradient has the wrong sign: L = w'Sw - lam (w'w - 1) gives 2 S w - 2 lam w", mistake="wrong-sign")
        expect_close(grad, expected, "the gradient 2 S w - 2 lam w at a random (w, lam)", scale=scale,
                     mistake="no-multiplier-term")


def _projection_error(X: np.ndarray, U: np.ndarray) -> float:
    Xc = X - X.mean(axis=0)
    return float(np.sum((Xc - Xc @ U @ U.T) ** 2))


@register("01.best_projection",
          hint="the r directions minimising the reconstruction error are the top r eigenvectors of S (largest "
               "eigenvalues; np.linalg.eigh sorts them in ascending order)")
def _best_projection(answer, rng):
    cases = []
    for _ in range(int(rng.integers(4, 7))):
        X = random_data(rng)
        cases.append((X, int(rng.integers(1, X.shape[1]))))
    for X, r in in_random_order(rng, cases):
        n, p = X.shape
        U = answer_array(answer(X.copy(), r), f"best_projection(X, {r})", shape=(p, r))
        expect_close(U.T @ U, np.eye(r), f"the columns of best_projection(X, {r}) should be orthonormal: U'U = I",
                     scale=1.0, mistake="not-orthonormal")
        values, vectors = np.linalg.eigh(covariance(X))
        error, best = _projection_error(X, U), (n - 1) * float(values[: p - r].sum())
        if not is_close(error, best, 1e-8):
            uncentred = np.linalg.eigh(X.T @ X)[1][:, ::-1][:, :r]
            expect(not is_close(U @ U.T, uncentred @ uncentred.T, 1e-6, scale=1.0),
                   f"best_projection(X, {r}) spans the top eigenvectors of X'X: centre X first (the error is "
                   "measured on the centred data)", mistake="no-centring")
            expect(not is_close(U @ U.T, vectors[:, :r] @ vectors[:, :r].T, 1e-6, scale=1.0),
                   f"best_projection(X, {r}) keeps the eigenvectors of the {r} SMALLEST eigenvalues (np.linalg.eigh "
                   "sorts them in ascending order); the reconstruction error is smallest for the largest",
                   mistake="smallest-eigenvalues")
            expect(False, f"the reconstruction error {error:.6g} of best_projection(X, {r}) is larger than the "
                          "minimum, (n - 1) * (sum of the dropped eigenvalues)", mistake="not-best-subspace")
        expect_same_subspace(U, vectors[:, ::-1][:, :r], f"best_projection(X, {r})")


def _blue_scores() -> np.ndarray:
    """The blue crabs' scores on all five components, largest first, shape (100, 5)."""
    X = blue_crab_matrix()
    Xc = X - X.mean(axis=0)
    return Xc @ np.linalg.eigh(covariance(X))[1][:, ::-1]


@register("01.score_covariance", hint="the scores are Xc @ V, with the centred data Xc and V holding all five "
                                      "unit eigenvectors of S as columns; their covariance is then diagonal",
          answer=_blue_scores)
def _score_covariance(answer, rng):
    X = blue_crab_matrix()
    n, p = X.shape
    Xc = X - X.mean(axis=0)
    Z = answer_array(answer, "scores", shape=(None, None))
    expect(Z.shape != (2 * n, p), f"scores has {2 * n} rows, one per crab of the lecture: the exercise asks for the "
                                  f"{n} blue crabs", mistake="lecture-data")
    expect(not (Z.shape[0] == n and Z.ndim == 2 and Z.shape[1] < p),
           f"scores has {Z.shape[1]} columns: the exercise asks for the scores on all {p} components",
           mistake="too-few-components")
    expect(Z.shape == (n, p), f"scores should have shape ({n}, {p}), got {Z.shape}", mistake=WRONG_FORM)
    gram = Xc @ Xc.T
    expect(is_close(Z.mean(axis=0), np.zeros(p), 1e-9, scale=np.abs(Z).max()),
           "the columns of scores should have mean 0: they are scores of the CENTRED data, Xc @ V",
           mistake="no-centring")
    C = Z.T @ Z / (n - 1)
    expect(is_close(C - np.diag(np.diag(C)), np.zeros((p, p)), 1e-8, scale=float(np.abs(np.diag(C)).max())),
           "the covariance of your scores is not diagonal: the scores on different components are uncorrelated "
           "when V holds ALL the eigenvectors of S as its columns (scores = Xc @ V)", mistake="correlated-scores")
    expect_close(Z @ Z.T, gram, "scores @ scores.T = Xc @ Xc.T (scores on unit eigenvectors, not rescaled)",
                 mistake="rescaled-scores")


def _shares(values: np.ndarray, k: int) -> float:
    """The share of the first k of ``values`` in their sum."""
    return float(values[:k].sum() / values.sum())


@register("01.variance_explained",
          hint="the first k eigenvalues of S (largest first) divided by the sum of ALL p eigenvalues, trace S")
def _variance_explained(answer, rng):
    cases = []
    for _ in range(int(rng.integers(4, 7))):
        X = random_data(rng)
        cases.append((X, int(rng.integers(2, X.shape[1]))))  # 2 <= k < p: no mistake gives the right value
    X = random_data(rng)
    cases += [(X, 1), (X, X.shape[1])]
    for X, k in in_random_order(rng, cases):
        call = f"variance_explained(X, {k}) for X of shape {X.shape}"
        share = answer_number(answer(X.copy(), k), call)
        eigenvalues = np.linalg.eigvalsh(covariance(X))[::-1]
        expected = _shares(eigenvalues, k)
        if is_close(share, expected, 1e-8, scale=1.0):
            continue
        expect(not (1 < share <= 100 and is_close(share / 100, expected, 1e-8, scale=1.0)),
               f"{call} = {share:.6g} is a percentage: return the proportion, a number between 0 and 1",
               mistake="percentage")
        expect(0 <= share <= 1, f"{call} = {share:.6g}: a proportion of the total variance lies between 0 and 1")
        mistakes = [
            (_shares(np.linalg.eigvalsh(X.T @ X)[::-1], k), "no-centring",
             "uses the eigenvalues of X'X without centring the columns: subtract the column means first"),
            (_shares(np.linalg.svd(X - X.mean(axis=0), compute_uv=False), k), "unsquared",
             "adds up singular values without squaring them: the eigenvalues are lambda_j = d_j**2 / (n - 1)"),
            (1.0, "kept-sum",
             "divides by the sum of the k kept eigenvalues: divide by the total variance, the sum of ALL p "
             "eigenvalues (trace S)"),
            (_shares(eigenvalues[::-1], k), "smallest-eigenvalues",
             "adds up the k SMALLEST eigenvalues (np.linalg.eigh sorts them in ascending order): take the largest"),
            (float(eigenvalues[k - 1] / eigenvalues.sum()), "one-component",
             f"gives the share of component {k} alone: add up the first k components together"),
        ]
        for mistaken, mistake, what in mistakes:
            expect(not is_close(share, mistaken, 1e-8, scale=1.0), f"{call} = {share:.6g} {what}", mistake)
        expect(False, f"{call} = {share:.6g}, but that is not the proportion of trace S that the first {k} eigenvalues "
                      "of S make up", mistake="wrong-proportion")
