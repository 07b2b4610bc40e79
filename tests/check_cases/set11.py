"""Proofs of the checks of exercise set 11 (manifold learning): correct variants and typical mistakes."""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.sparse
from scipy.sparse.csgraph import connected_components, shortest_path

from . import Mutant, Variant

# --- 11.knn_graph -------------------------------------------------------------------------------

def _distances(X):
    return np.sqrt(np.sum((X[:, None, :] - X[None, :, :]) ** 2, axis=-1))


def _chosen(X, n_neighbors, include_self=False):
    """Directed choices: entry (i, j) is the distance when j is among the nearest of i."""
    D = _distances(X)
    ranking = np.argsort(D if include_self else D + np.diag(np.full(len(X), np.inf)), axis=1)[:, :n_neighbors]
    A = np.zeros_like(D)
    rows = np.repeat(np.arange(len(X)), n_neighbors)
    A[rows, ranking.ravel()] = D[rows, ranking.ravel()]
    return A


def knn_union(X, n_neighbors):
    A = _chosen(X, n_neighbors)
    return np.maximum(A, A.T)


def knn_by_loops_as_lists(X, n_neighbors):
    n = len(X)
    W = [[0.0] * n for _ in range(n)]
    for i in range(n):
        others = sorted((float(np.linalg.norm(X[i] - X[j])), j) for j in range(n) if j != i)
        for distance, j in others[:n_neighbors]:
            W[i][j] = W[j][i] = distance
    return W


def knn_sparse(X, n_neighbors):
    return scipy.sparse.csr_matrix(knn_union(X, n_neighbors))


def knn_float32(X, n_neighbors):
    return knn_union(X, n_neighbors).astype(np.float32)


def knn_directed(X, n_neighbors):
    return _chosen(X, n_neighbors)


def knn_mutual(X, n_neighbors):
    A = _chosen(X, n_neighbors)
    return np.minimum(A, A.T)


def knn_counting_itself(X, n_neighbors):
    A = _chosen(X, n_neighbors, include_self=True)
    return np.maximum(A, A.T)


def knn_ones(X, n_neighbors):
    return (knn_union(X, n_neighbors) > 0).astype(float)


def knn_squared(X, n_neighbors):
    return knn_union(X, n_neighbors) ** 2


# --- 11.isomap ---------------------------------------------------------------------------------

def _double_centre(A):
    return A - A.mean(axis=0) - A.mean(axis=1)[:, None] + A.mean()


def _geodesics(X, n_neighbors, method="D"):
    return shortest_path(knn_union(X, n_neighbors), method=method, directed=False)


def isomap_reference(X, n_neighbors, k):
    values, vectors = np.linalg.eigh(-0.5 * _double_centre(_geodesics(X, n_neighbors) ** 2))
    return vectors[:, ::-1][:, :k] * np.sqrt(values[::-1][:k])


def isomap_floyd_warshall_subset(X, n_neighbors, k):
    G = _geodesics(X, n_neighbors, method="FW")
    n = len(G)
    values, vectors = scipy.linalg.eigh(-0.5 * _double_centre(G**2), subset_by_index=(n - k, n - 1))
    return (vectors * np.sqrt(values)).tolist()


def isomap_flipped_and_shifted(X, n_neighbors, k):
    Z = isomap_reference(X, n_neighbors, k)
    return -Z + 7.0


def isomap_sparse_graph_float32_out(X, n_neighbors, k):
    G = shortest_path(knn_sparse(X, n_neighbors), directed=False)
    values, vectors = np.linalg.eigh(-0.5 * _double_centre(G**2))
    return (vectors[:, ::-1][:, :k] * np.sqrt(values[::-1][:k])).astype(np.float64)


def isomap_euclidean(X, n_neighbors, k):
    D = _distances(X)
    values, vectors = np.linalg.eigh(-0.5 * _double_centre(D**2))
    return vectors[:, ::-1][:, :k] * np.sqrt(values[::-1][:k])


