"""Probabilistic PCA: the likelihood against scikit-learn and the naive d x d formula, the
closed form (WashU eq. 24-26) against EM, sigma^2 -> 0, bad inputs, and the checks of set 07."""

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import multivariate_normal
from sklearn.decomposition import PCA

from dimred_teach import ppca
from dimred_teach.checks import evaluate
from dimred_teach.linalg import first_best, projector, subspace_distance
from dimred_teach.pca import pca


def ppca_data(seed, n=200, d=8, q=3, sigma2=0.5):
    rng = np.random.default_rng(seed)
    W = rng.standard_normal((d, q)) * np.linspace(3.0, 1.5, q)
    return rng.standard_normal((n, q)) @ W.T + np.sqrt(sigma2) * rng.standard_normal((n, d)) + rng.normal(0, 4, d)


def naive_log_likelihood(X, W, mean, sigma2):
    return multivariate_normal(mean, W @ W.T + sigma2 * np.eye(len(mean))).logpdf(X).sum()


# ---------------------------------------------------------------- the likelihood

def test_log_likelihood_matches_the_naive_d_by_d_formula():
    X = ppca_data(0)
    rng = np.random.default_rng(1)
    W, mean = rng.standard_normal((8, 3)), rng.standard_normal(8)
    assert np.isclose(ppca.log_likelihood(X, W, mean, 0.7), naive_log_likelihood(X, W, mean, 0.7), rtol=1e-12)


def test_sklearn_score_is_the_ppca_likelihood_at_its_own_1_over_n_minus_1_parameters():
    X = ppca_data(2)
    n, d, q = X.shape[0], X.shape[1], 3
    sk = PCA(n_components=q).fit(X)
    W_sk = sk.components_.T * np.sqrt(sk.explained_variance_ - sk.noise_variance_)
    assert np.isclose(ppca.log_likelihood(X, W_sk, sk.mean_, sk.noise_variance_), sk.score(X) * n, rtol=1e-12)
    # sklearn builds sigma2 and C from the 1/(n-1) eigenvalues: c = n/(n-1) times the MLE's, which
    # costs exactly n d/2 (log c + 1/c - 1) of log-likelihood because tr(C^-1 S) = d at the MLE.
    fit = ppca.ppca_mle(X, q)
    c = n / (n - 1)
    assert np.isclose(sk.noise_variance_, c * fit.sigma2, rtol=1e-12)
    assert np.isclose(sk.score(X) * n, fit.log_likelihood - n * d / 2 * (np.log(c) + 1 / c - 1), rtol=1e-12)


@given(n=st.integers(5, 40), d=st.integers(2, 7), data=st.data())
def test_log_likelihood_property(n, d, data):
    q = data.draw(st.integers(1, d - 1))
    seed = data.draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * rng.uniform(0.1, 10.0)
    W, mean = rng.standard_normal((d, q)) * rng.uniform(0.1, 5.0), rng.standard_normal(d)
    sigma2 = float(rng.uniform(0.05, 5.0))
    fast = ppca.log_likelihood(X, W, mean, sigma2)
    assert np.isclose(fast, naive_log_likelihood(X, W, mean, sigma2), rtol=1e-9)
    rotation = np.linalg.qr(rng.standard_normal((q, q)))[0]  # W is identified only up to a rotation
    assert np.isclose(ppca.log_likelihood(X, W @ rotation, mean, sigma2), fast, rtol=1e-9)


# ---------------------------------------------------------------- the closed form

def test_mle_formulas_use_the_1_over_n_eigenvalues():
    X = ppca_data(3)
    n, d, q = X.shape[0], X.shape[1], 3
    eigenvalues = np.linalg.eigvalsh(np.cov(X, rowvar=False, ddof=0))[::-1]
    fit = ppca.ppca_mle(X, q)
    assert np.isclose(fit.sigma2, eigenvalues[q:].mean(), rtol=1e-12)  # eq. 25
    assert np.allclose(pca(X).eigenvalues * (n - 1) / n, eigenvalues)
    assert np.allclose(fit.mean, X.mean(axis=0))  # eq. 24
    assert np.allclose(np.sum(fit.W**2, axis=0), eigenvalues[:q] - fit.sigma2)  # eq. 26
    assert subspace_distance(fit.W, pca(X, q).components) < 1e-10
    assert np.allclose(fit.W.T @ fit.W, np.diag(np.diag(fit.W.T @ fit.W)), atol=1e-10)  # canonical rotation
    assert all(column[first_best(np.abs(column))] > 0 for column in fit.W.T)  # largest entry positive
    assert np.isclose(fit.log_likelihood, naive_log_likelihood(X, fit.W, fit.mean, fit.sigma2), rtol=1e-12)
    S = np.cov(X, rowvar=False, ddof=0)
    C = fit.covariance()
    assert np.allclose(S @ np.linalg.solve(C, fit.W), fit.W)  # stationarity in W
    assert np.isclose(np.trace(np.linalg.solve(C, S)), d)


