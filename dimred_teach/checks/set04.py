"""Checks of exercise set 04, multidimensional scaling.

Function answers are called on fresh random configurations drawn from the check's
generator; value answers are checked against properties of the data the exercise uses
(the random cloud of :func:`recover_b_points`, the eurodist table without Athens), which the
checks build themselves. The lecture analyses all 21 cities and prints their spectrum, and
shows a star metric that uses equality in the triangle inequality: the exercises ask for
other numbers.
"""

from __future__ import annotations

import functools

import numpy as np

from ..datasets import load_eurodist
from ..mds import double_center, procrustes, squared_distances
from . import register
from .properties import answer_array, expect, expect_close, in_random_order, is_close, random_orthogonal, tolerance

FORBIDS = ("dimred_teach.mds",  # classical MDS and the Procrustes alignment by hand
           "dimred_teach.linalg.center_rows_and_columns")  # 04.recover_b: H (-D2/2) H
"""What this set's answers may not use (modules or functions of the library): the grader's
kernel for this set does not have them, and ``check()`` fails an answer that uses them
(:mod:`dimred_teach.checks.policy`)."""

MISTAKES = {
    "missing-half": "forgot the factor -1/2",
    "rows-only": "centred the rows only",
    "uncentred-points": "the inner products of uncentred points",
    "unsquared-distances": "distances not squared",
    "smallest-eigenpairs": "the smallest eigenpairs instead of the largest",
    "eigenvectors-not-scaled": "eigenvectors not scaled by the square roots of their eigenvalues",
    "with-scaling": "a scaled alignment instead of a rigid one",
    "not-best-fit": "not the best rigid alignment (no centring, rotations only, or the transposed rotation)",
    "positive-only": "the positive eigenvalues only",
    "ascending": "in ascending order instead of largest first",
    "absolute-values": "absolute values: the negative eigenvalues lost their sign",
    "all-cities": "all 21 cities, as in the lecture, not the 20 without Athens",
    "not-relative": "eigenvalues not divided by the largest",
    "not-centred": "-1/2 D2 without the centring matrix H",
    "wrong-spectrum": "not the eigenvalues of B",
    "not-a-bool": "a number instead of True or False",
    "no-tolerance": "calls a Euclidean D non-Euclidean (no tolerance for rounding)",
    "says-euclidean": "calls a non-Euclidean D Euclidean",
    "too-few-points": "fewer than 3 points",
    "asymmetric": "not symmetric",
    "nonzero-diagonal": "a non-zero diagonal",
    "triangle-violated": "breaks the triangle inequality",
    "tight-triangle": "a triangle inequality that holds with equality (no room to spare)",
    "euclidean": "Euclidean distances, which real points have",
}
"""The typical mistakes this set's checks name: id (stable, counted by ``dimred-teach class-report``) to
short name. A failure no named mistake explains is ``other``."""


RECOVER_B_SEED = 4


def recover_b_points() -> np.ndarray:
    """The 10 points in R^3 of exercise 04.recover_b (deliberately not centred), shape (10, 3)."""
    return np.random.default_rng(RECOVER_B_SEED).normal(size=(10, 3)) + np.array([3.0, -1.0, 2.0])


DROPPED_CITY = "Athens"
"""Exercise 04.eurodist_spectrum leaves out this city (its row holds the impossible Athens-Rome entry)."""


@functools.cache
def eurodist_without(city: str | None = DROPPED_CITY) -> np.ndarray:
    """The road distances without ``city``'s row and column (all 21 cities for None), read-only."""
    table = load_eurodist()
    if city is not None:
        table = table.drop(index=city, columns=city)
    D = table.to_numpy(dtype=float)
    D.setflags(write=False)
    return D


def relative_spectrum(M: np.ndarray) -> np.ndarray:
    """The eigenvalues of the symmetric M, largest first, divided by the largest."""
    values = np.linalg.eigvalsh(M)[::-1]
    return values / values[0]
