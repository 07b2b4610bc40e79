"""Checks of exercise set 06: random projections and the Johnson-Lindenstrauss bound.

Every exercise asks for a function; each check calls it on fresh random instances, in a
random order, and verifies properties: the bound's defining inequality, its inverse, the
moments of a simulation (within a few standard errors), and a failure rate repeated exactly
with the seeds the exercise prescribes.
"""

from __future__ import annotations

import math

import numpy as np

from ..jl import random_projection
from ..mds import squared_distances
from . import CheckFailure, register
from .properties import (
    answer_array,
    answer_integer,
    answer_number,
    distinct,
    expect,
    expect_unlike,
    in_random_order,
    is_close,
)

FORBIDS = ("dimred_teach.jl.jl_min_dim",  # 06.min_dim
           "dimred_teach.jl.jl_epsilon")  # 06.epsilon_for
"""What this set's answers may not use (modules or functions of the library): the grader's
kernel for this set does not have them, and ``check()`` fails an answer that uses them
(:mod:`dimred_teach.checks.policy`)."""

MISTAKES = {
    "below-bound": "q where the union bound is still above delta",
    "notes-form": "the notes' bound (its upper tail is too light)",
    "both-tails-heavy": "both tails at the heavier one (not the smallest q)",
    "pairs-miscounted": "n^2 or n^2/2 pairs instead of n(n-1)/2",
    "too-many": "not the smallest q",
    "no-square-root": "eps squared: no square root",
    "wrong-epsilon": "an eps that does not give back q (log10 instead of the natural log?)",
    "seed-ignored": "the seed is ignored",
    "one-matrix": "one projection for all draws",
    "wrong-scale": "U not scaled by 1/sqrt(q)",
    "other-draws": "not the draws the exercise prescribes (a simulation of something else?)",
    "a-count": "a count instead of a rate",
    "one-tail": "not the share of failing pairs (one tail only?)",
    "own-random-numbers": "random numbers not drawn from the seed",
}
"""The typical mistakes this set's checks name: id (stable, counted by ``dimred-teach class-report``) to
short name. A failure no named mistake explains is ``other``."""


Z_TOLERANCE = 5.0
"""Simulated estimates may sit this many standard errors from their target (a correct
answer then fails with probability below 1e-6)."""


def _bound(n: int, eps: float, delta: float) -> float:
    return 8.0 / eps**2 * math.log(n / math.sqrt(delta))


def union_log_bound(n: int, eps: float, delta: float, q: int, pairs: float | None = None) -> float:
    """log of the union bound of exercise 06.min_dim minus log delta: n(n-1)/2 pairs (or ``pairs``), each
    failing with probability at most e^(-q eps^2/4) (lower tail) + e^(-q (eps^2/4 - eps^3/6)) (upper tail,
    Dasgupta and Gupta). The bound certifies q when this is at most 0."""
    pairs = n * (n - 1) / 2 if pairs is None else pairs
    return math.log(pairs) + float(np.logaddexp(-q * eps**2 / 4, -q * (eps**2 / 4 - eps**3 / 6))) - math.log(delta)


def smallest_certified(n: int, eps: float, delta: float, pairs: float | None = None) -> int:
    """The smallest q whose :func:`union_log_bound` is at most 0 (bisection: the bound falls as q grows)."""
    low, high = 0, math.ceil(math.log(2 * (n * (n - 1) / 2 if pairs is None else pairs) / delta)
                             / (eps**2 / 4 - eps**3 / 6))  # both tails at the heavier one: certified
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if union_log_bound(n, eps, delta, middle, pairs) <= 0 else (middle, high)
    return high


