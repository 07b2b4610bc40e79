"""Proofs of the checks of exercise set 12 (missing values, recommenders): correct variants and typical mistakes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.linalg

from dimred_teach.checks.set12 import fit_rmse
from dimred_teach.imputation import low_rank_impute

from . import Mutant, Variant

# --- 12.item_means ------------------------------------------------------------------------------

def means_nanmean(R):
    return np.zeros_like(R) + np.nanmean(R, axis=0)


def means_pandas(R):
    frame = pd.DataFrame(R)
    return frame.fillna(frame.mean()).apply(lambda column: column.mean() + 0 * column).to_numpy()


def means_loops_lists(R):
    n, p = R.shape
    means = []
    for j in range(p):
        seen = [value for value in R[:, j] if not np.isnan(value)]
        means.append(sum(seen) / len(seen))
    return [list(means) for _ in range(n)]


def means_float32(R):
    return means_nanmean(R).astype(np.float32)


def means_nan_as_zero(R):
    return np.zeros_like(R) + np.nan_to_num(R).mean(axis=0)


def means_of_users(R):
    return np.zeros_like(R) + np.nanmean(R, axis=1)[:, None]


def means_overall(R):
    return np.full_like(R, np.nanmean(R))


# --- 12.impute_step -----------------------------------------------------------------------------

def _truncated(Z, k, center=True):
    means = Z.mean(axis=0) if center else 0.0
    U, s, Vt = np.linalg.svd(Z - means, full_matrices=False)
    return U[:, :k] @ np.diag(s[:k]) @ Vt[:k] + means


def step_reference(R, fit, k):
    return _truncated(np.where(np.isnan(R), fit, R), k)


def step_by_eigh_of_gram(R, fit, k):
    Z = np.where(np.isnan(R), fit, R)
    Zc = Z - Z.mean(axis=0)
    values, vectors = np.linalg.eigh(Zc.T @ Zc)
    V = vectors[:, ::-1][:, :k]
    return (Zc @ V @ V.T + Z.mean(axis=0)).tolist()


def step_in_place_copy(R, fit, k):
    Z = R.copy()
    missing = np.isnan(Z)
    Z[missing] = fit[missing]
    return _truncated(Z, k)


def step_replacing_observed(R, fit, k):
    return _truncated(np.asarray(fit), k)


def step_zero_fill(R, fit, k):
    return _truncated(np.nan_to_num(R), k)


def step_uncentred(R, fit, k):
    return _truncated(np.where(np.isnan(R), fit, R), k, center=False)


def step_means_not_added(R, fit, k):
    Z = np.where(np.isnan(R), fit, R)
    return _truncated(Z, k) - Z.mean(axis=0)


def step_no_svd(R, fit, k):
    return np.where(np.isnan(R), fit, R)


# --- 12.hard_impute -----------------------------------------------------------------------------

def _iterate(R, k, n_iter, start):
    fit = start
    for _ in range(n_iter):
        fit = step_reference(R, fit, k)
    return fit


def impute_reference(R, k, n_iter):
    return np.where(np.isnan(R), _iterate(R, k, n_iter, means_nanmean(R)), R)


def impute_mask_assignment(R, k, n_iter):
    completed = R.copy()
    missing = np.isnan(R)
    completed[missing] = np.broadcast_to(np.nanmean(R, axis=0), R.shape)[missing]
    for _ in range(n_iter):
        completed[missing] = _truncated(completed, k)[missing]
    return completed


def impute_gesvd_lists(R, k, n_iter):
    missing = np.isnan(R)
    fit = means_nanmean(R)
    for _ in range(n_iter):
        Z = np.where(missing, fit, R)
        means = Z.mean(axis=0)
        U, s, Vt = scipy.linalg.svd(Z - means, full_matrices=False, lapack_driver="gesvd")
        fit = (U[:, :k] * s[:k]) @ Vt[:k] + means
    return np.where(missing, fit, R).tolist()


def impute_returns_fit(R, k, n_iter):
    return _iterate(R, k, n_iter, means_nanmean(R))


def impute_one_step(R, k, n_iter):
    return impute_reference(R, k, 1)


def impute_from_zeros(R, k, n_iter):
    return np.where(np.isnan(R), _iterate(R, k, n_iter, np.zeros_like(R)), R)


def _rmse_by_rank(train, rows, cols, values, ranks, which):
    return {k: fit_rmse(train, rows, cols, values, k)[which] for k in ranks}


def rank_by_held_out(train, rows, cols, values, ranks):
    errors = _rmse_by_rank(train, rows, cols, values, ranks, 1)
    return min(errors, key=errors.get)


def rank_by_argmin_numpy(train, rows, cols, values, ranks):
    errors = [np.sqrt(np.mean((low_rank_impute(train, k, max_iter=100, tol=1e-5).completed[rows, cols] - values) ** 2))
              for k in ranks]
    return np.int64(list(ranks)[int(np.argmin(errors))])


def rank_as_whole_float(train, rows, cols, values, ranks):
    return float(rank_by_held_out(train, rows, cols, values, ranks))


def rank_by_training_error(train, rows, cols, values, ranks):
    errors = _rmse_by_rank(train, rows, cols, values, ranks, 0)
    return min(errors, key=errors.get)


def rank_one_too_many(train, rows, cols, values, ranks):
    best = rank_by_held_out(train, rows, cols, values, ranks)
    return best + 1 if best < max(ranks) else best - 1


CASES = {
    "12.item_means": (
        [Variant("np.nanmean broadcast", lambda: means_nanmean),
         Variant("pandas", lambda: means_pandas),
         Variant("loops, nested lists", lambda: means_loops_lists),
         Variant("float32", lambda: means_float32)],
        [Mutant("missing counted as 0", lambda: means_nan_as_zero, r"missing ratings as 0", "missing-as-zero"),
         Mutant("user (row) means", lambda: means_of_users, r"user \(row\) means", "row-means"),
         Mutant("one overall mean", lambda: means_overall, r"one overall mean", "overall-mean")],
    ),
    "12.impute_step": (
        [Variant("np.where + thin SVD", lambda: step_reference),
         Variant("eigh of the p x p Gram matrix, lists", lambda: step_by_eigh_of_gram),
         Variant("masked assignment on a copy", lambda: step_in_place_copy)],
        [Mutant("observed ratings replaced by the fit", lambda: step_replacing_observed, r"observed ratings were "
                                                                                           r"replaced",
                                                                                                   "observed-replaced"),
         Mutant("missing filled with zeros", lambda: step_zero_fill, r"filled with 0", "missing-as-zero"),
         Mutant("no centring", lambda: step_uncentred, r"without subtracting the column", "no-centring"),
         Mutant("means not added back", lambda: step_means_not_added, r"not added back", "means-not-added"),
         Mutant("no SVD at all", lambda: step_no_svd, r"filled matrix itself", "no-svd")],
    ),
    "12.hard_impute": (
        [Variant("loop over impute steps", lambda: impute_reference),
         Variant("masked assignment", lambda: impute_mask_assignment),
         Variant("scipy gesvd driver, nested lists", lambda: impute_gesvd_lists)],
        [Mutant("returns the fit (observed ratings changed)", lambda: impute_returns_fit, r"observed ratings changed",
                "observed-changed"),
         Mutant("one step only", lambda: impute_one_step, r"ONE step", "one-step"),
         Mutant("starts from zeros", lambda: impute_from_zeros, r"started from zeros", "zero-start")],
    ),
    "12.best_rank": (
        [Variant("min over a dict of held-out RMSEs", lambda: rank_by_held_out),
         Variant("np.argmin, a numpy integer", lambda: rank_by_argmin_numpy),
         Variant("a whole float", lambda: rank_as_whole_float)],
        [Mutant("chosen by the training error", lambda: rank_by_training_error, r"TRAINING", "training-error"),
         Mutant("one rank off", lambda: rank_one_too_many, r"another rank has a smaller RMSE|TRAINING",
                ("not-best-rank", "training-error")),
         Mutant("a fixed rank", lambda: lambda *args: 4, r"another rank|TRAINING",
                ("not-best-rank", "training-error")),
         Mutant("out of range", lambda: lambda *args: 0, r"whole number between 1 and 5", "wrong-form"),
         Mutant("not whole", lambda: lambda *args: 2.5, r"whole number", "wrong-form")],
    ),
}
