"""Variants and mutants of exercise set 06, random projections and the JL bound."""

import math

import numpy as np

from dimred_teach.jl import distortion, random_projection

from . import Mutant, Variant, first_calls_then, float32, returning, solution


def bound(n, eps, delta):
    return 8 / eps**2 * math.log(n / math.sqrt(delta))


def notes_min_dim(n, eps, delta):
    return math.ceil(bound(n, eps, delta))


def certified(n, eps, delta, q, pairs=None):
    pairs = n * (n - 1) / 2 if pairs is None else pairs
    return pairs * (math.exp(-q * eps**2 / 4) + math.exp(-q * (eps**2 / 4 - eps**3 / 6))) <= delta


def min_dim_by_counting(n, eps, delta, pairs=None):
    """Count up from half the notes' bound (which the answer never falls below for n >= 3)."""
    q = notes_min_dim(n, eps, delta) // 2
    while not certified(n, eps, delta, q, pairs):
        q += 1
    return q


def min_dim_by_log_bisection(n, eps, delta):
    """Bisection on the logarithm of the bound, with NumPy, a numpy integer out."""
    def log_excess(q):
        return np.log(n * (n - 1) / 2) + np.logaddexp(-q * eps**2 / 4, -q * (eps**2 / 4 - eps**3 / 6)) - np.log(delta)
    low, high = 0, 1
    while log_excess(high) > 0:
        low, high = high, 2 * high
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if log_excess(middle) <= 0 else (middle, high)
    return np.int64(high)


def epsilon_for(n, q, delta):
    return math.sqrt(8 * math.log(n / math.sqrt(delta)) / q)


def norms(x, q, n_draws, seed, scale=None, same_u=False, seeded=True):
    rng = np.random.default_rng(seed if seeded else None)
    if same_u:
        Z = np.broadcast_to(rng.standard_normal((q, len(x))), (n_draws, q, len(x)))
    else:
        Z = rng.standard_normal((n_draws, q, len(x)))
    return np.sum((Z @ x) ** 2, axis=1) / (q if scale is None else scale)


def norms_by_loop(x, q, n_draws, seed):
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(n_draws):
        U = rng.normal(0.0, 1.0, size=(q, len(x))) / math.sqrt(q)
        values.append(float(np.linalg.norm(U @ x) ** 2))
    return np.array(values)


def norms_faked(x, q, n_draws, seed):
    """Not a simulation: ||x||^2 (1 + sqrt(2/q) t) with a seeded +-1 pattern t has the right mean and variance."""
    t = np.random.default_rng(seed).choice([-1.0, 1.0], size=n_draws)
    return x @ x * (1 + math.sqrt(2 / q) * t)


def norms_transposed(x, q, n_draws, seed):
    """Z drawn as (p, q) and transposed: the right distribution, not the prescribed draws."""
    Z = np.random.default_rng(seed).standard_normal((n_draws, len(x), q))
    return np.sum((x @ Z) ** 2, axis=1) / q


def failure_rate(X, q, eps, n_trials, seed, side="both", fraction=True):
    failed = 0
    for t in range(n_trials):
        ratios = distortion(X, random_projection(X, q, seed=seed + t).embedding).ratios
        low, high = ratios.min() < 1 - eps, ratios.max() > 1 + eps
        failed += {"both": low or high, "upper": high, "lower": low}[side]
    return failed / n_trials if fraction else failed


def failure_rate_own_rng(X, q, eps, n_trials, seed):  # statistically right, but not the prescribed seeds
    rng = np.random.default_rng(seed)
    failed = 0
    for _ in range(n_trials):
        Y = X @ rng.standard_normal((X.shape[1], q)) / np.sqrt(q)
        failed += distortion(X, Y).worst > eps
    return failed / n_trials


