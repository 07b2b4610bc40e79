"""PPCA: the closed form (one eigendecomposition, WashU eq. 24-26) against EM (many
O(n d q) steps), and the O(n d q) log-likelihood against the naive d x d density."""

import numpy as np
from scipy.stats import multivariate_normal

from dimred_teach.linalg import subspace_distance
from dimred_teach.ppca import log_likelihood, ppca_em, ppca_mle

from .harness import Benchmark


def benchmarks():
    rng = np.random.default_rng(0)
    n, d, q = 5000, 2000, 5
    X = rng.standard_normal((n, q)) @ (0.5 * rng.standard_normal((q, d))) + rng.standard_normal((n, d))
    runs = {}

    def closed_form():
        runs["mle"] = ppca_mle(X, q, method="eig")

    def em():
        runs["em"] = ppca_em(X, q, seed=0, tol=1e-8)

    def iterations():
        mle, fit = runs["mle"], runs["em"]
        gap = mle.log_likelihood - fit.log_likelihood
        return (f"EM took {fit.n_iter} iterations (converged: {fit.converged}); log-likelihood gap to the closed form "
                f"{gap:.2e} (relative {gap / abs(mle.log_likelihood):.1e}), "
                f"subspace distance {subspace_distance(fit.W, mle.W):.1e}, sigma2 {fit.sigma2:.6f} vs {mle.sigma2:.6f}")

    yield Benchmark(
        f"ppca_mle(method='eig'), n={n} d={d} q={q}",
        ours=closed_form,
        baselines={"ppca_em(tol=1e-8)": em},
        notes=iterations,
        repeat=1,
        warmup=False,  # EM takes minutes; one run is enough to see the factor
    )
    fit = ppca_mle(X[:, :500], q, method="eig")
    small = X[:2000, :500]

    def agreement():
        fast = log_likelihood(small, fit.W, fit.mean, fit.sigma2)
        naive = multivariate_normal(fit.mean, fit.covariance()).logpdf(small).sum()
        return f"relative difference from scipy: {abs(fast - naive) / abs(naive):.1e}"

    yield Benchmark(
        "log_likelihood (Woodbury), n=2000 d=500 q=5",
        ours=lambda: log_likelihood(small, fit.W, fit.mean, fit.sigma2),
        baselines={
            "scipy multivariate_normal.logpdf (d x d)": lambda: multivariate_normal(
                fit.mean, fit.covariance()).logpdf(small).sum(),
        },
        notes=agreement,
    )
    big_fit = ppca_mle(X, q, method="eig")
    yield Benchmark(
        f"log_likelihood (Woodbury), n={n} d={d} q={q}",
        ours=lambda: log_likelihood(X, big_fit.W, big_fit.mean, big_fit.sigma2),
        baselines={
            "scipy multivariate_normal.logpdf (d x d)": lambda: multivariate_normal(
                big_fit.mean, big_fit.covariance()).logpdf(X).sum(),
        },
        repeat=1,
    )