def _fresh_n_eps_delta(rng: np.random.Generator, miscount_shows: bool = False):
    """An (n, eps, delta) and its answer q, whose bound at q and q - 1 is not within 1e-9 of delta (no ties);
    if ``miscount_shows``, one where counting n^2 / 2 pairs (and so n^2) gives q + 2 or more (told apart from an
    answer one too large: with many points or a wide eps the miscounts give q or q + 1)."""
    while True:
        n = int(rng.choice([rng.integers(3, 100), rng.integers(100, 10**7)]))
        eps = float(rng.uniform(0.05, 0.95))
        delta = float(rng.uniform(0.001, 0.5))
        q = smallest_certified(n, eps, delta)
        if union_log_bound(n, eps, delta, q) < -1e-9 and union_log_bound(n, eps, delta, q - 1) > 1e-9 and (
                not miscount_shows or smallest_certified(n, eps, delta, n**2 / 2) >= q + 2):
            return n, eps, delta, q


@register("06.min_dim", hint="the left side n(n-1)/2 (exp(-q eps^2/4) + exp(-q (eps^2/4 - eps^3/6))) falls as q "
                             "grows: start from a q that is certified (both tails at the heavier one) and bisect, "
                             "or count up from the notes' bound")
def _min_dim(answer, rng):
    one_too_many = None  # q = right + 1 where a miscount of the pairs gives it too: named only if nothing else is
    count = int(rng.integers(20, 30))
    telling = int(rng.integers(count))
    for number in range(count):
        n, eps, delta, right = _fresh_n_eps_delta(rng, miscount_shows=number == telling)
        call = f"min_dim({n}, {eps:.17g}, {delta:.17g})"
        q = answer_integer(answer(n, eps, delta), call)
        if q == right:
            continue
        too_many = CheckFailure(f"{call} = {q}: the union bound holds there, but also at a smaller q: q is not the "
                                "smallest such integer", mistake="too-many")
        expect(q != math.ceil(_bound(n, eps, delta)), f"{call} = {q} is the notes' bound, whose upper tail "
               "exp(-q eps^2/4) is too light: use the Dasgupta-Gupta tail for the upper side", mistake="notes-form")
        expect(q != math.ceil(math.log(n * (n - 1) / delta) / (eps**2 / 4 - eps**3 / 6)),
               f"{call} = {q} puts both tails at the heavier one: certified, but not the smallest q the two tails "
               "certify together", mistake="both-tails-heavy")
        miscounted = {smallest_certified(n, eps, delta, n**2 / 2), smallest_certified(n, eps, delta, n**2)}
        if q == right + 1 and q in miscounted:
            one_too_many = one_too_many or too_many
            continue
        expect(q not in miscounted, f"{call} = {q} counts the pairs wrongly: n points have n (n - 1) / 2 pairs",
               mistake="pairs-miscounted")
        expect(union_log_bound(n, eps, delta, q) <= 0, f"{call} = {q}, but at that q the union bound is still above "
               "delta", mistake="below-bound")
        raise too_many
    if one_too_many:
        raise one_too_many


@register("06.epsilon_for", hint="solve q = 8 / eps**2 * log(n / sqrt(delta)) for eps")
def _epsilon_for(answer, rng):
    for _ in range(int(rng.integers(20, 30))):
        n = int(rng.integers(2, 10**6))
        q = int(rng.integers(1, 10**5))
        delta = float(rng.uniform(0.001, 0.5))
        call = f"epsilon_for({n}, {q}, {delta:.17g})"
        eps = answer_number(answer(n, q, delta), call)
        expect(eps > 0, f"{call} should return a positive number, got {eps!r}")
        expected = math.sqrt(8.0 * math.log(n / math.sqrt(delta)) / q)
        back = _bound(n, eps, delta)
        expect(not is_close(eps, expected**2, 1e-6), f"{call} = {eps:.6g} is eps squared: take the square root "
                                                     f"(putting it back into the bound gives q = {back:.6g}, not {q})",
               mistake="no-square-root")
        shown, wanted = distinct(back, q)
        expect(is_close(back, q, 1e-9), f"{call} = {eps:.10g}, but putting it back into the bound gives q = {shown}, "
                                        f"not {wanted}", mistake="wrong-epsilon")


@register("06.simulate_squared_norms",
          hint="draw U = Z / sqrt(q) with Z of shape (q, p) standard normal, n_draws times, "
               "from numpy.random.default_rng(seed), and keep ||U x||**2 each time")
