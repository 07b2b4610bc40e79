"""Variants and mutants of exercise set 10, autoencoders and PCA, PCA on images."""

import math

import numpy as np
import pandas as pd

from dimred_teach.pca import pca

from . import Mutant, Variant, as_list, first_calls_then, in_float32, returning, solution


def needed(images, fraction, square=True, centre=True):
    values = np.linalg.svd(images - images.mean(axis=0) if centre else images, compute_uv=False) ** (2 if square else 1)
    return int(np.argmax(np.cumsum(values) / values.sum() >= fraction) + 1)


def needed_by_loop(images, fraction):
    values = np.linalg.eigvalsh(np.cov(images, rowvar=False))[::-1]
    M, kept = 0, 0.0
    while kept < fraction * values.sum():
        kept += values[M]
        M += 1
    return np.int64(M)


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


def class_errors_pandas(images, labels, M):
    """pca() for the basis, a pandas groupby for the class means."""
    result = pca(images, k=M)
    squared = np.sum((images - result.reconstruct(result.transform(images))) ** 2, axis=1)
    return pd.Series(squared).groupby(labels).mean().to_numpy()


def class_errors_by_loops(images, labels, M):
    """eigh of the covariance, a loop over the classes, a list out."""
    Xc = images - images.mean(axis=0)
    B = np.linalg.eigh(np.cov(images, rowvar=False))[1][:, ::-1][:, :M]
    out = []
    for c in sorted(set(labels.tolist())):
        R = Xc[labels == c] - Xc[labels == c] @ B @ B.T
        out.append(float(np.mean(np.einsum("ij,ij->i", R, R))))
    return out


def class_errors_own_basis(images, labels, M):
    return [float(np.mean(np.sum((X - X.mean(0) - (X - X.mean(0)) @ V @ V.T) ** 2, axis=1)))
            for c in np.unique(labels)
            for X in [images[labels == c]]
            for V in [np.linalg.svd(X - X.mean(0), full_matrices=False)[2][:M].T]]


def penalty(X, W, b, slope=lambda Z: 1 - Z**2, power=2, column_power=1.0, reduce=np.mean, bias=True):
    Z = np.tanh(X @ W + (b if bias else 0.0))
    return float(reduce(slope(Z) ** power @ np.sum(W**2, axis=0) ** column_power))


def penalty_loops(X, W, b):
    total = 0.0
    for x in np.asarray(X).tolist():
        for j in range(W.shape[1]):
            z = math.tanh(sum(x[i] * W[i, j] for i in range(len(x))) + b[j])
            total += (1 - z * z) ** 2 * sum(W[i, j] ** 2 for i in range(len(x)))
    return total / len(X)


def penalty_jacobians(X, W, b):
    jacobians = [(1 - np.tanh(x @ W + b) ** 2)[:, None] * W.T for x in X]  # dz/dx, shape (m, p) per point
    return float(np.mean([np.linalg.norm(J, "fro") ** 2 for J in jacobians]))


def pairs(X, noise, copies, seed, scale=lambda noise: noise, on_target=False, shared=False, draw=None):
    rng = np.random.default_rng(seed)
    clean = np.tile(X, (copies, 1))
    corruption = (np.tile(rng.standard_normal(X.shape), (copies, 1)) if shared else
                  draw(rng, clean.shape) if draw else rng.standard_normal(clean.shape))
    noisy = clean + scale(noise) * corruption
    return (clean, noisy) if on_target else (noisy, clean)


