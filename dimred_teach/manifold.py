"""Manifold learning: Isomap and Laplacian eigenmaps on a k-nearest-neighbour graph.

Both methods start from the same graph: each point is joined to its ``n_neighbors``
nearest points (WashU notes, section 5.3: "both use distance of pairs of points").

- Isomap replaces Euclidean distances by graph shortest paths (approximate geodesic
  distances along the manifold) and embeds those by classical MDS (notebook 04).
- Laplacian eigenmaps keep neighbours close: they minimise sum_ij W_ij ||y_i - y_j||^2
  under y' D y = 1, which is the generalised eigenproblem L y = lambda D y with the graph
  Laplacian L = D - W, solved through the normalised matrix D^-1/2 W D^-1/2.

Rows are points. Embedding columns have their largest-magnitude entry positive
(:func:`dimred_teach.linalg.fix_signs`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse
from scipy.sparse.csgraph import connected_components, shortest_path

from ._results import read_only
from ._validation import as_data_matrix, check_int, check_k
from .linalg import fix_signs, sorted_eigh
from .mds import classical_mds, squared_distances

__all__ = ["NeighbourhoodGraph", "neighbourhood_graph", "geodesic_distances", "IsomapResult", "isomap",
           "LaplacianEigenmapsResult", "laplacian_eigenmaps"]


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
    D2 = squared_distances(X)
    np.fill_diagonal(D2, np.inf)  # a point is not its own neighbour
    nearest = np.argsort(D2, axis=1, kind="stable")[:, :n_neighbors]
    rows = np.repeat(np.arange(n), n_neighbors)
    cols = nearest.ravel()
    chosen = scipy.sparse.csr_array((np.ones(rows.size), (rows, cols)), shape=(n, n))
    connectivity = ((chosen + chosen.T) / 2).tocsr()
    edge_rows, edge_cols = connectivity.nonzero()
    lengths = np.sqrt(np.maximum(D2[edge_rows, edge_cols], 0.0))
    distances = scipy.sparse.csr_array((lengths, (edge_rows, edge_cols)), shape=(n, n))
    n_components, labels = connected_components(connectivity, directed=False)
    read_only(labels)
    return NeighbourhoodGraph(distances, connectivity, n_neighbors, int(n_components), labels)


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
    paths = shortest_path(graph.distances, method="D", directed=False)
    return (paths + paths.T) / 2  # exact symmetry (the two directions can differ in the last bit)


@dataclass(frozen=True)
class IsomapResult:
    """Isomap of n points.

    Attributes
    ----------
    embedding : ndarray, shape (n, k)
        Classical MDS of the geodesic distances: U_k Lambda_k^1/2 of
        B = -1/2 H G2 H, with G2 the squared geodesic distances.
    eigenvalues : ndarray, shape (n,)
        All eigenvalues of B, descending (negative ones show how far the geodesic
        distances are from Euclidean).
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
    mds = classical_mds(geodesics, k=k)
    embedding = fix_signs(mds.embedding)
    read_only(embedding, geodesics)
    return IsomapResult(embedding, mds.eigenvalues, geodesics, graph.n_neighbors)


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

    With W the graph's symmetric 0/1/2 weights, D = diag(W 1) and L = D - W, the
    embedding minimises sum_ij W_ij ||y_i - y_j||^2 subject to Y' D Y = I and Y' D 1 = 0.
    The solutions are generalised eigenvectors, L y = lambda D y, for the smallest
    eigenvalues after the trivial constant one. They are computed as y = D^-1/2 u from the
    largest eigenvectors u of the normalised affinity D^-1/2 W D^-1/2, whose eigenvalues
    are 1 - lambda. Same method as scikit-learn's ``SpectralEmbedding`` (which counts the
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
    degree = np.asarray(W.sum(axis=1)).ravel()
    scale = 1.0 / np.sqrt(degree)
    affinity = (W.toarray() * scale[:, None]) * scale[None, :]
    values, vectors = sorted_eigh(affinity, k=k + 1, name="normalised affinity D^-1/2 W D^-1/2")
    eigenvalues = np.clip(1.0 - values, 0.0, None)
    embedding = fix_signs(vectors[:, 1:] * scale[:, None])
    read_only(embedding, eigenvalues)
    return LaplacianEigenmapsResult(embedding, eigenvalues, W, graph.n_neighbors)
