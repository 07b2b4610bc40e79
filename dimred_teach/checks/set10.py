"""Checks of exercise set 10: autoencoders and PCA, PCA on images."""

from __future__ import annotations

import functools

import numpy as np
from scipy.spatial.distance import cdist

from .. import datasets
from ..autoencoder import finite_difference_gradient
from . import CheckFailure, register
from .properties import (
    answer_array,
    answer_integer,
    answer_number,
    answer_pair,
    distinct,
    drawn_once,
    expect,
    expect_close,
    expect_unlike,
    in_random_order,
    is_close,
    tolerance,
)

FORBIDS = ("dimred_teach.autoencoder",)  # gradients, penalties and corrupted pairs by hand
"""What this set's answers may not use (modules or functions of the library): the grader's
kernel for this set does not have them, and ``check()`` fails an answer that uses them
(:mod:`dimred_teach.checks.policy`)."""

MISTAKES = {
    "singular-values": "singular values where their squares belong",
    "no-centring": "no centring: the columns' means were not subtracted",
    "slope-one-minus-z": "1 - z as the slope of the tanh",
    "slopes-not-squared": "slopes not squared",
    "norms-not-squared": "column norms not squared",
    "norm-of-sum": "the squared norm of the summed gradient",
    "no-bias": "the bias left out",
    "sums-multiplied": "summed slopes times summed weights",
    "linear-encoder": "the penalty of a linear encoder (no slopes)",
    "ascent": "a step uphill (gradient ascent)",
    "no-factor-2": "the gradient without its factor 2",
    "sum-not-mean": "the sum over the points instead of the mean",
    "new-encoder-for-decoder": "the decoder's step from the new encoder",
    "wrong-step": "not the gradient step",
    "scores-only": "the scores, not the reconstruction",
    "mean-not-added": "the mean not added back",
    "smallest-components": "the smallest components",
    "own-basis": "each class with its own components",
    "pixel-mean": "the mean over the pixels instead of their sum",
    "wrong-class-error": "not each class's mean reconstruction error",
    "wrong-order": "the mean added before multiplying",
    "divides": "divided by std instead of multiplying",
    "mean-forgotten": "the mean not added back",
    "too-few": "fewer components than the fraction needs",
    "too-many": "not the smallest M",
    "wrong-penalty": "not the contractive penalty",
    "copies-ignored": "one copy instead of copies",
    "noisy-targets": "noise on the targets",
    "no-noise": "no noise",
    "variance-as-sd": "the variance used as the standard deviation",
    "uniform-noise": "uniform noise instead of Gaussian",
    "not-normal": "noise with heavier tails than the normal (Laplace?)",
    "one-noise": "the same noise for every copy",
    "unseeded": "the seed is not used",
    "seed-ignored": "the seed is ignored",
}
"""The typical mistakes this set's checks name: id (stable, counted by ``dimred-teach class-report``) to
short name. A failure no named mistake explains is ``other``."""


@register("10.gradient_step", hint="with Z = X E and R = X - Z D: dL/dD = -(2/n) Z' R and dL/dE = -(2/n) X' R D'; "
          "step against the gradient: E - learning_rate * dL/dE")
