"""Variants and mutants of exercise set 02, eigendecomposition versus SVD."""

import numpy as np
import pandas as pd

from . import Mutant, Variant, as_list, first_calls_then, fortran, given, in_float32, returning, solution


def centred(X):
    return X - X.mean(axis=0)


def eigenvalues_eigh(X):
    return np.linalg.eigvalsh(np.cov(X, rowvar=False))[::-1]


def gram_svd(X, k):
    Xc = centred(X)
    U, d, _ = np.linalg.svd(Xc @ Xc.T)
    return Xc.T @ U[:, :k] / np.sqrt(d[:k])


def gram(X, k, centre=True, ascending=False):
    Xc = centred(X) if centre else X
    values, U = np.linalg.eigh(Xc @ Xc.T)
    top = np.argsort(values)[::-1][:k]
    if ascending:
        top = top[::-1]
    return Xc.T @ U[:, top] / np.sqrt(values[top])


def pca_svd(X, k):
    U, d, Vt = np.linalg.svd(centred(X), full_matrices=False)
    return Vt[:k].T, U[:, :k] * d[:k]


def pca_transposed(X, k):  # the WashU layout: X' = V D U', so its LEFT singular vectors are the directions
    V = np.linalg.svd(centred(X).T, full_matrices=False)[0][:, :k]
    return V, centred(X) @ V


def pca_eigh(X, k):
    V = np.linalg.eigh(np.cov(X, rowvar=False))[1][:, ::-1][:, :k]
    return V, centred(X) @ V


def pca_ascending(X, k):
    V = np.linalg.eigh(np.cov(X, rowvar=False))[1][:, :k]
    return V, centred(X) @ V


def power(A, iterations=300):
    v = np.ones(A.shape[0]) / np.sqrt(A.shape[0])
    for _ in range(iterations):
        v = A @ v / np.linalg.norm(A @ v)
    return v


def smallest_k_loop(values, tol):
    values = list(values)
    for r in range(1, len(values) + 1):
        if sum(values[r:]) / sum(values) < tol:
            return r
    return len(values)


def pinv_eigh(A):
    """A+ = (A'A)+ A' from the eigendecomposition of A'A, with a cutoff on its eigenvalues."""
    values, V = np.linalg.eigh(A.T @ A)
    keep = values > 1e-10 * values.max()
    return V[:, keep] @ ((V[:, keep].T @ A.T) / values[keep][:, None])


def pinv_triplets(A):
    """The sum of v_j u_j' / d_j over the singular triplets above the cutoff, in a loop."""
    U, d, Vt = np.linalg.svd(A, full_matrices=False)
    total = np.zeros((A.shape[1], A.shape[0]))
    for u, value, v in zip(U.T, d, Vt):
        if value > max(A.shape) * np.finfo(float).eps * d[0]:
            total += np.outer(v, u) / value
    return total


def svd_parts(A, invert=True, cutoff=True):
    """(U, the diagonal of D+ (or of D), V') of the thin SVD."""
    U, d, Vt = np.linalg.svd(A, full_matrices=False)
    if invert:
        with np.errstate(divide="ignore"):
            d = np.where(d > max(A.shape) * np.finfo(float).eps * d[0], 1 / d, 0.0) if cutoff else 1 / d
    return U, d, Vt


