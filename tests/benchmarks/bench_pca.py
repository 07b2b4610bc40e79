"""PCA: the course's three routes against scikit-learn and the bare LAPACK SVD."""

import numpy as np
from sklearn.decomposition import PCA

from dimred_teach.pca import pca

from .harness import Benchmark


def benchmarks():
    rng = np.random.default_rng(0)
    tall = rng.standard_normal((5000, 200)) @ rng.standard_normal((200, 200))
    tall_centred = tall - tall.mean(axis=0)
    yield Benchmark(
        "pca(method='svd'), n=5000 p=200",
        ours=lambda: pca(tall, method="svd"),
        baselines={
            "sklearn PCA(svd_solver='full')": lambda: PCA(svd_solver="full").fit_transform(tall),
            "numpy.linalg.svd alone": lambda: np.linalg.svd(tall_centred, full_matrices=False),
        },
    )
    wide = rng.standard_normal((300, 20000))
    k = 20

    def agreement():
        gram, eig = pca(wide, k=k, method="gram"), pca(wide, k=k, method="eig")
        return (f"gram vs eig: max |components| difference "
                f"{np.abs(gram.components - eig.components).max():.1e}")

    yield Benchmark(
        f"pca(method='gram', k={k}), n=300 p=20000",
        ours=lambda: pca(wide, k=k, method="gram"),
        baselines={
            "pca(method='eig') (p x p covariance)": lambda: pca(wide, k=k, method="eig"),
            "sklearn PCA(svd_solver='full')": lambda: PCA(n_components=k, svd_solver="full").fit_transform(wide),
        },
        notes=agreement,
        repeat=1,
        warmup=False,  # the p x p eigendecomposition alone takes minutes
    )
