"""Checks of exercise set 11, manifold learning.

Function answers are called on fresh random instances (clouds, Swiss rolls, weighted graphs)
drawn from the check's generator, in a random order; the number of neighbours that
connects is asked as a function too, called on clouds whose answers differ. When a
function answer fails, the check compares it with the typical mistakes (straight-line
distances, unsquared geodesics, the smallest eigenpairs, the plain Laplacian ...) to say
which one it looks like.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.linalg

from ..datasets import make_swiss_roll
from ..linalg import subspace_distance
from ..manifold import IsomapResult, isomap, neighbourhood_graph
from ..mds import classical_mds, double_center, procrustes, squared_distances
from . import CheckFailure, register
from .properties import WRONG_FORM, answer_array, drawn_once, expect, in_random_order

FORBIDS = ("dimred_teach.manifold",)  # the neighbourhood graph, Isomap, Laplacian eigenmaps by hand
"""What this set's answers may not use (modules or functions of the library): the grader's
kernel for this set does not have them, and ``check()`` fails an answer that uses them
(:mod:`dimred_teach.checks.policy`)."""

MISTAKES = {
    "straight-line-distances": "straight-line distances instead of geodesics (that is PCA)",
    "geodesics-not-squared": "geodesic distances not squared",
    "eigenvectors-not-scaled": "eigenvectors not scaled by the square roots of their eigenvalues",
    "constant-eigenvector": "kept the constant eigenvector",
    "largest-eigenvalues": "the eigenvectors of the largest eigenvalues",
    "plain-eigenproblem": "L y = lambda y instead of L y = lambda D y",
    "normalised-laplacian": "the normalised Laplacian's eigenvectors without D^-1/2",
    "self-neighbour": "a point counted as its own neighbour",
    "directed": "directed: each point's own choices only",
    "unit-weights": "edges of weight 1",
    "squared-distances": "squared distances as weights",
    "mutual-only": "mutual neighbours only (AND instead of OR)",
    "too-few": "too few neighbours: not connected",
    "not-smallest": "not the smallest that connects",
    "smallest-eigenpairs": "the smallest eigenpairs (NaN from their square roots)",
}
"""The typical mistakes this set's checks name: id (stable, counted by ``dimred-teach class-report``) to
short name. A failure no named mistake explains is ``other``."""


def _as_dense(answer, what: str, shape: tuple) -> np.ndarray:
    """A dense float array from an array, nested lists or a scipy.sparse matrix."""
    if hasattr(answer, "toarray") and hasattr(answer, "nnz"):
        answer = answer.toarray()
    return answer_array(answer, what, shape)


def whole_number(answer, what: str, low: int, high: int | None = None) -> int:
    """A value answer that must be a whole number in [low, high] (an int, a NumPy integer or a
    whole float; not a bool), as an int."""
    in_range = isinstance(answer, numbers.Real) and not isinstance(answer, bool) and float(answer).is_integer() \
        and low <= answer and (high is None or answer <= high)
    bounds = f"at least {low}" if high is None else f"between {low} and {high}"
    expect(in_range, f"{what} should be a whole number {bounds}, got {answer!r}", WRONG_FORM)
    return int(answer)


# --- 11.knn_graph ------------------------------------------------------------------------------

@register("11.knn_graph",
          hint="squared distances to every point, np.inf on the diagonal, np.argsort each row and keep the first "
               "n_neighbors; put the distance at (i, j) AND at (j, i) for each chosen j")
def _knn_graph(answer, rng):
    settings = in_random_order(rng, [(3, 1), (2, 4), (5, 3), (3, 7)])
    for p, n_neighbors in settings:
        n = int(rng.integers(12, 40))
        X = rng.normal(size=(n, p)) * rng.uniform(0.5, 3.0, size=p)
        W = _as_dense(answer(X.copy(), n_neighbors), f"knn_graph(X, {n_neighbors}) for {n} points", (n, n))
        D = np.sqrt(squared_distances(X))
        expected = neighbourhood_graph(X, n_neighbors).distances.toarray()
        if np.allclose(W, expected, atol=1e-9 * D.max()):
            continue
        edges, wanted = W != 0, expected != 0
        expect(bool(edges.any()), f"W has no edges at all for n_neighbors = {n_neighbors}: did the point itself "
                                  "(at distance 0) count as one of its own nearest neighbours?",
               mistake="self-neighbour")
        expect(np.all(np.diag(W) == 0), "the diagonal of W should be 0: a point is not its own neighbour")
        expect(np.allclose(W, W.T), "W should be symmetric: keep the edge i-j when j is among the nearest "
                                    "neighbours of i OR i among those of j (you kept only each point's own choices)",
               mistake="directed")
        if np.array_equal(edges, wanted):
            expect(not np.allclose(W[edges], 1.0), "the edges should carry their lengths ||x_i - x_j||, not 1",
                   mistake="unit-weights")
            expect(not np.allclose(W[edges], D[edges] ** 2),
                   "the edges carry squared distances; take the square root: edge lengths are ||x_i - x_j||",
                   mistake="squared-distances")
            raise CheckFailure("the edges are right but their weights are not the distances ||x_i - x_j||")
        chosen = neighbourhood_graph(X, n_neighbors).connectivity.toarray()
        expect(not np.array_equal(edges, chosen == 1),
               "W lacks edges where only one of the two points chose the other: keep an edge when either point "
               "chose it (OR), not only when both did (AND)", mistake="mutual-only")
        if n_neighbors > 1:
            expect(not np.array_equal(edges, neighbourhood_graph(X, n_neighbors - 1).distances.toarray() != 0),
                   f"W is the graph of {n_neighbors - 1} neighbours: did the point itself (at distance 0) count as "
                   "one of its own nearest neighbours?", mistake="self-neighbour")
        raise CheckFailure(f"W does not join each point to its {n_neighbors} nearest neighbours (and them to it)")


# --- 11.smallest_connected -------------------------------------------------------------------

def smallest_connecting(X: np.ndarray) -> int:
    """The smallest n_neighbors whose neighbourhood graph of the rows of X is connected."""
    k = 1
    while not neighbourhood_graph(X, k).is_connected:
        k += 1
    return k


@drawn_once()
def _connected_instance(rng: np.random.Generator, target: int) -> np.ndarray:
    """A noisy Swiss roll whose graph first connects at n_neighbors = ``target``: a roll that
    connects with at most ``target`` neighbours, plus, when it needs fewer, a far tight cluster of
    ``target`` points (each of them reaches outside only with ``target`` neighbours). Rows shuffled.
    Drawn once per state of ``rng`` (:func:`~dimred_teach.checks.properties.drawn_once`): its
    neighbourhood graphs take most of 11.smallest_connected's time."""
    while True:
        n = int(rng.integers(60, 160))
        X, _ = make_swiss_roll(n, noise=float(rng.uniform(0.1, 0.8)), seed=int(rng.integers(2**31)))
        if smallest_connecting(X) < target:
            span = float(np.ptp(X, axis=0).max())
            X = np.vstack([X, X.mean(axis=0) + 3 * span * rng.normal(size=3) / np.sqrt(3)
                           + 0.05 * span * rng.normal(size=(target, 3))])
        X = X[rng.permutation(X.shape[0])]
        if smallest_connecting(X) == target:
            return X