@pytest.mark.parametrize("method", ["eig", "gram"])
def test_mle_methods_agree(method):
    X = ppca_data(4, n=40, d=12)
    svd, other = ppca.ppca_mle(X, 3), ppca.ppca_mle(X, 3, method=method)
    assert np.allclose(svd.W, other.W) and np.isclose(svd.sigma2, other.sigma2)


@given(seed=st.integers(0, 2**32 - 1), d=st.integers(3, 7), data=st.data())
def test_mle_is_a_maximum_property(seed, d, data):
    q = data.draw(st.integers(1, d - 1))
    X = ppca_data(seed, n=30, d=d, q=q)
    fit = ppca.ppca_mle(X, q)
    rng = np.random.default_rng(seed)
    for _ in range(3):
        W = fit.W + 0.05 * rng.standard_normal(fit.W.shape)
        sigma2 = fit.sigma2 * float(rng.uniform(0.8, 1.25))
        mean = fit.mean + 0.05 * rng.standard_normal(d)
        assert ppca.log_likelihood(X, W, mean, sigma2) <= fit.log_likelihood + 1e-9 * abs(fit.log_likelihood)


def test_sigma2_to_zero_recovers_pca():
    X = ppca_data(5)
    V = pca(X, 3).components
    lam = np.linalg.eigvalsh(np.cov(X, rowvar=False, ddof=0))[::-1][:3]
    previous = np.inf
    for s in [1.0, 0.1, 0.01, 1e-4]:
        held = ppca.ppca_mle(X, 3, sigma2=s)
        assert held.sigma2 == s
        assert subspace_distance(held.W, V) < 1e-10
        P = held.W @ np.linalg.solve(held.W.T @ held.W + s * np.eye(3), held.W.T)
        distance = np.linalg.norm(P - projector(V), 2)
        assert np.isclose(distance, s / lam[2]) and distance < previous
        previous = distance
    assert np.allclose(held.W, V * np.sqrt(lam), atol=1e-3)  # the PCA loadings V Lambda^(1/2)


def test_posterior_mean_is_a_shrunk_pca_score():
    X = ppca_data(6)
    fit = ppca.ppca_mle(X, 3)
    lam = np.sum(fit.W**2, axis=0) + fit.sigma2
    Z = ppca.posterior_mean(fit, X)
    assert Z.shape == (200, 3)
    assert np.allclose(Z, pca(X, 3).scores * np.sqrt(lam - fit.sigma2) / lam)


def test_sample_has_the_marginal_moments_and_is_seeded():
    model = ppca.PPCAModel(W=[[2.0, 0.0], [1.0, 1.0], [0.0, 1.5]], mean=[1.0, 0.0, -1.0], sigma2=0.3)
    X, Z = ppca.sample(model, 40000, seed=0, return_latent=True)
    assert X.shape == (40000, 3) and Z.shape == (40000, 2)
    assert np.abs(np.cov(X, rowvar=False) - model.covariance()).max() < 0.08
    assert np.abs(X.mean(axis=0) - model.mean).max() < 0.03
    assert np.array_equal(ppca.sample(model, 5, seed=1), ppca.sample(model, 5, seed=1))
    assert not np.array_equal(ppca.sample(model, 5, seed=1), ppca.sample(model, 5, seed=2))


def test_fitting_samples_recovers_the_model():
    truth = ppca.PPCAModel(W=np.random.default_rng(7).normal(0, 2, (6, 2)), mean=np.arange(6.0), sigma2=0.4)
    fit = ppca.ppca_mle(ppca.sample(truth, 20000, seed=8), 2)
    assert subspace_distance(fit.W, truth.W) < 0.02
    assert abs(fit.sigma2 - 0.4) < 0.02
    assert np.abs(fit.W @ fit.W.T - truth.W @ truth.W.T).max() < 0.3


def test_results_are_frozen():
    fit = ppca.ppca_mle(ppca_data(9), 2)
    with pytest.raises(AttributeError):
        fit.sigma2 = 1.0
    with pytest.raises(ValueError):
        fit.W[0, 0] = 1.0


# ---------------------------------------------------------------- EM

