"""Checks of exercise set 07, probabilistic PCA.

Function exercises are called on fresh random instances; the value exercise is checked
against the crabs measurements, which the exercise notebook also uses.
"""

from __future__ import annotations

import numpy as np

from . import register
from .properties import answer_array, expect, expect_close

CRAB_MEASUREMENTS = ["FL", "RW", "CL", "CW", "BD"]


def crab_matrix() -> np.ndarray:
    """The crabs' five measurements in mm, shape (200, 5), as the exercise notebook loads them."""
    from ..datasets import load_crabs

    return load_crabs()[CRAB_MEASUREMENTS].to_numpy()


def random_ppca_data(rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """A fresh data set drawn from a PPCA-like model, shape (n, d), and a latent dimension q < d - 1."""
    n, d = int(rng.integers(30, 80)), int(rng.integers(4, 9))
    q = int(rng.integers(1, d - 1))
    W = rng.standard_normal((d, q)) * rng.uniform(1.0, 3.0, q)
    X = rng.standard_normal((n, q)) @ W.T + rng.uniform(0.3, 1.0) * rng.standard_normal((n, d))
    return X + rng.normal(0.0, 5.0, d), q


def _eigenvalues_1_over_n(X: np.ndarray) -> np.ndarray:
    """Eigenvalues of the 1/n covariance, descending."""
    Xc = X - X.mean(axis=0)
    return np.linalg.eigvalsh(Xc.T @ Xc / X.shape[0])[::-1]


def _scalar(value, what: str) -> float:
    array = answer_array(value, what)
    expect(array.size == 1, f"{what} should be a single number, got shape {array.shape}")
    return float(array.reshape(()))


@register("07.noise_variance",
          hint="sigma2 is the mean of the d - q smallest eigenvalues of the 1/n covariance (WashU eq. 25)")
def _noise_variance(answer, rng):
    for _ in range(3):
        X, q = random_ppca_data(rng)
        n, d = X.shape
        values = _eigenvalues_1_over_n(X)
        sigma2 = _scalar(answer(X.copy(), q), "noise_variance(X, q)")
        expected = values[q:].mean()
        expect(not np.isclose(sigma2, expected * n / (n - 1), rtol=1e-9),
               "noise_variance uses the 1/(n-1) covariance; the maximum-likelihood estimate uses 1/n")
        expect(not np.isclose(sigma2, values[:q].mean(), rtol=1e-6),
               "noise_variance averages the q largest eigenvalues; sigma2 comes from the discarded ones")
        expect(not np.isclose(sigma2, values.mean(), rtol=1e-9),
               "noise_variance averages all d eigenvalues; average only the d - q discarded ones")
        expect_close(sigma2, expected, f"sigma2 = mean of the {d - q} smallest eigenvalues (n={n}, d={d}, q={q})",
                     atol=1e-10)


def _em_reference(X: np.ndarray, W: np.ndarray, sigma2: float) -> tuple[np.ndarray, float]:
    """One EM update of Tipping and Bishop, written directly with the d x d matrix S."""
    n, d = X.shape
    Xc = X - X.mean(axis=0)
    S = Xc.T @ Xc / n
    M = W.T @ W + sigma2 * np.eye(W.shape[1])
    SW = S @ W
    W_new = SW @ np.linalg.inv(sigma2 * np.eye(W.shape[1]) + np.linalg.inv(M) @ W.T @ SW)
    return W_new, float(np.trace(S - SW @ np.linalg.inv(M) @ W_new.T)) / d


@register("07.em_step",
          hint="with S = Xc'Xc/n and M = W'W + sigma2 I: W_new = S W (sigma2 I + M^-1 W'S W)^-1, "
               "sigma2_new = tr(S - S W M^-1 W_new')/d")
def _em_step(answer, rng):
    from ..ppca import log_likelihood

    for _ in range(3):
        X, q = random_ppca_data(rng)
        n, d = X.shape
        W = rng.standard_normal((d, q))
        sigma2 = float(rng.uniform(0.5, 3.0))
        result = answer(X.copy(), W.copy(), sigma2)
        expect(isinstance(result, tuple) and len(result) == 2, "em_step should return a pair (W_new, sigma2_new)")
        W_new = answer_array(result[0], "W_new", shape=(d, q))
        sigma2_new = _scalar(result[1], "sigma2_new")
        expect(sigma2_new > 0, f"sigma2_new should be positive, got {sigma2_new:.4g}")
        mean = X.mean(axis=0)
        before, after = log_likelihood(X, W, mean, sigma2), log_likelihood(X, W_new, mean, sigma2_new)
        expect(after >= before - 1e-8 * abs(before),
               f"the log-likelihood went down from {before:.4f} to {after:.4f}; an EM step never decreases it")
        W_ref, sigma2_ref = _em_reference(X, W, sigma2)
        # The likelihood sees W only through W W', so compare that (any rotation of W_new is fine).
        expect_close(W_new @ W_new.T, W_ref @ W_ref.T, "W_new W_new' = the update equation's", atol=1e-8)
        expect_close(sigma2_new, sigma2_ref, "sigma2_new = tr(S - S W M^-1 W_new') / d", atol=1e-10)


@register("07.marginal_covariance", hint="x = W z + mean + noise with z ~ N(0, I): Cov(x) = W W' + sigma2 I")
def _marginal_covariance(answer, rng):
    for _ in range(3):
        d = int(rng.integers(3, 8))
        q = int(rng.integers(1, d))
        W = rng.standard_normal((d, q))
        sigma2 = float(rng.uniform(0.2, 2.0))
        C = answer_array(answer(W.copy(), sigma2), "marginal_covariance(W, sigma2)", shape=(d, d))
        expect_close(C, C.T, "marginal_covariance(W, sigma2) should be symmetric:", atol=1e-10)
        expect(not np.allclose(C, W @ W.T), "C equals W W': the noise adds sigma2 I")
        # C is pinned down by what it does on span(W) and on its orthogonal complement.
        basis = np.linalg.qr(W, mode="complete")[0]
        complement = basis[:, q:]
        expect_close(C @ complement, sigma2 * complement,
                     "C u = sigma2 u for every u orthogonal to the columns of W", atol=1e-10)
        expect_close(C @ W, W @ (W.T @ W + sigma2 * np.eye(q)), "C W = W (W'W + sigma2 I)", atol=1e-10)


def _random_basis_of(Q: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Another basis (not orthonormal) of the column space of Q."""
    k = Q.shape[1]
    return Q @ (rng.standard_normal((k, k)) + 3 * np.eye(k))


@register("07.projector_distance",
          hint="orthonormalise each basis (np.linalg.qr), form P = Q Q', return the spectral norm np.linalg.norm(., 2)")
def _projector_distance(answer, rng):
    for _ in range(3):
        m = int(rng.integers(5, 9))
        rotation = np.linalg.qr(rng.standard_normal((m, m)))[0]
        A = rotation[:, :2]
        same = _random_basis_of(A, rng)
        gap = _scalar(answer(A.copy(), same.copy()), "projector_distance(A, B) for two bases of one subspace")
        expect(abs(gap) < 1e-8,
               f"two different bases of the same subspace gave distance {gap:.4g}, not 0: compare projectors, "
               "which do not depend on the basis")
        theta = float(rng.uniform(0.2, 1.3))
        tilted = np.column_stack([np.cos(theta) * rotation[:, 0] + np.sin(theta) * rotation[:, 2], rotation[:, 1]])
        gap = _scalar(answer(A.copy(), _random_basis_of(tilted, rng)), "projector_distance(A, B)")
        expect(not np.isclose(gap, np.sqrt(2) * np.sin(theta)),
               "that is the Frobenius norm of P_A - P_B; the course uses the spectral norm (ord=2)")
        expect_close(gap, np.sin(theta), "the distance between planes at angle theta is sin(theta):", atol=1e-8)
        gap = _scalar(answer(A.copy(), _random_basis_of(rotation[:, 2:4], rng)), "projector_distance(A, B)")
        expect_close(gap, 1.0, "orthogonal subspaces are at distance 1:", atol=1e-8)


@register("07.shrinkage",
          hint="for the MLE, M = W'W + sigma2 I = Lambda_q, so W M^-1 W' = V_q diag((lambda_j - sigma2)/lambda_j) V_q'")
def _shrinkage(answer, rng):
    from ..pca import pca
    from ..ppca import ppca_mle

    X = crab_matrix()
    shrink = answer_array(answer, "shrink", shape=(2,))
    fit = ppca_mle(X, 2)
    V = pca(X, 2).components
    lam = _eigenvalues_1_over_n(X)[:2]
    expect(not np.allclose(shrink, np.sqrt(lam - fit.sigma2) / lam, rtol=1e-6),
           "those are the factors of the latent posterior mean E[z|x]; the reconstruction W E[z|x] "
           "multiplies by sqrt(lambda_j - sigma2) once more")
    expect(bool(np.all((shrink > 0) & (shrink < 1))), "shrinkage factors lie strictly between 0 and 1")
    operator = fit.W @ np.linalg.solve(fit.W.T @ fit.W + fit.sigma2 * np.eye(2), fit.W.T)
    expect_close(operator @ V, V * shrink, "W M^-1 W' v_j = shrink_j v_j for the two crabs components", atol=1e-8)
