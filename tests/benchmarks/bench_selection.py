"""Feature selection: the filter scores, the nearest-centroid classifier, the LASSO path, RFE and the two
cross-validated choices (how many features, which penalty) against SciPy / scikit-learn on the same data."""

import numpy as np
import scipy.stats
from sklearn.feature_selection import RFE, RFECV
from sklearn.linear_model import LassoCV, LinearRegression, lasso_path
from sklearn.metrics import mutual_info_score
from sklearn.neighbors import NearestCentroid

from dimred_teach import selection
from dimred_teach.pca import standardize

from .harness import Benchmark


def benchmarks():
    rng = np.random.default_rng(0)
    yield from _scores_and_nearest_centroid(rng)
    yield from _lasso_and_feature_elimination(rng)


def _scores_and_nearest_centroid(rng):
    n, p = 2000, 200
    y = rng.integers(0, 2, n)
    X = rng.standard_normal((n, p)) + np.outer(y, rng.normal(0, 0.5, p))
    yield Benchmark(
        f"t_statistic, n={n} p={p}",
        ours=lambda: selection.t_statistic(X, y),
        baselines={"scipy.stats.ttest_ind": lambda: scipy.stats.ttest_ind(X[y == 1], X[y == 0])},
    )
    codes = selection.discretize(X, 10)

    def agreement():
        ours = selection.mutual_information(X, y, bins=10)
        theirs = np.array([mutual_info_score(y, codes[:, j]) for j in range(p)])
        return f"max |MI difference| {np.abs(ours - theirs).max():.1e}"

    yield Benchmark(
        f"mutual_information (10 bins), n={n} p={p}",
        ours=lambda: selection.mutual_information(X, y, bins=10),
        baselines={"sklearn mutual_info_score per column (binning excluded)":
                   lambda: [mutual_info_score(y, codes[:, j]) for j in range(p)]},
        notes=agreement,
    )
    labels = rng.integers(0, 5, n)
    X_new = rng.standard_normal((n, p))
    yield Benchmark(
        f"nearest centroid fit + predict, n={n} p={p}, 5 classes",
        ours=lambda: selection.fit_nearest_centroid(X, labels).predict(X_new),
        baselines={"sklearn NearestCentroid": lambda: NearestCentroid().fit(X, labels).predict(X_new)},
    )


def _lasso_and_feature_elimination(rng):
    designs = {}
    for n_reg, p_reg in ((500, 20), (5000, 200)):
        Z = standardize(rng.standard_normal((n_reg, p_reg)) @ rng.normal(0, 0.5, (p_reg, p_reg)), ddof=0)
        target = Z[:, :5] @ rng.normal(0, 1, 5) + rng.normal(0, 1, n_reg)
        target -= target.mean()
        alphas = selection.lasso_path(Z, target, n_alphas=50).alphas
        designs[p_reg] = (Z, target, alphas)

        def lasso_agreement(Z=Z, target=target, alphas=alphas):
            ours = selection.lasso_path(Z, target, alphas=alphas).coefs
            theirs = lasso_path(Z, target, alphas=alphas, tol=1e-14, max_iter=100_000)[1]
            return f"max |coefficient difference| {np.abs(ours - theirs).max():.1e}"

        yield Benchmark(
            f"lasso_path (exact homotopy), 50 alphas, n={n_reg} p={p_reg} (sklearn at tol 1e-14: the same digits)",
            ours=lambda Z=Z, target=target, alphas=alphas: selection.lasso_path(Z, target, alphas=alphas),
            baselines={"sklearn lasso_path": lambda Z=Z, target=target, alphas=alphas:
                       lasso_path(Z, target, alphas=alphas, tol=1e-14, max_iter=100_000)},
            notes=lasso_agreement,
        )
    Z, target, alphas = designs[20]
    n_reg, p_reg = Z.shape
    yield Benchmark(
        f"lasso_path(method='coordinate'), what notebook 09 teaches, n={n_reg} p={p_reg}",
        ours=lambda: selection.lasso_path(Z, target, alphas=alphas, method="coordinate"),
        baselines={"the exact homotopy (the default)": lambda: selection.lasso_path(Z, target, alphas=alphas)},
        why="a lesson, not a peer: a Python loop over the columns in every sweep",
    )

    def rfe_agreement():
        ours = selection.recursive_feature_elimination(Z, target).ranking
        theirs = RFE(LinearRegression(), n_features_to_select=1).fit(Z, target).ranking_
        return f"same ranking: {bool(np.array_equal(ours, theirs))}"

    yield Benchmark(
        f"recursive_feature_elimination to 1 feature, n={n_reg} p={p_reg}",
        ours=lambda: selection.recursive_feature_elimination(Z, target),
        baselines={"sklearn RFE(LinearRegression())":
                   lambda: RFE(LinearRegression(), n_features_to_select=1).fit(Z, target)},
        notes=rfe_agreement,
    )

    # the library's seeded folds, as scikit-learn (train, test) pairs
    tests = np.array_split(np.random.default_rng(0).permutation(n_reg), 5)
    splits = [(np.setdiff1d(np.arange(n_reg), test), test) for test in tests]

    def rfe_cv_agreement():
        ours = selection.recursive_feature_elimination_cv(Z, target, folds=5, seed=0)
        theirs = RFECV(LinearRegression(), cv=splits, scoring="neg_mean_squared_error").fit(Z, target)
        difference = np.abs(ours.mean_mse + theirs.cv_results_["mean_test_score"]).max()
        return f"max |held-out MSE difference| {difference:.1e}, same size: {ours.n_features == theirs.n_features_}"

    yield Benchmark(
        f"recursive_feature_elimination_cv, 5 folds, n={n_reg} p={p_reg}",
        ours=lambda: selection.recursive_feature_elimination_cv(Z, target, folds=5, seed=0),
        baselines={"sklearn RFECV(LinearRegression())": lambda: RFECV(LinearRegression(), cv=splits,
                                                                      scoring="neg_mean_squared_error").fit(Z, target)},
        notes=rfe_cv_agreement,
    )

    def lasso_cv_agreement():
        ours = selection.lasso_cv(Z, target, alphas=alphas, folds=5, seed=0)
        theirs = LassoCV(alphas=alphas, cv=splits, tol=1e-14, max_iter=100_000).fit(Z, target)
        difference = np.abs(ours.fold_mse - theirs.mse_path_.T).max()
        return f"max |held-out MSE difference| {difference:.1e}, same alpha: {ours.alpha == theirs.alpha_}"

    yield Benchmark(
        f"lasso_cv (exact homotopy), 50 alphas, 5 folds, n={n_reg} p={p_reg} (sklearn at tol 1e-14: the same digits)",
        ours=lambda: selection.lasso_cv(Z, target, alphas=alphas, folds=5, seed=0),
        baselines={"sklearn LassoCV":
                   lambda: LassoCV(alphas=alphas, cv=splits, tol=1e-14, max_iter=100_000).fit(Z, target)},
        notes=lasso_cv_agreement,
    )
