"""Checks of exercise set 08, standardising, whitening and kernel PCA.

Every exercise asks for a function, called on fresh random data (fresh rings for the RBF width:
a width that separates the notebook's rings, once known, could be typed in). Linear kernel PCA
receives only the kernel matrix, never the data, so the PCA of the data is not at hand.
"""

from __future__ import annotations

import numpy as np

from . import CheckFailure, register
from .properties import (
    answer_array,
    answer_number,
    drawn_once,
    expect,
    expect_close,
    expect_unlike,
    in_random_order,
    is_close,
)
from .set01 import random_data

FORBIDS = ("dimred_teach.kernel",  # whitening, kernels, centring and kernel PCA by hand
           "dimred_teach.linalg.center_rows_and_columns")  # 08.center_kernel: H K H
"""What this set's answers may not use (modules or functions of the library): the grader's
kernel for this set does not have them, and ``check()`` fails an answer that uses them
(:mod:`dimred_teach.checks.policy`)."""

MISTAKES = {
    "no-centring": "no centring: the columns' means were not subtracted",
    "no-sqrt-n-minus-1": "columns of length 1, without the factor sqrt(n - 1)",
    "divides-by-n": "divided by n instead of n - 1",
    "standardised": "standardised, not whitened",
    "no-grand-mean": "the grand mean not added back",
    "rows-only": "centred the rows only",
    "rows-not-centred": "rows that do not sum to zero",
    "transposed": "transposed",
    "unsquared-distances": "distances not squared",
    "wrong-kernel": "not exp(-gamma ||x - y||^2) (gamma as a width?)",
    "eigenvectors-only": "the eigenvectors, not the scores",
    "wrong-order": "columns in the wrong order",
    "wrong-scores": "not the PCA scores (K not centred, or divided by sqrt(n - 1))",
    "not-separating": "not the gammas at which the first component separates the classes",
    "one-direction": "one class above the other only (an eigenvector's sign is arbitrary)",
    "unit-eigenvectors": "unit-length eigenvectors, not scaled",
    "scores": "the scores, not the coefficients",
    "wrong-eigenvalue-scale": "divided by the eigenvalues of K / n or K / (n - 1)",
    "not-centred": "K not centred",
    "ascending": "in ascending order instead of largest first",
    "wrong-normalisation": "coefficients that do not give the kernel PCA scores",
}
"""The typical mistakes this set's checks name: id (stable, counted by ``dimred-teach class-report``) to
short name. A failure no named mistake explains is ``other``."""


@register("08.whiten", hint="with Xc = U D V' (np.linalg.svd(Xc, full_matrices=False)) the whitened data are "
                            "Xc V D^-1 sqrt(n - 1) = sqrt(n - 1) U")
def _whiten(answer, rng):
    for X in in_random_order(rng, [random_data(rng) for _ in range(int(rng.integers(4, 7)))]):
        n, p = X.shape
        call = f"whiten_data(X) for X of shape {X.shape}"
        Z = answer_array(answer(X.copy()), call, shape=(n, p))
        Xc = X - X.mean(axis=0)
        expect(is_close(Z.mean(axis=0), np.zeros(p), 1e-8, scale=np.abs(Z).max()),
               f"the columns of {call} should have mean 0: centre X first", mistake="no-centring")
        W = np.linalg.lstsq(Xc, Z, rcond=None)[0]
        expect(is_close(Xc @ W, Z, 1e-8, scale=np.abs(Z).max()),
               f"{call} is not a linear map of the centred data (Z = Xc @ W for a p x p matrix W)")
        C = Z.T @ Z / (n - 1)
        expect(not is_close(C, np.eye(p) / (n - 1), 1e-6),
               f"the covariance of {call} is I / (n - 1): its columns have length 1 (the notes' V_d'); "
               "multiply by sqrt(n - 1) so that the sample covariance is I", mistake="no-sqrt-n-minus-1")
        expect(not is_close(C, np.eye(p) * n / (n - 1), 1e-6),
               f"the covariance of {call} is n/(n-1) I: you scaled with 1/n (n versus n - 1: this course's "
               "sample covariance divides by n - 1)", mistake="divides-by-n")
        expect(not is_close(np.diag(C), np.ones(p), 1e-6) or is_close(C, np.eye(p), 1e-6),
               f"{call} has columns of variance 1 that are still correlated: that is standardising; whitening "
               "also removes the correlations (covariance I)", mistake="standardised")
        expect_close(C, np.eye(p), f"the sample covariance Z'Z / (n - 1) of {call} = I", scale=1.0)