def _gradient_step(answer, rng):
    expect(callable(answer), "the answer should be your function gradient_step(X, encoder, decoder, learning_rate)")
    cases = []
    for _ in range(int(rng.integers(4, 7))):
        n, p = int(rng.integers(6, 15)), int(rng.integers(3, 6))
        k = int(rng.integers(1, p))
        X = rng.standard_normal((n, p))
        cases.append((X - X.mean(axis=0), rng.standard_normal((p, k)), rng.standard_normal((k, p)),
                      float(rng.uniform(0.01, 0.1))))
    for X, E, D, lr in in_random_order(rng, cases):
        (n, p), k = X.shape, E.shape[1]
        call = f"gradient_step(X, encoder, decoder, learning_rate={lr:.6g}) for X of shape {X.shape} and k = {k}"
        new_E, new_D = answer_pair(answer(X.copy(), E.copy(), D.copy(), lr), call, "(new_encoder, new_decoder)")
        new_E = answer_array(new_E, f"the new encoder of {call}", (p, k))
        new_D = answer_array(new_D, f"the new decoder of {call}", (k, p))

        def loss(E_, D_, X=X, n=n):  # this iteration's X and n, bound here
            return np.sum((X - X @ E_ @ D_) ** 2) / n

        grad_E = finite_difference_gradient(functools.partial(loss, D_=D), E)
        grad_D = finite_difference_gradient(functools.partial(loss, E), D)
        for new, old, grad, name in ((new_E, E, grad_E, "encoder"), (new_D, D, grad_D, "decoder")):
            step = old - new
            scale = float(np.abs(lr * grad).max())
            expect(not is_close(step, -lr * grad, 1e-6, scale=scale),
                   f"{call}: your {name} moved along the gradient; gradient DESCENT steps against it, "
                   f"{name} - learning_rate * gradient", mistake="ascent")
            expect(not is_close(step, lr * grad / 2, 1e-6, scale=scale),
                   f"{call}: your {name} step is half the right one: the derivative of ||R||^2 / n brings a factor 2/n",
                   mistake="no-factor-2")
            expect(not is_close(step, lr * grad * n, 1e-6, scale=scale),
                   f"{call}: your {name} step is n times the right one: the loss is the MEAN over the rows, factor 1/n",
                   mistake="sum-not-mean")
        later_D = D - lr * finite_difference_gradient(functools.partial(loss, new_E), D)
        expect_unlike(new_D, later_D, D - lr * grad_D, f"{call}: your decoder step used the NEW encoder; both "
                      "gradients are computed at the old E and D", 1e-6, scale=float(np.abs(D).max()),
                      mistake="new-encoder-for-decoder")
        expect_close(new_E, E - lr * grad_E, f"{call}: new_encoder = encoder - learning_rate * (gradient of the loss)",
                     rtol=1e-6, scale=float(np.abs(E).max()), mistake="wrong-step")
        expect_close(new_D, D - lr * grad_D, f"{call}: new_decoder = decoder - learning_rate * (gradient of the loss)",
                     rtol=1e-6, scale=float(np.abs(D).max()))


def _low_rank_data(rng):
    n, p = int(rng.integers(20, 40)), int(rng.integers(4, 8))
    scales = np.sort(rng.uniform(0.2, 3.0, p))[::-1] ** 2
    X = rng.standard_normal((n, p)) * scales @ np.linalg.qr(rng.standard_normal((p, p)))[0] + rng.normal(0, 5, p)
    return X


@register("10.reconstruct", hint="centre, project on the first M principal directions, map back and add the mean: "
          "x_tilde = B B' (x - mu) + mu")
def _reconstruct(answer, rng):
    expect(callable(answer), "the answer should be your function reconstruct(X, M)")
    cases = []
    for _ in range(int(rng.integers(4, 7))):
        X = _low_rank_data(rng)
        cases.append((X, int(rng.integers(1, X.shape[1]))))
    for X, M in in_random_order(rng, cases):
        n, p = X.shape
        call = f"reconstruct(X, {M}) for X of shape {X.shape}"
        X_tilde = answer_array(answer(X.copy(), M), call, (n, p), wrong_shape="scores-only")
        mean = X.mean(axis=0)
        singular = np.linalg.svd(X - mean, compute_uv=False)
        rank = int(np.sum(np.linalg.svd(X_tilde - mean, compute_uv=False) > tolerance(1e-8) * singular[0]))
        expect(rank <= M, f"{call} minus the mean of X has rank {rank}; with M = {M} components it should have rank "
                          f"at most {M} (did you add the mean back?)", mistake="mean-not-added")
        error = float(np.sum((X - X_tilde) ** 2))
        dropped = float(np.sum(singular[M:] ** 2))  # (n - 1) times the sum of the dropped eigenvalues
        shown, smallest = distinct(error, dropped)
        expect(is_close(error, dropped, 1e-8, scale=float(np.sum(singular**2))),
               f"the squared reconstruction error of {call} is {shown}, but the smallest possible, (n - 1) times the "
               f"sum of the dropped eigenvalues, is {smallest}: keep the M components of LARGEST variance, of the "
               "centred data", mistake="smallest-components")


