"""The GPLVM: the linear kernel's closed form against the direct likelihood and against the
numerical optimum (PCA's scores up to rotation and scale, Lawrence 2005), the analytic
gradients against finite differences, and the RBF kernel on a curve where it beats PCA."""

import numpy as np
import pytest
from scipy.optimize import approx_fprime
from scipy.stats import multivariate_normal, spearmanr

from dimred_teach.gplvm import _objective, fit_gplvm, gplvm_linear, log_marginal_likelihood
from dimred_teach.linalg import subspace_distance
from dimred_teach.pca import pca


def linear_data(seed=0, n=40, D=6, q=2):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, q)) @ rng.standard_normal((q, D)) + 0.3 * rng.standard_normal((n, D)) + 2.0


def arc(seed=0, n=60, noise=0.05):
    """A 1.6 pi arc with a second harmonic, rotated into 10 dimensions, with isotropic noise."""
    rng = np.random.default_rng(seed)
    t = np.sort(rng.uniform(0.0, 1.0, n))
    angle = 1.6 * np.pi * t
    curve = np.column_stack([np.cos(angle), np.sin(angle), 0.5 * np.cos(2 * angle), 0.5 * np.sin(2 * angle)])
    Q, _ = np.linalg.qr(rng.standard_normal((10, 4)))
    return curve @ Q.T + noise * rng.standard_normal((n, 10)), t


def test_log_marginal_likelihood_is_the_sum_of_column_densities():
    Y = linear_data()
    Yc = Y - Y.mean(axis=0)
    X = np.random.default_rng(1).standard_normal((40, 2))
    for kernel, K in [("linear", X @ X.T + 0.3 * np.eye(40)),
                      ("rbf", 0.8 * np.exp(-0.5 * ((X[:, None] - X[None]) ** 2).sum(axis=2)) + 0.3 * np.eye(40))]:
        direct = sum(multivariate_normal(np.zeros(40), K).logpdf(Yc[:, j]) for j in range(6))
        assert np.isclose(log_marginal_likelihood(Y, X, kernel, noise=0.3, variance=0.8), direct, rtol=1e-12)


@pytest.mark.parametrize("kernel,extra", [("linear", 1), ("rbf", 2)])
def test_analytic_gradient_matches_finite_differences(kernel, extra):
    Y = linear_data()
    Yc = Y - Y.mean(axis=0)
    theta = np.random.default_rng(2).standard_normal(40 * 2 + extra) * 0.5
    numeric = approx_fprime(theta, lambda t: _objective(t, Yc, 2, kernel)[0], 1e-6)
    analytic = _objective(theta, Yc, 2, kernel)[1]
    assert np.abs(numeric - analytic).max() < 1e-5 * np.abs(analytic).max()


def test_linear_closed_form_is_pca_scores_rescaled():
    Y = linear_data()
    fit, scores = gplvm_linear(Y, 2), pca(Y, 2).scores
    ratio = fit.latent / scores
    assert np.allclose(ratio, ratio[0], rtol=1e-10)  # one scale factor per component
    n, D = Y.shape
    lam = pca(Y, 2).eigenvalues * (n - 1) / D
    assert np.allclose(ratio[0] ** 2, (lam - fit.params["noise"]) / (lam * D), rtol=1e-10)


def test_the_optimiser_finds_the_closed_form_up_to_rotation():
    Y = linear_data()
    closed, numeric = gplvm_linear(Y, 2), fit_gplvm(Y, 2, kernel="linear")
    assert numeric.converged
    assert abs(numeric.log_likelihood - closed.log_likelihood) < 1e-9 * abs(closed.log_likelihood)
    # X X' is invariant to rotation; the column space is PCA's score space
    assert np.abs(numeric.latent @ numeric.latent.T - closed.latent @ closed.latent.T).max() < 1e-6
    assert subspace_distance(numeric.latent, pca(Y, 2).scores) < 1e-8
    assert np.isclose(numeric.params["noise"], closed.params["noise"], rtol=1e-7)


def test_a_random_start_climbs_to_the_closed_form_too():
    """The optimum is not the PCA start's doing: from random latent points, far from PCA's subspace,
    L-BFGS-B reaches the closed form's likelihood and subspace (measured: distance 1e-8 after, 0.99 before)."""
    Y = linear_data()
    start = np.random.default_rng(5).standard_normal((40, 2))
    numeric, closed = fit_gplvm(Y, 2, kernel="linear", init=start), gplvm_linear(Y, 2)
    assert subspace_distance(start, pca(Y, 2).scores) > 0.9
    assert numeric.converged and numeric.n_iter > 10
    assert abs(numeric.log_likelihood - closed.log_likelihood) < 1e-9 * abs(closed.log_likelihood)
    assert subspace_distance(numeric.latent, pca(Y, 2).scores) < 1e-6


def test_closed_form_beats_perturbations():
    Y = linear_data()
    fit = gplvm_linear(Y, 2)
    rng = np.random.default_rng(3)
    for _ in range(5):
        worse = fit.latent + 1e-3 * rng.standard_normal(fit.latent.shape)
        assert log_marginal_likelihood(Y, worse, "linear", noise=fit.params["noise"]) < fit.log_likelihood
    assert log_marginal_likelihood(Y, fit.latent, "linear", noise=1.1 * fit.params["noise"]) < fit.log_likelihood


def test_rbf_gplvm_unrolls_an_arc_that_pca_folds():
    Y, t = arc()
    rbf, linear = fit_gplvm(Y, 1), gplvm_linear(Y, 1)
    assert rbf.converged
    # measured: Spearman 0.9994 (RBF) against 0.863 (PCA), log-likelihood 790.6 against -44.8
    assert abs(spearmanr(rbf.latent[:, 0], t)[0]) > 0.99
    assert abs(spearmanr(linear.latent[:, 0], t)[0]) < 0.9
    assert rbf.log_likelihood > linear.log_likelihood + 500
    # the fitted noise is close to the true variance 0.05^2
    assert 0.5 < rbf.params["noise"] / 0.0025 < 1.5


def test_fit_is_deterministic():
    Y, _ = arc(seed=1)
    assert np.array_equal(fit_gplvm(Y, 1).latent, fit_gplvm(Y, 1).latent)