def _poly2_features(X: np.ndarray) -> np.ndarray:
    """Explicit features of the kernel (x'y + 1)^2: all products x_a x_b, sqrt(2) x, and 1."""
    n = X.shape[0]
    products = np.einsum("na,nb->nab", X, X).reshape(n, -1)
    return np.column_stack([products, np.sqrt(2) * X, np.ones(n)])


@register("08.center_kernel", hint="K - (row means) - (column means) + (grand mean), i.e. H K H with H = I - 11'/n")
def _center_kernel(answer, rng):
    kinds = ["linear", "polynomial"]
    kinds += [str(rng.choice(kinds)) for _ in range(int(rng.integers(2, 5)))]
    for kind in in_random_order(rng, kinds):
        n, p = int(rng.integers(8, 20)), int(rng.integers(2, 5))
        X = rng.standard_normal((n, p)) + rng.normal(0, 2, p)
        Phi = X if kind == "linear" else _poly2_features(X)
        K = Phi @ Phi.T
        call = f"center_kernel_matrix(K) for a {kind} kernel of {n} points"
        centred = answer_array(answer(K.copy()), call, shape=(n, n))
        scale = float(np.abs(K).max())
        no_grand = K - K.mean(axis=0) - K.mean(axis=1)[:, None]
        expect(not is_close(centred, no_grand, 1e-8, scale=scale),
               f"{call}: you subtracted the row and column means but did not add back the grand mean",
               mistake="no-grand-mean")
        expect(is_close(centred, centred.T, 1e-8, scale=scale),
               f"{call} should be symmetric; did you centre the rows but not the columns?", mistake="rows-only")
        expect(is_close(centred.sum(axis=1), np.zeros(n), 1e-8, scale=scale * n),
               f"the rows of {call} should sum to zero (the centred features add up to 0)", mistake="rows-not-centred")
        Phi_c = Phi - Phi.mean(axis=0)
        expect_close(centred, Phi_c @ Phi_c.T,
                     f"{call} = inner products of the explicitly centred features", scale=scale)


@register("08.rbf_kernel", hint="the entry (i, j) is exp(-gamma * squared distance between row i of X and row j "
                                "of Y); broadcasting X[:, None, :] - Y[None, :, :] gives all the differences")
def _rbf_kernel(answer, rng):
    cases = []
    for _ in range(int(rng.integers(3, 5))):
        n, m, p = int(rng.integers(5, 12)), int(rng.integers(13, 20)), int(rng.integers(2, 5))
        X, Y = rng.standard_normal((n, p)), rng.standard_normal((m, p))
        gamma = float(rng.uniform(0.1, 1.5))
        cases += [(X, Y, gamma), (X, X.copy(), gamma)]
    for X, Y, gamma in in_random_order(rng, cases):
        (n, m), call = (len(X), len(Y)), f"rbf(X, Y, gamma={gamma:.6g}) for {len(X)} and {len(Y)} points"
        K = answer(X.copy(), Y.copy(), gamma)
        expect(np.shape(K) != (m, n) or n == m, f"{call} has shape {np.shape(K)}: it is transposed, rows belong to X",
               mistake="transposed")
        K = answer_array(K, call, shape=(n, m))
        squared = np.sum((X[:, None, :] - Y[None, :, :]) ** 2, axis=2)
        expect(not is_close(K, np.exp(-gamma * np.sqrt(squared)), 1e-6, scale=1.0),
               f"{call} uses the distance ||x - y||; the RBF kernel uses the SQUARED distance",
               mistake="unsquared-distances")
        expect_close(K, np.exp(-gamma * squared), f"{call}: K[i, j] = exp(-gamma ||x_i - y_j||^2)", scale=1.0,
                     mistake="wrong-kernel")


@register("08.linear_kpca_scores", hint="centre K with your Exercise 2; np.linalg.eigh sorts ascending, so take the "
                                        "last k eigenvectors, largest first, and multiply each by sqrt(its eigenvalue)")