@drawn_once()
def _class_instance(rng: np.random.Generator):
    """(images, labels, M): 150 to 300 images of three to six digits, labels as given by the data, and M. Drawn
    once per state of ``rng`` (:func:`~dimred_teach.checks.properties.drawn_once`): reading the digits takes
    most of 10.class_errors's time."""
    images, labels = datasets.load_digits()
    digits = rng.choice(10, size=int(rng.integers(3, 7)), replace=False)
    rows = np.flatnonzero(np.isin(labels, digits))
    rows = rng.choice(rows, size=int(rng.integers(150, 301)), replace=False)
    return images[rows], labels[rows], int(rng.integers(2, 16))


def _class_errors(images, labels, M, centre=True, own_basis=False, smallest=False):
    """Mean over each class's images (classes sorted) of the squared error of its rank-M PCA reconstruction."""
    def residuals(X):
        mean = X.mean(axis=0) if centre else 0.0
        Vt = np.linalg.svd(X - mean, full_matrices=False)[2]
        B = (Vt[::-1] if smallest else Vt)[:M].T
        return X - mean - (X - mean) @ B @ B.T
    classes = np.unique(labels)
    if own_basis:
        return np.array([np.mean(np.sum(residuals(images[labels == c]) ** 2, axis=1)) for c in classes])
    squared = np.sum(residuals(images) ** 2, axis=1)
    return np.array([squared[labels == c].mean() for c in classes])


@register("10.class_errors", hint="fit PCA on ALL the images (centre, SVD), reconstruct every image from the first M "
          "components, take each image's squared error ||x - x_tilde||^2, and average it over each class (classes "
          "in sorted order, np.unique(labels))")
def _class_errors_check(answer, rng):
    expect(callable(answer), "the answer should be your function class_errors(images, labels, M)")
    for _ in range(3):
        images, labels, M = _class_instance(rng)
        classes = np.unique(labels)
        call = f"class_errors(images, labels, {M}) for {images.shape[0]} images of the digits {classes.tolist()}"
        errors = answer_array(answer(images.copy(), labels.copy(), M), call, (classes.size,))
        expected = _class_errors(images, labels, M)
        if is_close(errors, expected, 1e-8):
            continue
        counts = np.array([np.sum(labels == c) for c in classes])
        for mistaken, mistake, message in (
                (_class_errors(images, labels, M, own_basis=True), "own-basis",
                 "fits each class its own components; the exercise asks how ONE basis, fitted to all the images, "
                 "serves each class"),
                (_class_errors(images, labels, M, centre=False), "no-centring", "uses the uncentred images: centre "
                                                                                "them (with the mean of all images)"),
                (_class_errors(images, labels, M, smallest=True), "smallest-components",
                 "keeps the M components of SMALLEST variance: np.linalg.svd sorts largest first"),
                (expected * counts, "sum-not-mean", "sums the errors over each class's images; the exercise asks for "
                                                    "the MEAN over the class"),
                (expected / images.shape[1], "pixel-mean", "averages over the pixels too; the error of an image is "
                                                           "the SUM of its squared pixel errors")):
            expect_unlike(errors, mistaken, expected, f"{call} {message}", 1e-8, mistake=mistake)
        expect_close(errors, expected, f"{call}: the mean squared reconstruction error of each class, classes in "
                     "sorted order,", rtol=1e-8, mistake="wrong-class-error")


@register("10.destandardize", hint="undo the standardisation step by step: multiply by the standard deviation, "
          "then add the mean")
def _destandardize(answer, rng):
    expect(callable(answer), "the answer should be your function destandardize(X_star, mean, std)")
    cases = []
    for _ in range(int(rng.integers(4, 7))):
        n, p = int(rng.integers(3, 10)), int(rng.integers(2, 6))
        cases.append((rng.standard_normal((n, p)), rng.normal(0, 10, p), rng.uniform(0.5, 5, p)))
    for X_star, mean, std in in_random_order(rng, cases):
        call = f"destandardize(X_star, mean, std) for X_star of shape {X_star.shape}"
        X = answer_array(answer(X_star.copy(), mean.copy(), std.copy()), call, X_star.shape)
        expect(not is_close(X, (X_star + mean) * std, 1e-8),
               f"{call} adds the mean before multiplying: undo the steps in reverse order, multiply by std first",
               mistake="wrong-order")
        expect(not is_close(X, X_star / std + mean, 1e-8),
               f"{call} divides by std: standardising divided, so undoing it multiplies", mistake="divides")
        expect_close((X - mean) / std, X_star, f"{call}: standardising your result again, (x - mean) / std, "
                     "should give back X_star;", scale=float(np.abs(X_star).max()), mistake="mean-forgotten")