def isomap_unsquared(X, n_neighbors, k):
    values, vectors = np.linalg.eigh(-0.5 * _double_centre(_geodesics(X, n_neighbors)))
    return vectors[:, ::-1][:, :k] * np.sqrt(np.clip(values[::-1][:k], 0, None))


def isomap_unscaled(X, n_neighbors, k):
    _, vectors = np.linalg.eigh(-0.5 * _double_centre(_geodesics(X, n_neighbors) ** 2))
    return vectors[:, ::-1][:, :k]


def isomap_smallest(X, n_neighbors, k):
    values, vectors = np.linalg.eigh(-0.5 * _double_centre(_geodesics(X, n_neighbors) ** 2))
    with np.errstate(invalid="ignore"):
        return vectors[:, :k] * np.sqrt(values[:k])


def isomap_smallest_clipped(X, n_neighbors, k):
    values, vectors = np.linalg.eigh(-0.5 * _double_centre(_geodesics(X, n_neighbors) ** 2))
    return vectors[:, :k] * np.sqrt(np.clip(values[:k], 0, None))


# --- 11.laplacian ------------------------------------------------------------------------------

def _generalised(W):
    D = np.diag(W.sum(axis=1))
    return scipy.linalg.eigh(D - W, D)


def laplacian_reference(W, k):
    return _generalised(W)[1][:, 1:k + 1]


def laplacian_through_normalised(W, k):
    root = 1 / np.sqrt(W.sum(axis=1))
    values, vectors = np.linalg.eigh(root[:, None] * W * root[None, :])  # eigenvalues 1 - lambda, ascending
    return (root[:, None] * vectors[:, ::-1][:, 1:k + 1]).tolist()


def laplacian_rescaled_rotated(W, k):
    Y = laplacian_reference(W, k) * -3.0
    Q, _ = np.linalg.qr(np.arange(1, k * k + 1, dtype=float).reshape(k, k) + np.eye(k) * 5)
    return Y @ Q


def laplacian_random_walk(W, k):
    P = W / W.sum(axis=1)[:, None]  # D^-1 W: eigenvectors are those of L y = lambda D y
    values, vectors = np.linalg.eig(P)
    order = np.argsort(-values.real)
    return vectors[:, order[1:k + 1]].real


def laplacian_with_constant(W, k):
    return _generalised(W)[1][:, :k]


def laplacian_largest(W, k):
    return _generalised(W)[1][:, -k:]


def laplacian_plain(W, k):
    return np.linalg.eigh(np.diag(W.sum(axis=1)) - W)[1][:, 1:k + 1]


def laplacian_normalised_unscaled(W, k):
    root = 1 / np.sqrt(W.sum(axis=1))
    return np.linalg.eigh(np.eye(len(W)) - root[:, None] * W * root[None, :])[1][:, 1:k + 1]


# --- 11.smallest_connected ---------------------------------------------------------------------

def _components(X, k, include_self=False):
    return connected_components(scipy.sparse.csr_matrix(knn_union(X, k - 1 if include_self else k)),
                                directed=False)[0] if k >= (2 if include_self else 1) else X.shape[0]


def connected_by_counting(X):
    k = 1
    while _components(X, k) > 1:
        k += 1
    return k


def connected_by_bisection_numpy_int(X):
    low, high = 0, X.shape[0] - 1  # the graph with `high` neighbours is connected, with `low` it is not
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if _components(X, middle) == 1 else (middle, high)
    return np.int64(high)


def connected_as_float(X):
    return float(connected_by_counting(X))


def connected_off_by_one(X):
    return connected_by_counting(X) - 1  # the last count above 1


def connected_self_as_neighbour(X):
    k = 1
    while _components(X, k, include_self=True) > 1:
        k += 1
    return k


def connected_one_more(X):
    return connected_by_counting(X) + 1