def _linear_kpca_scores(answer, rng):
    from ..pca import pca

    expect(callable(answer), "the answer should be your function kpca_scores(K, k)")
    cases = []
    for _ in range(int(rng.integers(3, 5))):
        X = random_data(rng)
        cases.append((X, int(rng.integers(2, X.shape[1]))))
    for X, k in in_random_order(rng, cases):
        n = X.shape[0]
        call = f"kpca_scores(K, {k}) for the linear kernel matrix K = X X' of {n} points"
        scores = answer_array(answer(X @ X.T, k), call, shape=(n, k))  # only K: the data never reach the answer
        reference = pca(X, k=k).scores
        lengths = np.linalg.norm(scores, axis=0)
        expect(not is_close(lengths, np.ones(k), 1e-6, scale=1.0),
               f"{call}: your columns have length 1: those are the eigenvectors a_j; the scores are sqrt(mu_j) a_j",
               mistake="eigenvectors-only")
        scale = float(np.abs(reference).max())
        expect(not is_close(np.abs(scores[:, ::-1]), np.abs(reference), 1e-6, scale=scale),
               f"{call}: your columns are in the wrong order: the largest eigenvalue comes first",
               mistake="wrong-order")
        for j in range(k):
            sign = 1.0 if scores[:, j] @ reference[:, j] >= 0 else -1.0
            expect_close(sign * scores[:, j], reference[:, j],
                         f"{call}: column {j + 1} = the PCA scores of X on component {j + 1} (up to sign); did you "
                         "centre K?", rtol=1e-6, scale=scale, mistake="wrong-scores")


def random_rings(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, float]:
    """Two fresh noisy concentric rings in some unit: X of shape (n, 2), labels (1 on the inner ring, 0 on the
    outer, or the other way round) and the outer radius."""
    from ..datasets import make_circles

    radius = float(10 ** rng.uniform(-1.0, 1.0))
    X, labels = make_circles(int(rng.integers(20, 40)) * 2, noise=float(rng.uniform(0.02, 0.08)),
                             factor=float(rng.uniform(0.2, 0.5)), seed=int(rng.integers(2**31)))
    return radius * X, labels if rng.random() < 0.5 else 1 - labels, radius


def _squared_distances(X: np.ndarray) -> np.ndarray:
    """The squared Euclidean distances between the rows of X (n, p), shape (n, n), summed over the coordinates'
    differences (the instances were chosen with these very numbers, not :func:`dimred_teach.mds.squared_distances`'s
    from the Gram matrix)."""
    return np.sum((X[:, None, :] - X[None, :, :]) ** 2, axis=2)


def _rbf_matrix(squared: np.ndarray, gamma: float, half: bool = False) -> np.ndarray:
    """The RBF kernel matrix exp(-gamma ||x - y||^2) (n, n) from the squared distances (n, n), or with ``half``
    the typical mistake exp(-gamma ||x - y||^2 / 2)."""
    return np.exp(-gamma * squared / (2.0 if half else 1.0))


def first_component_separates(K: np.ndarray, labels: np.ndarray, centre: bool = True) -> bool | None:
    """Whether the scores on the first kernel PCA component of the kernel matrix K (n, n), centred unless
    ``centre`` is False (a typical mistake), of the two classes of ``labels`` (n,) do not overlap; None where that
    is too close to call (an overlap within 1e-3 of the scores' range, or the first two eigenvalues within 1e-3 of
    each other)."""
    values, vectors = np.linalg.eigh(_centred_kernel(K) if centre else K)
    if values[-1] - values[-2] < 1e-3 * abs(values[-1]):
        return None
    z = vectors[:, -1]
    a, b = z[labels == 1], z[labels == 0]
    gaps = [a.min() - b.max(), b.min() - a.max()]
    if min(abs(gap) for gap in gaps) < 1e-3 * (z.max() - z.min()):
        return None
    return bool(max(gaps) > 0)


CIRCLE_MISTAKES = (
    (dict(centre=False), "uses K without centring it (centre the kernel matrix first: the first eigenvector of an "
                         "uncentred RBF kernel is positive everywhere and larger on the denser ring, whatever "
                         "gamma)", "not-centred"),
    (dict(half=True), "uses another kernel than exp(-gamma ||x - y||^2) (exp(-gamma ||x - y||^2 / 2) gives your "
                      "list)", "wrong-kernel"),
)
"""The typical mistakes of 08.circle_gamma: keywords (``centre`` of :func:`first_component_separates`, ``half`` of
:func:`_rbf_matrix`), message, mistake id."""


def _clear_verdicts(squared: np.ndarray, labels: np.ndarray, gamma: float) -> list[bool] | None:
    """:func:`first_component_separates` of the RBF kernel at ``gamma``, right and under each mistake of
    :data:`CIRCLE_MISTAKES` in turn, from the rings' squared distances (n, n) (each kernel matrix computed once);
    None as soon as one of them is too close to call."""
    kernels, found = {}, []
    for keywords in ({}, *(keywords for keywords, _, _ in CIRCLE_MISTAKES)):
        half = keywords.get("half", False)
        if half not in kernels:
            kernels[half] = _rbf_matrix(squared, gamma, half)
        verdict = first_component_separates(kernels[half], labels, keywords.get("centre", True))
        if verdict is None:
            return None
        found.append(verdict)
    return found