@register("11.smallest_connected",
          hint="build the graph for n_neighbors = 1, 2, 3, ... and count its connected components "
               "(scipy.sparse.csgraph.connected_components); return the first n_neighbors with one component")
def _smallest_connected(answer, rng):
    expect(callable(answer), "the answer should be your function smallest_connected(X)")
    for target in rng.permutation(np.arange(4, 10))[:3]:  # three different answers: no constant passes
        X = _connected_instance(rng, int(target))
        call = f"smallest_connected(X) for a cloud of {X.shape[0]} points"
        k = whole_number(answer(X.copy()), call, 1)
        if k == target:
            continue
        pieces = neighbourhood_graph(X, min(k, X.shape[0] - 1)).n_components
        expect(pieces == 1, f"{call} = {k}, but with {k} neighbours that graph still falls into {pieces} pieces: it "
                            "is not connected yet", mistake="too-few")
        raise CheckFailure(f"{call} = {k}: that graph is connected, but so is the graph with fewer neighbours: "
                           "return the smallest n_neighbors that connects", mistake="not-smallest")


# --- 11.isomap -----------------------------------------------------------------------------------

def _roll_instance(rng: np.random.Generator):
    """A small noisy Swiss roll whose 8-nearest-neighbour graph is connected, and that n_neighbors."""
    while True:
        n = int(rng.integers(150, 260))
        X, _ = make_swiss_roll(n, noise=0.05, seed=int(rng.integers(2**31)), turns=float(rng.uniform(1.0, 1.5)))
        n_neighbors = int(rng.integers(7, 11))
        if neighbourhood_graph(X, n_neighbors).is_connected:
            return X, n_neighbors


