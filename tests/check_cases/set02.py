"""Variants and mutants of exercise set 02, eigendecomposition versus SVD."""

import numpy as np
import pandas as pd
import scipy.linalg

from . import Mutant, Variant, as_list, first_calls_then, fortran, given, in_float32, returning, solution


def centred(X):
    return X - X.mean(axis=0)


def eigenvalues_eigh(X):
    return np.linalg.eigvalsh(np.cov(X, rowvar=False))[::-1]


def gram_svd(G, k):
    U, d, _ = np.linalg.svd(G)
    return U[:, :k] * np.sqrt(d[:k])


def gram(G, k, ascending=False, power=0.5):
    values, U = np.linalg.eigh(G)
    top = np.argsort(values)[::-1][:k]
    if ascending:
        top = top[::-1]
    return U[:, top] * np.clip(values[top], 0, None) ** power


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


def power(A, iterations=200):
    v = np.ones(A.shape[0]) / np.sqrt(A.shape[0])
    for _ in range(iterations):
        w = A @ v
        v = w / np.linalg.norm(w)
    return v


def lanczos(A):
    """Another valid method: SciPy's Lanczos iteration (ARPACK), which multiplies by A only."""
    import scipy.sparse.linalg

    return scipy.sparse.linalg.eigsh(A, k=1, which="LA", tol=1e-13)[1][:, 0]


def smallest_k_loop(values, tol):
    values = list(values)
    for r in range(1, len(values) + 1):
        if sum(values[r:]) / sum(values) < tol:
            return r
    return len(values)


def null_basis(A, eps=None):
    """An orthonormal basis of the null space of A, from its full SVD with the course's cutoff."""
    U, d, Vt = np.linalg.svd(A)
    eps = np.finfo(d.dtype).eps if eps is None else eps
    return Vt[int(np.sum(d > max(A.shape) * eps * d.max(initial=0.0))):].T


def pinv_at_precision(A):
    """np.linalg.pinv with the course's cutoff for A's dtype (its default, 1e-15, is float64's)."""
    return np.linalg.pinv(A, rtol=max(A.shape) * np.finfo(A.dtype).eps)


def with_null(pinv):
    """A pseudo-inverse function made into an answer: (pinv(A), a null-space basis of A)."""
    return lambda A: (pinv(A), null_basis(np.asarray(A)))


def solution_with_float64_eps(A):
    """The solution's computation with np.finfo(float).eps whatever A's dtype."""
    U, d, Vt = np.linalg.svd(A)
    keep = d > max(A.shape) * np.finfo(float).eps * d[0]
    d_plus = np.where(keep, 1 / np.where(keep, d, 1), 0)
    return Vt[:d.size].T @ (d_plus[:, None] * U[:, :d.size].T), null_basis(A, np.finfo(float).eps)


def pinv_eigh(A):
    """A+ = (A'A)+ A' from the eigendecomposition of A'A, with a cutoff on its eigenvalues."""
    values, V = np.linalg.eigh(A.T @ A)
    keep = values > np.sqrt(np.finfo(values.dtype).eps) * values.max()
    return V[:, keep] @ ((V[:, keep].T @ A.T) / values[keep][:, None])


