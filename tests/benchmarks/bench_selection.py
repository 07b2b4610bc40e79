"""Feature selection: the filter scores and the nearest-centroid classifier against
SciPy / scikit-learn on the same data."""

import numpy as np
import scipy.stats
from sklearn.metrics import mutual_info_score
from sklearn.neighbors import NearestCentroid

from dimred_teach import selection

from .harness import Benchmark


def benchmarks():
    rng = np.random.default_rng(0)
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
