"""Checks of exercise set 06: random projections and the Johnson-Lindenstrauss bound.

Every exercise asks for a function; each check calls it on fresh random instances and
verifies properties: the bound's defining inequality, its inverse, the moments of a
simulation, and agreement of a simulated probability with an independent estimate within
a binomial tolerance.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from . import CheckFailure, register
from .properties import answer_array, expect
from ..jl import worst_distortions

Z_TOLERANCE = 5.0
"""Simulated estimates may sit this many standard errors from their target (a correct
answer then fails with probability below 1e-6)."""


def _bound(n: int, eps: float, delta: float) -> float:
    return 8.0 / eps**2 * math.log(n / math.sqrt(delta))


def _fresh_n_eps_delta(rng: np.random.Generator):
    """An (n, eps, delta) whose bound is not within 1e-6 of an integer (no rounding ties)."""
    while True:
        n = int(rng.choice([rng.integers(2, 100), rng.integers(100, 10**7)]))
        eps = float(rng.uniform(0.05, 0.95))
        delta = float(rng.uniform(0.001, 0.5))
        bound = _bound(n, eps, delta)
        if abs(bound - round(bound)) > 1e-6:
            return n, eps, delta, bound


@register("06.min_dim", hint="q is the smallest integer with q >= 8 / eps**2 * log(n / sqrt(delta)) "
                             "(natural log; round up with math.ceil)")
def _min_dim(answer, rng):
    for _ in range(25):
        n, eps, delta, bound = _fresh_n_eps_delta(rng)
        q = answer(n, eps, delta)
        call = f"min_dim({n}, {eps:.4f}, {delta:.4f})"
        expect(isinstance(q, numbers.Integral) and not isinstance(q, bool),
               f"{call} should return an integer, got {type(q).__name__} {q!r} (wrap it in int(...))")
        expect(q >= bound, f"{call} = {q} is below the bound {bound:.4f}: it does not satisfy the inequality")
        expect(q - 1 < bound, f"{call} = {q}, but {q - 1} already satisfies q >= {bound:.4f}: "
                              "q is not the smallest such integer")


@register("06.epsilon_for", hint="solve q = 8 / eps**2 * log(n / sqrt(delta)) for eps")
def _epsilon_for(answer, rng):
    for _ in range(25):
        n = int(rng.integers(2, 10**6))
        q = int(rng.integers(1, 10**5))
        delta = float(rng.uniform(0.001, 0.5))
        call = f"epsilon_for({n}, {q}, {delta:.4f})"
        eps = answer(n, q, delta)
        expect(isinstance(eps, numbers.Real) and not isinstance(eps, bool) and math.isfinite(eps) and eps > 0,
               f"{call} should return a positive number, got {eps!r}")
        back = _bound(n, float(eps), delta)
        expect(math.isclose(back, q, rel_tol=1e-9),
               f"{call} = {float(eps):.6g}, but putting it back into the bound gives q = {back:.6g}, not {q}")


@register("06.simulate_squared_norms",
          hint="draw U = Z / sqrt(q) with Z of shape (q, p) standard normal, n_draws times, "
               "from numpy.random.default_rng(seed), and keep ||U x||**2 each time")
def _simulate_squared_norms(answer, rng):
    n_draws, few = 3000, 20
    for _ in range(2):
        p, q = int(rng.integers(3, 30)), int(rng.integers(2, 40))
        x = rng.normal(size=p) * rng.uniform(0.5, 3.0)
        seed = int(rng.integers(0, 2**31))
        short = f"simulate_squared_norms(x, q={q}, n_draws={few}, seed={seed})"
        once = answer_array(answer(x.copy(), q, few, seed), short, shape=(few,))
        again = answer_array(answer(x.copy(), q, few, seed), f"{short} (second call)", shape=(few,))
        expect(bool(np.array_equal(once, again)), f"{short} gave different numbers on a second call with the "
                                                   "same seed: draw every random number from default_rng(seed)")
        other = answer_array(answer(x.copy(), q, few, seed + 1), f"{short} with seed + 1", shape=(few,))
        expect(not np.array_equal(once, other), f"{short} gave the same numbers for seeds {seed} and {seed + 1}")
        call = f"simulate_squared_norms(x, q={q}, n_draws={n_draws}, seed={seed})"
        draws = answer_array(answer(x.copy(), q, n_draws, seed), call, shape=(n_draws,))
        expect(bool(np.all(draws >= 0)), f"{call} contains negative values; squared lengths are never negative")
        ratios = draws / float(x @ x)
        expect(ratios.std() > 0.1 * math.sqrt(2.0 / q),
               f"{call}: the {n_draws} values hardly vary (standard deviation {draws.std():.3g}); draw a fresh U "
               "for every draw")
        mean_error = abs(ratios.mean() - 1.0) / math.sqrt(2.0 / (q * n_draws))
        expect(mean_error <= Z_TOLERANCE,
               f"{call}: the average of ||U x||^2 is {draws.mean():.4g} but ||x||^2 = {x @ x:.4g}; they differ by "
               f"{mean_error:.1f} standard errors (is U scaled by 1 / sqrt(q)?)")
        # ||U x||^2 / ||x||^2 is chi-square(q) / q: variance 2/q, kurtosis 3 + 12/q
        variance_error = abs(ratios.var(ddof=1) * q / 2.0 - 1.0) / math.sqrt((2.0 + 12.0 / q) / n_draws)
        expect(variance_error <= Z_TOLERANCE,
               f"{call}: the variance of ||U x||^2 / ||x||^2 is {ratios.var(ddof=1):.4g}, but a Gaussian U gives "
               f"2 / q = {2.0 / q:.4g} ({variance_error:.1f} standard errors away): are the entries of U "
               "independent standard normals, a fresh U for every draw?")


@register("06.failure_rate",
          hint="for each trial t, project with random_projection(X, q, seed=seed + t) and count the trials "
               "where distortion(X, Y).worst > eps; return that count / n_trials")
def _failure_rate(answer, rng):
    n_trials, reference_trials = 300, 800
    n, p, q = int(rng.integers(8, 16)), int(rng.integers(20, 40)), int(rng.integers(10, 40))
    X = rng.normal(size=(n, p))
    pilot = worst_distortions(X, q, 200, seed=int(rng.integers(0, 2**31)))
    eps = float(np.quantile(pilot, rng.uniform(0.15, 0.35)))  # a failure rate of roughly 0.65 to 0.85
    reference = float(np.mean(worst_distortions(X, q, reference_trials, seed=int(rng.integers(0, 2**31))) > eps))
    seed = int(rng.integers(0, 2**31))
    short = f"failure_rate(X, q={q}, eps={eps:.4f}, n_trials=20, seed={seed})"
    expect(answer(X.copy(), q, eps, 20, seed) == answer(X.copy(), q, eps, 20, seed),
           f"{short} changed on a second call with the same seed: derive every projection from the seed")
    call = f"failure_rate(X, q={q}, eps={eps:.4f}, n_trials={n_trials}, seed={seed}) with X of shape {X.shape}"
    rate = answer(X.copy(), q, eps, n_trials, seed)
    expect(isinstance(rate, numbers.Real) and not isinstance(rate, bool) and 0.0 <= rate <= 1.0,
           f"{call} should return a fraction between 0 and 1, got {rate!r}")
    pooled = min(max(reference, 0.02), 0.98)
    standard_error = math.sqrt(pooled * (1.0 - pooled) * (1.0 / n_trials + 1.0 / reference_trials))
    if abs(rate - reference) > Z_TOLERANCE * standard_error:
        raise CheckFailure(
            f"{call} = {float(rate):.4f}, but an independent simulation of {reference_trials} projections "
            f"gives {reference:.4f} (more than {Z_TOLERANCE:g} standard errors away): a trial fails when ANY "
            "pair's squared-distance ratio leaves [1 - eps, 1 + eps]"
        )