@drawn_once()
def _rings_case(rng: np.random.Generator, telling: bool = False):
    """Fresh rings, their labels and 6 gammas at which the first component's verdict is clear (right and under
    every mistake of :data:`CIRCLE_MISTAKES`), some separating and some not, with the verdicts; if ``telling``,
    the right list and each mistake's differ from each other and are not empty. Drawn once per state of ``rng``
    (:func:`~dimred_teach.checks.properties.drawn_once`): the rejection loop's eigendecompositions take most of
    the check's time."""
    while True:
        X, labels, radius = random_rings(rng)
        gammas = np.unique(np.round(10 ** rng.uniform(-2.0, 2.5, 12) / radius**2, 4 - int(np.floor(np.log10(
            1.0 / radius**2)))))
        squared, verdicts = _squared_distances(X), {}
        for gamma in rng.permutation(gammas):
            found = _clear_verdicts(squared, labels, gamma)
            if found is not None:
                verdicts[float(gamma)] = found
            if len(verdicts) == 6:
                break
        lists = [[found[j] for found in verdicts.values()] for j in range(len(CIRCLE_MISTAKES) + 1)]
        told = all(any(found) and lists.count(found) == 1 for found in lists)
        if len(verdicts) == 6 and 0 < sum(lists[0]) < 6 and (told or not telling):
            return X, labels, radius, dict(sorted(verdicts.items()))


def _picked_gammas(found, gammas: list[float], call: str) -> set[float]:
    """The gammas of ``gammas`` a separating_gammas answer returns (at 1e-6: float32 values pass)."""
    expect(not isinstance(found, str) and hasattr(found, "__iter__"),
           f"{call} should return a list of gammas, got {type(found).__name__}", mistake="wrong-form")
    values = [answer_number(value, f"each gamma of {call}") for value in found]
    picked = [[gamma for gamma in gammas if is_close(value, gamma, 1e-6)] for value in values]
    expect(all(picked), f"{call} returns numbers that are not among the gammas given")
    return {match[0] for match in picked}


@register("08.circle_gamma", hint="for each gamma, centre the RBF kernel matrix, take the eigenvector of its "
                                  "largest eigenvalue and compare the two classes' ranges of scores: separated when "
                                  "one class lies entirely above the other, either way round")
def _circle_gamma(answer, rng):
    cases = [_rings_case(rng, telling=True)] + [_rings_case(rng) for _ in range(int(rng.integers(2, 4)))]
    failures = []
    for X, labels, radius, verdicts in in_random_order(rng, cases):
        gammas = list(verdicts)
        call = f"separating_gammas(X, labels, gammas) for {len(X)} points on rings of outer radius {radius:.3g}, " \
               f"gammas {gammas}"
        mine, swapped = (_picked_gammas(answer(X.copy(), given, list(gammas)), gammas, call)
                         for given in (labels.copy(), 1 - labels))
        expect(mine == swapped, f"{call} changes when the labels 0 and 1 are swapped: it counts only one class above "
                                "the other, but the sign of an eigenvector is arbitrary, so either class may lie "
                                "above", mistake="one-direction")
        right = {gamma for gamma in gammas if verdicts[gamma][0]}
        if mine == right:
            continue
        explained = [(message, mistake) for number, (_, message, mistake) in enumerate(CIRCLE_MISTAKES, start=1)
                     if mine == {gamma for gamma in gammas if verdicts[gamma][number]} and mine]
        failures.append(CheckFailure(f"{call} {explained[0][0]}", mistake=explained[0][1]) if len(explained) == 1 else
                        CheckFailure(f"{call}: for some of these gammas your function says the first kernel component "
                                     "separates the classes when it does not, or the other way round",
                                     mistake="not-separating"))
    if failures:  # a mistake one instance names is told apart from the others there
        raise next((failure for failure in failures if failure.mistake != "not-separating"), failures[0])


