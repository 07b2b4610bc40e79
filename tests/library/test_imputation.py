"""Low-rank imputation: equal to the truncated SVD on complete data, equal to a straightforward
reference loop with missing entries, monotone in the observed error, exact recovery of a
noise-free low-rank matrix, the ratings generator, and bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dimred_teach.datasets import make_ratings
from dimred_teach.imputation import low_rank_impute, mean_plus_rank_k, zero_noise_em


def low_rank_data(seed, n=40, p=25, rank=3, noise=0.3, missing=0.4):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, rank)) @ rng.normal(size=(rank, p)) + rng.normal(size=p) + noise * rng.normal(size=(n, p))
    mask = rng.uniform(size=(n, p)) < missing
    mask[0] = False  # every column keeps a value
    return X, np.where(mask, np.nan, X)


def reference_impute(X_missing, k, n_iter, center=True):
    """Textbook hard impute, written out independently: fill, SVD, refill the holes, repeat."""
    missing = np.isnan(X_missing)
    start = np.nanmean(X_missing, axis=0) if center else np.zeros(X_missing.shape[1])
    Z = np.where(missing, start, X_missing)
    for _ in range(n_iter):
        mean = Z.mean(axis=0) if center else 0.0
        U, s, Vt = np.linalg.svd(Z - mean)
        A = U[:, :k] @ np.diag(s[:k]) @ Vt[:k] + mean
        Z[missing] = A[missing]
    return Z, A


# --- complete data ---------------------------------------------------------------------------

@pytest.mark.parametrize("center", [True, False])
@pytest.mark.parametrize("k", [1, 3, 7])
def test_complete_data_gives_the_rank_k_svd_approximation(center, k):
    X, _ = low_rank_data(0)
    result = low_rank_impute(X, k, center=center)
    mean = X.mean(axis=0) if center else np.zeros(X.shape[1])
    U, s, Vt = np.linalg.svd(X - mean, full_matrices=False)
    np.testing.assert_allclose(result.fit, (U[:, :k] * s[:k]) @ Vt[:k] + mean, atol=1e-10)
    np.testing.assert_array_equal(result.completed, X)
    assert result.n_iter == 1 and result.converged and result.observed.all()


# --- with missing entries -----------------------------------------------------------------------

@pytest.mark.parametrize("seed, k, center", [(1, 2, True), (2, 3, True), (3, 4, False)])
def test_agrees_with_a_straightforward_reference_loop(seed, k, center):
    _, X_missing = low_rank_data(seed)
    result = low_rank_impute(X_missing, k, center=center, max_iter=60, tol=0.0)
    completed, fit = reference_impute(X_missing, k, 60, center=center)
    assert result.n_iter == 60 and not result.converged
    np.testing.assert_allclose(result.fit, fit, atol=1e-9)
    np.testing.assert_allclose(result.completed, completed, atol=1e-9)


@given(seed=st.integers(0, 2**32 - 1), k=st.integers(1, 5), missing=st.floats(0.1, 0.7))
@settings(max_examples=25, deadline=None)
def test_the_observed_error_never_increases_and_observed_entries_stay(seed, k, missing):
    X, X_missing = low_rank_data(seed, missing=missing)
    result = low_rank_impute(X_missing, k, max_iter=40)
    assert np.all(np.diff(result.history) <= 1e-12 * result.history[0])
    observed = ~np.isnan(X_missing)
    np.testing.assert_array_equal(result.observed, observed)
    np.testing.assert_array_equal(result.completed[observed], X_missing[observed])
    np.testing.assert_array_equal(result.completed[~observed], result.fit[~observed])
    residual = (X_missing - result.fit)[observed]
    assert result.history[-1] == pytest.approx(np.sqrt(np.mean(residual**2)), rel=1e-12)


def test_fit_is_means_plus_scores_times_orthonormal_components():
    _, X_missing = low_rank_data(4)
    result = low_rank_impute(X_missing, 3)
    np.testing.assert_allclose(result.means + result.scores @ result.components.T, result.fit, atol=1e-10)
    np.testing.assert_allclose(result.components.T @ result.components, np.eye(3), atol=1e-12)
    rows = np.argmax(np.round(np.abs(result.components), 10), axis=0)
    assert np.all(result.components[rows, np.arange(3)] > 0)
    assert result.k == 3
    with pytest.raises(ValueError):
        result.completed[0, 0] = 0.0


def test_a_noise_free_low_rank_matrix_is_recovered_exactly():
    X, X_missing = low_rank_data(5, n=60, p=40, rank=2, noise=0.0, missing=0.5)
    result = low_rank_impute(X_missing, 2, max_iter=2000, tol=1e-14)
    assert result.converged
    np.testing.assert_allclose(result.completed, X, atol=1e-5 * np.abs(X).max())


def test_without_centring_users_and_items_play_the_same_role():
    _, X_missing = low_rank_data(6)
    by_users = low_rank_impute(X_missing, 3, center=False, max_iter=30, tol=0.0)
    by_items = low_rank_impute(X_missing.T, 3, center=False, max_iter=30, tol=0.0)
    np.testing.assert_allclose(by_users.completed, by_items.completed.T, atol=1e-9)


def test_low_rank_beats_item_means_on_held_out_ratings():
    ratings, truth = make_ratings(seed=3)
    rng = np.random.default_rng(0)
    rows, cols = np.nonzero(~np.isnan(ratings))
    held = rng.permutation(rows.size)[: rows.size // 10]
    train = ratings.copy()
    train[rows[held], cols[held]] = np.nan
    result = low_rank_impute(train, 3, tol=1e-5)
    target = ratings[rows[held], cols[held]]
    rmse_low_rank = np.sqrt(np.mean((result.completed[rows[held], cols[held]] - target) ** 2))
    rmse_means = np.sqrt(np.mean((np.nanmean(train, axis=0)[cols[held]] - target) ** 2))
    assert rmse_low_rank < 0.7 * rmse_means
    assert 0.5 < rmse_low_rank < 0.7  # above the noise floor (0.5), near it


# --- bad input -----------------------------------------------------------------------------------

@pytest.mark.parametrize("X, kwargs, error, pattern", [
    (np.array([[1.0, np.nan], [2.0, np.nan], [3.0, np.nan]]), {"k": 1}, ValueError, r"no observed value.*\[1\]"),
    (np.array([[1.0, np.inf], [2.0, 1.0], [3.0, 0.0]]), {"k": 1}, ValueError, "X contains inf"),
    (np.array([1.0, np.nan, 2.0]), {"k": 1}, ValueError, "X must be a 2-D array"),
    (np.array([["a", "b"], ["c", "d"]]), {"k": 1}, TypeError, "X must hold numbers"),
    (np.ones((5, 3)), {"k": 3}, ValueError, r"k must be between 1 and 2"),
    (np.ones((5, 3)), {"k": 3, "center": False}, None, None),
    (np.ones((5, 3)), {"k": 0}, ValueError, "k must be between"),
    (np.ones((5, 3)), {"k": 1, "max_iter": 0}, ValueError, "max_iter must be at least 1"),
    (np.ones((5, 3)), {"k": 1, "tol": -1.0}, ValueError, "tol must lie in"),
    (np.ones((1, 3)), {"k": 1}, ValueError, "X needs at least 2 rows"),
])
def test_bad_input_is_refused_with_a_message_naming_the_argument(X, kwargs, error, pattern):
    if error is None:
        assert low_rank_impute(X, **kwargs).k == 3
        return
    with pytest.raises(error, match=pattern):
        low_rank_impute(X, **kwargs)


# --- the ratings generator -----------------------------------------------------------------------

def test_make_ratings_is_seeded_low_rank_and_mostly_missing():
    ratings, truth = make_ratings(200, 80, rank=4, observed=0.15, noise=0.5, seed=2)
    again, truth_again = make_ratings(200, 80, rank=4, observed=0.15, noise=0.5, seed=2)
    np.testing.assert_array_equal(ratings, again)
    np.testing.assert_array_equal(truth, truth_again)
    seen = ~np.isnan(ratings)
    assert 0.13 < seen.mean() < 0.18 and seen.any(axis=0).all() and seen.any(axis=1).all()
    singular = np.linalg.svd(truth - truth.mean(axis=0), compute_uv=False)
    assert singular[4] < 1e-10 * singular[0] and singular[3] > 0.1 * singular[0]
    noise = (ratings - truth)[seen]
    assert 0.45 < noise.std() < 0.55


@pytest.mark.parametrize("kwargs, pattern", [
    ({"n_users": 1}, "n_users must be at least 2"), ({"rank": 0}, "rank must be at least 1"),
    ({"n_items": 5, "rank": 6}, "rank must be at most 5"), ({"observed": 1.0}, "observed must lie in \\(0, 1\\)"),
    ({"noise": -0.1}, "noise must lie in"), ({"seed": -1}, "seed must be non-negative"),
])
def test_make_ratings_refuses_bad_arguments(kwargs, pattern):
    with pytest.raises((ValueError, TypeError), match=pattern):
        make_ratings(**kwargs)


def _stationarity(X, result):
    """Largest |R' scores| and |R components| (R: the residual on the observed entries), relative
    to the sizes involved: 0 at a fixed point of hard impute and of the zero-noise EM alike."""
    observed = ~np.isnan(X)
    residual = np.where(observed, np.nan_to_num(X) - result.fit, 0.0)
    size = np.linalg.norm(residual) * max(np.linalg.norm(result.scores), 1.0)
    return max(np.abs(residual.T @ result.scores).max() / size,
               np.abs(residual @ result.components).max() / np.linalg.norm(residual))


def test_zero_noise_em_descends_from_the_same_start_along_other_steps():
    ratings, _ = make_ratings(60, 30, rank=2, seed=3)
    hard = low_rank_impute(ratings, 2, max_iter=5, tol=0.0)
    roweis = zero_noise_em(ratings, 2, max_iter=5, tol=0.0)
    assert hard.history[0] == roweis.history[0]  # both start from the item means
    assert np.all(np.diff(roweis.history) <= 1e-12 * roweis.history[0])
    assert not np.allclose(hard.history[1:], roweis.history[1:])


def test_both_methods_stop_where_the_residual_is_orthogonal_to_both_factors():
    """The fixed points the two share (notebook 12, section 3)."""
    ratings, _ = make_ratings(80, 40, rank=2, observed=0.5, seed=1)
    for method in (low_rank_impute, zero_noise_em):
        result = method(ratings, 2, max_iter=3000, tol=1e-14)
        assert _stationarity(ratings, result) < 1e-5, method.__name__


def test_zero_noise_em_on_complete_data_is_the_best_rank_k_fit():
    X = np.random.default_rng(0).normal(size=(30, 8)) @ np.diag([5.0, 3.0, 1.0, 0.5, 0.2, 0.1, 0.1, 0.1])
    result = zero_noise_em(X, 2, max_iter=500, tol=1e-15)
    means, scores, components = mean_plus_rank_k(X, 2)
    assert np.allclose(result.fit, scores @ components.T + means, atol=1e-8)


def test_zero_noise_em_names_a_bad_rank():
    with pytest.raises(ValueError, match="k"):
        zero_noise_em(np.ones((5, 4)), 4)