def _cloud(rng: np.random.Generator, p: int, n: int | None = None) -> np.ndarray:
    """A fresh cloud of n points in R^p with unequal spreads, not centred."""
    n = int(rng.integers(p + 4, 25)) if n is None else n
    return rng.normal(size=(n, p)) * rng.uniform(0.5, 4.0, size=p) + rng.normal(scale=5.0, size=p)


def _as_multiple(B: np.ndarray, reference: np.ndarray) -> float | None:
    """The factor c with B = c * reference, when there is one (else None)."""
    c = float(np.sum(B * reference) / np.sum(reference * reference))
    return c if is_close(B, c * reference, 1e-6) else None


@register("04.recover_b",
          hint="B = -1/2 H D2 H with H = I - 11'/n: subtract row and column means of D2, add back the grand mean, "
               "multiply by -1/2", answer=lambda: double_center(squared_distances(recover_b_points())))
def _recover_b(answer, rng):
    D2 = squared_distances(recover_b_points())
    n = D2.shape[0]
    B = answer_array(answer, "B", (n, n))
    reference = double_center(D2)
    factor = _as_multiple(B, reference)
    if factor is not None:
        expect(np.isclose(factor, 1.0, rtol=1e-3),
               f"B is {factor:.4g} times the right matrix: B = -1/2 H D2 H (mind the factor -1/2)",
               mistake="missing-half")
    expect_close(B, B.T, "B should be symmetric: B = B' (centre both the rows and the columns of D2)",
                 mistake="rows-only")
    row_sums = B.sum(axis=1)
    expect(is_close(row_sums, np.zeros(n), 1e-9, scale=np.abs(D2).max()),
           f"B 1 should be 0 (each row of B sums to zero, the points are centred); the largest row sum is "
           f"{np.abs(row_sums).max():.6g}", mistake="uncentred-points")
    diagonal = np.diag(B)
    expect_close(diagonal[:, None] + diagonal[None, :] - 2 * B, D2,
                 "diag(B) 1' + 1 diag(B)' - 2 B = D2 (B must reproduce the squared distances)",
                 mistake="unsquared-distances")


def _expect_same_configuration(X: np.ndarray, Z: np.ndarray, call: str) -> None:
    fit = procrustes(X, Z, scale=False)
    expect(fit.relative_residual <= tolerance(1e-8),
           f"with k = p the result of {call} should be the {X.shape[0]} points themselves up to rotation, reflection "
           f"and translation; after the best rigid alignment the relative residual is {fit.relative_residual:.3g}")


@register("04.classical_mds",
          hint="square D, double-centre it, take the k LARGEST eigenpairs of B (eigh sorts ascending) and scale each "
               "eigenvector by the square root of its eigenvalue")
def _classical_mds(answer, rng):
    cases = [(p, p) for p in (2, 3, 4)] + [(4, 2), (3, 1)]
    for p, k in in_random_order(rng, cases):
        X = _cloud(rng, p)
        n = X.shape[0]
        D = np.sqrt(squared_distances(X))
        call = f"my_classical_mds(D, k={k}) for {n} points in R^{p}"
        Z = answer_array(answer(D.copy(), k), call, (n, k))
        spread = float(np.abs(X - X.mean(axis=0)).max())
        expect(bool(np.any(np.abs(Z - Z.mean(axis=0)) > tolerance(1e-6) * spread)),
               f"{call} puts all {n} points at the same place: did you keep the smallest eigenvalues (zero) instead "
               "of the largest? np.linalg.eigh sorts them in ascending order", mistake="smallest-eigenpairs")
        B = double_center(D**2)
        values, vectors = np.linalg.eigh(B)
        values, vectors = values[::-1][:k], vectors[:, ::-1][:, :k]
        expect(not is_close(np.linalg.norm(Z, axis=0), np.ones(k), 1e-6),
               f"the columns of {call} have length 1: scale each eigenvector by the square root of its eigenvalue",
               mistake="eigenvectors-not-scaled")
        unsquared = np.linalg.eigvalsh(double_center(D))[::-1][:k]
        expect(not is_close(np.sort(np.sum((Z - Z.mean(axis=0)) ** 2, axis=0))[::-1], unsquared, 1e-6),
               f"{call} double-centres D itself: B = -1/2 H D2 H needs the SQUARED distances",
               mistake="unsquared-distances")
        if k == p:
            _expect_same_configuration(X, Z, call)
            continue
        Zc = Z - Z.mean(axis=0)
        strain = float(np.sum((B - Zc @ Zc.T) ** 2))
        all_values = np.linalg.eigvalsh(B)
        best = float(np.sum(all_values**2) - np.sum(values**2))
        expect(strain <= best + tolerance(1e-8) * float(np.sum(all_values**2)),
               f"with k = {k} < p = {p}, {call} should be the best {k}-dimensional view (the {k} LARGEST eigenpairs): "
               f"||B - Z Z'||^2 = {strain:.6g} is more than the sum of the squared dropped eigenvalues")


