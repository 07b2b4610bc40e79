"""Checks of exercise set 04, multidimensional scaling.

Function answers are called on fresh random configurations drawn from the check's
generator; value answers are checked against properties of the data the exercise uses
(the random cloud of :func:`recover_b_points`, the eurodist table), which the checks
build themselves.
"""

from __future__ import annotations

import functools

import numpy as np

from . import CheckFailure, register
from .properties import answer_array, expect, expect_close
from ..datasets import load_eurodist
from ..mds import double_center, procrustes, squared_distances

RECOVER_B_SEED = 4


def recover_b_points() -> np.ndarray:
    """The 10 points in R^3 of exercise 04.recover_b (deliberately not centred), shape (10, 3)."""
    return np.random.default_rng(RECOVER_B_SEED).normal(size=(10, 3)) + np.array([3.0, -1.0, 2.0])


@functools.lru_cache(maxsize=1)
def _eurodist_b() -> np.ndarray:
    B = double_center(load_eurodist().to_numpy() ** 2)
    B.setflags(write=False)
    return B


def _cloud(rng: np.random.Generator, p: int, n: int | None = None) -> np.ndarray:
    """A fresh cloud of n points in R^p with unequal spreads, not centred."""
    n = int(rng.integers(p + 4, 25)) if n is None else n
    return rng.normal(size=(n, p)) * rng.uniform(0.5, 4.0, size=p) + rng.normal(scale=5.0, size=p)


def _orthogonal(rng: np.random.Generator, p: int) -> np.ndarray:
    """A random orthogonal matrix; about half of them are reflections."""
    Q, R = np.linalg.qr(rng.normal(size=(p, p)))
    return Q * np.sign(np.diag(R))


@register("04.recover_b",
          hint="B = -1/2 H D2 H with H = I - 11'/n: subtract row and column means of D2, add back the grand mean, "
               "multiply by -1/2")
def _recover_b(answer, rng):
    D2 = squared_distances(recover_b_points())
    n = D2.shape[0]
    B = answer_array(answer, "B", (n, n))
    scale = np.abs(D2).max()
    expect_close(B, B.T, "B should be symmetric: B = B'", atol=1e-9 * scale)
    row_sums = B.sum(axis=1)
    expect(np.allclose(row_sums, 0.0, atol=1e-9 * scale),
           f"B 1 should be 0 (each row of B sums to zero, the points are centred); the largest row sum is "
           f"{np.abs(row_sums).max():.3g}")
    diagonal = np.diag(B)
    expect_close(diagonal[:, None] + diagonal[None, :] - 2 * B, D2,
                 "diag(B) 1' + 1 diag(B)' - 2 B = D2 (B must reproduce the squared distances)", atol=1e-9 * scale)


@register("04.classical_mds",
          hint="square D, double-centre it, take the k LARGEST eigenpairs of B (eigh sorts ascending) and scale each "
               "eigenvector by the square root of its eigenvalue")
def _classical_mds(answer, rng):
    for p in (2, 3, 4):
        X = _cloud(rng, p)
        n = X.shape[0]
        D = np.sqrt(squared_distances(X))
        Z = answer_array(answer(D.copy(), p), f"my_classical_mds(D, k={p}) for {n} points in R^{p}", (n, p))
        expect(bool(np.any(np.abs(Z - Z.mean(axis=0)) > 1e-12 * np.abs(X).max())),
               f"my_classical_mds(D, k={p}) puts all {n} points at the same place: did you keep the smallest "
               "eigenvalues (zero) instead of the largest? np.linalg.eigh sorts them in ascending order")
        fit = procrustes(X, Z, scale=False)
        expect(fit.relative_residual < 1e-8,
               f"with k = p = {p} the embedding should be the {n} points themselves up to rotation, reflection "
               f"and translation; after the best rigid alignment the relative residual is {fit.relative_residual:.3g}")
    X = _cloud(rng, 4)
    n = X.shape[0]
    D = np.sqrt(squared_distances(X))
    B = double_center(D**2)
    values = np.linalg.eigvalsh(B)[::-1]
    Z = answer_array(answer(D.copy(), 2), f"my_classical_mds(D, k=2) for {n} points in R^4", (n, 2))
    Zc = Z - Z.mean(axis=0)
    strain = float(np.sum((B - Zc @ Zc.T) ** 2))
    best = float(np.sum(values[2:] ** 2))
    expect(strain <= best * (1 + 1e-6) + 1e-9 * float(np.sum(values**2)),
           f"with k = 2 < p = 4 the embedding should be the best 2-dimensional view: ||B - Z Z'||^2 should be "
           f"{best:.6g} (the squared dropped eigenvalues), got {strain:.6g}")


@register("04.align", hint="centre A and B, take the SVD of B_c' A_c = U S V', rotate by Q = U V', then shift the "
                           "centre of B onto the centre of A")
