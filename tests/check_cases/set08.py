"""Variants and mutants of exercise set 08, standardising, whitening and kernel PCA."""

import numpy as np
import scipy.linalg
import scipy.spatial.distance

from . import Mutant, Variant, as_list, first_calls_then, fortran, in_float32, returning, solution


def centred(X):
    return X - X.mean(axis=0)


def whiten(X, method="pca", ddof=1, centre=True):
    Xc = centred(X) if centre else X
    n = len(X)
    U, d, Vt = np.linalg.svd(Xc, full_matrices=False)
    if method == "pca":
        return Xc @ Vt.T / d * np.sqrt(n - ddof)
    if method == "zca":
        return Xc @ Vt.T / d @ Vt * np.sqrt(n - ddof)
    L = np.linalg.cholesky(Xc.T @ Xc / (n - ddof))  # S = L L': Z = Xc L^-T
    return np.linalg.solve(L, Xc.T).T


def center(K, grand=True, columns=True):
    out = K - K.mean(axis=1)[:, None]
    if columns:
        out = out - K.mean(axis=0)
    return out + K.mean() if grand and columns else out


def rbf(X, Y, gamma, squared=True):
    distances = scipy.spatial.distance.cdist(X, Y, "sqeuclidean" if squared else "euclidean")
    return np.exp(-gamma * distances)


def rbf_expanded(X, Y, gamma):
    squared = np.sum(X**2, 1)[:, None] + np.sum(Y**2, 1)[None, :] - 2 * X @ Y.T
    return np.exp(-gamma * np.maximum(squared, 0))


def kpca(K, k, center_k=True, scale=True):
    mu, A = np.linalg.eigh(center(K) if center_k else K)
    top = np.argsort(mu)[::-1][:k]
    return A[:, top] * (np.sqrt(mu[top]) if scale else 1.0)


def kpca_by_svd_of_centred_k(K, k):
    U, s, _ = np.linalg.svd(center(K))  # K~ is positive semidefinite: its SVD is its eigendecomposition
    return (U[:, :k] * np.sqrt(s[:k])).tolist()


