"""Manifold learning: the neighbourhood graph, geodesic distances, Isomap against scikit-learn's
Isomap and Laplacian eigenmaps against SpectralEmbedding, their defining properties, the Swiss
roll generator, and bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.manifold import Isomap, SpectralEmbedding
from sklearn.neighbors import kneighbors_graph

from dimred_teach import manifold
from dimred_teach.datasets import make_swiss_roll
from dimred_teach.linalg import subspace_distance
from dimred_teach.mds import procrustes, squared_distances


def roll(n=300, seed=0, noise=0.1):
    return make_swiss_roll(n, noise=noise, seed=seed)


# --- the graph ----------------------------------------------------------------------------

@pytest.mark.parametrize("n_neighbors", [1, 4, 9])
def test_graph_is_the_symmetrised_knn_graph_of_sklearn(n_neighbors):
    X, _ = roll(120, seed=3)
    graph = manifold.neighbourhood_graph(X, n_neighbors)
    directed = kneighbors_graph(X, n_neighbors, mode="distance").toarray()
    union = np.maximum(directed, directed.T)
    np.testing.assert_allclose(graph.distances.toarray(), union, atol=1e-12)
    chosen = (directed > 0).astype(float)
    np.testing.assert_allclose(graph.connectivity.toarray(), (chosen + chosen.T) / 2)


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 40), n_neighbors=st.integers(1, 6))
@settings(max_examples=30, deadline=None)
def test_every_point_keeps_its_nearest_neighbours(seed, n, n_neighbors):
    n_neighbors = min(n_neighbors, n - 1)
    X = np.random.default_rng(seed).normal(size=(n, 3))
    graph = manifold.neighbourhood_graph(X, n_neighbors)
    W = graph.distances.toarray()
    np.testing.assert_array_equal(W, W.T)
    assert np.all(np.diag(W) == 0)
    D = np.sqrt(np.sum((X[:, None, :] - X[None, :, :]) ** 2, axis=-1))
    np.testing.assert_allclose(W[W > 0], D[W > 0], rtol=1e-12)
    assert np.all((W > 0).sum(axis=1) >= n_neighbors)
    assert graph.labels.shape == (n,) and graph.n_components == np.unique(graph.labels).size


@pytest.mark.parametrize("n_neighbors", [1, 2, 3])
def test_ties_in_distance_go_to_the_smaller_index(n_neighbors):
    X = np.repeat(np.arange(12.0)[:, None], 2, axis=1)  # equally spaced on a line: every inner point has ties
    chosen = np.zeros((12, 12))
    for i in range(12):
        others = sorted((abs(i - j), j) for j in range(12) if j != i)  # by distance, then index
        chosen[i, [j for _, j in others[:n_neighbors]]] = 1.0
    graph = manifold.neighbourhood_graph(X, n_neighbors)
    np.testing.assert_array_equal(graph.connectivity.toarray(), (chosen + chosen.T) / 2)


def test_duplicate_points_are_joined_at_distance_zero():
    X = np.array([[0.0, 0.0]] * 4 + [[1.0, 0.0], [2.0, 0.0]])  # points 0-3 coincide
    graph = manifold.neighbourhood_graph(X, 1)
    # choices: 0 -> 1, 1 -> 0, 2 -> 0, 3 -> 0, 4 -> 0 (ties with 5), 5 -> 4
    edges = {(0, 1): 1.0, (0, 2): 0.5, (0, 3): 0.5, (0, 4): 0.5, (4, 5): 0.5}
    expected = np.zeros((6, 6))
    for (i, j), weight in edges.items():
        expected[i, j] = expected[j, i] = weight
    np.testing.assert_array_equal(graph.connectivity.toarray(), expected)
    assert graph.distances.nnz == graph.connectivity.nnz == 10  # edges of length 0 are kept, not dropped
    assert graph.is_connected


def test_two_far_clusters_give_two_components_and_a_clear_error():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(20, 2)), rng.normal(size=(15, 2)) + 100.0])
    graph = manifold.neighbourhood_graph(X, 5)
    assert graph.n_components == 2 and not graph.is_connected
    assert sorted(np.bincount(graph.labels)) == [15, 20]
    for function in (manifold.geodesic_distances, lambda X, k: manifold.isomap(X, 2, k),
                     lambda X, k: manifold.laplacian_eigenmaps(X, 2, k)):
        with pytest.raises(ValueError, match=r"2 disconnected pieces .*increase n_neighbors"):
            function(X, 5)


def test_too_few_neighbours_disconnect_the_swiss_roll():
    X, _ = make_swiss_roll(800, seed=0)
    components = [manifold.neighbourhood_graph(X, k).n_components for k in (1, 2, 3, 4, 10)]
    assert components[0] > components[1] > components[2] > 1
    assert components[3] == components[4] == 1


# --- geodesic distances ---------------------------------------------------------------------

def test_geodesics_are_metric_and_never_shorter_than_straight_lines():
    X, _ = roll(150, seed=1)
    G = manifold.geodesic_distances(X, 8)
    D = np.sqrt(squared_distances(X))
    np.testing.assert_array_equal(G, G.T)
    assert np.all(np.diag(G) == 0)
    assert np.all(G >= D - 1e-10)
    assert np.all(G[:, None, :] <= G[:, :, None] + G[None, :, :] + 1e-9)  # G_ij <= G_ik + G_kj


def test_geodesics_on_a_straight_line_are_the_euclidean_distances():
    t = np.arange(50) + np.random.default_rng(2).uniform(0, 0.3, 50)  # nearest two: the neighbours on the line
    X = np.outer(t, [1.0, 2.0, -2.0]) / 3
    np.testing.assert_allclose(manifold.geodesic_distances(X, 2), np.abs(t[:, None] - t[None, :]), atol=1e-12)


def test_geodesics_of_the_noise_free_roll_follow_the_sheet():
    X, sheet = make_swiss_roll(1000, seed=4)
    G = manifold.geodesic_distances(X, 10)
    truth = np.sqrt(squared_distances(sheet))
    far = truth > 10
    graph_error = (G[far] - truth[far]) / truth[far]  # paths zigzag (longer), chords cut corners (shorter)
    straight_error = (np.sqrt(squared_distances(X))[far] - truth[far]) / truth[far]
    assert np.median(np.abs(graph_error)) < 0.05 and np.all(graph_error > -0.02)
    assert np.median(straight_error) < -0.25  # straight lines through the roll are far too short


# --- Isomap ----------------------------------------------------------------------------------

@pytest.mark.parametrize("seed, n, n_neighbors", [(0, 200, 6), (1, 300, 10), (2, 400, 12)])
def test_isomap_equals_sklearn_up_to_sign(seed, n, n_neighbors):
    X, _ = roll(n, seed=seed)
    ours = manifold.isomap(X, k=2, n_neighbors=n_neighbors)
    theirs = Isomap(n_neighbors=n_neighbors, n_components=2).fit(X)
    scale = np.abs(theirs.embedding_).max()
    np.testing.assert_allclose(ours.geodesic_distances, theirs.dist_matrix_, atol=1e-10 * scale)
    signs = np.sign(np.sum(ours.embedding * theirs.embedding_, axis=0))
    np.testing.assert_allclose(ours.embedding, theirs.embedding_ * signs, atol=1e-9 * scale)
    assert procrustes(theirs.embedding_, ours.embedding, scale=False).relative_residual < 1e-18


def test_isomap_unrolls_the_swiss_roll_and_too_many_neighbours_short_circuit():
    X, sheet = make_swiss_roll(800, seed=0)
    good = manifold.isomap(X, 2, n_neighbors=10)
    assert procrustes(sheet, good.embedding, scale=False).relative_residual < 0.01
    assert abs(np.corrcoef(good.embedding[:, 0], sheet[:, 0])[0, 1]) > 0.999
    shortcut = manifold.isomap(X, 2, n_neighbors=40)
    assert procrustes(sheet, shortcut.embedding, scale=False).relative_residual > 0.5
    assert abs(np.corrcoef(shortcut.embedding[:, 0], sheet[:, 0])[0, 1]) < 0.7


def test_isomap_of_a_flat_sheet_is_classical_mds_of_it():
    rng = np.random.default_rng(5)
    X = rng.uniform(size=(80, 2)) @ np.array([[1.0, 0.0, 2.0], [0.0, 1.0, -1.0]])
    result = manifold.isomap(X, 2, n_neighbors=79)  # every pair is an edge: geodesic = Euclidean
    assert procrustes(X, np.column_stack([result.embedding, np.zeros(80)]), scale=False).relative_residual < 1e-20


def test_isomap_result_is_sorted_sign_fixed_and_read_only():
    result = manifold.isomap(roll(150, seed=6)[0], 3, 8)
    assert np.all(np.diff(result.eigenvalues) <= 1e-9 * result.eigenvalues[0])
    rows = np.argmax(np.round(np.abs(result.embedding), 10), axis=0)
    assert np.all(result.embedding[rows, np.arange(3)] > 0)
    with pytest.raises(ValueError):
        result.embedding[0, 0] = 1.0
    assert result.n_neighbors == 8 and result.geodesic_distances.shape == (150, 150)


@pytest.mark.parametrize("seed, n, n_neighbors", [(1, 300, 10), (2, 250, 6)])
def test_isomap_transform_equals_sklearn_transform_up_to_sign(seed, n, n_neighbors):
    X, _ = roll(n, seed=seed)
    X_new, _ = roll(40, seed=seed + 100)
    result = manifold.isomap(X, 2, n_neighbors)
    theirs = Isomap(n_neighbors=n_neighbors, n_components=2).fit(X)
    signs = np.sign(np.sum(result.embedding * theirs.embedding_, axis=0))
    scale = np.abs(theirs.embedding_).max()
    np.testing.assert_allclose(manifold.isomap_transform(X, result, X_new), theirs.transform(X_new) * signs,
                               atol=1e-9 * scale)


def test_isomap_transform_gives_back_the_training_points_and_places_new_ones_on_the_sheet():
    X, sheet = make_swiss_roll(800, seed=0)
    result = manifold.isomap(X, 2, 10)
    np.testing.assert_allclose(manifold.isomap_transform(X, result, X), result.embedding,
                               atol=1e-10 * np.abs(result.embedding).max())
    X_new, sheet_new = make_swiss_roll(200, seed=1)
    fit = procrustes(sheet, result.embedding, scale=False)
    placed = manifold.isomap_transform(X, result, X_new) @ fit.rotation + fit.translation
    spread = np.sqrt(np.mean(np.sum((sheet_new - sheet_new.mean(axis=0)) ** 2, axis=1)))
    assert np.sqrt(np.mean(np.sum((placed - sheet_new) ** 2, axis=1))) < 0.07 * spread


@pytest.mark.parametrize("call, error, pattern", [
    (lambda X, r: manifold.isomap_transform(X[:20], r, X), ValueError, "X has 20 rows but result was fitted on 30"),
    (lambda X, r: manifold.isomap_transform(X, r, X[:, :2]), ValueError, "X_new has 2 columns, X has 3"),
    (lambda X, r: manifold.isomap_transform(X, r.embedding, X), TypeError, "result must be an IsomapResult"),
    (lambda X, r: manifold.isomap_transform(X, r, X[0]), ValueError, "X_new must be a 2-D array"),
])
def test_isomap_transform_refuses_bad_input(call, error, pattern):
    X = np.random.default_rng(0).normal(size=(30, 3))
    with pytest.raises(error, match=pattern):
        call(X, manifold.isomap(X, 2, 5))


# --- Laplacian eigenmaps ---------------------------------------------------------------------

@pytest.mark.parametrize("seed, n, n_neighbors", [(0, 200, 6), (1, 300, 10), (3, 250, 15)])
def test_laplacian_eigenmaps_span_the_subspace_of_sklearn_spectral_embedding(seed, n, n_neighbors):
    X, _ = roll(n, seed=seed)
    ours = manifold.laplacian_eigenmaps(X, k=2, n_neighbors=n_neighbors)
    # scikit-learn counts the point itself among its n_neighbors
    theirs = SpectralEmbedding(n_components=2, n_neighbors=n_neighbors + 1, random_state=0).fit(X)
    assert subspace_distance(ours.embedding, theirs.embedding_) < 1e-8
    signs = np.sign(np.sum(ours.embedding * theirs.embedding_, axis=0))
    np.testing.assert_allclose(ours.embedding, theirs.embedding_ * signs, atol=1e-8 * np.abs(ours.embedding).max())


def test_laplacian_eigenmaps_solve_the_generalised_eigenproblem():
    X, _ = roll(200, seed=7)
    result = manifold.laplacian_eigenmaps(X, k=3, n_neighbors=8)
    W = result.weights.toarray()
    D = np.diag(W.sum(axis=1))
    L = D - W
    Y = result.embedding
    values = result.eigenvalues
    assert values[0] == pytest.approx(0.0, abs=1e-10) and np.all(np.diff(values) >= 0)
    np.testing.assert_allclose(L @ Y, D @ Y * values[1:], atol=1e-9)
    np.testing.assert_allclose(Y.T @ D @ Y, np.eye(3), atol=1e-9)
    np.testing.assert_allclose(Y.T @ D @ np.ones(200), 0.0, atol=1e-9)
    costs = [0.5 * np.sum(W * (y[:, None] - y[None, :]) ** 2) for y in Y.T]
    np.testing.assert_allclose(costs, values[1:], atol=1e-9)


def test_laplacian_eigenmaps_order_the_swiss_roll_along_its_length():
    X, sheet = make_swiss_roll(800, seed=0)
    result = manifold.laplacian_eigenmaps(X, 2, n_neighbors=10)
    order = np.argsort(np.argsort(result.embedding[:, 0]))
    truth = np.argsort(np.argsort(sheet[:, 0]))
    assert abs(np.corrcoef(order, truth)[0, 1]) > 0.99  # Spearman rank correlation


# --- bad input -------------------------------------------------------------------------------

@pytest.mark.parametrize("call, error, pattern", [
    (lambda X: manifold.neighbourhood_graph(X, 0), ValueError, "n_neighbors must be at least 1"),
    (lambda X: manifold.neighbourhood_graph(X, 30), ValueError, "n_neighbors must be at most 29"),
    (lambda X: manifold.neighbourhood_graph(X, 2.5), TypeError, "n_neighbors must be an integer"),
    (lambda X: manifold.isomap(X, 30, 5), ValueError, "k must be between 1 and 29"),
    (lambda X: manifold.laplacian_eigenmaps(X, 29, 5), ValueError, "k must be between 1 and 28"),
    (lambda X: manifold.isomap(X[:, 0], 2, 5), ValueError, "X must be a 2-D array"),
    (lambda X: manifold.isomap(np.where(X > 1, np.nan, X), 2, 5), ValueError, "X contains NaN"),
    (lambda X: manifold.geodesic_distances(X.astype(str), 5), TypeError, "X must hold numbers"),
])
def test_bad_input_is_refused_with_a_message_naming_the_argument(call, error, pattern):
    X = np.random.default_rng(0).normal(size=(30, 3))
    with pytest.raises(error, match=pattern):
        call(X)


# --- the Swiss roll ---------------------------------------------------------------------------

def test_swiss_roll_is_seeded_and_its_sheet_is_an_isometry_locally():
    X, sheet = make_swiss_roll(500, seed=9)
    X_again, sheet_again = make_swiss_roll(500, seed=9)
    np.testing.assert_array_equal(X, X_again)
    np.testing.assert_array_equal(sheet, sheet_again)
    assert X.shape == (500, 3) and sheet.shape == (500, 2)
    assert sheet[:, 1].min() >= 0 and sheet[:, 1].max() <= 20
    D, S = np.sqrt(squared_distances(X)), np.sqrt(squared_distances(sheet))
    close = (S > 0) & (S < 1.0)
    np.testing.assert_allclose(D[close], S[close], rtol=0.02)  # nearby points: distance on roll = on sheet
    radius = np.hypot(X[:, 0], X[:, 2])
    assert radius.min() >= 1.5 * np.pi - 1e-9 and radius.max() <= 4.5 * np.pi + 1e-9


@pytest.mark.parametrize("kwargs, pattern", [
    ({"n": 1}, "n must be at least 2"), ({"noise": -1.0}, "noise must lie in"), ({"turns": 0.0}, "turns must lie in"),
    ({"height": -2.0}, "height must lie in"), ({"seed": 1.5}, "seed must be an integer"),
])
def test_swiss_roll_refuses_bad_arguments(kwargs, pattern):
    with pytest.raises((ValueError, TypeError), match=pattern):
        make_swiss_roll(**kwargs)