@register("04.align", hint="centre A and B, take the SVD of B_c' A_c = U S V', rotate by Q = U V', then shift the "
                           "centre of B onto the centre of A")
def _align(answer, rng):
    cases = [(2, 0.0, True), (3, 0.0, False), (3, 0.0, True), (3, 0.3, bool(rng.integers(2)))]
    cases += [(int(rng.integers(2, 5)), float(rng.choice([0.0, 0.3])), bool(rng.integers(2)))
              for _ in range(int(rng.integers(1, 3)))]
    for p, noise, reflection in in_random_order(rng, cases):
        A = _cloud(rng, p)
        n = A.shape[0]
        Q = random_orthogonal(rng, p)
        if (np.linalg.det(Q) < 0) != reflection:
            Q[:, 0] = -Q[:, 0]
        B = A @ Q + rng.normal(scale=5.0, size=p) + rng.normal(scale=noise, size=(n, p))
        kind = "a reflection" if reflection else "a rotation"
        call = f"align(A, B) for {n} points in R^{p} (B is {kind} of A plus a shift, noise {noise})"
        M = answer_array(answer(A.copy(), B.copy()), call, (n, p))
        expect_close(squared_distances(M), squared_distances(B),
                     f"{call} should move B rigidly, without scaling: the distances between its points must not "
                     "change;", scale=np.abs(squared_distances(B)).max(), mistake="with-scaling")
        misfit = float(np.sum((A - M) ** 2))
        best = procrustes(A, B, scale=False).residual
        spread = float(np.sum((A - A.mean(axis=0)) ** 2))
        expect(misfit <= best + tolerance(1e-9) * spread,
               f"{call}: the moved B is not as close to A as a rigid motion (rotation or reflection, and a shift) "
               f"can bring it: its sum of squared differences, {misfit:.6g}, can be made smaller",
               mistake="not-best-fit")


@register("04.eurodist_spectrum",
          hint="drop Athens's row and column, then B = -1/2 H D2 H of the squared road distances; np.linalg.eigvalsh "
               "gives ALL its eigenvalues (ascending): reverse them, keep the negative ones, divide by the largest",
          answer=lambda: relative_spectrum(double_center(eurodist_without() ** 2)))
