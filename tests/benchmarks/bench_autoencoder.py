"""Linear autoencoder: gradient descent against the closed form it converges to (PCA by
the SVD), on the same data. Regularised tied autoencoder: what each regulariser costs
against the same overcomplete model without one."""

import numpy as np

from dimred_teach.autoencoder import train_linear_autoencoder, train_tied_autoencoder
from dimred_teach.linalg import subspace_distance
from dimred_teach.pca import pca

from .harness import Benchmark


def benchmarks():
    rng = np.random.default_rng(0)
    Q, _ = np.linalg.qr(rng.standard_normal((20, 20)))
    X = rng.standard_normal((1000, 20)) * np.sqrt(np.geomspace(4, 0.05, 20)) @ Q.T
    k = 3

    def agreement():
        model = train_linear_autoencoder(X, k, learning_rate=0.1, epochs=500, seed=0)
        distance = subspace_distance(model.decoder.T, pca(X, k=k).components)
        return f"subspace distance to PCA after 500 epochs {distance:.1e}"

    yield Benchmark(
        f"train_linear_autoencoder(k={k}, 500 epochs), n=1000 p=20",
        ours=lambda: train_linear_autoencoder(X, k, learning_rate=0.1, epochs=500, seed=0),
        baselines={"pca(method='svd') (the closed form it converges to)": lambda: pca(X, k=k)},
        floor=("numpy.linalg.svd", lambda: np.linalg.svd(X - X.mean(axis=0), full_matrices=False)),
        why="500 gradient steps against one SVD: the lesson of notebook 10, not a peer",
        notes=agreement,
        repeat=1,
    )

    rng = np.random.default_rng(3)
    angles = rng.uniform(-2.5, 2.5, 40)
    arc = 2 * np.column_stack([np.sin(angles), np.cos(angles)]) + 0.05 * rng.standard_normal((40, 2))

    def tied(**penalty):
        return lambda: train_tied_autoencoder(arc, 32, epochs=3000, seed=0, **penalty)

    yield Benchmark(
        "train_tied_autoencoder(m=32, contraction=0.1, 3000 epochs), n=40 p=2",
        ours=tied(contraction=0.1),
        baselines={"no regulariser": tied(), "sparsity=0.1": tied(sparsity=0.1),
                   "noise=0.3, 5 copies (5 times the rows)": tied(noise=0.3, copies=5)},
        why="the contractive penalty adds work to every step: the cost of the regulariser, not a peer",
        repeat=1,
    )
