"""Variants and mutants of exercise set 10, autoencoders and PCA, PCA on images."""

import numpy as np
import pandas as pd

from dimred_teach.pca import pca

from . import Mutant, Variant, as_list, first_calls_then, in_float32, returning, solution


def step(X, E, D, lr, factor=2.0, sign=1.0, sequential=False):
    n = len(X)
    Z = X @ E
    R = X - Z @ D
    grad_E = -(factor / n) * X.T @ R @ D.T
    new_E = E - sign * lr * grad_E
    if sequential:
        Z = X @ new_E
        R = X - Z @ D
    grad_D = -(factor / n) * Z.T @ R
    return new_E, D - sign * lr * grad_D


def reconstruct(X, M, add_mean=True, smallest=False):
    mu = X.mean(axis=0)
    Vt = np.linalg.svd(X - mu, full_matrices=False)[2]
    B = (Vt[::-1] if smallest else Vt)[:M].T
    return (X - mu) @ B @ B.T + (mu if add_mean else 0.0)


def fraction(X, M, centre=True, square=True, order=1):
    values = np.linalg.svd(X - X.mean(0) if centre else X, compute_uv=False)[::order]
    values = values**2 if square else values
    return float(values[:M].sum() / values.sum())


CASES = {
    "10.gradient_step": (
        [
            Variant("list pair", lambda: returning(solution("10.gradient_step")(), list)),
            Variant("float32", lambda: in_float32(solution("10.gradient_step")())),
            Variant("expanded products", lambda: lambda X, E, D, lr: (
                E + lr * (2 / len(X)) * (X.T @ X @ D.T - X.T @ X @ E @ D @ D.T),
                D + lr * (2 / len(X)) * (E.T @ X.T @ X - E.T @ X.T @ X @ E @ D))),
        ],
        [
            Mutant("ascent", lambda: lambda *a: step(*a, sign=-1.0), r"DESCENT"),
            Mutant("no factor 2", lambda: lambda *a: step(*a, factor=1.0), r"half"),
            Mutant("sum instead of mean", lambda: lambda X, E, D, lr: step(X, E, D, lr, factor=2.0 * len(X)),
                   r"MEAN"),
            Mutant("decoder from the new encoder", lambda: lambda *a: step(*a, sequential=True), r"old E and D"),
            Mutant("right for three calls, then no step", first_calls_then(step, 3, lambda X, E, D, lr: (E, D)),
                   r"gradient"),
        ],
    ),
    "10.reconstruct": (
        [
            Variant("float32", lambda: in_float32(solution("10.reconstruct")())),
            Variant("dimred_teach.pca", lambda: lambda X, M: (lambda fit: fit.scores @ fit.components.T + X.mean(0))(
                pca(X, k=M))),
            Variant("nested lists", lambda: returning(reconstruct, as_list)),
            Variant("pandas DataFrame", lambda: returning(reconstruct, pd.DataFrame)),
        ],
        [
            Mutant("mean not added back", lambda: lambda X, M: reconstruct(X, M, add_mean=False), r"mean back"),
            Mutant("smallest components", lambda: lambda X, M: reconstruct(X, M, smallest=True), r"LARGEST"),
            Mutant("scores only", lambda: lambda X, M: (X - X.mean(0)) @ np.linalg.svd(X - X.mean(0))[2][:M].T,
                   r"shape"),
            Mutant("right for three calls, then X", first_calls_then(reconstruct, 3, lambda X, M: X), r"rank"),
        ],
    ),
    "10.variance_fraction": (
        [
            Variant("float32", lambda: in_float32(solution("10.variance_fraction")())),
            Variant("eigvalsh", lambda: lambda X, M: (lambda v: v[::-1][:M].sum() / v.sum())(
                np.linalg.eigvalsh(np.cov(X, rowvar=False)))),
            Variant("numpy float", lambda: returning(fraction, np.float64)),
        ],
        [
            Mutant("share lost", lambda: lambda X, M: 1 - fraction(X, M), r"LOST"),
            Mutant("smallest first", lambda: lambda X, M: fraction(X, M, order=-1), r"smallest|LOST"),
            Mutant("singular values", lambda: lambda X, M: fraction(X, M, square=False), r"SQUARES"),
            Mutant("no centring", lambda: lambda X, M: fraction(X, M, centre=False), r"centre"),
            Mutant("right for three calls, then 0.5", first_calls_then(fraction, 3, lambda X, M: 0.5), r"share"),
        ],
    ),
    "10.destandardize": (
        [
            Variant("float32", lambda: in_float32(solution("10.destandardize")())),
            Variant("pandas DataFrame", lambda: lambda X, m, s: pd.DataFrame(X) * s + m),
            Variant("nested lists", lambda: lambda X, m, s: (X * s + m).tolist()),
        ],
        [
            Mutant("wrong order", lambda: lambda X, m, s: (X + m) * s, r"reverse order"),
            Mutant("divides", lambda: lambda X, m, s: X / s + m, r"multiplies"),
            Mutant("mean forgotten", lambda: lambda X, m, s: X * s, r"X_star"),
            Mutant("right for three calls, then X_star", first_calls_then(lambda X, m, s: X * s + m, 3,
                                                                          lambda X, m, s: X), r"X_star"),
        ],
    ),
    "10.digits_m90": (
        [
            Variant("numpy integer", lambda: np.int64(solution("10.digits_m90")())),
        ],
        [
            Mutant("zero-based", lambda: solution("10.digits_m90")() - 1, r"less than 0.9"),
            Mutant("one too many", lambda: solution("10.digits_m90")() + 1, r"already keep"),
            Mutant("float", lambda: float(solution("10.digits_m90")()), r"whole number"),
            Mutant("standardised pixels", lambda: 31, r"already keep"),
        ],
    ),
}