def _random_kernel_matrix(rng: np.random.Generator, k: int) -> tuple[np.ndarray, str]:
    """A fresh uncentred kernel matrix (linear, polynomial or RBF) whose centred version has
    k + 1 leading eigenvalues that are positive and well apart (relative gaps of at least 5%)."""
    while True:
        n, p = int(rng.integers(12, 30)), int(rng.integers(k + 1, 5))
        X = rng.standard_normal((n, p)) * rng.uniform(0.5, 2.0, p) + rng.normal(0, 2, p)
        kind = str(rng.choice(["a linear", "a polynomial", "an RBF"]))
        if kind == "a linear":
            K = X @ X.T
        elif kind == "a polynomial":
            K = (X @ X.T / p + 1.0) ** 2
        else:
            K = np.exp(-float(rng.uniform(0.05, 0.5)) * _squared_distances(X))
        top = np.sort(np.linalg.eigvalsh(_centred_kernel(K)))[::-1][: k + 1]
        if top[k - 1] > 0 and np.all(-np.diff(top) > 0.05 * top[:k]):
            return K, kind


def _centred_kernel(K: np.ndarray) -> np.ndarray:
    return K - K.mean(axis=0) - K.mean(axis=1)[:, None] + K.mean()


def _top_eigenpairs(K: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k largest eigenvalues of the symmetric K, descending, and their unit eigenvectors."""
    values, vectors = np.linalg.eigh(K)
    return values[::-1][:k], vectors[:, ::-1][:, :k]


def _aligned(A: np.ndarray, V: np.ndarray) -> np.ndarray:
    """A with each column's sign chosen to agree with the same column of V."""
    return A * np.where(np.sum(A * V, axis=0) < 0, -1.0, 1.0)


@register("08.dual_normalisation",
          hint="centre K (your Exercise 2), take the k largest eigenvalues mu_j = n lambda_j of the centred matrix "
               "(largest first) and divide each unit eigenvector by sqrt(mu_j): then mu_j a_j'a_j = a_j' K a_j = 1")
def _dual_normalisation(answer, rng):
    ks = [2, 3] + [int(k) for k in rng.integers(1, 4, int(rng.integers(2, 4)))]
    cases = [_random_kernel_matrix(rng, k) + (k,) for k in ks]
    for K, kind, k in in_random_order(rng, cases):
        n = K.shape[0]
        call = f"dual_coefficients(K, k={k}) for {kind} kernel matrix of {n} points"
        A = answer_array(answer(K.copy(), k), call, shape=(n, k))
        K_c = _centred_kernel(K)
        mu, V = _top_eigenpairs(K_c, k)
        reference = V / np.sqrt(mu)
        aligned = _aligned(A, V)
        expect_unlike(aligned, V, reference,
                      f"{call}: your columns have length 1, so each component u = sum_i a_i phi(x_i) has squared "
                      "length a'Ka = mu; divide the unit eigenvector by sqrt(mu), so that n lambda a'a = 1", 1e-6,
                      mistake="unit-eigenvectors")
        expect_unlike(aligned, V * np.sqrt(mu), reference,
                      f"{call} returns the scores sqrt(mu_j) v_j = K a_j; the dual coefficients are v_j / sqrt(mu_j)",
                      1e-6, mistake="scores")
        for divisor, name in ((n, "n"), (n - 1, "n - 1")):
            expect_unlike(aligned, V / np.sqrt(mu / divisor), reference,
                          f"{call} divides by sqrt(mu_j / ({name})), the eigenvalue lambda of a covariance, so "
                          f"a'Ka = {name}: the length of u is n lambda a'a with the notes' lambda = mu / n, i.e. "
                          "divide by sqrt(n lambda) = sqrt(mu), the eigenvalue of K itself", 1e-6,
                          mistake="wrong-eigenvalue-scale")
        mu_raw, V_raw = _top_eigenpairs(K, k)
        expect_unlike(_aligned(A, V_raw), V_raw / np.sqrt(mu_raw), reference,
                      f"{call} uses the eigenvectors of K itself: centre K first (your Exercise 2), the features "
                      "must have mean 0", 1e-6, mistake="not-centred")
        expect_unlike(_aligned(A, V[:, ::-1]), reference[:, ::-1], reference,
                      f"{call} has its columns in ascending order of the eigenvalues: the largest comes first", 1e-6,
                      mistake="ascending")
        scores = K_c @ A
        expect_close(_aligned(scores, V), V * np.sqrt(mu),
                     f"{call}: the scores K_c a_j (K_c the centred K) = sqrt(mu_j) v_j, v_j the eigenvector of the "
                     "j-th largest eigenvalue mu_j", scale=float(np.sqrt(mu[0])), mistake="wrong-normalisation")
        expect_close(A.T @ K_c @ A, np.eye(k),
                     f"{call}: the components have unit length and are orthogonal, a_i' K_c a_j = 1 if i = j else 0",
                     scale=1.0)
