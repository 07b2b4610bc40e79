"""Manifold learning: Isomap and Laplacian eigenmaps on a k-nearest-neighbour graph.

Both methods start from the same graph: each point is joined to its ``n_neighbors``
nearest points (WashU notes, section 5.3: "both use distance of pairs of points").

- Isomap replaces Euclidean distances by graph shortest paths (approximate geodesic
  distances along the manifold) and embeds those by classical MDS (notebook 04);
  :func:`isomap_transform` places new points in a fitted embedding (the Nystrom formula).
- Laplacian eigenmaps keep neighbours close: they minimise sum_ij W_ij ||y_i - y_j||^2
  under y' D y = 1, which is the generalised eigenproblem L y = lambda D y with the graph
  Laplacian L = D - W, solved through the normalised Laplacian I - D^-1/2 W D^-1/2.

Rows are points. Embedding columns have their largest-magnitude entry positive
(:func:`dimred_teach.linalg.fix_signs`).

Speed: the graph comes from a k-d tree (no n x n distance matrix), stays sparse, and only the
few eigenpairs an embedding needs are computed. Above :data:`DENSE_MAX_POINTS` points (and
for k < :data:`ITERATIVE_MAX_K`) by ARPACK's Lanczos iteration from a seeded start vector,
converged to machine precision; below, by LAPACK's subset solver. Both give the same pairs to
rounding (``tests/benchmarks/bench_manifold.py`` compares with scikit-learn).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.linalg
import scipy.sparse
from scipy.sparse.csgraph import connected_components, laplacian, shortest_path
from scipy.sparse.linalg import LinearOperator, eigsh, splu
from scipy.spatial import cKDTree

from ._read_only import read_only
from ._validation import as_data_matrix, check_int, check_k
from .linalg import center_rows_and_columns, fix_signs, sorted_eigh

DENSE_MAX_POINTS = 200
"""Up to this many points the eigenpairs come from LAPACK (``scipy.linalg.eigh``), above it from ARPACK."""
ITERATIVE_MAX_K = 10
"""ARPACK is used only for fewer eigenpairs than this (scikit-learn's rule for both methods)."""
LAPLACIAN_SHIFT = -1e-3
"""Shift-invert point for the smallest eigenvalues of the normalised Laplacian (eigenvalues in
[0, 2], the smallest 0): L - shift I is positive definite, and (L - shift I)^-1 spreads the
wanted eigenvalues far apart, so Lanczos converges in a few steps."""

__all__ = ["NeighbourhoodGraph", "neighbourhood_graph", "geodesic_distances", "IsomapResult", "isomap",
           "isomap_transform", "LaplacianEigenmapsResult", "laplacian_eigenmaps"]


@dataclass(frozen=True)
class NeighbourhoodGraph:
    """The symmetric k-nearest-neighbour graph of n points.

    Attributes
    ----------
    distances : scipy.sparse.csr_array, shape (n, n)
        Symmetric; entry (i, j) is ||x_i - x_j|| when j is among the ``n_neighbors``
        nearest points of i or i among those of j, and absent otherwise.
    connectivity : scipy.sparse.csr_array, shape (n, n)
        Symmetric weights (A + A') / 2 with A_ij = 1 when j is a nearest neighbour of i:
        1 for mutual neighbours, 1/2 when only one of the two chose the other.
    n_neighbors : int
    n_components : int
        Number of connected components of the graph (1: connected).
    labels : ndarray of int, shape (n,)
        The component of each point, numbered 0 .. n_components - 1.
    """

    distances: scipy.sparse.csr_array
    connectivity: scipy.sparse.csr_array
    n_neighbors: int
    n_components: int
    labels: np.ndarray

    @property
    def is_connected(self) -> bool:
        return self.n_components == 1

    def require_connected(self, method: str) -> None:
        """Raise a ValueError naming ``n_neighbors`` unless the graph is connected."""
        if not self.is_connected:
            sizes = np.sort(np.bincount(self.labels))[::-1]
            raise ValueError(
                f"{method}: the {self.n_neighbors}-nearest-neighbour graph falls into {self.n_components} "
                f"disconnected pieces (sizes {sizes[:5].tolist()}{' ...' if sizes.size > 5 else ''}); "
                "points in different pieces have no path between them, so increase n_neighbors"
            )


def neighbourhood_graph(X, n_neighbors: int) -> NeighbourhoodGraph:
    """The symmetric k-nearest-neighbour graph of the rows of X.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Points (rows), finite.
    n_neighbors : int
        Neighbours per point, not counting the point itself, 1 <= n_neighbors <= n - 1.
        Ties in distance go to the point with the smaller index.

    Returns
    -------
    NeighbourhoodGraph
    """
    X = as_data_matrix(X)
    n = X.shape[0]
    n_neighbors = check_int(n_neighbors, "n_neighbors", minimum=1, maximum=n - 1)
    nearest, lengths = _nearest_neighbours(X, n_neighbors)
    rows = np.repeat(np.arange(n), n_neighbors)
    cols = nearest.ravel()
    # each undirected edge once, as (smaller index, larger index); chosen by one point or by both
    keys, first, times_chosen = np.unique(np.minimum(rows, cols) * n + np.maximum(rows, cols),
                                          return_index=True, return_counts=True)
    low, high = np.divmod(keys, n)
    distances = _symmetric_sparse(low, high, lengths.ravel()[first], n)
    connectivity = _symmetric_sparse(low, high, times_chosen / 2, n)
    n_components, labels = connected_components(connectivity, directed=False)
    read_only(labels)
    return NeighbourhoodGraph(distances, connectivity, n_neighbors, int(n_components), labels)


def _nearest_neighbours(X: np.ndarray, n_neighbors: int):
    """Each point's ``n_neighbors`` nearest other points, nearest first, ties to the smaller index.

    Returns indices and distances, both of shape (n, n_neighbors). A k-d tree finds one
    neighbour more than needed; a row whose extra neighbour is as far as its last one may
    have more tied points than were returned, and is recomputed from all n distances.
    """
    n = X.shape[0]
    found = min(n_neighbors + 2, n)  # the point itself, its neighbours, one more
    distances, indices = cKDTree(X).query(X, k=found)
    distances[indices == np.arange(n)[:, None]] = -1.0  # the point itself sorts first
    order = np.lexsort((indices, distances))
    indices, distances = np.take_along_axis(indices, order, 1), np.take_along_axis(distances, order, 1)
    for i in np.flatnonzero((found < n) & (distances[:, -1] <= distances[:, n_neighbors])):
        row = np.sqrt(np.sum((X - X[i]) ** 2, axis=1))
        row[i] = -1.0
        indices[i, :found] = np.lexsort((np.arange(n), row))[:found]
        distances[i] = row[indices[i]]
    return indices[:, 1:n_neighbors + 1], distances[:, 1:n_neighbors + 1]


def _symmetric_sparse(low: np.ndarray, high: np.ndarray, values: np.ndarray, n: int) -> scipy.sparse.csr_array:
    """The symmetric n x n sparse matrix with ``values`` at (low, high) and (high, low)."""
    return scipy.sparse.csr_array((np.concatenate([values, values]),
                                   (np.concatenate([low, high]), np.concatenate([high, low]))), shape=(n, n))


def geodesic_distances(X, n_neighbors: int) -> np.ndarray:
    """Approximate geodesic distances: shortest paths in the k-nearest-neighbour graph.

    Parameters
    ----------
    X : array_like, shape (n, p)
    n_neighbors : int
        See :func:`neighbourhood_graph`.

    Returns
    -------
    ndarray, shape (n, n)
        Symmetric, zero diagonal; entry (i, j) is the length of the shortest path from x_i
        to x_j along graph edges (Dijkstra), never shorter than ||x_i - x_j||.

    Raises
    ------
    ValueError
        When the graph is disconnected (some distances would be infinite).
    """
    graph = neighbourhood_graph(X, n_neighbors)
    graph.require_connected("geodesic_distances")
    return _shortest_paths(graph)


def _shortest_paths(graph: NeighbourhoodGraph) -> np.ndarray:
    # The stored graph holds every edge in both directions, so a directed search already follows
    # each edge both ways (an undirected one would also scan the transpose: twice the work).
    paths = shortest_path(graph.distances, method="D", directed=True)
    paths += paths.T  # exact symmetry (the two directions can differ in the last bit)
    paths *= 0.5
    return paths


def _use_lapack(n: int, k: int) -> bool:
    return n <= DENSE_MAX_POINTS or k >= ITERATIVE_MAX_K


def _seeded_start(n: int) -> np.ndarray:
    """ARPACK's start vector, fixed so that every run takes the same steps."""
    return np.random.default_rng(0).uniform(-1.0, 1.0, n)


def _top_eigenpairs_of_centred(G2: np.ndarray, k: int):
    """The k largest eigenpairs of B = -1/2 H G2 H (G2 symmetric, shape (n, n)), largest first,
    signs fixed: eigenvalues shape (k,), eigenvectors shape (n, k). ARPACK only needs products
    B v = -1/2 H (G2 (H v)), so B itself is never formed."""
    n = G2.shape[0]
    if _use_lapack(n, k):
        return sorted_eigh(-0.5 * center_rows_and_columns(G2), k=k, name="B")

    def times_B(V):
        product = G2 @ (V - V.mean(axis=0))
        return -0.5 * (product - product.mean(axis=0))

    B = LinearOperator((n, n), matvec=times_B, matmat=times_B, dtype=float)
    values, vectors = eigsh(B, k=k, which="LA", v0=_seeded_start(n), tol=0.0)
    order = np.argsort(values)[::-1]
    return values[order], fix_signs(vectors[:, order])


def _smallest_eigenpairs(L: scipy.sparse.csr_array, k: int):
    """The k smallest eigenpairs of the sparse symmetric positive semi-definite L (shape
    (n, n)), smallest first: eigenvalues shape (k,), eigenvectors shape (n, k), orthonormal."""
    n = L.shape[0]
    if _use_lapack(n, k):
        values, vectors = scipy.linalg.eigh(L.toarray(), subset_by_index=(0, k - 1))
    else:
        # L - shift I is symmetric positive definite: a sparse LU in symmetric mode, without pivoting,
        # factors it in about half the time of eigsh's own general-purpose factorisation
        shifted = (L - LAPLACIAN_SHIFT * scipy.sparse.identity(n, format="csc")).tocsc()
        factor = splu(shifted, permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0, options={"SymmetricMode": True})
        inverse = LinearOperator((n, n), matvec=factor.solve, dtype=float)
        values, vectors = eigsh(L, k=k, sigma=LAPLACIAN_SHIFT, which="LM", OPinv=inverse, v0=_seeded_start(n),
                                tol=0.0)
    order = np.argsort(values)
    return values[order], vectors[:, order]


@dataclass(frozen=True)
class IsomapResult:
    """Isomap of n points.

    Attributes
    ----------
    embedding : ndarray, shape (n, k)
        Classical MDS of the geodesic distances: U_k Lambda_k^1/2 of
        B = -1/2 H G2 H, with G2 the squared geodesic distances (a column whose
        eigenvalue is not positive is zero).
    eigenvalues : ndarray, shape (k,)
        The k largest eigenvalues of B, descending. For the whole spectrum (negative
        eigenvalues show how far the geodesic distances are from Euclidean) use
        ``classical_mds(geodesic_distances).eigenvalues``.
    geodesic_distances : ndarray, shape (n, n)
    n_neighbors : int
    """

    embedding: np.ndarray
    eigenvalues: np.ndarray
    geodesic_distances: np.ndarray
    n_neighbors: int


def isomap(X, k: int = 2, n_neighbors: int = 10) -> IsomapResult:
    """Isomap (Tenenbaum, de Silva and Langford 2000): classical MDS of graph geodesics.

    Parameters
    ----------
    X : array_like, shape (n, p)
    k : int
        Embedding dimension, 1 <= k <= n - 1.
    n_neighbors : int
        Neighbours per point in the graph (:func:`neighbourhood_graph`). Too few break the
        graph into pieces (an error); too many join points that are close in space but far
        along the manifold ("short circuits").

    Returns
    -------
    IsomapResult
    """
    X = as_data_matrix(X)
    n = X.shape[0]
    k = check_k(k, n - 1, why=f"{n} centred points span at most {n - 1} dimensions")
    graph = neighbourhood_graph(X, n_neighbors)
    graph.require_connected("isomap")
    geodesics = _shortest_paths(graph)
    values, vectors = _top_eigenpairs_of_centred(geodesics**2, k)
    embedding = vectors * np.sqrt(np.clip(values, 0.0, None))
    read_only(embedding, values, geodesics)
    return IsomapResult(embedding, values, geodesics, graph.n_neighbors)


def isomap_transform(X, result: IsomapResult, X_new) -> np.ndarray:
    """Place new points in a fitted Isomap embedding without refitting (the Nystrom extension).

    A new point x reaches training point j through one of its own ``result.n_neighbors``
    nearest training points i: g_j = min_i (||x - x_i|| + G_ij), with G the fitted geodesic
    distances. Classical MDS's own formula then places it: with m_j the mean of row j of
    G^(2), Z the fitted embedding and lambda its eigenvalues,
    z = (m - g^(2))' Z / (2 lambda), which gives back row i of Z for x = x_i
    (de Silva and Tenenbaum 2003; Bengio et al. 2004).

    Parameters
    ----------
    X : array_like, shape (n, p)
        The points ``result`` was fitted on.
    result : IsomapResult
        ``isomap(X, ...)``.
    X_new : array_like, shape (m, p)
        Points to place.

    Returns
    -------
    ndarray, shape (m, k)
        Their coordinates (a column whose eigenvalue is not positive is zero, as in the fit).
    """
    X = as_data_matrix(X)
    if not isinstance(result, IsomapResult):
        raise TypeError(f"result must be an IsomapResult (from isomap), not {type(result).__name__}")
    if X.shape[0] != result.geodesic_distances.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but result was fitted on "
                         f"{result.geodesic_distances.shape[0]} points: pass the points it was fitted on")
    X_new = as_data_matrix(X_new, "X_new", min_rows=1)
    if X_new.shape[1] != X.shape[1]:
        raise ValueError(f"X_new has {X_new.shape[1]} columns, X has {X.shape[1]}")
    lengths, nearest = cKDTree(X).query(X_new, k=result.n_neighbors)
    lengths, nearest = lengths.reshape(len(X_new), -1), nearest.reshape(len(X_new), -1)
    G = result.geodesic_distances
    to_training = np.min(lengths[:, :, None] + G[nearest], axis=1)  # (m, n)
    row_means = np.mean(G**2, axis=1)
    positive = result.eigenvalues > 0
    weights = np.divide(0.5, result.eigenvalues, out=np.zeros_like(result.eigenvalues), where=positive)
    return (row_means - to_training**2) @ result.embedding * weights