def _digit_instance(rng: np.random.Generator):
    """(images, fraction, right, mistaken): a random subset of the images of one digit, a fraction at least
    1e-6 away from every value of their variance curve (no rounding ties), the answer M (counted from 1) and
    the M of each mistake that reads another curve, {mistake id: M}. The instance tells every typical mistake
    apart: those M, M - 1 (counted from 0) and M + 1 all differ (an uncentred curve once gave M - 1)."""
    images, labels = datasets.load_digits()
    while True:
        digit = images[labels == int(rng.integers(10))]
        subset = digit[rng.choice(digit.shape[0], size=int(rng.integers(60, digit.shape[0])), replace=False)]
        singular = np.linalg.svd(subset - subset.mean(axis=0), compute_uv=False)
        uncentred = np.linalg.svd(subset, compute_uv=False) ** 2
        kept = np.cumsum(singular**2) / np.sum(singular**2)
        fraction = float(rng.uniform(0.5, 0.95))
        if np.abs(kept - fraction).min() <= 1e-6:
            continue
        right = _first_reaching(kept, fraction)
        mistaken = {mistake: _first_reaching(np.cumsum(curve) / curve.sum(), fraction)
                    for mistake, curve in (("singular-values", singular), ("no-centring", uncentred))}
        if len({right - 1, right, right + 1, *mistaken.values()}) == 5:
            return subset, fraction, right, mistaken


def _first_reaching(curve: np.ndarray, fraction: float) -> int:
    return int(np.argmax(curve >= fraction)) + 1


@register("10.digits_m90", hint="squared singular values of the centred images, largest first: the first M (count "
          "from 1) where their cumulative sum divided by the total reaches the fraction")
def _digits_m90(answer, rng):
    expect(callable(answer), "the answer should be your function components_needed(images, fraction)")
    seen = set()
    while len(seen) < 3:  # three instances with different answers: no constant passes
        images, fraction, M_right, mistaken = _digit_instance(rng)
        if M_right in seen:
            continue
        seen.add(M_right)
        call = f"components_needed(images, {fraction:.6f}) for {images.shape[0]} images of one digit"
        M = answer_integer(answer(images.copy(), fraction), call)
        if M == M_right:
            continue
        expect(1 <= M <= min(images.shape), f"{call} should be between 1 and {min(images.shape)}, got {M}")
        for mistake, message in (("singular-values", "counts with the singular values; the variances are their "
                                                     "SQUARES"),
                                 ("no-centring", "uses the uncentred images: centre them first")):
            expect(M != mistaken[mistake], f"{call} = {M} {message}", mistake)
        expect(M > M_right, f"{call} = {M}, but {M} components keep less than that fraction", mistake="too-few")
        raise CheckFailure(f"{call} = {M}: those components keep the fraction, but fewer already do: the answer is "
                           "the smallest such M", mistake="too-many")


def _encoder_jacobians(x, W, b, h=1e-5):
    """The Jacobian dz/dx of z = tanh(x W + b) at one point x, by central differences, shape (m, p)."""
    steps = h * np.eye(x.size)
    return np.column_stack([(np.tanh((x + e) @ W + b) - np.tanh((x - e) @ W + b)) / (2 * h) for e in steps])


@register("10.contractive_penalty", hint="grad_x z_j = (1 - z_j**2) W[:, j] (tanh' = 1 - tanh**2), so "
          "||dz/dx||_F^2 = sum_j (1 - z_j**2)**2 ||W[:, j]||**2; average it over the rows of X")
