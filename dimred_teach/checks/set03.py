"""Checks of exercise set 03, biplots on the crabs data.

Function answers are called on fresh simulated crabs (``make_crabs_like`` with a seed
drawn from the check's generator); value answers are compared with properties of the
real crabs, which the checks load themselves.
"""

from __future__ import annotations

import functools

import numpy as np

from . import CheckFailure, register
from .properties import answer_array, expect, expect_close, expect_same_subspace
from ..datasets import CRABS_MEASUREMENTS, load_crabs, make_crabs_like
from ..pca import pca

ALPHAS = (0.0, 0.3, 1.0)


@functools.lru_cache(maxsize=1)
def _crabs():
    """The real crabs: measurements (200, 5) and species labels (200,), read-only."""
    crabs = load_crabs()
    X = crabs[list(CRABS_MEASUREMENTS)].to_numpy(dtype=float)
    species = crabs["species"].astype(str).to_numpy()
    X.setflags(write=False)
    species.setflags(write=False)
    return X, species


def _fresh_crabs(rng: np.random.Generator) -> np.ndarray:
    """Measurements of a new simulated crabs sample, shape (n, 5), 40 <= n < 120."""
    frame = make_crabs_like(int(rng.integers(40, 120)), seed=int(rng.integers(2**31)))
    return frame[list(CRABS_MEASUREMENTS)].to_numpy(dtype=float)


def _pair(answer, n: int, p: int, k: int, alpha: float):
    expect(isinstance(answer, (tuple, list)) and len(answer) == 2,
           f"biplot_factors should return a pair (scores, loadings), got {type(answer).__name__}")
    G = answer_array(answer[0], f"the scores for alpha={alpha}, k={k}", (n, k))
    H = answer_array(answer[1], f"the loadings for alpha={alpha}, k={k}", (p, k))
    return G, H


@register("03.biplot_factors",
          hint="centre X, take the SVD Xc = U D V', then scores = U_k D_k^(1-alpha) and loadings = V_k D_k^alpha")
def _biplot_factors(answer, rng):
    for alpha in (*ALPHAS, float(rng.uniform())):
        X = _fresh_crabs(rng)
        n, p = X.shape
        Xc = X - X.mean(axis=0)
        U, d, Vt = np.linalg.svd(Xc, full_matrices=False)
        G, H = _pair(answer(X.copy(), alpha, p), n, p, p, alpha)
        expect_close(G @ H.T, Xc, f"scores @ loadings.T = centred X (alpha={alpha:.3g}, k={p})",
                     atol=1e-8 * np.abs(Xc).max())
        G, H = _pair(answer(X.copy(), alpha, 2), n, p, 2, alpha)
        expect_same_subspace(H, Vt[:2].T, f"the loadings (alpha={alpha:.3g}, k=2)")
        expect_same_subspace(G, U[:, :2], f"the scores (alpha={alpha:.3g}, k=2)")
        expect_close(G.T @ G, np.diag(d[:2] ** (2 - 2 * alpha)),
                     f"scores.T @ scores = D^(2 - 2 alpha) (alpha={alpha:.3g}, k=2)", atol=1e-8, rtol=1e-6)
        expect_close(H.T @ H, np.diag(d[:2] ** (2 * alpha)),
                     f"loadings.T @ loadings = D^(2 alpha) (alpha={alpha:.3g}, k=2)", atol=1e-8, rtol=1e-6)


@register("03.scaled_scores",
          hint="alpha = 1 and k = 5: the scores are U, the left singular vectors of the centred measurements")
