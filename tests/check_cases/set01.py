"""Variants and mutants of exercise set 01, PCA from the Lagrangian."""

import numpy as np
import pandas as pd

from dimred_teach.checks.set01 import blue_crab_matrix, crab_matrix, orange_crab_matrix

from . import (
    Mutant,
    Variant,
    as_list,
    first_calls_then,
    float32,
    fortran,
    given,
    in_float32,
    returning,
    solution,
    strided,
)


def centred(X):
    return X - X.mean(axis=0)


def crab_eigh(X=None):
    X = orange_crab_matrix() if X is None else X
    return np.linalg.eigh(np.cov(X, rowvar=False))



def in_float32_computed_top():
    """The top direction computed from float32 data, in float32 throughout."""
    X = orange_crab_matrix().astype(np.float32)
    Xc = X - X.mean(axis=0)
    return np.linalg.eigh(Xc.T @ Xc / np.float32(len(X) - 1))[1][:, -1]


def blue_scores(centre=True, ascending=False, X=None, scale=None):
    X = blue_crab_matrix() if X is None else X
    vectors = crab_eigh(X)[1]
    Z = (centred(X) if centre else X) @ (vectors if ascending else vectors[:, ::-1])
    return Z if scale is None else Z * scale


def blue_scores_float32():
    """The scores computed from float32 data, in float32 throughout."""
    X = blue_crab_matrix().astype(np.float32)
    Xc = X - X.mean(axis=0)
    return Xc @ np.linalg.eigh(Xc.T @ Xc / np.float32(len(X) - 1))[1][:, ::-1]


def typed_back(value, dtype=np.float32):
    """The numbers printed to 4 decimals, typed back."""
    return np.round(np.asarray(value), 4).astype(dtype)


def cov(X):
    return np.cov(X, rowvar=False)


def best_projection_svd(X, r):
    return np.linalg.svd(centred(X), full_matrices=False)[2][:r].T


def best_projection_rotated(X, r):
    Q = np.linalg.qr(np.random.default_rng(r).standard_normal((r, r)))[0]
    return best_projection_svd(X, r) @ Q


def explained_svd(X, k, squared=True):
    d = np.linalg.svd(centred(X), compute_uv=False)
    d = d**2 if squared else d
    return d[:k].sum() / d.sum()


def explained_over_n(X, k):
    values = np.linalg.eigvalsh(np.cov(X, rowvar=False, ddof=0))[::-1]
    return values[:k].sum() / values.sum()


def explained_trace_loop(X, k):
    """Top-k eigenvalues over the sum of the variables' variances, in a loop."""
    values = sorted(np.linalg.eigvalsh(cov(X)), reverse=True)
    kept = 0.0
    for value in values[:k]:
        kept += value
    return kept / sum(np.var(column, ddof=1) for column in np.asarray(X).T)


