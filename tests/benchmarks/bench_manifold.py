"""Manifold learning: Isomap against scikit-learn's Isomap and against its bare Dijkstra step;
Laplacian eigenmaps against scikit-learn's SpectralEmbedding and a bare shift-invert ARPACK
call on the same normalised Laplacian. Notes give the agreement with scikit-learn and the
peak memory (tracemalloc) of ours and scikit-learn's."""

import numpy as np
from scipy.sparse.csgraph import laplacian, shortest_path
from scipy.sparse.linalg import eigsh
from sklearn.manifold import Isomap, SpectralEmbedding

from dimred_teach.datasets import make_swiss_roll
from dimred_teach.linalg import subspace_distance
from dimred_teach.manifold import LAPLACIAN_SHIFT, isomap, laplacian_eigenmaps, neighbourhood_graph

from .harness import Benchmark, peak_megabytes


def benchmarks():
    n, k, n_neighbors = 1500, 2, 10
    X, _ = make_swiss_roll(n, noise=0.1, seed=0)
    graph = neighbourhood_graph(X, n_neighbors)

    def sklearn_isomap():
        return Isomap(n_neighbors=n_neighbors, n_components=k).fit(X)

    def isomap_notes():
        ours = isomap(X, k, n_neighbors).embedding
        theirs = sklearn_isomap().embedding_
        signs = np.sign(np.sum(ours * theirs, axis=0))
        return (f"max |embedding difference| vs sklearn (up to sign) {np.abs(ours - theirs * signs).max():.1e}; "
                f"peak memory ours {peak_megabytes(lambda: isomap(X, k, n_neighbors)):.0f} MB, "
                f"sklearn {peak_megabytes(sklearn_isomap):.0f} MB (n x n float64 = {n * n * 8 / 1e6:.0f} MB)")

    yield Benchmark(
        f"isomap(k={k}, n_neighbors={n_neighbors}), Swiss roll n={n}",
        ours=lambda: isomap(X, k, n_neighbors),
        baselines={
            "sklearn Isomap": sklearn_isomap,
        },
        floor=("scipy shortest_path (Dijkstra, undirected) alone", lambda: shortest_path(
            graph.distances, method="D", directed=False)),
        notes=isomap_notes,
        repeat=3,
    )

    normalised = laplacian(graph.connectivity, normed=True).tocsc()
    start = np.random.default_rng(0).uniform(-1.0, 1.0, n)

    def spectral(random_state=0):
        return SpectralEmbedding(n_components=k, n_neighbors=n_neighbors + 1, random_state=random_state).fit(X)

    def laplacian_notes():
        ours = laplacian_eigenmaps(X, k, n_neighbors).embedding
        return (f"projector distance to sklearn's subspace {subspace_distance(ours, spectral().embedding_):.1e}; "
                f"peak memory ours {peak_megabytes(lambda: laplacian_eigenmaps(X, k, n_neighbors)):.1f} MB, "
                f"sklearn {peak_megabytes(spectral):.1f} MB")

    yield Benchmark(
        f"laplacian_eigenmaps(k={k}, n_neighbors={n_neighbors}), Swiss roll n={n}",
        ours=lambda: laplacian_eigenmaps(X, k, n_neighbors),
        baselines={
            "sklearn SpectralEmbedding (ARPACK)": spectral,
        },
        floor=("scipy eigsh(normalised Laplacian, shift-invert, its own LU) alone", lambda: eigsh(
            normalised, k=k + 1, sigma=LAPLACIAN_SHIFT, which="LM", v0=start, tol=0.0)),
        notes=laplacian_notes,
        repeat=10,
    )
