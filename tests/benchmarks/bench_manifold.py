"""Manifold learning: Isomap against scikit-learn's Isomap and against its two bare steps
(Dijkstra shortest paths, a top-k symmetric eigensolver); Laplacian eigenmaps against
scikit-learn's SpectralEmbedding and a bare subset eigensolver on the same matrix."""

import numpy as np
import scipy.linalg
from scipy.sparse.csgraph import shortest_path
from sklearn.manifold import Isomap, SpectralEmbedding

from dimred_teach.datasets import make_swiss_roll
from dimred_teach.linalg import subspace_distance
from dimred_teach.manifold import isomap, laplacian_eigenmaps, neighbourhood_graph
from dimred_teach.mds import double_center

from .harness import Benchmark


def benchmarks():
    n, k, n_neighbors = 1500, 2, 10
    X, _ = make_swiss_roll(n, noise=0.1, seed=0)
    graph = neighbourhood_graph(X, n_neighbors)
    geodesics = shortest_path(graph.distances, method="D", directed=False)
    B = double_center(geodesics**2)

    def isomap_agreement():
        ours = isomap(X, k, n_neighbors).embedding
        theirs = Isomap(n_neighbors=n_neighbors, n_components=k).fit(X).embedding_
        signs = np.sign(np.sum(ours * theirs, axis=0))
        return f"max |embedding difference| vs sklearn (up to sign) {np.abs(ours - theirs * signs).max():.1e}"

    yield Benchmark(
        f"isomap(k={k}, n_neighbors={n_neighbors}), Swiss roll n={n}",
        ours=lambda: isomap(X, k, n_neighbors),
        baselines={
            "sklearn Isomap": lambda: Isomap(n_neighbors=n_neighbors, n_components=k).fit(X),
            "scipy shortest_path alone": lambda: shortest_path(graph.distances, method="D", directed=False),
            "scipy eigh(B, subset top-k) alone": lambda: scipy.linalg.eigh(B, subset_by_index=(n - k, n - 1)),
        },
        notes=isomap_agreement,
        repeat=1,
    )

    W = graph.connectivity
    scale = 1.0 / np.sqrt(np.asarray(W.sum(axis=1)).ravel())
    affinity = W.toarray() * scale[:, None] * scale[None, :]

    def spectral(random_state=0):
        return SpectralEmbedding(n_components=k, n_neighbors=n_neighbors + 1, random_state=random_state).fit(X)

    def laplacian_agreement():
        ours = laplacian_eigenmaps(X, k, n_neighbors).embedding
        return f"projector distance to sklearn's subspace {subspace_distance(ours, spectral().embedding_):.1e}"

    yield Benchmark(
        f"laplacian_eigenmaps(k={k}, n_neighbors={n_neighbors}), Swiss roll n={n} (dense eigensolver)",
        ours=lambda: laplacian_eigenmaps(X, k, n_neighbors),
        baselines={
            "sklearn SpectralEmbedding (sparse ARPACK)": spectral,
            "scipy eigh(D^-1/2 W D^-1/2, subset top-(k+1)) alone": lambda: scipy.linalg.eigh(
                affinity, subset_by_index=(n - k - 1, n - 1)),
        },
        notes=laplacian_agreement,
        repeat=1,
    )
