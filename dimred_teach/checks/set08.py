"""Checks of exercise set 08, standardising, whitening and kernel PCA.

Function exercises are called on fresh random data; value exercises are checked against
the data the exercise notebook builds (the crabs measurements and a seeded pair of circles).
"""

from __future__ import annotations

import numbers

import numpy as np

from . import CheckFailure, register
from .properties import answer_array, expect, expect_close
from .set01 import crab_matrix, random_data

CIRCLES = dict(n=300, noise=0.05, factor=0.3, seed=8)
"""The circles of the exercise notebook: ``make_circles(300, noise=0.05, factor=0.3, seed=8)``."""


@register("08.whiten", hint="with Xc = U D V' (np.linalg.svd(Xc, full_matrices=False)) the whitened data are "
                            "Xc V D^-1 sqrt(n - 1) = sqrt(n - 1) U")
def _whiten(answer, rng):
    for _ in range(3):
        X = random_data(rng)
        n, p = X.shape
        Z = answer_array(answer(X.copy()), "whiten_data(X)", shape=(n, p))
        Xc = X - X.mean(axis=0)
        W = np.linalg.lstsq(Xc, Z, rcond=None)[0]
        expect(np.allclose(Xc @ W, Z, atol=1e-8 * max(1.0, np.abs(Z).max())),
               "whiten_data(X) is not a linear map of the centred data (Z = Xc @ W for a p x p matrix W); "
               "did you centre X first?")
        C = Z.T @ Z / (n - 1)
        expect(not np.allclose(C, np.eye(p) / (n - 1)),
               "the covariance of your Z is I / (n - 1): its columns have length 1 (the notes' V_d'); "
               "multiply by sqrt(n - 1) so that the sample covariance is I")
        expect(not np.allclose(C, np.eye(p) * n / (n - 1)),
               "the covariance of your Z is n/(n-1) I: you scaled with 1/n; this course divides by n - 1")
        expect_close(C, np.eye(p), "the sample covariance Z'Z / (n - 1) = I", atol=1e-8)


def _poly2_features(X: np.ndarray) -> np.ndarray:
    """Explicit features of the kernel (x'y + 1)^2: all products x_a x_b, sqrt(2) x, and 1."""
    n = X.shape[0]
    products = np.einsum("na,nb->nab", X, X).reshape(n, -1)
    return np.column_stack([products, np.sqrt(2) * X, np.ones(n)])


@register("08.center_kernel", hint="K - (row means) - (column means) + (grand mean), i.e. H K H with H = I - 11'/n")
def _center_kernel(answer, rng):
    for kind in ("linear", "polynomial", "polynomial"):
        n, p = int(rng.integers(8, 20)), int(rng.integers(2, 5))
        X = rng.standard_normal((n, p)) + rng.normal(0, 2, p)
        Phi = X if kind == "linear" else _poly2_features(X)
        K = Phi @ Phi.T
        centred = answer_array(answer(K.copy()), "center_kernel_matrix(K)", shape=(n, n))
        expect(np.allclose(centred.sum(axis=1), 0, atol=1e-8 * np.abs(K).max()),
               "the rows of the centred kernel matrix should sum to zero (the centred features add up to 0)")
        expect(np.allclose(centred, centred.T, atol=1e-8 * np.abs(K).max()),
               "the centred kernel matrix should be symmetric; did you centre the rows but not the columns?")
        Phi_c = Phi - Phi.mean(axis=0)
        expect_close(centred, Phi_c @ Phi_c.T,
                     f"for the {kind} kernel, your matrix = inner products of the explicitly centred features",
                     atol=1e-8 * np.abs(K).max())


@register("08.rbf_kernel", hint="the entry (i, j) is exp(-gamma * squared distance between row i of X and row j "
                                "of Y); broadcasting X[:, None, :] - Y[None, :, :] gives all the differences")
def _rbf_kernel(answer, rng):
    for _ in range(3):
        n, m, p = int(rng.integers(5, 12)), int(rng.integers(13, 20)), int(rng.integers(2, 5))
        X, Y = rng.standard_normal((n, p)), rng.standard_normal((m, p))
        gamma = float(rng.uniform(0.1, 1.5))
        K = np.asarray(answer(X.copy(), Y.copy(), gamma))
        expect(K.shape != (m, n), f"rbf(X, Y, gamma) has shape {K.shape}: it is transposed, rows belong to X")
        K = answer_array(K, "rbf(X, Y, gamma)", shape=(n, m))
        squared = np.sum((X[:, None, :] - Y[None, :, :]) ** 2, axis=2)
        expect_close(K, np.exp(-gamma * squared), "K[i, j] = exp(-gamma ||x_i - y_j||^2)", atol=1e-10)
        own = answer_array(answer(X.copy(), X.copy(), gamma), "rbf(X, X, gamma)", shape=(n, n))
        expect_close(np.diag(own), np.ones(n), "k(x, x) = 1 on the diagonal of rbf(X, X, gamma)", atol=1e-10)


@register("08.linear_kpca_scores", hint="centre K = X X' with your Exercise 2; np.linalg.eigh sorts ascending, so "
                                        "take the last two eigenvectors and multiply each by sqrt(its eigenvalue)")
def _linear_kpca_scores(answer, rng):
    from ..pca import pca

    reference = pca(crab_matrix(), k=2).scores
    scores = answer_array(answer, "kpca_scores", shape=(reference.shape[0], 2))
    lengths = np.linalg.norm(scores, axis=0)
    expect(not np.allclose(lengths, 1.0),
           "your columns have length 1: those are the eigenvectors a_j; the scores are sqrt(mu_j) a_j")
    expect(not np.allclose(np.abs(scores[:, ::-1]), np.abs(reference)),
           "your two columns are in the wrong order: the largest eigenvalue comes first")
    for j in range(2):
        sign = 1.0 if scores[:, j] @ reference[:, j] >= 0 else -1.0
        expect_close(sign * scores[:, j], reference[:, j],
                     f"column {j + 1} = the PCA scores on component {j + 1} (up to sign); did you centre K?",
                     atol=1e-6 * np.abs(reference).max())


def _circles():
    from ..datasets import make_circles

    return make_circles(**CIRCLES)


@register("08.circle_gamma", hint="try gamma between 0.1 and 50 and look at the first column of the RBF kernel PCA "
                                  "scores: a kernel width comparable to the gap between the rings works")
def _circle_gamma(answer, rng):
    from ..kernel import kernel_pca

    expect(isinstance(answer, numbers.Real) and not isinstance(answer, bool) and np.isfinite(answer) and answer > 0,
           f"gamma_circles should be one positive number, got {answer!r}")
    X, labels = _circles()
    try:
        first = kernel_pca(X, k=1, kernel="rbf", gamma=float(answer)).scores[:, 0]
    except ValueError as error:
        raise CheckFailure(f"kernel PCA with gamma={answer} failed: {error}") from None
    inner, outer = first[labels == 1], first[labels == 0]
    overlap = min(outer.max() - inner.min(), inner.max() - outer.min())
    expect(overlap < 0,
           f"with gamma={answer} the first kernel component does not separate the circles: the ranges of the "
           "two classes' scores overlap")