@drawn_once()  # about 0.6 MB each (the geodesic distances); the proofs' 20 seeds draw 60
def _isomap_case(rng: np.random.Generator, k: int) -> tuple[np.ndarray, int, IsomapResult]:
    """:func:`_roll_instance` (X of shape (n, 3) and n_neighbors) and the library's ``isomap(X, k, n_neighbors)``.
    Drawn once per state of ``rng`` (:func:`~dimred_teach.checks.properties.drawn_once`): the roll's graph and
    its Isomap take much of 11.isomap's time."""
    X, n_neighbors = _roll_instance(rng)
    return X, n_neighbors, isomap(X, k, n_neighbors)


def _isomap_mistakes(X: np.ndarray, result: IsomapResult, k: int):
    """(embedding, mistake id, message) for the typical wrong ways to compute Isomap, given the right
    ``result`` of ``isomap(X, k, n_neighbors)``; each is computed only when the one before did not match."""
    yield (classical_mds(np.sqrt(squared_distances(X)), k).embedding, "straight-line-distances",
           "this is classical MDS of the straight-line distances (that is PCA): replace them by shortest-path "
           "distances in the neighbourhood graph")
    G = result.geodesic_distances
    yield (classical_mds(G, k, squared=True).embedding, "geodesics-not-squared",  # G taken for squared distances
           "the geodesic distances were not squared before double centring: B = -1/2 H G2 H needs G2 = G**2")
    values, vectors = np.linalg.eigh(double_center(G**2))
    yield (vectors[:, ::-1][:, :k], "eigenvectors-not-scaled", "the eigenvectors are not scaled: multiply each by "
                                                                "the square root of its eigenvalue")
    yield (vectors[:, :k] * np.sqrt(np.abs(values[:k])), "smallest-eigenpairs",
           "these are the eigenvectors of the SMALLEST eigenvalues of B; np.linalg.eigh sorts ascending, take the "
           "largest")


def _matches(reference: np.ndarray, Z: np.ndarray, tolerance: float) -> bool:
    if Z.shape != reference.shape or not np.any(np.abs(Z - Z.mean(axis=0)) > 1e-12):
        return False
    return procrustes(reference, Z, scale=False).relative_residual < tolerance


@register("11.isomap",
          hint="W = knn_graph(X, n_neighbors); G = shortest_path(W, directed=False); then classical MDS of G: "
               "B = -1/2 H G**2 H, the k largest eigenpairs, coordinates U_k Lambda_k^(1/2)")
def _isomap(answer, rng):
    for k in in_random_order(rng, [1, 2, 2]):
        X, n_neighbors, result = _isomap_case(rng, k)
        n = X.shape[0]
        what = f"my_isomap(X, n_neighbors={n_neighbors}, k={k}) for {n} points"
        raw = answer(X.copy(), n_neighbors, k)
        expect(not np.isnan(np.asarray(raw, dtype=float)).any(),
               f"{what} contains NaN: a square root of a negative eigenvalue? Geodesic distances are not Euclidean, "
               "so B has negative eigenvalues; take the k LARGEST (np.linalg.eigh sorts them ascending)",
               mistake="smallest-eigenpairs")
        Z = answer_array(raw, what, (n, k))
        expect(bool(np.any(np.abs(Z - Z.mean(axis=0)) > 1e-9 * np.abs(X).max())),
               f"{what} puts every point at the same place: did you keep the smallest eigenvalues (clipped to 0) "
               "instead of the largest?", mistake="smallest-eigenpairs")
        reference = result.embedding
        if _matches(reference, Z, 1e-10):
            continue
        for wrong, mistake, message in _isomap_mistakes(X, result, k):
            expect(not _matches(wrong, Z, 1e-6), message, mistake)
        raise CheckFailure(
            f"my_isomap(X, {n_neighbors}, {k}) is not the Isomap embedding, even up to rotation, reflection and "
            f"shift (relative misfit {procrustes(reference, Z, scale=False).relative_residual:.3g})")