CASES = {
    "02.eigenvalues_from_svd": (
        [
            Variant("float32", lambda: in_float32(solution("02.eigenvalues_from_svd")())),
            Variant("list", lambda: returning(solution("02.eigenvalues_from_svd")(), list)),
            Variant("pandas Series", lambda: returning(solution("02.eigenvalues_from_svd")(), pd.Series)),
            Variant("eigvalsh, reversed", lambda: eigenvalues_eigh),
            Variant("Fortran input", lambda: given(solution("02.eigenvalues_from_svd")(), fortran)),
        ],
        [
            Mutant("ascending", lambda: lambda X: eigenvalues_eigh(X)[::-1], r"largest first", "ascending"),
            Mutant("no centring", lambda: lambda X: np.linalg.svd(X, compute_uv=False) ** 2 / (len(X) - 1), r"centre",
                    "no-centring"),
            Mutant("1/n", lambda: lambda X: np.linalg.svd(centred(X), compute_uv=False) ** 2 / len(X),
                   r"n versus n - 1", "divides-by-n"),
            Mutant("unsquared", lambda: lambda X: np.linalg.svd(centred(X), compute_uv=False) / (len(X) - 1),
                   r"squaring", "unsquared"),
            Mutant("right for three calls, then ones",
                   first_calls_then(eigenvalues_eigh, 3, lambda X: np.ones(X.shape[1])), r"eigenvalues",
                           "wrong-eigenvalues"),
        ],
    ),
    "02.components_from_gram": (
        [
            Variant("float32", lambda: in_float32(solution("02.components_from_gram")())),
            Variant("SVD of the Gram matrix", lambda: gram_svd),
            Variant("sign flips", lambda: lambda X, k: -gram(X, k)),
            Variant("nested lists", lambda: returning(gram, as_list)),
        ],
        [
            Mutant("not normalised", lambda: lambda X, k: 3 * gram(X, k), r"orthonormal", "not-unit"),
            Mutant("ascending", lambda: lambda X, k: gram(X, k, ascending=True), r"largest first", "ascending"),
            Mutant("no centring", lambda: lambda X, k: gram(X, k, centre=False), r"centre", "no-centring"),
            Mutant("right for three calls, then the first axes",
                   first_calls_then(gram, 3, lambda X, k: np.eye(X.shape[1])[:, :k]), r"subspace", "wrong-subspace"),
        ],
    ),
    "02.svd_is_pca": (
        [
            Variant("list pair", lambda: returning(solution("02.svd_is_pca")(), list)),
            Variant("transposed layout", lambda: pca_transposed),
            Variant("eigh", lambda: pca_eigh),
            Variant("float32", lambda: in_float32(solution("02.svd_is_pca")())),
            Variant("consistent sign flip", lambda: lambda X, k: tuple(-part for part in pca_svd(X, k))),
        ],
        [
            Mutant("scores of raw data", lambda: lambda X, k: (pca_svd(X, k)[0], X @ pca_svd(X, k)[0]), r"CENTRED",
                    "scores-of-raw-data"),
            Mutant("scores are U", lambda: lambda X, k: (pca_svd(X, k)[0], np.linalg.svd(centred(X))[0][:, :k]),
                   r"projected", "wrong-scores"),
            Mutant("inconsistent signs", lambda: lambda X, k: (-pca_svd(X, k)[0], pca_svd(X, k)[1]), r"same signs",
                    "wrong-scores"),
            Mutant("ascending", lambda: pca_ascending, r"largest first", "ascending"),
            Mutant("only the components", lambda: lambda X, k: pca_svd(X, k)[0], r"pair", "wrong-form"),
            Mutant("right for three calls, then swapped",
                   first_calls_then(pca_svd, 3, lambda X, k: pca_svd(X, k)[::-1]), r"shape", "wrong-form"),
        ],
    ),
    "02.power_iteration": (
        [
            Variant("float32", lambda: in_float32(solution("02.power_iteration")())),
            Variant("sign flip", lambda: returning(solution("02.power_iteration")(), np.negative)),
            Variant("list", lambda: returning(solution("02.power_iteration")(), list)),
            Variant("fixed number of steps", lambda: power),
        ],
        [
            Mutant("smallest eigenvector", lambda: lambda A: np.linalg.eigh(A)[1][:, 0], r"not the leading",
                    "not-leading"),
            Mutant("three steps", lambda: lambda A: power(A, 3), r"not the leading", "not-leading"),
            Mutant("not normalised", lambda: lambda A: 2 * power(A), r"length 1", "not-unit"),
            Mutant("right for three calls, then the first axis",
                   first_calls_then(power, 3, lambda A: np.eye(A.shape[0])[0]), r"not the leading", "not-leading"),
        ],
    ),
    "02.smallest_k": (
        [
            Variant("loop", lambda: smallest_k_loop),
            Variant("numpy integer", lambda: returning(solution("02.smallest_k")(), np.int64)),
        ],
        [
            Mutant("one too many", lambda: lambda v, t: solution("02.smallest_k")()(v, t) + 1, r"not the smallest",
                    "too-many"),
            Mutant("zero-based", lambda: lambda v, t: solution("02.smallest_k")()(v, t) - 1,
                   r"not below|between 1", ("too-few", "zero-based")),
            Mutant("float", lambda: lambda v, t: float(solution("02.smallest_k")()(v, t)), r"whole number",
                    "wrong-form"),
            Mutant("tolerance on the kept share", lambda: lambda v, t: int(np.argmax(np.cumsum(v) / np.sum(v) > t)) + 1,
                   r"not below|not the smallest", ("too-few", "too-many")),
            Mutant("right for three calls, then all",
                   first_calls_then(smallest_k_loop, 3, lambda v, t: len(v)), r"not the smallest", "too-many"),
        ],
    ),    "02.pseudo_inverse": (
        [
            Variant("np.linalg.pinv", lambda: np.linalg.pinv),
            Variant("lstsq against the identity", lambda: lambda A: np.linalg.lstsq(A, np.eye(len(A)), rcond=None)[0]),
            Variant("eigh of A'A with a cutoff", lambda: pinv_eigh),
            Variant("sum over singular triplets", lambda: pinv_triplets),
            Variant("through the transpose", lambda: lambda A: np.linalg.pinv(A.T).T),
            Variant("nested lists in", lambda: given(solution("02.pseudo_inverse")(), as_list)),
            Variant("nested lists out", lambda: returning(solution("02.pseudo_inverse")(), as_list)),
            Variant("float32", lambda: in_float32(solution("02.pseudo_inverse")())),
        ],
        [
            Mutant("transposed factors U D+ V'", lambda: lambda A: (lambda U, d, Vt: U @ np.diag(d) @ Vt)(
                *svd_parts(A)), r"wrong order", "transposed-factors"),
            Mutant("no cutoff", lambda: lambda A: (lambda U, d, Vt: Vt.T @ np.diag(d) @ U.T)(
                *svd_parts(A, cutoff=False)), r"zero \(?up to rounding", "no-cutoff"),
            Mutant("D instead of D+", lambda: lambda A: (lambda U, d, Vt: Vt.T @ np.diag(d) @ U.T)(
                *svd_parts(A, invert=False)), r"not inverted", "not-inverted"),
            Mutant("A'", lambda: lambda A: A.T, r"not inverted", "not-inverted"),
            Mutant("(A'A)^-1 without A'", lambda: lambda A: np.linalg.inv(A.T @ A), r"A'A", "gram-inverse"),
            Mutant("only the diagonal of D+", lambda: lambda A: svd_parts(A)[1], r"should have shape", "only-diagonal"),
            Mutant("right for three calls, then A'", first_calls_then(np.linalg.pinv, 3, lambda A: A.T),
                   r"not inverted", "not-inverted"),
        ],
    ),
}