def _eurodist_spectrum(answer, rng):
    D = eurodist_without()
    n = D.shape[0]
    values = answer_array(answer, "relative_eigenvalues", (None,), wrong_shape="positive-only")
    expect(values.shape != (n + 1,), f"relative_eigenvalues has {n + 1} entries, one per city of the lecture: the "
                                     f"exercise leaves out {DROPPED_CITY}", mistake="all-cities")
    expect(values.shape == (n,), f"relative_eigenvalues should have all {n} eigenvalues, got {values.shape[0]} "
                                 "(keep the negative ones)", mistake="positive-only")
    expected = relative_spectrum(double_center(D**2))
    expect(not np.any(np.diff(values) > tolerance(1e-10)),
           "the eigenvalues should be sorted largest first, in descending order (np.linalg.eigvalsh sorts them in "
           "ascending order)", mistake="ascending")
    expect(abs(values[0] - 1) <= tolerance(1e-8) or not is_close(values / values[0], expected, 1e-6),
           "these are the eigenvalues themselves: divide them by the largest one", mistake="not-relative")
    absolute = np.sort(np.abs(expected))[::-1]
    expect(not is_close(values, absolute / absolute[0], 1e-6),
           "these are the absolute values of the eigenvalues (singular values of B): the negative eigenvalues "
           "must stay negative; use np.linalg.eigvalsh", mistake="absolute-values")
    expect(not is_close(values, relative_spectrum(double_center(D)), 1e-6),
           "these are the eigenvalues of -1/2 H D H: square the road distances first (D2 = D**2)",
           mistake="unsquared-distances")
    expect(not is_close(values, relative_spectrum(-2 * double_center(D**2)), 1e-6),
           "these are the eigenvalues of H D2 H, -2 times those of B: mind the factor -1/2 in B = -1/2 H D2 H",
           mistake="missing-half")
    expect(not is_close(values, relative_spectrum(-0.5 * D**2), 1e-6),
           "these are the eigenvalues of -1/2 D2, not centred: B = -1/2 H D2 H needs the centring matrix "
           "H = I - 11'/n on both sides", mistake="not-centred")
    expect_close(values, expected, "the eigenvalues of B = -1/2 H D2 H, largest first, negative ones included, "
                                   "divided by the largest:", scale=1.0, mistake="wrong-spectrum")


def _gram_with_spectrum(rng: np.random.Generator, n: int, values: np.ndarray) -> np.ndarray:
    """A double-centred n x n matrix with the given nonzero eigenvalues (eigenvectors orthogonal to 1)."""
    basis = np.linalg.qr(np.column_stack([np.ones(n), rng.normal(size=(n, values.size))]))[0][:, 1:]
    return (basis * values) @ basis.T


def _distances_of_gram(B: np.ndarray) -> np.ndarray:
    diagonal = np.diag(B)
    D2 = diagonal[:, None] + diagonal[None, :] - 2 * B
    np.fill_diagonal(D2, 0.0)
    return np.sqrt(np.maximum(D2, 0.0))


def _is_euclidean_cases(rng: np.random.Generator) -> list[tuple[np.ndarray, bool, str]]:
    """A random mix of Euclidean and non-Euclidean D: at least four of each, some close to the threshold."""
    cases = []
    for _ in range(int(rng.integers(3, 6))):
        p = int(rng.choice([2, 5, 30]))
        X = _cloud(rng, p, n=int(rng.integers(8, 20)))
        cases.append((np.sqrt(squared_distances(X)), True, f"the distances of {X.shape[0]} points in R^{p}"))
    n, p = int(rng.integers(8, 14)), int(rng.integers(2, 5))
    positive = np.sort(rng.uniform(1.0, 10.0, size=p))[::-1]
    tiny = float(-10.0 ** rng.uniform(-13, -11)) * positive[0]
    B = _gram_with_spectrum(rng, n, np.append(positive, tiny))
    cases.append((_distances_of_gram(B), True, f"a Euclidean D whose B has a rounding-size eigenvalue "
                                               f"{tiny / positive[0]:.2g} times the largest"))
    for _ in range(int(rng.integers(2, 4))):
        n, p = int(rng.integers(8, 14)), int(rng.integers(2, 5))
        positive = np.sort(rng.uniform(1.0, 10.0, size=p))[::-1]
        slight = float(-10.0 ** rng.uniform(-6, -2)) * positive[0]
        B = _gram_with_spectrum(rng, n, np.append(positive, slight))
        cases.append((_distances_of_gram(B), False, "a D whose B has a small negative eigenvalue"))
    X = _cloud(rng, 3)
    D = np.sqrt(squared_distances(X))
    D[0, 1] = D[1, 0] = D[0, 2] + D[2, 1] + 1.0
    cases.append((D, False, "a D that violates the triangle inequality (D01 > D02 + D21)"))
    leaves = int(rng.integers(3, 8))
    arms = rng.uniform(1.0, 3.0, size=leaves)
    star = np.zeros((leaves + 1, leaves + 1))
    star[0, 1:] = star[1:, 0] = arms
    star[1:, 1:] = arms[:, None] + arms[None, :]
    np.fill_diagonal(star, 0.0)
    cases.append((star, False, f"the path distances of a star with {leaves} arms (a metric, but B has a negative "
                               "eigenvalue)"))
    return in_random_order(rng, cases)