def _contractive_penalty(answer, rng):
    expect(callable(answer), "the answer should be your function contractive_penalty(X, W, b)")
    cases = []
    for _ in range(int(rng.integers(4, 7))):
        n, p = int(rng.integers(5, 12)), int(rng.integers(2, 5))
        m = p + int(rng.integers(1, 5))
        cases.append((rng.standard_normal((n, p)), rng.normal(0, 0.8, (p, m)), rng.normal(0, 0.5, m)))
    for X, W, b in in_random_order(rng, cases):
        (n, p), m = X.shape, W.shape[1]
        call = f"contractive_penalty(X, W, b) for X of shape {X.shape} and W of shape {W.shape}"
        value = answer_number(answer(X.copy(), W.copy(), b.copy()), call)
        expected = float(np.mean([np.sum(_encoder_jacobians(x, W, b) ** 2) for x in X]))
        Z = np.tanh(X @ W + b)
        S, norms = 1 - Z**2, np.sum(W**2, axis=0)
        per_point = S**2 @ norms
        for mistaken, mistake, message in (
                (np.mean((1 - Z) ** 2 @ norms), "slope-one-minus-z",
                 "uses 1 - z as the slope of the tanh; its derivative is 1 - tanh(a)**2 = 1 - z**2"),
                (np.mean(S @ norms), "slopes-not-squared",
                 "does not square the slopes: ||grad z_j||^2 = (1 - z_j**2)**2 ||W[:, j]||**2"),
                (np.mean(S**2 @ np.sqrt(norms)), "norms-not-squared",
                 "uses ||W[:, j]|| where its SQUARE belongs: the penalty is a sum of squared norms"),
                (np.sum(per_point), "sum-not-mean",
                 "sums over the points; the exercise asks for the MEAN over the rows of X"),
                (np.mean((1 - np.tanh(X @ W) ** 2) ** 2 @ norms), "no-bias",
                 "leaves out the bias b: z = tanh(x W + b)"),
                (np.mean(np.sum(S**2, axis=1)) * np.sum(W**2), "sums-multiplied",
                 "multiplies the summed slopes by the summed weights; each unit's slope pairs with its OWN column "
                 "W[:, j]"),
                (np.mean(np.sum((S @ W.T) ** 2, axis=1)), "norm-of-sum", "squares the norm of the SUM of the gradients "
                                                          "(sum over j inside the square); the penalty is the "
                                                          "sum over j of each squared norm"),
                (np.mean(np.sum(W**2) * np.ones(n)), "linear-encoder",
                 "forgets the slopes of the tanh (that is the penalty of a linear encoder): grad z_j = (1 - z_j**2) "
                 "W[:, j]")):
            expect_unlike(value, float(mistaken), expected, f"{call} = {value:.6g}: your penalty {message}",
                          rtol=1e-6, scale=expected, mistake=mistake)
        shown, wanted = distinct(value, expected)
        expect(is_close(value, expected, 1e-6, scale=expected),
               f"{call} = {shown}, but the mean of ||dz/dx||_F^2 over the rows (from finite differences of "
               f"the encoder) is {wanted}", mistake="wrong-penalty")


GEARY_MEAN, GEARY_SD, GEARY_Z = float(np.sqrt(2 / np.pi)), 0.2123, 6.0
"""Geary's test of normality of 10.denoising_pairs' noise: mean |r - mean| / standard deviation is
sqrt(2/pi) for normal draws, with standard deviation 0.2123 / sqrt(N) (measured on 400 000 samples of
N = 1200, the check's smallest). A correct answer fails when it is more than 6 standard deviations
off: none of the 400 000 normal samples came beyond 4.8 (false alarms far below 1e-6 per call);
uniform noise of the right standard deviation lies above +8.3 and Laplace noise below -9.2 at N = 1200."""


@register("10.denoising_pairs", hint="targets = np.tile(X, (copies, 1)); inputs = targets + noise * "
          "rng.standard_normal(targets.shape) with rng = np.random.default_rng(seed)")
