"""Checks of exercise set 12, missing values and recommender systems.

Function answers are called on fresh random ratings matrices (a low-rank model, noise and
missing entries drawn from the check's generator) in a random order; the rank chooser is
called on fresh ratings with a share of their observed entries hidden. When
a function answer fails, the check compares it with the typical mistakes to name the one
it looks like.
"""

from __future__ import annotations

import functools

import numpy as np

from ..imputation import low_rank_impute, mean_plus_rank_k
from . import CheckFailure, register
from .properties import answer_array, expect
from .set11 import in_random_order, whole_number

FORBIDS = ("dimred_teach.imputation",)  # hard impute by hand; its own cells use the students' functions
"""What this set's answers may not use (modules or functions of the library): the grader's
kernel for this set does not have them, and ``check()`` fails an answer that uses them
(:mod:`dimred_teach.checks.policy`)."""

MISTAKES = {
    "observed-replaced": "observed ratings replaced by the fit",
    "no-centring": "no centring: the item means were not subtracted",
    "means-not-added": "the item means not added back",
    "no-svd": "the filled matrix itself, no truncated SVD",
    "missing-as-zero": "missing ratings counted as 0",
    "row-means": "user (row) means instead of item means",
    "overall-mean": "one overall mean",
    "observed-changed": "observed ratings changed",
    "one-step": "one step only",
    "zero-start": "started from zeros instead of the item means",
    "training-error": "chosen on the training error",
    "not-best-rank": "another rank has a smaller held-out error",
}
"""The typical mistakes this set's checks name: id (stable, counted by ``dimred-teach class-report``) to
short name. A failure no named mistake explains is ``other``."""

RANKS = (1, 2, 3, 4, 5)
"""The ranks 12.best_rank's function chooses from on the check's fresh instances."""
TARGET_RANKS = (1, 2, 3, 4)
"""The best ranks of 12.best_rank's instances (three different ones in each check)."""
HELD_OUT_FRACTION = 0.15
"""The share of the observed ratings the check hides from ``choose_rank``'s training matrix."""
CLEAR_MARGIN = 0.02
"""12.best_rank's instances have a best rank whose held-out RMSE is below every other rank's by at
least this share, so the right choice does not hang on rounding or on a near tie."""


def fit_rmse(train: np.ndarray, rows: np.ndarray, cols: np.ndarray, values: np.ndarray, k: int) -> tuple[float, float]:
    """(training RMSE, held-out RMSE) of ``low_rank_impute(train, k, max_iter=100, tol=1e-5)``, the fit
    exercise 12.best_rank prescribes, on the hidden entries ``(rows, cols)`` whose ratings are ``values``."""
    result = low_rank_impute(train, k, max_iter=100, tol=1e-5)
    return result.history[-1], float(np.sqrt(np.mean((result.completed[rows, cols] - values) ** 2)))


def _random_ratings(rng: np.random.Generator, missing: float | None = None):
    """A fresh (ratings with NaN, complete truth) pair; every user and every item keeps a rating."""
    n, p, rank = int(rng.integers(15, 40)), int(rng.integers(8, 20)), int(rng.integers(1, 4))
    truth = rng.normal(3.0, 0.5, size=p) + rng.normal(size=(n, rank)) @ rng.normal(size=(rank, p)) / np.sqrt(rank)
    noisy = truth + 0.3 * rng.normal(size=(n, p))
    hidden = rng.uniform(size=(n, p)) < (rng.uniform(0.3, 0.7) if missing is None else missing)
    hidden[rng.integers(0, n, p), np.arange(p)] = False  # every item keeps a rating
    hidden[np.arange(n), rng.integers(0, p, n)] = False  # every user keeps a rating
    return np.where(hidden, np.nan, noisy), truth


def _rank_k_fit(Z: np.ndarray, k: int, center: bool = True) -> np.ndarray:
    means, scores, components = mean_plus_rank_k(Z, k, center)
    return scores @ components.T + means


# --- 12.item_means ------------------------------------------------------------------------------