CASES = {
    "08.whiten": (
        [
            Variant("float32", lambda: in_float32(solution("08.whiten")())),
            Variant("ZCA", lambda: lambda X: whiten(X, "zca")),
            Variant("Cholesky", lambda: lambda X: whiten(X, "cholesky")),
            Variant("sign flips", lambda: lambda X: -whiten(X)),
            Variant("nested lists", lambda: returning(whiten, as_list)),
            Variant("Fortran output", lambda: returning(whiten, fortran)),
        ],
        [
            Mutant("no sqrt(n - 1)", lambda: lambda X: np.linalg.svd(centred(X), full_matrices=False)[0],
                   r"I / \(n - 1\)", "no-sqrt-n-minus-1"),
            Mutant("1/n", lambda: lambda X: whiten(X, ddof=0), r"n versus n - 1", "divides-by-n"),
            Mutant("no centring", lambda: lambda X: whiten(X, centre=False), r"centre", "no-centring"),
            Mutant("standardised", lambda: lambda X: centred(X) / X.std(axis=0, ddof=1), r"standardising",
                    "standardised"),
            Mutant("right for three calls, then X", first_calls_then(whiten, 3, lambda X: X), r"mean 0", "no-centring"),
        ],
    ),
    "08.center_kernel": (
        [
            Variant("float32", lambda: in_float32(solution("08.center_kernel")())),
            Variant("means", lambda: center),
            Variant("nested lists", lambda: returning(center, as_list)),
        ],
        [
            Mutant("rows only", lambda: lambda K: center(K, columns=False), r"symmetric", "rows-only"),
            Mutant("no grand mean", lambda: lambda K: center(K, grand=False), r"grand mean", "no-grand-mean"),
            Mutant("grand mean only", lambda: lambda K: K - K.mean(), r"sum to zero", "rows-not-centred"),
            Mutant("right for three calls, then K", first_calls_then(center, 3, lambda K: K), r"sum to zero",
                    "rows-not-centred"),
        ],
    ),
    "08.rbf_kernel": (
        [
            Variant("float32", lambda: in_float32(solution("08.rbf_kernel")())),
            Variant("expanded squares", lambda: rbf_expanded),
            Variant("scipy cdist", lambda: rbf),
            Variant("nested lists", lambda: returning(rbf, as_list)),
        ],
        [
            Mutant("transposed", lambda: lambda X, Y, g: rbf(X, Y, g).T, r"transposed", "transposed"),
            Mutant("unsquared distance", lambda: lambda X, Y, g: rbf(X, Y, g, squared=False), r"SQUARED",
                    "unsquared-distances"),
            Mutant("gamma as a width", lambda: lambda X, Y, g: rbf(X, Y, 1 / (2 * g**2)), r"exp\(-gamma",
                    "wrong-kernel"),
            Mutant("right for three calls, then ones",
                   first_calls_then(rbf, 3, lambda X, Y, g: np.ones((len(X), len(Y)))), r"exp\(-gamma", "wrong-kernel"),
        ],
    ),
    "08.linear_kpca_scores": (
        [
            Variant("float32", lambda: in_float32(solution("08.linear_kpca_scores")())),
            Variant("sign flips", lambda: lambda K, k: kpca(K, k) * (-1) ** np.arange(k)),
            Variant("SVD of the centred K, nested lists", lambda: kpca_by_svd_of_centred_k),
            Variant("scipy eigh of the top k", lambda: lambda K, k: (lambda mu, A: A[:, ::-1] * np.sqrt(mu[::-1]))(
                *scipy.linalg.eigh(center(K), subset_by_index=[K.shape[0] - k, K.shape[0] - 1]))),
        ],
        [
            Mutant("eigenvectors only", lambda: lambda K, k: kpca(K, k, scale=False), r"length 1", "eigenvectors-only"),
            Mutant("wrong order", lambda: lambda K, k: kpca(K, k)[:, ::-1], r"wrong order", "wrong-order"),
            Mutant("K not centred", lambda: lambda K, k: kpca(K, k, center_k=False), r"centre K", "wrong-scores"),
            Mutant("scores / sqrt(n - 1)", lambda: lambda K, k: kpca(K, k) / np.sqrt(K.shape[0] - 1), r"PCA scores",
                   "wrong-scores"),
        ],
    ),
    "08.circle_gamma": (
        [
            Variant("a numpy array", lambda: returning(separating_gammas, np.array)),
            Variant("float32 kernel", lambda: lambda X, labels, gammas: separating_gammas(
                X.astype(np.float32), labels, [np.float32(g) for g in gammas])),
            Variant("scores from an SVD of the centred kernel", lambda: lambda X, labels, gammas: [
                g for g in gammas if separated(np.linalg.svd(center(rbf_matrix(X, g)))[0][:, 0], labels)]),
            Variant("a mask applied to the gammas", lambda: lambda X, labels, gammas: np.asarray(gammas)[
                [separated(first_component(X, g), labels) for g in gammas]]),
        ],
        [
            Mutant("one class above the other only", lambda: lambda X, labels, gammas: [
                g for g in gammas if separated(first_component(X, g), labels, both_ways=False)],
                   r"either class", "one-direction"),
            Mutant("kernel not centred", lambda: lambda X, labels, gammas: [
                g for g in gammas if separated(first_component(X, g, centre=False), labels)], r"without centring",
                   "not-centred"),
            Mutant("eigh's first column", lambda: lambda X, labels, gammas: [
                g for g in gammas if separated(first_component(X, g, column=0), labels)], r"separates the classes when",
                   "not-separating"),
            Mutant("unsquared distances", lambda: lambda X, labels, gammas: [
                g for g in gammas if separated(first_component(X, g, distances=np.sqrt), labels)],
                   r"separates the classes when|another kernel", ("not-separating", "wrong-kernel")),
            Mutant("exp(-gamma d^2 / 2)", lambda: lambda X, labels, gammas: [
                g for g in gammas if separated(first_component(X, g / 2), labels)], r"another kernel", "wrong-kernel"),
            Mutant("every gamma", lambda: lambda X, labels, gammas: list(gammas),
                   r"separates the classes when|without centring", ("not-separating", "not-centred")),
            Mutant("the notebook's rings' answer, typed", lambda: lambda X, labels, gammas: [0.25],
                   r"not among the gammas", "other"),
            Mutant("a string", lambda: lambda X, labels, gammas: "0.25", r"list of gammas", "wrong-form"),
        ],
    ),
}