def pinv_triplets(A):
    """The sum of v_j u_j' / d_j over the singular triplets above the cutoff, in a loop."""
    U, d, Vt = np.linalg.svd(A, full_matrices=False)
    total = np.zeros((A.shape[1], A.shape[0]))
    for u, value, v in zip(U.T, d, Vt):
        if value > max(A.shape) * np.finfo(d.dtype).eps * d[0]:
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
            Variant("sign flips", lambda: lambda G, k: -gram(G, k)),
            Variant("nested lists", lambda: returning(gram, as_list)),
        ],
        [
            Mutant("the eigenvectors alone", lambda: lambda G, k: gram(G, k, power=0.0), r"length 1",
                   "unscaled-scores"),
            Mutant("scaled by the eigenvalues", lambda: lambda G, k: gram(G, k, power=1.0), r"square roots",
                   "eigenvalue-scaled"),
            Mutant("ascending", lambda: lambda G, k: gram(G, k, ascending=True), r"largest first|subspace",
                   ("ascending", "wrong-subspace")),
            Mutant("right for three calls, then the first axes",
                   first_calls_then(gram, 3, lambda G, k: 5 * np.eye(len(G))[:, :k]), r"subspace", "wrong-subspace"),
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
            Variant("Lanczos (scipy.sparse.linalg.eigsh)", lambda: lanczos),
        ],
        [
            Mutant("np.linalg.eigh of the sparse matrix", lambda: lambda A: np.linalg.eigh(A)[1][:, -1], r"raised",
                   "raised"),
            Mutant("three steps", lambda: lambda A: power(A, 3), r"not the leading", "not-leading"),
            Mutant("not normalised", lambda: lambda A: 2 * power(A), r"length 1", "not-unit"),
            Mutant("right for three calls, then the first axis",
                   first_calls_then(power, 3, lambda A: np.eye(1, A.shape[0])[0]), r"not the leading", "not-leading"),
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
            Variant("np.linalg.pinv with a float32 cutoff", lambda: with_null(pinv_at_precision)),
            Variant("lstsq against the identity", lambda: with_null(lambda A: np.linalg.lstsq(
                A, np.eye(len(A), dtype=A.dtype), rcond=max(A.shape) * np.finfo(A.dtype).eps)[0])),
            Variant("eigh of A'A with a cutoff", lambda: with_null(pinv_eigh)),
            Variant("sum over singular triplets", lambda: with_null(pinv_triplets)),
            Variant("through the transpose", lambda: with_null(lambda A: pinv_at_precision(A.T).T)),
            Variant("scipy.linalg.null_space", lambda: lambda A: (pinv_at_precision(A), scipy.linalg.null_space(A))),
            Variant("nested lists in (float64 input: lists lose float32)", lambda: given(
                solution("02.pseudo_inverse")(), lambda A: as_list(A) if A.dtype == np.float64 else A)),
            Variant("nested lists out", lambda: returning(solution("02.pseudo_inverse")(), as_list)),
            Variant("float32", lambda: in_float32(solution("02.pseudo_inverse")())),
            Variant("null basis rotated", lambda: returning(solution("02.pseudo_inverse")(), lambda pair: (
                pair[0], pair[1] @ np.linalg.qr(np.random.default_rng(1).normal(size=(pair[1].shape[1],) * 2))[0]))),
        ],
        [
            Mutant("transposed factors U D+ V'", lambda: with_null(lambda A: (lambda U, d, Vt: U @ np.diag(d) @ Vt)(
                *svd_parts(A))), r"wrong order", "transposed-factors"),
            Mutant("no cutoff", lambda: with_null(lambda A: (lambda U, d, Vt: Vt.T @ np.diag(d) @ U.T)(
                *svd_parts(A, cutoff=False))), r"zero \(?up to", ("no-cutoff", "float64-cutoff")),
            Mutant("D instead of D+", lambda: with_null(lambda A: (lambda U, d, Vt: Vt.T @ np.diag(d) @ U.T)(
                *svd_parts(A, invert=False))), r"not inverted", "not-inverted"),
            Mutant("A'", lambda: with_null(lambda A: A.T), r"not inverted", "not-inverted"),
            Mutant("(A'A)^-1 without A'", lambda: with_null(lambda A: np.linalg.inv(A.T @ A)), r"A'A", "gram-inverse"),
            Mutant("only the diagonal of D+", lambda: with_null(lambda A: svd_parts(A)[1]), r"should have shape",
                   "only-diagonal"),
            Mutant("right for three calls, then A'", first_calls_then(with_null(pinv_at_precision), 3,
                                                                      with_null(lambda A: A.T)),
                   r"not inverted", "not-inverted"),
            Mutant("np.finfo(float).eps for float32 input", lambda: solution_with_float64_eps, r"float32",
                   "float64-cutoff"),
            Mutant("np.linalg.pinv with its default cutoff", lambda: with_null(np.linalg.pinv), r"float32",
                   "float64-cutoff"),
            Mutant("A+ alone", lambda: pinv_at_precision, r"pair", "wrong-form"),
            Mutant("the first rows of V' instead of the last", lambda: lambda A: (
                pinv_at_precision(A), np.linalg.svd(A)[2][:null_basis(A).shape[1]].T), r"A N = 0", "wrong-null-space"),
            Mutant("the null space of A'", lambda: lambda A: (pinv_at_precision(A), null_basis(np.asarray(A).T)),
                   r"null-space basis", "wrong-null-space"),
        ],
    ),
}
