"""Biplot coordinates against scikit-learn's PCA (the alpha = 1 scores are its whitened
scores over sqrt(n - 1)) and the bare LAPACK SVD, on simulated crabs."""

import numpy as np
from sklearn.decomposition import PCA

from dimred_teach.biplot import biplot_coordinates
from dimred_teach.datasets import CRABS_MEASUREMENTS, make_crabs_like

from .harness import Benchmark


def benchmarks():
    for n in (200, 100_000):
        X = make_crabs_like(n, seed=0)[list(CRABS_MEASUREMENTS)].to_numpy()
        Xc = X - X.mean(axis=0)

        def agreement(X=X):
            ours = biplot_coordinates(X, 1.0, k=5).scores
            theirs = PCA(whiten=True, svd_solver="full").fit_transform(X) / np.sqrt(X.shape[0] - 1)
            return ("max |scores - sklearn whitened / sqrt(n-1)| up to sign: "
                    f"{np.abs(np.abs(ours) - np.abs(theirs)).max():.1e}")

        yield Benchmark(
            f"biplot_coordinates(alpha=1, k=2), crabs-like n={n} p=5",
            ours=lambda X=X: biplot_coordinates(X, 1.0, k=2),
            baselines={
                "sklearn PCA(n_components=2, whiten=True)":
                    lambda X=X: PCA(2, whiten=True, svd_solver="full").fit_transform(X),
            },
            floor=("numpy.linalg.svd", lambda Xc=Xc: np.linalg.svd(Xc, full_matrices=False)),
            why="n=200: fixed costs of validation and the result object dominate a 0.1 ms SVD",
            notes=agreement,
            repeat=3 if n > 1000 else 20,
        )