CASES = {
    "11.knn_graph": (
        [Variant("vectorised, np.maximum(A, A.T)", lambda: knn_union),
         Variant("loops over points, nested lists", lambda: knn_by_loops_as_lists),
         Variant("a scipy.sparse matrix", lambda: knn_sparse),
         Variant("float32", lambda: knn_float32)],
        [Mutant("directed: each point's own choices only", lambda: knn_directed, r"symmetric.*OR", "directed"),
         Mutant("mutual neighbours only (AND)", lambda: knn_mutual, r"\(OR\), not only when both", "mutual-only"),
         Mutant("the point counts as its own neighbour", lambda: knn_counting_itself, r"distance 0.*own nearest",
                 "self-neighbour"),
         Mutant("edges weigh 1", lambda: knn_ones, r"lengths .* not 1", "unit-weights"),
         Mutant("squared distances", lambda: knn_squared, r"squared distances", "squared-distances")],
    ),
    "11.smallest_connected": (
        [Variant("count up", lambda: connected_by_counting),
         Variant("bisection, numpy integer", lambda: connected_by_bisection_numpy_int),
         Variant("whole float", lambda: connected_as_float)],
        [Mutant("one too few", lambda: connected_off_by_one, r"still falls into \d+ pieces", "too-few"),
         Mutant("a point as its own neighbour", lambda: connected_self_as_neighbour, r"fewer neighbours.*smallest",
                "not-smallest"),
         Mutant("one too many", lambda: connected_one_more, r"fewer neighbours.*smallest", "not-smallest"),
         Mutant("a constant", lambda: lambda X: 6, r"pieces|fewer neighbours", ("too-few", "not-smallest")),
         Mutant("not a whole number", lambda: lambda X: 4.5, r"whole number", "wrong-form"),
         Mutant("a bool", lambda: lambda X: True, r"whole number", "wrong-form")],
    ),
    "11.isomap": (
        [Variant("numpy eigh, reversed", lambda: isomap_reference),
         Variant("Floyd-Warshall, subset eigh, nested lists", lambda: isomap_floyd_warshall_subset),
         Variant("sign flips and a shift", lambda: isomap_flipped_and_shifted),
         Variant("sparse graph", lambda: isomap_sparse_graph_float32_out)],
        [Mutant("Euclidean distances (PCA)", lambda: isomap_euclidean, r"straight-line distances",
                "straight-line-distances"),
         Mutant("geodesics not squared", lambda: isomap_unsquared, r"not squared", "geodesics-not-squared"),
         Mutant("eigenvectors not scaled", lambda: isomap_unscaled, r"not scaled", "eigenvectors-not-scaled"),
         Mutant("smallest eigenpairs (NaN)", lambda: isomap_smallest, r"NaN.*LARGEST", "smallest-eigenpairs"),
         Mutant("smallest eigenpairs clipped", lambda: isomap_smallest_clipped, r"same place.*smallest",
                 "smallest-eigenpairs")],
    ),
    "11.laplacian": (
        [Variant("scipy eigh(L, D)", lambda: laplacian_reference),
         Variant("through D^-1/2 W D^-1/2, lists", lambda: laplacian_through_normalised),
         Variant("scaled and rotated basis", lambda: laplacian_rescaled_rotated),
         Variant("random-walk matrix D^-1 W", lambda: laplacian_random_walk)],
        [Mutant("keeps the constant eigenvector", lambda: laplacian_with_constant, r"constant eigenvector",
                "constant-eigenvector"),
         Mutant("largest eigenvalues", lambda: laplacian_largest, r"LARGEST", "largest-eigenvalues"),
         Mutant("plain L y = lambda y", lambda: laplacian_plain, r"generalised", "plain-eigenproblem"),
         Mutant("normalised Laplacian without D^-1/2", lambda: laplacian_normalised_unscaled, r"y = D\^-1/2 u",
                 "normalised-laplacian")],
    ),
}