def dual(K, k, centre=True, divisor=None, ascending=False, scale="dual"):
    """Dual coefficients of the k leading components of K, right or in a typical wrong way."""
    mu, V = np.linalg.eigh(center(K) if centre else K)
    top = np.argsort(mu)[::-1][:k]
    if ascending:
        top = top[::-1]
    mu, V = mu[top], V[:, top]
    if scale == "unit":
        return V
    if scale == "scores":
        return V * np.sqrt(mu)
    return V / np.sqrt(mu / divisor) if divisor else V / np.sqrt(mu)


def dual_by_svd(K, k):
    U, d, _ = np.linalg.svd(center(K))  # centred K is symmetric positive semi-definite: U are its eigenvectors
    return U[:, :k] / np.sqrt(d[:k])


def dual_from_scores(K, k):
    mu, V = scipy.linalg.eigh(center(K), subset_by_index=[len(K) - k, len(K) - 1])
    image = center(K) @ V[:, ::-1]                 # K v = mu v, so K v / mu^(3/2) = v / sqrt(mu)
    return image / mu[::-1] ** 1.5


def dual_plus_null_space(K, k):
    A = dual(K, k)
    return A + np.linspace(0.2, 0.5, k) * np.ones((len(K), 1)) / np.sqrt(len(K))


CASES["08.dual_normalisation"] = (
    [
        Variant("float32", lambda: in_float32(solution("08.dual_normalisation")())),
        Variant("sign flips", lambda: lambda K, k: dual(K, k) * (-1.0) ** np.arange(k)),
        Variant("nested lists", lambda: returning(dual, as_list)),
        Variant("SVD of the centred K", lambda: dual_by_svd),
        Variant("scipy eigh of the top k, through K v", lambda: dual_from_scores),
        Variant("plus a null-space part (the constant vector)", lambda: dual_plus_null_space),
    ],
    [
        Mutant("unit-length eigenvectors", lambda: lambda K, k: dual(K, k, scale="unit"), r"length 1",
                "unit-eigenvectors"),
        Mutant("the scores", lambda: lambda K, k: dual(K, k, scale="scores"), r"returns the scores", "scores"),
        Mutant("lambda of K / n", lambda: lambda K, k: dual(K, k, divisor=len(K)), r"mu_j / \(n\)",
                "wrong-eigenvalue-scale"),
        Mutant("lambda of K / (n - 1)", lambda: lambda K, k: dual(K, k, divisor=len(K) - 1), r"mu_j / \(n - 1\)",
                "wrong-eigenvalue-scale"),
        Mutant("K not centred", lambda: lambda K, k: dual(K, k, centre=False), r"centre K", "not-centred"),
        Mutant("ascending order", lambda: lambda K, k: dual(K, k, ascending=True), r"ascending", "ascending"),
        Mutant("right for three calls, then zeros",
               first_calls_then(dual, 3, lambda K, k: np.zeros((len(K), k))), r"scores K_c", "wrong-normalisation"),
    ],
)


def rbf_matrix(X, gamma, distances=lambda d2: d2):
    return np.exp(-gamma * distances(np.sum((X[:, None, :] - X[None, :, :]) ** 2, axis=2)))


def first_component(X, gamma, centre=True, column=-1, distances=lambda d2: d2):
    K = rbf_matrix(X, gamma, distances)
    return np.linalg.eigh(center(K) if centre else K)[1][:, column]


def separated(z, labels, both_ways=True):
    one, other = z[labels == 1], z[labels == 0]
    return one.min() > other.max() or (both_ways and one.max() < other.min())


def separating_gammas(X, labels, gammas):
    return [g for g in gammas if separated(first_component(X, g), labels)]