def _align(answer, rng):
    for p, noise in ((2, 0.0), (3, 0.0), (3, 0.3)):
        A = _cloud(rng, p)
        n = A.shape[0]
        B = A @ _orthogonal(rng, p) + rng.normal(scale=5.0, size=p) + rng.normal(scale=noise, size=(n, p))
        M = answer_array(answer(A.copy(), B.copy()), f"align(A, B) for {n} points in R^{p}", (n, p))
        expect_close(squared_distances(M), squared_distances(B),
                     "align(A, B) should move B rigidly: the distances between its points must not change",
                     atol=1e-8 * np.abs(B).max() ** 2)
        misfit = float(np.sum((A - M) ** 2))
        best = procrustes(A, B, scale=False).residual
        spread = float(np.sum((A - A.mean(axis=0)) ** 2))
        expect(misfit <= best + 1e-9 * spread,
               f"the aligned B is not as close to A as a rigid motion can bring it (noise {noise}): "
               f"sum of squared differences {misfit:.6g}, the best is {best:.6g}")


@register("04.eurodist_spectrum",
          hint="B = -1/2 H D2 H of the squared road distances; np.linalg.eigvalsh gives ALL its eigenvalues "
               "(ascending): reverse them, and keep the negative ones")
def _eurodist_spectrum(answer, rng):
    B = _eurodist_b()
    n = B.shape[0]
    values = answer_array(answer, "eigenvalues", (n,))
    expect(bool(np.all(np.diff(values) <= 1e-6 * np.abs(values).max())),
           "the eigenvalues should be sorted in descending order")
    scale = float(np.abs(B).max())
    power = np.eye(n)
    for order in (1, 2, 3):
        power = power @ B
        expect_close(np.sum(values**order), np.trace(power),
                     f"the sum of the eigenvalues to the power {order} should equal trace(B^{order}) "
                     "(are all 21 there, negative ones included?)", atol=1e-9 * scale**order * n, rtol=1e-8)
    for value in values:
        smallest = np.linalg.svd(B - value * np.eye(n), compute_uv=False)[-1]
        expect(smallest <= 1e-8 * scale * n, f"{value:.6g} is not an eigenvalue of B")


@register("04.is_euclidean",
          hint="D is Euclidean exactly when B = -1/2 H D2 H has no negative eigenvalue; allow rounding noise by "
               "comparing the smallest eigenvalue with -1e-9 times the largest")
def _is_euclidean(answer, rng):
    def verdict(D):
        result = answer(D.copy())
        expect(isinstance(result, (bool, np.bool_)), f"is_euclidean should return True or False, got {result!r}")
        return bool(result)

    for p in (2, 5, 30):
        X = _cloud(rng, p, n=int(rng.integers(8, 20)))
        D = np.sqrt(squared_distances(X))
        expect(verdict(D), f"the distances of {X.shape[0]} points in R^{p} are Euclidean, "
                                    "but is_euclidean returned False")
    X = _cloud(rng, 3)
    D = np.sqrt(squared_distances(X))
    D[0, 1] = D[1, 0] = D[0, 2] + D[2, 1] + 1.0
    expect(not verdict(D), "a D that violates the triangle inequality (D01 > D02 + D21) cannot be "
                                        "Euclidean, but is_euclidean returned True")
    leaves = int(rng.integers(3, 8))
    arms = rng.uniform(1.0, 3.0, size=leaves)
    star = np.zeros((leaves + 1, leaves + 1))
    star[0, 1:] = star[1:, 0] = arms
    star[1:, 1:] = arms[:, None] + arms[None, :]
    np.fill_diagonal(star, 0.0)
    expect(not verdict(star), f"the path distances of a star with {leaves} arms are a metric but not "
                                      "Euclidean (B has a negative eigenvalue), yet is_euclidean returned True")


@register("04.non_euclidean_metric",
          hint="use equality in the triangle inequality, D_ij = D_ik + D_kj: in a Euclidean space it puts point k on "
               "the segment from i to j; make that happen for several pairs through the same k")
def _non_euclidean_metric(answer, rng):
    D = answer_array(answer, "D", (None, None))
    expect(D.ndim == 2 and D.shape[0] == D.shape[1] and D.shape[0] >= 3, f"D should be a square matrix of at "
                                                                          f"least 3 points, got shape {D.shape}")
    n = D.shape[0]
    expect(bool(np.allclose(D, D.T)), "D should be symmetric")
    expect(bool(np.all(np.diag(D) == 0)), "D should have a zero diagonal")
    off = D[~np.eye(n, dtype=bool)]
    expect(bool(np.all(off > 0)), "the distances between distinct points should be positive")
    slack = D[:, :, None] + D[None, :, :] - D[:, None, :]  # slack[i, k, j] = D_ik + D_kj - D_ij
    expect(bool(np.all(slack >= -1e-12 * D.max())),
           "D should satisfy the triangle inequality D_ij <= D_ik + D_kj for every i, j, k")
    values = np.linalg.eigvalsh(double_center(D**2))
    if values[0] >= -1e-9 * values[-1]:
        raise CheckFailure("D is Euclidean: B = -1/2 H D2 H has no negative eigenvalue, so real points have "
                           "these distances")
