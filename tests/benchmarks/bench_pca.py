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
        },
        floor=("numpy.linalg.svd", lambda: np.linalg.svd(tall_centred, full_matrices=False)),
    )
    k = 20
    for p in (4000, 20000):
        wide = rng.standard_normal((300, p))

        def agreement(wide=wide):
            gram, svd = pca(wide, k=k, method="gram"), pca(wide, k=k, method="svd")
            return f"gram vs svd: max |components| difference {np.abs(gram.components - svd.components).max():.1e}"

        baselines = {"sklearn PCA(svd_solver='full')":
                     lambda wide=wide: PCA(n_components=k, svd_solver="full").fit_transform(wide)}
        if p <= 4000:  # the p x p eigendecomposition at p = 20000 alone takes about 10 minutes
            baselines["pca(method='eig') (p x p covariance)"] = lambda wide=wide: pca(wide, k=k, method="eig")
        yield Benchmark(f"pca(method='gram', k={k}), n=300 p={p}", ours=lambda wide=wide: pca(wide, k=k, method="gram"),
                        baselines=baselines, notes=agreement, repeat=1 if p > 4000 else 3)