def pairs_by_copy(X, noise, copies, seed):
    rng = np.random.default_rng(seed)
    inputs, targets = [], []
    for _ in range(copies):
        inputs.append(X + rng.normal(0.0, noise, X.shape))
        targets.append(X)
    return np.vstack(inputs), np.vstack(targets)


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
            Mutant("ascent", lambda: lambda *a: step(*a, sign=-1.0), r"DESCENT", "ascent"),
            Mutant("no factor 2", lambda: lambda *a: step(*a, factor=1.0), r"half", "no-factor-2"),
            Mutant("sum instead of mean", lambda: lambda X, E, D, lr: step(X, E, D, lr, factor=2.0 * len(X)),
                   r"MEAN", "sum-not-mean"),
            Mutant("decoder from the new encoder", lambda: lambda *a: step(*a, sequential=True), r"old E and D",
                    "new-encoder-for-decoder"),
            Mutant("right for three calls, then no step", first_calls_then(step, 3, lambda X, E, D, lr: (E, D)),
                   r"gradient", "wrong-step"),
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
            Mutant("mean not added back", lambda: lambda X, M: reconstruct(X, M, add_mean=False), r"mean back",
                    "mean-not-added"),
            Mutant("smallest components", lambda: lambda X, M: reconstruct(X, M, smallest=True), r"LARGEST",
                    "smallest-components"),
            Mutant("scores only", lambda: lambda X, M: (X - X.mean(0)) @ np.linalg.svd(X - X.mean(0))[2][:M].T,
                   r"shape", "scores-only"),
            Mutant("right for three calls, then X", first_calls_then(reconstruct, 3, lambda X, M: X), r"rank",
                    "mean-not-added"),
        ],
    ),
    "10.class_errors": (
        [
            Variant("float32", lambda: in_float32(solution("10.class_errors")())),
            Variant("pca() and a pandas groupby", lambda: class_errors_pandas),
            Variant("eigh, a loop, a list", lambda: class_errors_by_loops),
        ],
        [
            Mutant("each class its own basis", lambda: class_errors_own_basis, r"ONE basis", "own-basis"),
            Mutant("no centring", lambda: lambda X, y, M: solution("10.class_errors")()(X, y, M) * 0 + [
                float(np.mean(np.sum((X[y == c] - X[y == c] @ V @ V.T) ** 2, axis=1))) for c in np.unique(y)
                for V in [np.linalg.svd(X, full_matrices=False)[2][:M].T]], r"uncentred", "no-centring"),
            Mutant("sum over each class", lambda: lambda X, y, M: solution("10.class_errors")()(X, y, M)
                   * np.array([np.sum(y == c) for c in np.unique(y)]), r"MEAN", "sum-not-mean"),
            Mutant("mean over the pixels too", lambda: lambda X, y, M: solution("10.class_errors")()(X, y, M)
                   / X.shape[1], r"SUM of its squared", "pixel-mean"),
            Mutant("smallest components", lambda: lambda X, y, M: [
                float(np.mean(np.sum(((X - X.mean(0)) - (X - X.mean(0)) @ V @ V.T)[y == c] ** 2, axis=1)))
                for c in np.unique(y) for V in [np.linalg.svd(X - X.mean(0), full_matrices=False)[2][::-1][:M].T]],
                   r"SMALLEST", "smallest-components"),
            Mutant("right for two calls, then halved", first_calls_then(
                lambda X, y, M: solution("10.class_errors")()(X, y, M), 2,
                lambda X, y, M: solution("10.class_errors")()(X, y, M) / 2), r"mean squared reconstruction error",
                "wrong-class-error"),
        ],
    ),
    "10.destandardize": (
        [
            Variant("float32", lambda: in_float32(solution("10.destandardize")())),
            Variant("pandas DataFrame", lambda: lambda X, m, s: pd.DataFrame(X) * s + m),
            Variant("nested lists", lambda: lambda X, m, s: (X * s + m).tolist()),
        ],
        [
            Mutant("wrong order", lambda: lambda X, m, s: (X + m) * s, r"reverse order", "wrong-order"),
            Mutant("divides", lambda: lambda X, m, s: X / s + m, r"multiplies", "divides"),
            Mutant("mean forgotten", lambda: lambda X, m, s: X * s, r"X_star", "mean-forgotten"),
            Mutant("right for three calls, then X_star", first_calls_then(lambda X, m, s: X * s + m, 3,
                                                                          lambda X, m, s: X), r"X_star",
                                                                                  "mean-forgotten"),
        ],
    ),
    "10.digits_m90": (
        [
            Variant("cumulative squared singular values", solution("10.digits_m90")),
            Variant("eigvalsh of the covariance, a loop, numpy integer", lambda: needed_by_loop),
            Variant("float32 images", lambda: lambda images, fraction: needed(np.float32(images), fraction)),
        ],
        [
            Mutant("zero-based", lambda: lambda images, fraction: needed(images, fraction) - 1, r"less than",
                   "too-few"),
            Mutant("one too many", lambda: lambda images, fraction: needed(images, fraction) + 1, r"fewer already",
                   "too-many"),
            Mutant("singular values", lambda: lambda images, fraction: needed(images, fraction, square=False),
                   r"SQUARES", "singular-values"),
            Mutant("not centred", lambda: lambda images, fraction: needed(images, fraction, centre=False), r"centre",
                   "no-centring"),
            Mutant("the lecture's 21", lambda: lambda images, fraction: 21, r"less than|fewer already|centre|SQUARES",
                   ("too-few", "too-many", "no-centring", "singular-values")),
            Mutant("a float", lambda: lambda images, fraction: float(needed(images, fraction)), r"integer",
                   "wrong-form"),
        ],
    ),
    "10.contractive_penalty": (
        [
            Variant("float32", lambda: in_float32(solution("10.contractive_penalty")())),
            Variant("loops over points and units", lambda: penalty_loops),
            Variant("explicit Jacobians, Frobenius norm", lambda: penalty_jacobians),
            Variant("einsum", lambda: lambda X, W, b: np.einsum("ij,ij,kj->", 1 - np.tanh(X @ W + b) ** 2,
                                                                  1 - np.tanh(X @ W + b) ** 2, W**2) / len(X)),
            Variant("sech squared", lambda: lambda X, W, b: penalty(X, W, b, slope=lambda Z: 1 / np.cosh(
                np.arctanh(Z)) ** 2)),
            Variant("one-element array", lambda: returning(penalty, lambda value: np.array([value]))),
        ],
        [
            Mutant("tanh' as 1 - z", lambda: lambda X, W, b: penalty(X, W, b, slope=lambda Z: 1 - Z), r"1 - z\*\*2",
                    "slope-one-minus-z"),
            Mutant("slopes not squared", lambda: lambda X, W, b: penalty(X, W, b, power=1), r"does not square",
                    "slopes-not-squared"),
            Mutant("column norms not squared", lambda: lambda X, W, b: penalty(X, W, b, column_power=0.5),
                   r"SQUARE belongs", "norms-not-squared"),
            Mutant("sum over points", lambda: lambda X, W, b: penalty(X, W, b, reduce=np.sum), r"MEAN", "sum-not-mean"),
            Mutant("bias left out", lambda: lambda X, W, b: penalty(X, W, b, bias=False), r"bias", "no-bias"),
            Mutant("summed slopes times summed weights", lambda: lambda X, W, b: float(
                np.mean(np.sum((1 - np.tanh(X @ W + b) ** 2) ** 2, axis=1)) * np.sum(W**2)), r"OWN column",
                        "sums-multiplied"),
            Mutant("squared norm of the summed gradient", lambda: lambda X, W, b: float(
                np.mean(np.sum(((1 - np.tanh(X @ W + b) ** 2) @ W.T) ** 2, axis=1))), r"SUM of the gradients",
                        "norm-of-sum"),
            Mutant("linear encoder", lambda: lambda X, W, b: float(np.sum(W**2)), r"forgets the slopes",
                    "linear-encoder"),
            Mutant("right for three calls, then half",
                   first_calls_then(penalty, 3, lambda X, W, b: penalty(X, W, b) / 2),
                   r"finite differences", "wrong-penalty"),
        ],
    ),
    "10.denoising_pairs": (
        [
            Variant("float32", lambda: in_float32(solution("10.denoising_pairs")())),
            Variant("nested lists", lambda: returning(pairs, as_list)),
            Variant("one copy at a time, rng.normal", lambda: pairs_by_copy),
            Variant("np.repeat (copies of a point together)", lambda: lambda X, noise, copies, seed: (
                lambda clean: (clean + noise * np.random.default_rng(seed).standard_normal(clean.shape), clean))(
                np.repeat(X, copies, axis=0))),
            Variant("legacy RandomState", lambda: lambda X, noise, copies, seed: (
                lambda clean: (clean + np.random.RandomState(seed).normal(0, noise, clean.shape), clean))(
                np.tile(X, (copies, 1)))),
        ],
        [
            Mutant("noise on the targets", lambda: lambda *a: pairs(*a, on_target=True), r"CLEAN", "noisy-targets"),
            Mutant("variance for the standard deviation", lambda: lambda *a: pairs(*a, scale=lambda s: s**2),
                   r"STANDARD DEVIATION", "variance-as-sd"),
            Mutant("one noise for all copies", lambda: lambda *a: pairs(*a, shared=True), r"same noise", "one-noise"),
            Mutant("uniform noise in [-noise, noise]", lambda: lambda *a: pairs(
                *a, draw=lambda rng, shape: rng.uniform(-1, 1, shape)), r"standard deviation", "uniform-noise"),
            Mutant("uniform noise of the right standard deviation", lambda: lambda *a: pairs(
                *a, draw=lambda rng, shape: rng.uniform(-math.sqrt(3), math.sqrt(3), shape)), r"not normal",
                   "uniform-noise"),
            Mutant("Laplace noise of the right standard deviation", lambda: lambda *a: pairs(
                *a, draw=lambda rng, shape: rng.laplace(0, 1 / math.sqrt(2), shape)), r"not normal",
                   "not-normal"),
            Mutant("no noise", lambda: lambda *a: pairs(*a, scale=lambda s: 0.0), r"add the noise", "no-noise"),
            Mutant("unseeded generator", lambda: lambda X, noise, copies, seed: pairs(
                X, noise, copies, int(np.random.default_rng().integers(2**31))), r"same seed", "unseeded"),
            Mutant("seed ignored", lambda: lambda X, noise, copies, seed: pairs(X, noise, copies, 0), r"use the seed",
                    "seed-ignored"),
            Mutant("copies ignored", lambda: lambda X, noise, copies, seed: pairs(X, noise, 1, seed), r"shape",
                    "copies-ignored"),
        ],
    ),
}