# --- 11.laplacian -------------------------------------------------------------------------------

def _weighted_graph(rng: np.random.Generator) -> np.ndarray:
    """A connected weighted graph with unequal degrees: a kNN graph of a random cloud with random weights."""
    while True:
        n = int(rng.integers(20, 60))
        X = rng.normal(size=(n, 2)) * [3.0, 1.0]
        graph = neighbourhood_graph(X, int(rng.integers(3, 7)))
        if graph.is_connected:
            W = graph.connectivity.toarray() * rng.uniform(0.5, 2.0, size=(n, n))
            return np.triu(W, 1) + np.triu(W, 1).T


def _laplacian_mistakes(W: np.ndarray, k: int):
    degree = W.sum(axis=1)
    L = np.diag(degree) - W
    values, vectors = scipy.linalg.eigh(L, np.diag(degree))
    _, plain = np.linalg.eigh(L)
    root = 1 / np.sqrt(degree)
    _, normalised = np.linalg.eigh(np.eye(W.shape[0]) - root[:, None] * W * root[None, :])
    return [
        (vectors[:, :k], "constant-eigenvector",
         "the embedding contains the constant eigenvector (eigenvalue 0), which carries no information: drop the "
         "first eigenvector and keep the next k"),
        (vectors[:, -k:], "largest-eigenvalues",
         "these are the eigenvectors of the LARGEST eigenvalues; Laplacian eigenmaps keep the smallest (after the "
         "constant one)"),
        (plain[:, 1:k + 1], "plain-eigenproblem",
         "these are eigenvectors of L y = lambda y; the notes' problem is the generalised L y = lambda D y, with the "
         "degree matrix D on the right"),
        (normalised[:, 1:k + 1], "normalised-laplacian",
         "these are eigenvectors u of the normalised Laplacian I - D^-1/2 W D^-1/2; the embedding is y = D^-1/2 u"),
    ]


@register("11.laplacian",
          hint="D = diag(W.sum(axis=1)), L = D - W; scipy.linalg.eigh(L, D) solves L y = lambda D y with ascending "
               "eigenvalues; drop the first (constant) eigenvector and keep the next k")
def _laplacian(answer, rng):
    for k in in_random_order(rng, [1, 2, 3]):
        while True:
            W = _weighted_graph(rng)
            degree = W.sum(axis=1)
            values, vectors = scipy.linalg.eigh(np.diag(degree) - W, np.diag(degree))
            if values[k + 1] - values[k] > 1e-3 * values[-1] and values[1] > 1e-6:  # a well-defined subspace
                break
        n = W.shape[0]
        Y = answer_array(answer(W.copy(), k), f"my_laplacian_eigenmaps(W, k={k}) for a graph of {n} points", (n, k))
        expect(np.linalg.matrix_rank(Y, tol=1e-8 * max(1.0, np.abs(Y).max())) == k,
               f"the {k} columns of the embedding should be linearly independent")
        if subspace_distance(Y, vectors[:, 1:k + 1]) < 1e-6:
            continue
        for wrong, mistake, message in _laplacian_mistakes(W, k):
            expect(subspace_distance(Y, wrong) > 1e-6, message, mistake)
        raise CheckFailure(f"the columns of my_laplacian_eigenmaps(W, {k}) do not span the eigenvectors 2 to {k + 1} "
                           "of L y = lambda D y")