def test_em_converges_to_the_closed_form():
    X = ppca_data(10)
    fit = ppca.ppca_mle(X, 3)
    em = ppca.ppca_em(X, 3, seed=0, tol=1e-13)
    assert em.converged and em.n_iter == em.history.size - 1
    assert np.isclose(em.log_likelihood, fit.log_likelihood, rtol=1e-10)
    assert em.history[-1] == em.log_likelihood
    assert subspace_distance(em.W, fit.W) < 1e-8
    assert np.isclose(em.sigma2, fit.sigma2, rtol=1e-4)
    assert np.allclose(em.W, fit.W, atol=1e-3)  # same canonical rotation and signs
    assert np.isclose(em.log_likelihood, ppca.log_likelihood(X, em.W, em.mean, em.sigma2), rtol=1e-12)


@given(seed=st.integers(0, 2**32 - 1), d=st.integers(2, 7), data=st.data())
def test_em_log_likelihood_never_decreases(seed, d, data):
    q = data.draw(st.integers(1, d - 1))
    X = ppca_data(seed, n=25, d=d, q=q)
    em = ppca.ppca_em(X, q, seed=seed % 1000, max_iter=60, tol=1e-15)
    assert np.all(np.diff(em.history) >= -1e-10 * np.abs(em.history[1:]))
    assert em.log_likelihood <= ppca.ppca_mle(X, q).log_likelihood + 1e-9 * abs(em.log_likelihood)


def test_em_is_seeded_and_stops_at_max_iter():
    X = ppca_data(11)
    a, b = ppca.ppca_em(X, 2, seed=3, max_iter=5), ppca.ppca_em(X, 2, seed=3, max_iter=5)
    assert np.array_equal(a.history, b.history) and a.n_iter == 5 and not a.converged
    assert not np.array_equal(a.history, ppca.ppca_em(X, 2, seed=4, max_iter=5).history)


def test_em_from_a_given_start():
    X = ppca_data(13, d=5)
    n, d = X.shape
    start = np.random.default_rng(5).standard_normal((d, 2))
    em = ppca.ppca_em(X, 2, max_iter=3, start=start)
    trace_S = np.sum((X - X.mean(axis=0)) ** 2) / n
    assert np.isclose(em.history[0], ppca.log_likelihood(X, start, X.mean(axis=0), trace_S / d), rtol=1e-12)
    # the seed plays no part once a start is given; the start is not modified
    assert np.array_equal(em.history, ppca.ppca_em(X, 2, seed=7, max_iter=3, start=start.tolist()).history)
    assert np.array_equal(start, np.random.default_rng(5).standard_normal((d, 2)))
    assert np.all(np.diff(em.history) >= 0)


def test_em_with_one_column_is_a_power_step_and_reaches_pc1_from_a_poor_start():
    X = ppca_data(14, d=2, q=1)
    S = np.cov(X, rowvar=False, ddof=0)
    pc1 = pca(X, 1).components[:, 0]
    poor = np.array([[-pc1[1]], [pc1[0]]]) + 0.01 * pc1[:, None]  # almost orthogonal to PC1
    one = ppca.ppca_em(X, 1, max_iter=1, start=poor).W[:, 0]
    power = S @ poor[:, 0]
    assert abs(one @ power) / (np.linalg.norm(one) * np.linalg.norm(power)) == pytest.approx(1.0, abs=1e-12)
    em = ppca.ppca_em(X, 1, start=poor, tol=1e-14)
    assert em.converged
    assert subspace_distance(em.W, pc1[:, None]) < 1e-8
    assert np.isclose(em.log_likelihood, ppca.ppca_mle(X, 1).log_likelihood, rtol=1e-10)


# ---------------------------------------------------------------- bad input