def _simulate_squared_norms(answer, rng):
    n_draws, few = 1000, 20
    cases = []
    for _ in range(2):
        p, q = 1, 1
        while max(p, q) < 1.5 * min(p, q):  # U scaled by 1 / sqrt(p), not 1 / sqrt(q), shows in the mean
            p, q = int(rng.integers(3, 20)), int(rng.integers(2, 20))
        x = rng.normal(size=p) * rng.uniform(0.5, 3.0)
        seed = int(rng.integers(0, 2**31))
        cases += [(x, q, draws, seed + shift) for draws, shift in ((few, 0), (few, 0), (few, 1), (n_draws, 0))]
    results = {}
    for x, q, draws, seed in in_random_order(rng, cases):
        call = f"simulate_squared_norms(x, q={q}, n_draws={draws}, seed={seed})"
        values = answer_array(answer(x.copy(), q, draws, seed), call, shape=(draws,))
        results.setdefault((q, draws, seed), []).append(values)
    for (q, draws, seed), runs in results.items():
        short = f"simulate_squared_norms(x, q={q}, n_draws={draws}, seed={seed})"
        if len(runs) == 2:
            expect(bool(np.array_equal(runs[0], runs[1])),
                   f"{short} gave different numbers on a second call with the same seed: draw every random number "
                   "from default_rng(seed)", mistake="seed-ignored")
            other = results[(q, draws, seed + 1)][0]
            expect(not np.array_equal(runs[0], other), f"{short} gave the same numbers for seeds {seed} and {seed + 1}",
                   mistake="seed-ignored")
    for x, q, draws, seed in cases:
        if draws != n_draws:
            continue
        call = f"simulate_squared_norms(x, q={q}, n_draws={draws}, seed={seed})"
        values = results[(q, draws, seed)][0]
        expect(bool(np.all(values >= 0)), f"{call} contains negative values; squared lengths are never negative")
        ratios = values / float(x @ x)
        expect(ratios.std() > 0.1 * math.sqrt(2.0 / q),
               f"{call}: the {draws} values hardly vary (standard deviation {values.std():.3g}); draw a fresh U "
               "for every draw", mistake="one-matrix")
        mean_error = abs(ratios.mean() - 1.0) / math.sqrt(2.0 / (q * draws))
        expect(mean_error <= Z_TOLERANCE,
               f"{call}: the average of ||U x||^2 is {values.mean():.6g} but ||x||^2 = {x @ x:.6g}; they differ by "
               f"{mean_error:.1f} standard errors (is U scaled by 1 / sqrt(q)?)", mistake="wrong-scale")
        # ||U x||^2 / ||x||^2 is chi-square(q) / q: variance 2/q, kurtosis 3 + 12/q
        variance_error = abs(ratios.var(ddof=1) * q / 2.0 - 1.0) / math.sqrt((2.0 + 12.0 / q) / draws)
        expect(variance_error <= Z_TOLERANCE,
               f"{call}: the variance of ||U x||^2 / ||x||^2 is {ratios.var(ddof=1):.4g}, but a Gaussian U gives "
               f"2 / q = {2.0 / q:.4g} ({variance_error:.1f} standard errors away): are the entries of U "
               "independent standard normals, a fresh U for every draw?")
    for x, q, draws, seed in cases:  # draw for draw: the stream the exercise prescribes
        call = f"simulate_squared_norms(x, q={q}, n_draws={draws}, seed={seed})"
        Z = np.random.default_rng(seed).standard_normal((draws, q, x.size))  # U_t = Z_t / sqrt(q), t = 1 .. draws
        expect(is_close(results[(q, draws, seed)][0], np.sum((Z @ x) ** 2, axis=1) / q, 1e-10),
               f"{call}: these are not the squared lengths of U x for the matrices U = Z / sqrt(q) drawn in turn, "
               "each a (q, p) array of rng.standard_normal, from rng = default_rng(seed)", mistake="other-draws")