@dataclass(frozen=True)
class LaplacianEigenmapsResult:
    """Laplacian eigenmaps of n points.

    Attributes
    ----------
    embedding : ndarray, shape (n, k)
        Generalised eigenvectors y_2, ..., y_(k+1) of L y = lambda D y (the constant y_1,
        eigenvalue 0, is dropped), normalised so that y' D y = 1.
    eigenvalues : ndarray, shape (k + 1,)
        lambda_1 = 0 <= lambda_2 <= ... <= lambda_(k+1), ascending (the smallest matter
        here); each is the cost sum_ij W_ij (y_i - y_j)^2 / 2 of its eigenvector.
    weights : scipy.sparse.csr_array, shape (n, n)
        The graph weights W used (:attr:`NeighbourhoodGraph.connectivity`).
    n_neighbors : int
    """

    embedding: np.ndarray
    eigenvalues: np.ndarray
    weights: scipy.sparse.csr_array
    n_neighbors: int


def laplacian_eigenmaps(X, k: int = 2, n_neighbors: int = 10) -> LaplacianEigenmapsResult:
    """Laplacian eigenmaps (Belkin and Niyogi 2003) with k-nearest-neighbour weights.

    With W the graph's symmetric weights (1 where two points are each other's neighbours, 1/2
    where only one is the other's), D = diag(W 1) and L = D - W, the
    embedding minimises sum_ij W_ij ||y_i - y_j||^2 subject to Y' D Y = I and Y' D 1 = 0.
    The solutions are generalised eigenvectors, L y = lambda D y, for the smallest
    eigenvalues after the trivial constant one. They are computed as y = D^-1/2 u from the
    eigenvectors u of the smallest eigenvalues of the sparse normalised Laplacian
    I - D^-1/2 W D^-1/2, which has the same eigenvalues lambda (ARPACK in shift-invert mode
    around :data:`LAPLACIAN_SHIFT`). Same method as scikit-learn's ``SpectralEmbedding`` (which counts the
    point itself among its ``n_neighbors``).

    Parameters
    ----------
    X : array_like, shape (n, p)
    k : int
        Embedding dimension, 1 <= k <= n - 2.
    n_neighbors : int
        Neighbours per point (:func:`neighbourhood_graph`).

    Returns
    -------
    LaplacianEigenmapsResult

    Raises
    ------
    ValueError
        When the graph is disconnected: then 0 is a repeated eigenvalue and the
        "embedding" only labels the pieces.
    """
    X = as_data_matrix(X, min_rows=3)
    n = X.shape[0]
    k = check_k(k, n - 2, why=f"n={n} points give n - 1 non-trivial eigenvectors, and the last is kept out")
    graph = neighbourhood_graph(X, n_neighbors)
    graph.require_connected("laplacian_eigenmaps")
    W = graph.connectivity
    normalised, sqrt_degree = laplacian(W, normed=True, return_diag=True)  # I - D^-1/2 W D^-1/2, sqrt(diag D)
    values, vectors = _smallest_eigenpairs(normalised, k + 1)
    eigenvalues = np.clip(values, 0.0, None)
    embedding = fix_signs(vectors[:, 1:] / sqrt_degree[:, None])
    read_only(embedding, eigenvalues)
    return LaplacianEigenmapsResult(embedding, eigenvalues, W, graph.n_neighbors)