def test_bad_inputs():
    X = ppca_data(12, d=5)
    W, mean = np.ones((5, 2)), np.zeros(5)
    with pytest.raises(ValueError, match="q"):
        ppca.ppca_mle(X, 5)
    with pytest.raises(ValueError, match="q"):
        ppca.ppca_em(X, 6)
    with pytest.raises(ValueError, match="q"):
        ppca.ppca_mle(X[:3], 3)  # q must also stay below n
    with pytest.raises(TypeError, match="q"):
        ppca.ppca_mle(X, 2.0)
    with pytest.raises(ValueError, match="at least 2 rows"):
        ppca.ppca_mle(X[:1], 1)
    with pytest.raises(ValueError, match="at least 2 rows"):
        ppca.ppca_em(X[:1], 1)
    bad = X.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match="X contains NaN"):
        ppca.ppca_mle(bad, 2)
    with pytest.raises(ValueError, match="X contains NaN"):
        ppca.log_likelihood(bad, W, mean, 1.0)
    with pytest.raises(ValueError, match="sigma2"):
        ppca.log_likelihood(X, W, mean, 0.0)
    with pytest.raises(ValueError, match="sigma2"):
        ppca.ppca_mle(X, 2, sigma2=-1.0)
    with pytest.raises(ValueError, match="sigma2"):
        ppca.PPCAModel(W, mean, np.nan)
    with pytest.raises(ValueError, match="W must have fewer columns"):
        ppca.log_likelihood(X, np.ones((5, 5)), mean, 1.0)
    with pytest.raises(ValueError, match="mean must have length 5"):
        ppca.log_likelihood(X, W, np.zeros(4), 1.0)
    with pytest.raises(ValueError, match="X has 4 columns but W has 5 rows"):
        ppca.log_likelihood(X[:, :4], W, mean, 1.0)
    with pytest.raises(ValueError, match="X lies .* in a 1-dimensional affine subspace"):
        ppca.ppca_mle(np.outer(np.arange(10.0), np.ones(5)), 1)  # points on a line: sigma2 would be 0
    with pytest.raises(TypeError, match="seed"):
        ppca.ppca_em(X, 2, seed=None)
    with pytest.raises(ValueError, match="tol"):
        ppca.ppca_em(X, 2, tol=0.0)
    with pytest.raises(ValueError, match="no variance"):
        ppca.ppca_em(np.ones((10, 5)), 2)
    with pytest.raises(ValueError, match=r"start must have shape \(d, q\) = \(5, 2\)"):
        ppca.ppca_em(X, 2, start=np.ones((5, 3)))
    with pytest.raises(ValueError, match="start must have full column rank"):
        ppca.ppca_em(X, 2, start=np.ones((5, 2)))
    with pytest.raises(ValueError, match="start contains NaN"):
        ppca.ppca_em(X, 2, start=np.full((5, 2), np.nan))
    model = ppca.PPCAModel(W, mean, 1.0)
    with pytest.raises(TypeError, match="model must be a PPCAModel"):
        ppca.sample("model", 5, seed=0)
    with pytest.raises(ValueError, match="n must be at least 1"):
        ppca.sample(model, 0, seed=0)
    with pytest.raises(ValueError, match="X must have 5 columns"):
        ppca.posterior_mean(model, X[:, :3])


# ---------------------------------------------------------------- the checks of set 07

def _noise_variance(X, q):
    Xc = X - X.mean(axis=0)
    return float(np.linalg.eigvalsh(Xc.T @ Xc / len(X))[: X.shape[1] - q].mean())


def _em_step(X, W, sigma2):
    """One EM step without the d x d matrix S (the check's last call has d = 3000)."""
    n, d = X.shape
    Xc = X - X.mean(axis=0)
    SW = Xc.T @ (Xc @ W) / n
    M = W.T @ W + sigma2 * np.eye(W.shape[1])
    W_new = SW @ np.linalg.inv(sigma2 * np.eye(W.shape[1]) + np.linalg.solve(M, W.T @ SW))
    return W_new, float(np.sum(Xc**2) / n - np.trace(np.linalg.solve(M, W_new.T @ SW))) / d


def _projector_distance(A, B):
    QA, QB = np.linalg.qr(A)[0], np.linalg.qr(B)[0]
    return float(np.linalg.norm(QA @ QA.T - QB @ QB.T, 2))


def _crab_shrinkage():
    from dimred_teach.checks.set07 import crab_matrix

    X = crab_matrix()
    lam = np.linalg.eigvalsh(np.cov(X, rowvar=False, ddof=0))[::-1]
    return (lam[:2] - lam[2:].mean()) / lam[:2]


@pytest.mark.parametrize("exercise, answer", [
    ("07.noise_variance", _noise_variance),
    ("07.em_step", _em_step),
    ("07.marginal_covariance", lambda W, s2: W @ W.T + s2 * np.eye(W.shape[0])),
    ("07.projector_distance", _projector_distance),
    ("07.shrinkage", _crab_shrinkage()),
])
def test_correct_answers_pass(exercise, answer):
    for seed in range(3):
        verdict = evaluate(exercise, answer, seed=seed)
        assert verdict.passed, verdict.message


def _sigma2_with_n_minus_1(X, q):
    return _noise_variance(X, q) * len(X) / (len(X) - 1)


def _em_step_wrong_sigma2(X, W, sigma2):
    W_new, _ = _em_step(X, W, sigma2)
    return W_new, sigma2


