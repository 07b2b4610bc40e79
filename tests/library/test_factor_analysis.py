"""Factor analysis: the O(n d q) likelihood against the naive d x d density, EM against
scikit-learn's FactorAnalysis (log-likelihood, and loadings up to rotation through W W'),
PPCA as the isotropic case, the canonical rotation, and the scale equivariance that PPCA
lacks."""

import numpy as np
import pytest
from scipy.stats import multivariate_normal
from sklearn.decomposition import FactorAnalysis

from dimred_teach.factor_analysis import fa_em, log_likelihood
from dimred_teach.ppca import ppca_mle


def fa_data(seed, n=400, d=8, q=2):
    """Data from a factor model with unequal noise variances psi in [0.1, 2]."""
    rng = np.random.default_rng(seed)
    W = rng.standard_normal((d, q))
    psi = rng.uniform(0.1, 2.0, d)
    return rng.standard_normal((n, q)) @ W.T + rng.standard_normal((n, d)) * np.sqrt(psi) + rng.normal(0, 3, d)


def test_log_likelihood_matches_the_naive_d_by_d_density():
    X = fa_data(0)
    rng = np.random.default_rng(1)
    W, mean, psi = rng.standard_normal((8, 2)), rng.standard_normal(8), rng.uniform(0.2, 3.0, 8)
    naive = multivariate_normal(mean, W @ W.T + np.diag(psi)).logpdf(X).sum()
    assert np.isclose(log_likelihood(X, W, mean, psi), naive, rtol=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_em_reaches_scikit_learns_maximum(seed):
    X = fa_data(seed)
    fit = fa_em(X, 2, tol=1e-14)
    sk = FactorAnalysis(2, tol=1e-12, max_iter=100000).fit(X)
    sk_total = sk.score(X) * X.shape[0]
    assert fit.converged
    # EM stops at a gap of about tol / (1 - rate) below the maximum; measured 6e-9 at seed 0.
    assert abs(fit.log_likelihood - sk_total) < 1e-6 * abs(sk_total)
    # loadings agree up to a rotation: W W' is rotation-invariant
    assert np.abs(fit.W @ fit.W.T - sk.components_.T @ sk.components_).max() < 1e-4
    assert np.abs(fit.psi - sk.noise_variance_).max() < 1e-4


def test_log_likelihood_never_decreases_and_matches_the_naive_density():
    X = fa_data(3)
    fit = fa_em(X, 2, seed=5)
    assert np.all(np.diff(fit.history) >= -1e-12 * abs(fit.history[-1]))
    naive = multivariate_normal(fit.mean, fit.covariance()).logpdf(X).sum()
    assert np.isclose(fit.log_likelihood, naive, rtol=1e-12)


def test_random_start_and_ppca_start_reach_the_same_model():
    X = fa_data(1)
    a, b = fa_em(X, 2), fa_em(X, 2, seed=7)
    assert np.abs(a.W - b.W).max() < 1e-3 and np.abs(a.psi - b.psi).max() < 1e-3


def test_canonical_form_makes_w_psi_w_diagonal_and_decreasing():
    fit = fa_em(fa_data(5), 2)
    M = fit.W.T @ (fit.W / fit.psi[:, None])
    assert abs(M[0, 1]) < 1e-10 * M[0, 0]
    assert M[0, 0] > M[1, 1]
    assert np.all(fit.W[np.argmax(np.abs(fit.W), axis=0), [0, 1]] > 0)


def test_rotating_the_loadings_leaves_the_likelihood_unchanged():
    fit = fa_em(fa_data(6), 2)
    X = fa_data(6)
    angle = 0.7
    R = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    assert np.isclose(log_likelihood(X, fit.W @ R, fit.mean, fit.psi), fit.log_likelihood, rtol=1e-13)


def test_isotropic_em_is_ppca():
    X = fa_data(7)
    fit = fa_em(X, 2, seed=1, isotropic=True)
    mle = ppca_mle(X, 2)
    assert np.all(fit.psi == fit.psi[0])
    assert abs(fit.log_likelihood - mle.log_likelihood) < 1e-8 * abs(mle.log_likelihood)
    assert abs(fit.psi[0] - mle.sigma2) < 1e-5 * mle.sigma2
    assert np.abs(fit.W - mle.W).max() < 1e-3


def test_equal_noise_data_give_nearly_equal_psi():
    rng = np.random.default_rng(8)
    W = rng.standard_normal((6, 2)) * 2
    X = rng.standard_normal((5000, 2)) @ W.T + 0.5 * rng.standard_normal((5000, 6))
    fit = fa_em(X, 2)
    assert np.abs(fit.psi / 0.25 - 1).max() < 0.1


def test_rescaling_a_variable_rescales_its_row_and_psi_but_not_the_fit():
    X = fa_data(9)
    scale = np.array([1.0, 10.0, 1.0, 0.1, 1.0, 1.0, 5.0, 1.0])
    a, b = fa_em(X, 2, tol=1e-14), fa_em(X * scale, 2, tol=1e-14)
    assert np.allclose(b.psi, a.psi * scale**2, rtol=1e-4)
    assert np.allclose(b.W @ b.W.T, (a.W @ a.W.T) * np.outer(scale, scale), rtol=1e-4, atol=1e-6)
    assert np.isclose(b.log_likelihood, a.log_likelihood - X.shape[0] * np.log(scale).sum(), rtol=1e-9)


def test_a_constant_column_is_refused():
    X = fa_data(10)
    X[:, 3] = 1.0
    with pytest.raises(ValueError, match="constant"):
        fa_em(X, 2)


def test_results_are_read_only():
    fit = fa_em(fa_data(11), 1)
    with pytest.raises(ValueError):
        fit.W[0, 0] = 1.0
