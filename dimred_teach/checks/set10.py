"""Checks of exercise set 10: autoencoders and PCA, PCA on images."""

from __future__ import annotations

import numpy as np

from .. import datasets
from ..autoencoder import finite_difference_gradient
from . import CheckFailure, register
from .properties import answer_array, expect, expect_close


@register("10.gradient_step", hint="with Z = X E and R = X - Z D: dL/dD = -(2/n) Z' R and dL/dE = -(2/n) X' R D'; "
          "step against the gradient: E - learning_rate * dL/dE")
def _gradient_step(answer, rng):
    expect(callable(answer), "the answer should be your function gradient_step(X, encoder, decoder, learning_rate)")
    for _ in range(3):
        n, p = int(rng.integers(6, 15)), int(rng.integers(3, 6))
        k = int(rng.integers(1, p))
        X = rng.standard_normal((n, p))
        X -= X.mean(axis=0)
        E, D = rng.standard_normal((p, k)), rng.standard_normal((k, p))
        lr = float(rng.uniform(0.01, 0.1))
        out = answer(X.copy(), E.copy(), D.copy(), lr)
        expect(isinstance(out, tuple) and len(out) == 2,
               "gradient_step should return a tuple (new_encoder, new_decoder)")
        new_E = answer_array(out[0], "new_encoder", (p, k))
        new_D = answer_array(out[1], "new_decoder", (k, p))

        def loss(E_, D_):
            return np.sum((X - X @ E_ @ D_) ** 2) / n

        expect_close(new_E, E - lr * finite_difference_gradient(lambda W: loss(W, D), E),
                     "new_encoder = encoder - learning_rate * (finite-difference gradient of the loss)", atol=1e-5)
        expect_close(new_D, D - lr * finite_difference_gradient(lambda W: loss(E, W), D),
                     "new_decoder = decoder - learning_rate * (finite-difference gradient of the loss)", atol=1e-5)


def _low_rank_data(rng):
    n, p = int(rng.integers(20, 40)), int(rng.integers(4, 8))
    scales = np.sort(rng.uniform(0.2, 3.0, p))[::-1] ** 2
    X = rng.standard_normal((n, p)) * scales @ np.linalg.qr(rng.standard_normal((p, p)))[0] + rng.normal(0, 5, p)
    return X


@register("10.reconstruct", hint="centre, project on the first M principal directions, map back and add the mean: "
          "x_tilde = B B' (x - mu) + mu")
def _reconstruct(answer, rng):
    expect(callable(answer), "the answer should be your function reconstruct(X, M)")
    for _ in range(3):
        X = _low_rank_data(rng)
        n, p = X.shape
        M = int(rng.integers(1, p))
        X_tilde = answer_array(answer(X.copy(), M), f"reconstruct(X, {M})", (n, p))
        mean = X.mean(axis=0)
        singular = np.linalg.svd(X - mean, compute_uv=False)
        rank = int(np.sum(np.linalg.svd(X_tilde - mean, compute_uv=False) > 1e-8 * singular[0]))
        expect(rank <= M, f"reconstruct(X, {M}) minus the mean of X has rank {rank}; with M = {M} components "
               f"it should have rank at most {M} (did you add the mean back?)")
        error = np.sum((X - X_tilde) ** 2)
        dropped = np.sum(singular[M:] ** 2)  # (n - 1) times the sum of the dropped eigenvalues
        expect_close(error, dropped, f"the squared reconstruction error with M = {M} should be the smallest possible, "
                     "(n - 1) times the sum of the dropped eigenvalues", rtol=1e-6, atol=1e-8)


@register("10.variance_fraction", hint="eigenvalues of the covariance (or squared singular values of the centred "
          "data), largest first: sum of the first M over the sum of all")
def _variance_fraction(answer, rng):
    expect(callable(answer), "the answer should be your function variance_fraction(X, M)")
    for _ in range(3):
        X = _low_rank_data(rng)
        M = int(rng.integers(1, X.shape[1]))
        try:
            value = float(answer(X.copy(), M))
        except (TypeError, ValueError):
            raise CheckFailure("variance_fraction should return a single number") from None
        squares = np.linalg.svd(X - X.mean(axis=0), compute_uv=False) ** 2
        expect(0 <= value <= 1, f"variance_fraction(X, {M}) = {value:.4f} is not a fraction between 0 and 1")
        expect_close(value, squares[:M].sum() / squares.sum(),
                     f"variance_fraction(X, {M}): the share of the total variance kept by the first {M} components",
                     atol=1e-8)


@register("10.destandardize", hint="undo the standardisation step by step: multiply by the standard deviation, "
          "then add the mean")
def _destandardize(answer, rng):
    expect(callable(answer), "the answer should be your function destandardize(X_star, mean, std)")
    for _ in range(3):
        n, p = int(rng.integers(3, 10)), int(rng.integers(2, 6))
        X_star = rng.standard_normal((n, p))
        mean, std = rng.normal(0, 10, p), rng.uniform(0.5, 5, p)
        X = answer_array(answer(X_star.copy(), mean.copy(), std.copy()), "destandardize(...)", (n, p))
        expect_close((X - mean) / std, X_star, "standardising your result again, (x - mean) / std, "
                     "should give back X_star")


def digits_eigenvalues() -> np.ndarray:
    """Eigenvalues (descending) of the covariance of the centred digit images (exercise 10.digits_m90)."""
    images, _ = datasets.load_digits()
    centred = images - images.mean(axis=0)
    return np.linalg.svd(centred, compute_uv=False) ** 2 / (images.shape[0] - 1)


@register("10.digits_m90", hint="cumulative sum of the eigenvalues divided by their total; the first M where it "
          "reaches 0.9 (count from 1)")
def _digits_m90(answer, rng):
    try:
        M = int(answer)
    except (TypeError, ValueError):
        raise CheckFailure(f"M_90 should be a whole number of components, got {answer!r}") from None
    expect(M == answer, f"M_90 should be a whole number, got {answer!r}")
    values = digits_eigenvalues()
    kept = np.cumsum(values) / values.sum()
    expect(1 <= M <= values.size, f"M_90 must be between 1 and {values.size}, got {M}")
    expect(kept[M - 1] >= 0.9, f"{M} components keep only {kept[M - 1]:.4f} of the variance, less than 0.9")
    expect(M == 1 or kept[M - 2] < 0.9, f"{M - 1} components already keep {kept[M - 2]:.4f} of the variance: "
           "M_90 is the smallest M that reaches 0.9")