CASES = {
    "01.sample_covariance": (
        [
            Variant("float32", lambda: in_float32(solution("01.sample_covariance")())),
            Variant("float32 output", lambda: returning(solution("01.sample_covariance")(), float32)),
            Variant("nested lists", lambda: returning(solution("01.sample_covariance")(), as_list)),
            Variant("pandas DataFrame", lambda: lambda X: pd.DataFrame(X).cov()),
            Variant("np.cov (the text allows it as a comparison)", lambda: cov),
            Variant("Fortran-ordered input", lambda: given(solution("01.sample_covariance")(), fortran)),
            Variant("moment formula",
                    lambda: lambda X: (X.T @ X - len(X) * np.outer(X.mean(0), X.mean(0))) / (len(X) - 1)),
        ],
        [
            Mutant("1/n", lambda: lambda X: centred(X).T @ centred(X) / len(X), r"n versus n - 1", "divides-by-n"),
            Mutant("no centring", lambda: lambda X: X.T @ X / (len(X) - 1), r"without centring", "no-centring"),
            Mutant("rows as variables", lambda: lambda X: np.cov(X), r"shape", "rows-as-variables"),
            Mutant("right for three calls, then the identity",
                   first_calls_then(cov, 3, lambda X: np.eye(X.shape[1])), r"S = Xc' Xc / \(n - 1\)",
                           "wrong-covariance"),
        ],
    ),
    "01.top_direction": (
        [
            Variant("sign flip", lambda: -solution("01.top_direction")()),
            Variant("float32", lambda: float32(solution("01.top_direction")())),
            Variant("computed in float32", in_float32_computed_top),
            Variant("list", lambda: list(solution("01.top_direction")())),
            Variant("pandas Series", lambda: pd.Series(solution("01.top_direction")())),
            Variant("non-contiguous view", lambda: strided(solution("01.top_direction")())),
            Variant("SVD of the centred data", lambda: np.linalg.svd(centred(orange_crab_matrix()))[2][0]),
        ],
        [
            Mutant("smallest eigenvalue", lambda: crab_eigh()[1][:, 0], r"not the largest", "smallest-eigenvalue"),
            Mutant("row instead of column", lambda: crab_eigh()[1][-1], r"COLUMN|length 1", "not-eigenvector"),
            Mutant("not normalised", lambda: 2 * solution("01.top_direction")(), r"length 1", "not-unit"),
            Mutant("uncentred X'X", lambda: np.linalg.eigh(orange_crab_matrix().T @ orange_crab_matrix())[1][:, -1],
                   r"stationarity", "not-eigenvector"),
            Mutant("two vectors", lambda: crab_eigh()[1][:, -2:], r"shape", "wrong-form"),
            Mutant("all 200 crabs, as in the lecture", lambda: crab_eigh(crab_matrix())[1][:, -1], r"lecture",
                   "lecture-data"),
            Mutant("printed digits typed back in float32", lambda: typed_back(solution("01.top_direction")()),
                   r"typed in", "typed-digits"),
        ],
    ),
    "01.lagrangian_gradient": (
        [
            Variant("float32", lambda: given(solution("01.lagrangian_gradient")(), float32)),
            Variant("list", lambda: returning(solution("01.lagrangian_gradient")(), list)),
            Variant("factored", lambda: lambda S, w, lam: 2 * (S - lam * np.eye(len(w))) @ w),
        ],
        [
            Mutant("half", lambda: lambda S, w, lam: S @ w - lam * w, r"half", "half-gradient"),
            Mutant("sign", lambda: lambda S, w, lam: 2 * lam * w - 2 * S @ w, r"wrong sign", "wrong-sign"),
            Mutant("no multiplier term", lambda: lambda S, w, lam: 2 * S @ w, r"gradient", "no-multiplier-term"),
            Mutant("right for three calls, then zero",
                   first_calls_then(solution("01.lagrangian_gradient")(), 3, lambda S, w, lam: 0 * w),
                   r"gradient", "no-multiplier-term"),
        ],
    ),
    "01.best_projection": (
        [
            Variant("SVD", lambda: best_projection_svd),
            Variant("rotated basis", lambda: best_projection_rotated),
            Variant("sign flips", lambda: lambda X, r: -best_projection_svd(X, r)),
            Variant("float32", lambda: in_float32(solution("01.best_projection")())),
            Variant("nested lists", lambda: returning(best_projection_svd, as_list)),
        ],
        [
            Mutant("smallest eigenvalues", lambda: lambda X, r: np.linalg.eigh(cov(X))[1][:, :r], r"SMALLEST",
                    "smallest-eigenvalues"),
            Mutant("no centring", lambda: lambda X, r: np.linalg.eigh(X.T @ X)[1][:, ::-1][:, :r], r"centre",
                    "no-centring"),
            Mutant("not orthonormal", lambda: lambda X, r: 2 * best_projection_svd(X, r), r"orthonormal",
                    "not-orthonormal"),
            Mutant("right for three calls, then the first axes",
                   first_calls_then(best_projection_svd, 3, lambda X, r: np.eye(X.shape[1])[:, :r]),
                   r"larger than the minimum", "not-best-subspace"),
        ],
    ),
    "01.score_covariance": (
        [
            Variant("float32", lambda: float32(solution("01.score_covariance")())),
            Variant("computed in float32", blue_scores_float32),
            Variant("ascending order", lambda: blue_scores(ascending=True)),
            Variant("sign flips", lambda: blue_scores(scale=np.array([1, -1, 1, -1, -1]))),
            Variant("from the SVD, U D", lambda: (lambda U, d: U * d)(*np.linalg.svd(centred(blue_crab_matrix()),
                                                                              full_matrices=False)[:2])),
            Variant("pandas", lambda: pd.DataFrame(solution("01.score_covariance")())),
            Variant("Fortran order", lambda: fortran(solution("01.score_covariance")())),
        ],
        [
            Mutant("no centring", lambda: blue_scores(centre=False), r"CENTRED", "no-centring"),
            Mutant("the centred data itself", lambda: centred(blue_crab_matrix()), r"not diagonal",
                   "correlated-scores"),
            Mutant("standardised scores",
                   lambda: blue_scores(scale=1 / np.sqrt(np.linalg.eigvalsh(cov(blue_crab_matrix()))[::-1])),
                   r"not rescaled", "rescaled-scores"),
            Mutant("two components", lambda: blue_scores()[:, :2], r"all 5 components", "too-few-components"),
            Mutant("all 200 crabs, as in the lecture", lambda: blue_scores(X=crab_matrix()), r"lecture",
                   "lecture-data"),
            Mutant("the eigenvalues on a diagonal", lambda: np.diag(np.linalg.eigvalsh(cov(blue_crab_matrix()))),
                   r"shape", "wrong-form"),
            Mutant("printed digits typed back in float32", lambda: typed_back(solution("01.score_covariance")()),
                   r"typed in", "typed-digits"),
        ],
    ),
    "01.variance_explained": (
        [
            Variant("float32", lambda: in_float32(solution("01.variance_explained")())),
            Variant("numpy float32 result", lambda: returning(solution("01.variance_explained")(), np.float32)),
            Variant("array of one number", lambda: returning(solution("01.variance_explained")(), np.atleast_1d)),
            Variant("squared singular values", lambda: explained_svd),
            Variant("1/n covariance", lambda: explained_over_n),
            Variant("sum of the variables' variances as the total, loop", lambda: explained_trace_loop),
            Variant("pandas", lambda: lambda X, k: (lambda v: v[:k].sum() / v.sum())(
                np.linalg.eigvalsh(pd.DataFrame(X).cov().to_numpy())[::-1])),
        ],
        [
            Mutant("no centring", lambda: lambda X, k: (lambda v: v[:k].sum() / v.sum())(
                np.linalg.eigvalsh(X.T @ X)[::-1]), r"without centring", "no-centring"),
            Mutant("singular values not squared", lambda: lambda X, k: explained_svd(X, k, squared=False),
                   r"without squaring", "unsquared"),
            Mutant("divided by the kept sum", lambda: lambda X, k: (lambda v: v[:k].sum() / v[:k].sum())(
                np.linalg.eigvalsh(cov(X))[::-1]), r"ALL p eigenvalues", "kept-sum"),
            Mutant("smallest k (ascending order)", lambda: lambda X, k: (lambda v: v[:k].sum() / v.sum())(
                np.linalg.eigvalsh(cov(X))), r"SMALLEST", "smallest-eigenvalues"),
            Mutant("k-th component alone", lambda: lambda X, k: (lambda v: v[k - 1] / v.sum())(
                np.linalg.eigvalsh(cov(X))[::-1]), r"alone", "one-component"),
            Mutant("percentage", lambda: lambda X, k: 100 * explained_svd(X, k), r"percentage", "percentage"),
            Mutant("right for three calls, then the first eigenvalue",
                   first_calls_then(explained_svd, 3, lambda X, k: explained_svd(X, 1)), r"make up",
                           "wrong-proportion"),
        ],
    ),
}