def _denoising_pairs(answer, rng):
    expect(callable(answer), "the answer should be your function denoising_pairs(X, noise, copies, seed)")
    cases = []
    for _ in range(int(rng.integers(3, 5))):
        n, p, copies = int(rng.integers(100, 200)), int(rng.integers(3, 6)), int(rng.integers(4, 8))
        noise = float(rng.uniform(0.2, 0.45))  # uniform noise's sd, noise / sqrt(3), is then 28% or more above noise**2
        cases.append((rng.normal(0, 2, (n, p)), noise, copies, int(rng.integers(0, 2**31))))
    for X, noise, copies, seed in in_random_order(rng, cases):
        (n, p), rows = X.shape, X.shape[0] * copies
        call = f"denoising_pairs(X, noise={noise:.4g}, copies={copies}, seed={seed}) for X of shape {X.shape}"
        inputs, targets = answer_pair(answer(X.copy(), noise, copies, seed), call, "(inputs, targets)")
        inputs = answer_array(inputs, f"the inputs of {call}", (rows, p), wrong_shape="copies-ignored")
        targets = answer_array(targets, f"the targets of {call}", (rows, p))
        scale = float(np.abs(X).max())
        squared = cdist(targets, X, "sqeuclidean")  # (rows, n)
        source = squared.argmin(axis=1)             # the row of X each target is
        expect(float(np.sqrt(squared.min(axis=1).max())) <= tolerance(1e-9) * scale * np.sqrt(p),
               f"{call}: the targets are not rows of X. The targets are the CLEAN points; the noise goes on "
               "the inputs only", mistake="noisy-targets")
        expect(bool(np.all(np.bincount(source, minlength=n) == copies)),
               f"{call}: every row of X should appear exactly {copies} times among the targets")
        residual = inputs - targets
        spread = float(residual.std())
        expect(spread > 0, f"{call}: the inputs equal the targets; add the noise to the inputs", mistake="no-noise")
        # before the mean: one noise for all copies has copies times the variance of its mean
        copies_of = np.argsort(source, kind="stable").reshape(n, copies)  # row i: the targets of X[i], in order
        repeated = int(np.isclose(residual[copies_of[:, 0]], residual[copies_of[:, 1]]).all(axis=1).sum())
        expect(repeated < n / 2, f"{call}: the copies of a point carry the same noise ({repeated} of {n} points); "
               "draw fresh noise for every copy, or the copies add nothing", mistake="one-noise")
        expect(abs(float(residual.mean())) < 6 * noise / np.sqrt(residual.size),
               f"{call}: the noise (inputs - targets) has mean {residual.mean():.4g}; it should have mean 0")
        expect(not np.isclose(spread, noise**2, rtol=0.15),
               f"{call}: the noise has standard deviation {spread:.4g}, about noise**2; noise is the STANDARD "
               "DEVIATION: multiply standard normal draws by noise, not by noise**2", mistake="variance-as-sd")
        expect(np.isclose(spread, noise, rtol=0.15),
               f"{call}: inputs - targets should be noise of standard deviation {noise:.4g}, got {spread:.4g}",
               mistake="uniform-noise")
        geary = (float(np.mean(np.abs(residual - residual.mean()))) / spread - GEARY_MEAN) \
            / (GEARY_SD / np.sqrt(residual.size))
        expect(geary <= GEARY_Z, f"{call}: the noise has the right standard deviation but is not normal: too few "
               "draws are far from 0 (uniform noise?); draw it with rng.standard_normal", mistake="uniform-noise")
        expect(geary >= -GEARY_Z, f"{call}: the noise has the right standard deviation but is not normal: too many "
               "draws are far from 0 (heavy tails); draw it with rng.standard_normal", mistake="not-normal")
        again, _ = answer_pair(answer(X.copy(), noise, copies, seed), call, "(inputs, targets)")
        expect(np.array_equal(answer_array(again, f"the inputs of {call}"), inputs),
               f"{call} gave other inputs when called again with the same seed: draw the noise from "
               "np.random.default_rng(seed)", mistake="unseeded")
        other, _ = answer_pair(answer(X.copy(), noise, copies, seed + 1), call, "(inputs, targets)")
        expect(not np.array_equal(answer_array(other, f"the inputs of {call}"), inputs),
               f"{call} gives the same noise for seed {seed} and seed {seed + 1}: use the seed argument",
               mistake="seed-ignored")
