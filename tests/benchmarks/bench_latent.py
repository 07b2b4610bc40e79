"""Notebook 13's models against scikit-learn: factor analysis by EM against FactorAnalysis
(SVD-based updates), FastICA against FastICA, and the RBF GPLVM's fit (no scikit-learn
counterpart: its cost per iteration is one n x n Cholesky factorisation)."""

import numpy as np
from sklearn.decomposition import FactorAnalysis, FastICA

from dimred_teach.datasets import load_cocktail_party
from dimred_teach.factor_analysis import fa_em
from dimred_teach.gplvm import fit_gplvm, gplvm_linear
from dimred_teach.ica import fastica

from .harness import Benchmark


def benchmarks():
    rng = np.random.default_rng(0)
    n, d, q = 5000, 50, 5
    X = (rng.standard_normal((n, q)) @ rng.standard_normal((q, d))
         + rng.standard_normal((n, d)) * rng.uniform(0.5, 1.5, d))
    runs = {}

    def ours_fa():
        runs["fa"] = fa_em(X, q, tol=1e-12)

    def sklearn_fa():
        runs["sk"] = FactorAnalysis(q, tol=1e-8, max_iter=10000).fit(X)

    def fa_notes():
        fit, sk = runs["fa"], runs["sk"]
        gap = fit.log_likelihood - sk.score(X) * n
        return (f"EM: {fit.n_iter} iterations (converged {fit.converged}); scikit-learn: {sk.n_iter_}; "
                f"log-likelihood ours - sklearn {gap:.2e}; max |W W' difference| "
                f"{np.abs(fit.W @ fit.W.T - sk.components_.T @ sk.components_).max():.1e}")

    yield Benchmark(f"fa_em, n={n} d={d} q={q}", ours=ours_fa, baselines={"sklearn FactorAnalysis": sklearn_fa},
                    why="EM converges linearly; scikit-learn's updates use a truncated SVD of the scaled data",
                    notes=fa_notes, repeat=1)

    S = load_cocktail_party()[["voice", "music", "hum"]].to_numpy()
    mixtures = np.tile(S @ np.array([[1.0, 0.6, 0.4], [0.5, 1.0, 0.7], [0.3, 0.8, 1.0]]).T, (10, 1))

    def sklearn_ica():
        return FastICA(3, whiten="unit-variance", random_state=0, tol=1e-10, max_iter=1000).fit_transform(mixtures)

    def ica_notes():
        C = np.abs(np.corrcoef(fastica(mixtures).sources.T, sklearn_ica().T)[:3, 3:])
        return f"smallest best |correlation| with scikit-learn's sources: {C.max(axis=1).min():.10f}"

    yield Benchmark(f"fastica (logcosh), n={len(mixtures)} d=3", ours=lambda: fastica(mixtures),
                    baselines={"sklearn FastICA(whiten='unit-variance')": sklearn_ica}, notes=ica_notes)

    t = np.sort(rng.uniform(0.0, 1.0, 100))
    angle = 1.6 * np.pi * t
    curve = np.column_stack([np.cos(angle), np.sin(angle), 0.5 * np.cos(2 * angle), 0.5 * np.sin(2 * angle)])
    Y = curve @ np.linalg.qr(rng.standard_normal((10, 4)))[0].T + 0.05 * rng.standard_normal((100, 10))

    def gplvm_notes():
        fit = fit_gplvm(Y, 1)
        return f"RBF: {fit.n_iter} L-BFGS-B iterations, log-likelihood {fit.log_likelihood:.1f} (linear: " \
               f"{gplvm_linear(Y, 1).log_likelihood:.1f})"

    yield Benchmark("fit_gplvm (rbf), n=100 D=10 q=1", ours=lambda: fit_gplvm(Y, 1),
                    baselines={"gplvm_linear (closed form, PCA)": lambda: gplvm_linear(Y, 1)},
                    why="an iterative non-convex fit against one eigendecomposition", notes=gplvm_notes)