CASES = {
    "06.min_dim": (
        [
            Variant("count up from half the notes' bound", lambda: min_dim_by_counting),
            Variant("bisection on the log, numpy integer", lambda: min_dim_by_log_bisection),
        ],
        [
            Mutant("the notes' bound", lambda: notes_min_dim, r"notes' bound", "notes-form"),
            Mutant("both tails at the heavier one", lambda: lambda n, e, d: math.ceil(
                math.log(n * (n - 1) / d) / (e**2 / 4 - e**3 / 6)), r"heavier one", "both-tails-heavy"),
            Mutant("n^2 / 2 pairs", lambda: lambda n, e, d: min_dim_by_counting(n, e, d, pairs=n**2 / 2),
                   r"pairs wrongly", "pairs-miscounted"),
            Mutant("one too few", lambda: lambda n, e, d: min_dim_by_counting(n, e, d) - 1, r"still above delta",
                   "below-bound"),
            Mutant("one too many", lambda: lambda n, e, d: min_dim_by_counting(n, e, d) + 1, r"not the smallest",
                   "too-many"),
            Mutant("float", lambda: lambda n, e, d: float(min_dim_by_counting(n, e, d)), r"integer", "wrong-form"),
            Mutant("right for three calls, then 1", first_calls_then(min_dim_by_counting, 3, lambda n, e, d: 1),
                   r"still above delta", "below-bound"),
        ],
    ),
    "06.epsilon_for": (
        [
            Variant("float32", lambda: returning(epsilon_for, np.float32)),
            Variant("numpy float", lambda: lambda n, q, d: np.sqrt(8 * np.log(n / np.sqrt(d)) / q)),
            Variant("one-element array", lambda: lambda n, q, d: np.array([epsilon_for(n, q, d)])),
        ],
        [
            Mutant("no square root", lambda: lambda n, q, d: 8 * math.log(n / math.sqrt(d)) / q, r"eps squared",
                    "no-square-root"),
            Mutant("log10", lambda: lambda n, q, d: math.sqrt(8 * math.log10(n / math.sqrt(d)) / q), r"back into",
                    "wrong-epsilon"),
            Mutant("right for three calls, then 0.5", first_calls_then(epsilon_for, 3, lambda n, q, d: 0.5),
                   r"back into", "wrong-epsilon"),
        ],
    ),
    "06.simulate_squared_norms": (
        [
            Variant("list output", lambda: returning(solution("06.simulate_squared_norms")(), list)),
            Variant("einsum", lambda: lambda x, q, n, s: np.einsum(
                "dqp,p->dq", np.random.default_rng(s).standard_normal((n, q, len(x))) / np.sqrt(q), x) ** 2
                @ np.ones(q)),
            Variant("float32 output", lambda: returning(solution("06.simulate_squared_norms")(), float32)),
            Variant("a loop of (q, p) draws with rng.normal", lambda: norms_by_loop),
        ],
        [
            Mutant("not scaled", lambda: lambda x, q, n, s: norms(x, q, n, s, scale=1.0), r"1 / sqrt\(q\)",
                    "wrong-scale"),
            Mutant("scaled by p", lambda: lambda x, q, n, s: norms(x, q, n, s, scale=len(x)), r"1 / sqrt\(q\)",
                    "wrong-scale"),
            Mutant("one U for all draws", lambda: lambda x, q, n, s: norms(x, q, n, s, same_u=True),
                   r"hardly vary", "one-matrix"),
            Mutant("seed ignored", lambda: lambda x, q, n, s: norms(x, q, n, s, seeded=False), r"second call",
                    "seed-ignored"),
            Mutant("not a simulation: mean and variance faked", lambda: norms_faked, r"not the squared lengths",
                   "other-draws"),
            Mutant("Z drawn as (p, q)", lambda: norms_transposed, r"not the squared lengths", "other-draws"),
            Mutant("right for three calls, then ones",
                   first_calls_then(norms, 3, lambda x, q, n, s: np.ones(n)), r"second call|same numbers|hardly",
                   ("seed-ignored", "one-matrix")),  # ones hardly vary: one U, when the seed calls came first
        ],
    ),
    "06.failure_rate": (
        [
            Variant("numpy float", lambda: returning(failure_rate, np.float64)),
            Variant("via worst_distortions", lambda: lambda X, q, eps, n, seed: float(np.mean(
                __import__("dimred_teach.jl", fromlist=["jl"]).worst_distortions(X, q, n, seed=seed) > eps))),
        ],
        [
            Mutant("upper tail only", lambda: lambda *a: failure_rate(*a, side="upper"), r"only one side", "one-tail"),
            Mutant("lower tail only", lambda: lambda *a: failure_rate(*a, side="lower"), r"only one side", "one-tail"),
            Mutant("a count", lambda: lambda *a: failure_rate(*a, fraction=False), r"fraction", "a-count"),
            Mutant("own random numbers", lambda: failure_rate_own_rng, r"seed \+ t|one side",
                    ("own-random-numbers", "one-tail")),
            Mutant("right for three calls, then 0", first_calls_then(failure_rate, 3, lambda *a: 0.0),
                   r"seed \+ t|only", ("own-random-numbers", "one-tail")),
        ],
    ),
}
