"""Checks of exercise set 02, eigendecomposition versus SVD. Every exercise asks for a
function, which is called on fresh random instances."""

from __future__ import annotations

import numpy as np

from . import register
from .properties import answer_array, expect, expect_close, expect_same_subspace
from .set01 import random_data


def _wide_data(rng: np.random.Generator) -> np.ndarray:
    """Fresh data with many more variables than points, shape (n, p), p >> n."""
    n, p = int(rng.integers(8, 20)), int(rng.integers(200, 400))
    return rng.standard_normal((n, p)) * np.linspace(3.0, 0.2, p) + rng.normal(0, 5, p)


def _top_eigvectors(X: np.ndarray, k: int) -> np.ndarray:
    Xc = X - X.mean(axis=0)
    _, _, Vt = np.linalg.svd(Xc, full_matrices=False)
    return Vt[:k].T


@register("02.eigenvalues_from_svd", hint="lambda_j = d_j**2 / (n - 1) with d the singular values of the CENTRED data")
def _eigenvalues_from_svd(answer, rng):
    for _ in range(3):
        X = random_data(rng)
        n, p = X.shape
        values = answer_array(answer(X.copy()), "eigenvalues_from_svd(X)", shape=(p,))
        expect(bool(np.all(np.diff(values) <= 1e-12)), "the eigenvalues should be sorted largest first")
        Xc = X - X.mean(axis=0)
        expected = np.sort(np.linalg.eigvalsh(Xc.T @ Xc / (n - 1)))[::-1]
        expect_close(values, expected, "the eigenvalues of the sample covariance")


@register("02.components_from_gram",
          hint="eigenvectors U of G = Xc Xc' (n x n), then V = Xc' U D^-1 with D = sqrt(eigenvalues of G)")
def _components_from_gram(answer, rng):
    for _ in range(3):
        X = _wide_data(rng)
        k = int(rng.integers(1, 4))
        V = answer_array(answer(X.copy(), k), "components_from_gram(X, k)", shape=(X.shape[1], k))
        expect_close(V.T @ V, np.eye(k), "the components should be orthonormal: V'V = I", atol=1e-8)
        expect_same_subspace(V, _top_eigvectors(X, k), "the k components")
        Xc = X - X.mean(axis=0)
        variances = np.sum((Xc @ V) ** 2, axis=0)
        expect(bool(np.all(np.diff(variances) <= 1e-8 * variances[0])),
               "the components should be ordered by decreasing variance")


@register("02.svd_is_pca", hint="take the SVD of the centred data; the directions are the right singular vectors")
def _svd_is_pca(answer, rng):
    for _ in range(3):
        X = random_data(rng)
        n, p = X.shape
        k = int(rng.integers(1, p + 1))
        returned = answer(X.copy(), k)
        expect(isinstance(returned, tuple) and len(returned) == 2,
               "pca_via_svd should return a pair (components, scores)")
        V = answer_array(returned[0], "components", shape=(p, k))
        Z = answer_array(returned[1], "scores", shape=(n, k))
        Xc = X - X.mean(axis=0)
        S = Xc.T @ Xc / (n - 1)
        lam = np.sort(np.linalg.eigvalsh(S))[::-1][:k]
        expect_close(S @ V, V * lam, "each component is an eigenvector of S with the matching eigenvalue: S V = V Lambda",
                     atol=1e-8 * lam[0])
        expect_close(Z, Xc @ V, "the scores should be the centred data projected on the components")


@register("02.power_iteration", hint="repeat v <- A v / |A v| from a random start; stop when v stops changing")
def _power_iteration(answer, rng):
    for _ in range(3):
        m = int(rng.integers(3, 8))
        Q = np.linalg.qr(rng.standard_normal((m, m)))[0]
        values = np.sort(rng.uniform(0.1, 1.0, m))[::-1]
        values[0] = values[1] / rng.uniform(0.5, 0.8)  # a clear gap
        A = Q @ np.diag(values) @ Q.T
        v = answer_array(answer(A.copy()), "leading_eigenvector(A)", shape=(m,))
        expect(np.isclose(np.linalg.norm(v), 1.0, atol=1e-6), f"the vector should have length 1, got {np.linalg.norm(v):.4f}")
        cosine = abs(float(v @ Q[:, 0]))
        expect(cosine > 1 - 1e-8, f"the vector is not the leading eigenvector (|cos angle| = {cosine:.6f})")


@register("02.smallest_k", hint="relative error of r components = (sum of eigenvalues after r) / (sum of all)")
def _smallest_k(answer, rng):
    for _ in range(6):
        spectrum = np.sort(rng.exponential(1.0, int(rng.integers(4, 12))))[::-1]
        tol = float(rng.uniform(0.02, 0.5))
        r = answer(spectrum.copy(), tol)
        expect(isinstance(r, (int, np.integer)), f"smallest_k should return an integer, got {type(r).__name__}")
        r = int(r)
        expect(1 <= r <= spectrum.size, f"r must lie between 1 and {spectrum.size}, got {r}")
        relative = lambda k: spectrum[k:].sum() / spectrum.sum()  # noqa: E731
        expect(relative(r) < tol, f"with r = {r} the relative error {relative(r):.3f} is not below tol = {tol:.3f}")
        expect(r == 1 or relative(r - 1) >= tol, f"r = {r} is not the smallest: r - 1 already meets tol = {tol:.3f}")