def _scaled_scores(answer, rng):
    X, _ = _crabs()
    n, p = X.shape
    Xc = X - X.mean(axis=0)
    Z = answer_array(answer, "scaled_scores", (n, p))
    expect(np.allclose(Z.mean(axis=0), 0.0, atol=1e-10),
           "each column of scaled_scores should have mean 0 (scores of centred data)")
    expect_close(np.cov(Z, rowvar=False), np.eye(p) / (n - 1),
                 "the covariance of scaled_scores = I / (n - 1)", atol=1e-10)
    expect_close(Z @ (Z.T @ Xc), Xc, "scaled_scores spans the columns of the centred data",
                 atol=1e-8 * np.abs(Xc).max())
    loadings = Xc.T @ Z  # = V D when Z = U
    gram = loadings.T @ loadings
    expect(np.allclose(gram, np.diag(np.diag(gram)), atol=1e-6 * gram.max()),
           "each column of scaled_scores should be a left singular vector of the centred data "
           "(Xc.T @ scaled_scores should have orthogonal columns)")
    norms = np.sqrt(np.diag(gram))
    expect(bool(np.all(np.diff(norms) <= 1e-9 * norms[0])),
           "the columns of scaled_scores should be ordered by decreasing singular value")


@register("03.arrow_cosines",
          hint="alpha = 1, k = 5: normalise each loading row to length 1, then take all dot products")
def _arrow_cosines(answer, rng):
    X, _ = _crabs()
    p = X.shape[1]
    C = answer_array(answer, "arrow_cosines", (p, p))
    expect_close(np.diag(C), np.ones(p), "the cosine of the angle between an arrow and itself is 1, so the diagonal",
                 atol=1e-8)
    expect_close(C, C.T, "arrow_cosines should be symmetric; the symmetry", atol=1e-10)
    correlation = np.corrcoef(X, rowvar=False)
    if not np.allclose(C, correlation, atol=1e-8):
        worst = float(np.abs(C - correlation).max())
        raise CheckFailure(
            f"arrow_cosines differs from the correlation matrix of the measurements by up to {worst:.3g}; "
            "with alpha = 1 and all 5 components the cosines are exactly the correlations "
            "(with only 2 components they are an approximation)"
        )


def _reference_separation(scores: np.ndarray, labels: np.ndarray) -> np.ndarray:
    first = labels == labels[0]
    a, b = scores[first], scores[~first]
    pooled = ((len(a) - 1) * a.var(axis=0, ddof=1) + (len(b) - 1) * b.var(axis=0, ddof=1)) / (len(scores) - 2)
    return np.abs(a.mean(axis=0) - b.mean(axis=0)) / np.sqrt(pooled)


@register("03.species_separation",
          hint="per column: |mean of one species - mean of the other| / pooled standard deviation, "
               "pooled variance = ((n1 - 1) s1^2 + (n2 - 1) s2^2) / (n1 + n2 - 2)")
def _species_separation(answer, rng):
    for _ in range(3):
        n, k = int(rng.integers(20, 60)), int(rng.integers(2, 6))
        labels = rng.permutation(np.array(["B"] * (n // 2) + ["O"] * (n - n // 2)))
        shift = rng.normal(scale=3.0, size=k)
        scores = rng.normal(scale=rng.uniform(0.5, 4.0, size=k), size=(n, k)) + np.outer(labels == "O", shift)
        result = answer_array(answer(scores.copy(), labels.copy()), "species_separation(scores, species)", (k,))
        expect(bool(np.all(result >= 0)), "the separation is a size: it should never be negative (take |...|)")
        expect_close(result, _reference_separation(scores, labels),
                     "separation = |difference of the species means| / pooled within-species sd", atol=1e-8)


@register("03.species_component",
          hint="PCA of the standardised measurements (all 5 components), then compare the species "
               "separation of every component")
def _species_component(answer, rng):
    X, species = _crabs()
    expect(isinstance(answer, (int, np.integer)) and not isinstance(answer, bool),
           f"species_pc should be a whole number (1 for PC1, 2 for PC2, ...), got {answer!r}")
    expect(1 <= answer <= X.shape[1], f"species_pc should be between 1 and {X.shape[1]}, got {answer}")
    separation = _reference_separation(pca(X, scale=True).scores, species)
    best = int(np.argmax(separation)) + 1
    expect(answer == best,
           f"PC{answer} separates the species by {separation[answer - 1]:.2f} pooled standard deviations, "
           f"but another component does much better (count from 1: PC1 is component 1)")