def _trial_ratio_ranges(X: np.ndarray, q: int, n_trials: int, seed: int) -> np.ndarray:
    """(smallest, largest) squared-distance ratio of each trial t, projected with seed + t, shape (n_trials, 2)."""
    pairs = np.triu_indices(X.shape[0], 1)
    projected = np.stack([squared_distances(random_projection(X, q, seed=seed + t).embedding)[pairs]
                          for t in range(n_trials)])  # (n_trials, pairs)
    ratios = projected / squared_distances(X)[pairs]
    return np.stack([ratios.min(axis=1), ratios.max(axis=1)], axis=1)


def _failure_rate_instance(rng: np.random.Generator, eps_above_one: bool):
    """X, q, n_trials, seed, eps and the per-trial ratio ranges; unless ``eps_above_one``, eps is drawn
    so that some trials fail only below 1 - eps and some only above 1 + eps (one-sided counting shows)."""
    while True:
        n, p, q = int(rng.integers(5, 9)), int(rng.integers(10, 30)), int(rng.integers(2, 12))
        n_trials, seed = int(rng.integers(8, 16)), int(rng.integers(0, 2**31))
        X = rng.normal(size=(n, p))
        ranges = _trial_ratio_ranges(X, q, n_trials, seed)
        below, above = 1.0 - ranges[:, 0], ranges[:, 1] - 1.0
        worst = np.maximum(below, above)
        low, high = np.quantile(worst, [0.25, 0.75]) if not eps_above_one else (1.0, np.inf)
        candidates = np.concatenate([below, above])
        candidates = candidates[(candidates > 1.0) == eps_above_one]
        candidates = candidates[(candidates >= low) & (candidates <= high)]  # failure rates away from 0 and 1
        rng.shuffle(candidates)
        for eps in candidates[:10]:
            # close to a trial's worst, not on it (and below it when eps > 1, so that some trial fails)
            eps = float(eps) * (1.0 + (-1e-6 if eps_above_one else float(rng.choice([-1e-6, 1e-6]))))
            lower_only = np.sum((below > eps) & (above <= eps))
            upper_only = np.sum((above > eps) & (below <= eps))
            if eps_above_one or (lower_only and upper_only):
                return X, q, n_trials, seed, eps, below, above


@register("06.failure_rate",
          hint="for each trial t, project with random_projection(X, q, seed=seed + t) and count the trials "
               "where distortion(X, Y).worst > eps; return that count / n_trials")
def _failure_rate(answer, rng):
    instances = [_failure_rate_instance(rng, eps_above_one=False) for _ in range(int(rng.integers(3, 5)))]
    instances.append(_failure_rate_instance(rng, eps_above_one=True))
    for X, q, n_trials, seed, eps, below, above in in_random_order(rng, instances):
        call = f"failure_rate(X, q={q}, eps={eps:.10g}, n_trials={n_trials}, seed={seed}) with X of shape {X.shape}"
        rate = answer_number(answer(X.copy(), q, eps, n_trials, seed), call)
        expected = float(np.mean((below > eps) | (above > eps)))
        expect_unlike(rate, expected * n_trials, expected, f"{call} = {rate:.6g} is the number of failed trials; "
                                                           "return the fraction (divide by n_trials)", scale=1.0,
                      mistake="a-count")
        expect(0 <= rate <= 1, f"{call} should return a fraction between 0 and 1, got {rate:.6g}")
        one_sided = {float(np.mean(above > eps)), float(np.mean(below > eps))} - {expected}
        expect(not any(math.isclose(rate, counted, abs_tol=1e-12) for counted in one_sided),
               f"{call} = {rate:.6g}: you counted only one side (only ratios above 1 + eps, or only below 1 - eps); "
               "a trial fails when ANY pair's squared-distance ratio leaves [1 - eps, 1 + eps], on either side",
               mistake="one-tail")
        expect(math.isclose(rate, expected, abs_tol=1e-12),
               f"{call} = {rate:.6g}, but projecting with random_projection(X, q, seed=seed + t) for t = 0, ..., "
               f"n_trials - 1 fails in {round(expected * n_trials)} of the {n_trials} trials, a fraction of "
               f"{expected:.6g}: a trial fails when some pair's squared-distance ratio leaves [1 - eps, 1 + eps]",
               mistake="own-random-numbers")
