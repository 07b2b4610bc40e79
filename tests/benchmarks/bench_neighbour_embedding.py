"""Notebook 14's maps against scikit-learn: exact t-SNE against TSNE(method="exact") at the same n,
settings and init, and the full-batch UMAP core (no scikit-learn counterpart; umap-learn is not a
dependency: it brings numba) against exact t-SNE at the same n."""

import numpy as np
from sklearn.manifold import TSNE

from dimred_teach.neighbour_embedding import tsne, umap

from .harness import Benchmark


def benchmarks():
    rng = np.random.default_rng(0)
    n = 500
    X = np.vstack([rng.standard_normal((n // 5, 10)) + 4.0 * shift for shift in np.eye(5, 10)])
    init = 1e-4 * rng.standard_normal((n, 2))
    runs = {}

    def ours():
        runs["ours"] = tsne(X, 30.0, init=init)

    def sklearn_exact():
        runs["sk"] = TSNE(2, perplexity=30.0, method="exact", init=init, min_grad_norm=0.0,
                          n_iter_without_progress=1000, random_state=0).fit(X)

    def notes():
        return f"final KL ours {runs['ours'].kl_divergence:.4f}, scikit-learn {runs['sk'].kl_divergence_:.4f}"

    yield Benchmark(f"tsne (exact), n={n} p=10, 1000 iterations", ours=ours,
                    baselines={"sklearn TSNE(method='exact')": sklearn_exact},
                    why="both dense O(n^2) per iteration; ours vectorises the gradient as W 1 y_i - W Y "
                        "(one matrix product) where scikit-learn loops over the rows in Python",
                    notes=notes, repeat=1)

    yield Benchmark(f"umap (full batch), n={n} p=10, 200 epochs", ours=lambda: umap(X, 15),
                    baselines={"ours: tsne (exact), 1000 iterations": lambda: tsne(X, 30.0, init=init)},
                    why="an epoch costs more than a t-SNE iteration: powers s^b and two gradient terms "
                        "for all n^2 pairs", repeat=1)