@register("04.is_euclidean",
          hint="D is Euclidean exactly when B = -1/2 H D2 H has no negative eigenvalue; allow rounding noise by "
               "comparing the smallest eigenvalue with -1e-9 times the largest")
def _is_euclidean(answer, rng):
    for D, euclidean, description in _is_euclidean_cases(rng):
        result = answer(D.copy())
        expect(isinstance(result, (bool, np.bool_)), f"is_euclidean should return True or False, got {result!r}",
               mistake="not-a-bool")
        if euclidean:
            expect(bool(result), f"{description} is Euclidean, but is_euclidean returned False", mistake="no-tolerance")
        else:
            values = np.linalg.eigvalsh(double_center(D**2))
            expect(not result, f"{description} is not Euclidean, but is_euclidean returned True: the smallest "
                               f"eigenvalue of B is {values[0] / values[-1]:.3g} times the largest, below the "
                               "tolerance of -1e-9 times the largest", mistake="says-euclidean")


TRIANGLE_ROOM = 0.01
"""Exercise 04.non_euclidean_metric: every triangle inequality must hold with at least this
fraction of the largest distance to spare."""


@register("04.non_euclidean_metric",
          hint="start from a metric that uses equality in the triangle inequality (D_ij = D_ik + D_kj puts point k "
               "on the segment from i to j, in a Euclidean space) for several pairs through the same k, then "
               "give every triangle some room without losing the negative eigenvalue of B")
def _non_euclidean_metric(answer, rng):
    D = answer_array(answer, "D", (None, None))
    expect(D.shape[0] == D.shape[1] and D.shape[0] >= 3, f"D should be a square matrix of at least 3 points, "
                                                         f"got shape {D.shape}", mistake="too-few-points")
    n = D.shape[0]
    expect(is_close(D, D.T, 1e-12), "D should be symmetric", mistake="asymmetric")
    expect(bool(np.all(np.diag(D) == 0)), "D should have a zero diagonal", mistake="nonzero-diagonal")
    off = D[~np.eye(n, dtype=bool)]
    expect(bool(np.all(off > 0)), "the distances between distinct points should be positive")
    slack = D[:, :, None] + D[None, :, :] - D[:, None, :]  # slack[i, k, j] = D_ik + D_kj - D_ij
    expect(bool(np.all(slack >= -tolerance(1e-12) * D.max())),
           "D should satisfy the triangle inequality D_ij <= D_ik + D_kj for every i, j, k",
           mistake="triangle-violated")
    values = np.linalg.eigvalsh(double_center(D**2))
    expect(values[0] < -tolerance(1e-9) * values[-1],
           "D is Euclidean: B = -1/2 H D2 H has no negative eigenvalue, so real points have these distances",
           mistake="euclidean")
    distinct = (np.arange(n)[:, None, None] != np.arange(n)[None, :, None]) \
        & (np.arange(n)[None, :, None] != np.arange(n)[None, None, :]) \
        & (np.arange(n)[:, None, None] != np.arange(n)[None, None, :])
    expect(bool(np.all(slack[distinct] >= TRIANGLE_ROOM * D.max() * (1 - tolerance(1e-12)))),
           f"for some three points D_ij + D_jk - D_ik is less than {TRIANGLE_ROOM:g} times the largest distance "
           "(the lecture's star uses equality): every triangle inequality should hold with room to spare",
           mistake="tight-triangle")