@register("12.item_means",
          hint="np.nanmean(R, axis=0) averages each column over its observed ratings only; broadcast it to every "
               "row, e.g. np.tile(means, (n, 1)) or np.zeros_like(R) + means")
def _item_means(answer, rng):
    for _ in range(3):
        R, _ = _random_ratings(rng)
        n, p = R.shape
        P = answer_array(answer(R.copy()), f"predict_item_means(R) for {n} users and {p} items", (n, p))
        expected = np.nanmean(R, axis=0)
        if np.allclose(P, expected, atol=1e-6):
            continue
        expect(not np.allclose(P, np.nan_to_num(R).mean(axis=0)),
               "the means count the missing ratings as 0: average only the observed ratings (np.nanmean)",
               mistake="missing-as-zero")
        expect(not np.allclose(P, np.nanmean(R, axis=1)[:, None]),
               "these are user (row) means; the baseline predicts each item by the mean rating OF THE ITEM "
               "(a column mean)", mistake="row-means")
        expect(not np.allclose(P, np.nanmean(R)), "this is one overall mean; each item needs its own mean",
               mistake="overall-mean")
        raise CheckFailure("each column of the prediction should be the mean of that item's observed ratings")


# --- 12.impute_step -----------------------------------------------------------------------------

@register("12.impute_step",
          hint="Z = np.where(np.isnan(R), fit, R); subtract the column means of Z, keep the k leading terms of its "
               "SVD, add the means back")
def _impute_step(answer, rng):
    for k in in_random_order(rng, [1, 2, 3]):
        R, _ = _random_ratings(rng)
        n, p = R.shape
        observed = ~np.isnan(R)
        fit = low_rank_impute(R, k, max_iter=int(rng.integers(1, 4)), tol=0.0).fit
        new = answer_array(answer(R.copy(), fit.copy(), k), f"impute_step(R, fit, k={k}) for a {n} x {p} R", (n, p))
        filled = np.where(observed, R, fit)
        if np.allclose(new, _rank_k_fit(filled, k), atol=1e-8):
            continue
        mistakes = [
            (_rank_k_fit(fit, k), "observed-replaced",
             "the observed ratings were replaced too: fill ONLY the missing entries with the current fit and keep "
             "the observed ratings"),
            (_rank_k_fit(np.where(observed, R, 0.0), k), "missing-as-zero",
             "the missing entries were filled with 0, not with the current fit"),
            (_rank_k_fit(filled, k, center=False), "no-centring",
             "the SVD was taken without subtracting the column (item) means"),
            (_rank_k_fit(filled, k) - filled.mean(axis=0), "means-not-added",
             "the column means were subtracted but not added back"),
            (filled, "no-svd", "this is the filled matrix itself; the step replaces it by its best mean-plus-rank-k "
                     "approximation (truncated SVD)"),
        ]
        for wrong, mistake, message in mistakes:
            expect(not np.allclose(new, wrong, atol=1e-8), message, mistake)
        raise CheckFailure(f"impute_step(R, fit, {k}) is not the column means plus the rank-{k} truncated SVD of the "
                           "filled matrix")


# --- 12.hard_impute -----------------------------------------------------------------------------

@register("12.hard_impute",
          hint="start with fit = the item means (np.nanmean(R, axis=0) on every row), then n_iter times: "
               "fit = impute_step(R, fit, k); return np.where(np.isnan(R), fit, R)")