def _em_step_without_inverse(X, W, sigma2):
    W_new, sigma2_new = _em_step(X, W, sigma2)
    Xc = X - X.mean(axis=0)
    return Xc.T @ Xc @ W / len(X), sigma2_new


def _frobenius_distance(A, B):
    QA, QB = np.linalg.qr(A)[0], np.linalg.qr(B)[0]
    return float(np.linalg.norm(QA @ QA.T - QB @ QB.T))


@pytest.mark.parametrize("exercise, answer, message", [
    ("07.noise_variance", _sigma2_with_n_minus_1, "1/n"),
    ("07.noise_variance", lambda X, q: float(np.linalg.eigvalsh(np.cov(X.T, ddof=0))[-q:].mean()), "largest"),
    ("07.noise_variance", lambda X, q: float(np.trace(np.cov(X.T, ddof=0))) / X.shape[1], "all d"),
    ("07.noise_variance", lambda X, q: 1.0, "sigma2"),
    ("07.em_step", _em_step_wrong_sigma2, "sigma2_new"),
    ("07.em_step", _em_step_without_inverse, ""),
    ("07.em_step", lambda X, W, s2: W, "pair"),
    ("07.marginal_covariance", lambda W, s2: W @ W.T, "noise"),
    ("07.marginal_covariance", lambda W, s2: W @ W.T + s2, "diagonal only"),
    ("07.projector_distance", lambda A, B: float(np.linalg.norm(A - B, 2)), "distance should be"),
    ("07.projector_distance", _frobenius_distance, "Frobenius"),
    ("07.shrinkage", np.array([1.0, 1.0]), "between 0 and 1"),
    ("07.shrinkage", np.array([0.5, 0.5]), "shrink_j"),
    ("07.shrinkage", None, "no answer"),
    ("07.shrinkage", np.ones(3), "shape"),
])
def test_wrong_answers_fail(exercise, answer, message):
    verdict = evaluate(exercise, answer, seed=0)
    assert not verdict.passed
    assert message in verdict.message


def test_posterior_factor_confusion_fails_with_a_specific_message():
    from dimred_teach.checks.set07 import crab_matrix

    X = crab_matrix()
    fit = ppca.ppca_mle(X, 2)
    lam = np.sum(fit.W**2, axis=0) + fit.sigma2
    verdict = evaluate("07.shrinkage", np.sqrt(lam - fit.sigma2) / lam, seed=0)
    assert not verdict.passed and "posterior mean" in verdict.message


@pytest.mark.parametrize("rank, q, method", [(0, 1, "svd"), (1, 1, "eig"), (1, 2, "svd"), (2, 2, "svd"), (2, 3, "eig"),
                                             (1, 2, "gram"), (2, 2, "gram"), (0, 1, "gram")])
def test_data_without_noise_name_x_its_rank_and_a_way_out_that_works(rank, q, method):
    """Issue 54: X of centred rank r <= q leaves a maximum-likelihood sigma2 of 0. The message
    names X and r and what to pass instead, and each way out it proposes fits."""
    rng = np.random.default_rng(rank)
    X = rng.standard_normal((12, rank)) @ rng.standard_normal((rank, 5)) + 3.0
    with pytest.raises(ValueError) as raised:
        ppca.ppca_mle(X, q, method=method)
    message = str(raised.value)
    where = "has no variance (all its rows are equal)" if rank == 0 else (
        f"lies (numerically) in a {rank}-dimensional affine subspace")
    assert message.startswith(f"X {where}, so with q = {q} the maximum-likelihood sigma2 is 0"), message
    ways = message.split("; pass ")[1]
    smaller = re.search(r"q at most (\d+)", ways)
    assert bool(smaller) == (rank >= 2) and "sigma2 > 0" in ways, message
    if smaller:
        assert ppca.ppca_mle(X, int(smaller.group(1)), method=method).sigma2 > 0
    fixed_method = "svd" if "method='svd'" in ways else method
    assert ppca.ppca_mle(X, q, sigma2=0.5, method=fixed_method).sigma2 == 0.5


def test_gram_with_fewer_directions_than_q_names_x_and_a_way_out_that_works():
    X = np.outer(np.arange(10.0), [1.0, 2.0, 3.0, 4.0])
    with pytest.raises(ValueError, match=r"^X varies \(numerically\) in only 1 direction\(s\), fewer than q = 2, .*; "
                       r"pass q at most 1 or method='svd'$"):
        ppca.ppca_mle(X, 2, sigma2=0.5, method="gram")
    assert ppca.ppca_mle(X, 1, sigma2=0.5, method="gram").sigma2 == ppca.ppca_mle(X, 2, sigma2=0.5).sigma2 == 0.5