def _hard_impute(answer, rng):
    for k, n_iter in in_random_order(rng, [(1, 5), (2, 20), (3, 12)]):
        R, _ = _random_ratings(rng, missing=0.5)
        n, p = R.shape
        observed = ~np.isnan(R)
        completed = answer_array(answer(R.copy(), k, n_iter),
                                 f"my_low_rank_impute(R, k={k}, n_iter={n_iter}) for a {n} x {p} R", (n, p))
        expect(np.allclose(completed[observed], R[observed], atol=1e-10),
               "the observed ratings changed: return them as they are and fill only the missing entries",
               mistake="observed-changed")
        expected = low_rank_impute(R, k, max_iter=n_iter, tol=0.0).completed
        if np.allclose(completed, expected, atol=1e-8):
            continue
        expect(not np.allclose(completed, low_rank_impute(R, k, max_iter=1).completed, atol=1e-8),
               f"this is the result of ONE step; repeat the step n_iter = {n_iter} times", mistake="one-step")
        zeros_start = np.where(observed, R, 0.0)
        fit = zeros_start
        for _ in range(n_iter):
            fit = _rank_k_fit(np.where(observed, R, fit), k)
        expect(not np.allclose(completed, np.where(observed, R, fit), atol=1e-8),
               "the iteration started from zeros; start from the item means", mistake="zero-start")
        raise CheckFailure(f"the missing entries are not those of {n_iter} hard-impute steps from the item means")


# --- 12.best_rank -------------------------------------------------------------------------------

@functools.lru_cache(maxsize=64)
def _rank_instance(target: int, seed: int):
    """A fresh (train, rows, cols, values, errors) whose best rank in :data:`RANKS` is ``target``, by a
    clear margin: a ratings matrix of that rank with a random share of its observed ratings hidden
    (every user and item keeps a training rating), and the (training, held-out) RMSE of each rank.
    Drawn from ``default_rng(seed)``; cached, since the proofs call many answers on the same
    instances (three per check on each of 20 seeds: 60, about 20 kB each)."""
    rng = np.random.default_rng(seed)
    while True:
        n, p = int(rng.integers(30, 50)), int(rng.integers(15, 25))
        truth = rng.normal(3.0, 0.5, size=p) + rng.normal(size=(n, target)) @ rng.normal(size=(target, p))
        ratings = np.where(rng.uniform(size=(n, p)) < rng.uniform(0.45, 0.7),
                           truth + rng.uniform(0.2, 0.4) * rng.normal(size=(n, p)), np.nan)
        seen_rows, seen_cols = np.nonzero(~np.isnan(ratings))
        hide = rng.uniform(size=seen_rows.size) < HELD_OUT_FRACTION
        train = ratings.copy()
        train[seen_rows[hide], seen_cols[hide]] = np.nan
        if np.isnan(train).all(axis=0).any() or np.isnan(train).all(axis=1).any():
            continue
        rows, cols = seen_rows[hide], seen_cols[hide]
        values = ratings[rows, cols]
        errors = np.array([fit_rmse(train, rows, cols, values, k) for k in RANKS])
        errors.setflags(write=False)
        order = np.argsort(errors[:, 1])
        lowest, next_lowest = errors[order[0], 1], errors[order[1], 1]
        if RANKS[order[0]] == target and next_lowest - lowest >= CLEAR_MARGIN * lowest:
            return train, rows, cols, values, errors


@register("12.best_rank",
          hint="for each k in ranks: result = low_rank_impute(train, k, max_iter=100, tol=1e-5), its RMSE on the "
               "hidden entries, np.sqrt(np.mean((result.completed[rows, cols] - values) ** 2)); return the k with "
               "the smallest")
def _best_rank(answer, rng):
    expect(callable(answer), "the answer should be your function choose_rank(train, rows, cols, values, ranks)")
    for target in rng.permutation(TARGET_RANKS)[:3]:  # three different best ranks: no constant passes
        train, rows, cols, values, errors = _rank_instance(int(target), int(rng.integers(2**63)))
        n, p = train.shape
        call = f"choose_rank(train, rows, cols, values, ranks={RANKS}) for a {n} x {p} train with {rows.size} hidden"
        k = whole_number(answer(train.copy(), rows.copy(), cols.copy(), values.copy(), RANKS), call, min(RANKS),
                         max(RANKS))
        if k == target:
            continue
        expect(k != RANKS[int(np.argmin(errors[:, 0]))],
               f"{call} chose the rank with the smallest error on the TRAINING ratings (a larger rank always fits "
               "them better): choose by the error on the hidden ratings", mistake="training-error")
        raise CheckFailure(f"{call} = {k}, but another rank has a smaller RMSE on the hidden ratings",
                           mistake="not-best-rank")
