"""PCA core: the identities of notebooks 01-02, the three methods, scikit-learn agreement
and every bad input."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.decomposition import PCA

import dimred_teach.pca
from dimred_teach.datasets import load_crabs
from dimred_teach.linalg import first_best, fix_signs, order_with_ties, sign_flips, subspace_distance
from dimred_teach.pca import (
    PCAResult,
    bootstrap_pca,
    center,
    choose_k,
    covariance,
    pca,
    power_iteration,
    reconstruction_error,
    standardize,
)


def low_rank_data(seed: int, n: int, p: int, rank: int) -> np.ndarray:
    """Data of exactly the given rank after centring, with well-separated eigenvalues."""
    rng = np.random.default_rng(seed)
    rank = min(rank, n - 1, p)
    left = np.linalg.qr(rng.standard_normal((n, rank)))[0]
    left -= left.mean(axis=0)
    right = np.linalg.qr(rng.standard_normal((p, rank)))[0]
    singular = np.geomspace(10.0, 1.0, rank) * np.sqrt(n)
    return left * singular @ right.T + rng.normal(0, 3, p)


shapes = st.tuples(st.integers(3, 30), st.integers(2, 12), st.integers(1, 12), st.integers(0, 2**31))


@given(shapes)
def test_three_methods_agree_after_sign_fix(shape):
    n, p, rank, seed = shape
    X = low_rank_data(seed, n, p, rank)
    k = min(rank, n - 1, p)
    svd, eig, gram = (pca(X, k=k, method=m) for m in ("svd", "eig", "gram"))
    for other in (eig, gram):
        np.testing.assert_allclose(other.eigenvalues, svd.eigenvalues, rtol=1e-8, atol=1e-10)
        np.testing.assert_allclose(other.components, svd.components, atol=1e-7)
        np.testing.assert_allclose(other.scores, svd.scores, atol=1e-6 * max(1, np.abs(svd.scores).max()))


@given(shapes)
def test_reconstruction_error_is_n_minus_1_times_dropped_eigenvalues(shape):
    n, p, rank, seed = shape
    X = low_rank_data(seed, n, p, rank) + np.random.default_rng(seed).normal(0, 0.1, (n, p))
    full = pca(X, k=min(n, p))
    for k in range(1, min(n, p) + 1):
        error = reconstruction_error(X, pca(X, k=k))
        assert np.isclose(error, (n - 1) * full.eigenvalues[k:].sum(), rtol=1e-7, atol=1e-8)


@given(shapes)
def test_scores_are_uncorrelated_with_variances_lambda(shape):
    n, p, rank, seed = shape
    X = low_rank_data(seed, n, p, rank)
    result = pca(X)
    covariance_of_scores = result.scores.T @ result.scores / (n - 1)
    np.testing.assert_allclose(covariance_of_scores, np.diag(result.eigenvalues), atol=1e-8 * result.eigenvalues[0])
    np.testing.assert_allclose(result.scores.mean(axis=0), 0, atol=1e-8 * np.sqrt(result.eigenvalues[0]))


def test_eigenvalues_are_squared_singular_values_over_n_minus_1():
    X = low_rank_data(1, 40, 6, 6)
    result = pca(X)
    d = np.linalg.svd(center(X), compute_uv=False)
    np.testing.assert_allclose(result.eigenvalues, d[: result.k] ** 2 / 39)
    np.testing.assert_allclose(result.singular_values, d[: result.k])
    np.testing.assert_allclose(result.eigenvalues, np.sort(np.linalg.eigvalsh(covariance(X)))[::-1][: result.k])


@pytest.mark.parametrize("n", [39, 40, 400])
def test_svd_scores_are_u_times_d_on_either_side_of_the_tall_route(n):
    """From n = 2p the SVD is taken of the triangle R of Xc = QR and the scores are Xc V (U is
    never formed); below it, of Xc itself. Either way: Xc's singular values, its right vectors
    (up to sign) and the scores U D."""
    X = low_rank_data(n, n, 20, 20)
    result = pca(X)
    U, d, Vt = np.linalg.svd(center(X), full_matrices=False)
    k = result.k
    signs = np.sign(np.sum(Vt[:k].T * result.components, axis=0))
    np.testing.assert_allclose(result.singular_values, d[:k], rtol=1e-12)
    np.testing.assert_allclose(result.components, Vt[:k].T * signs, atol=1e-10)
    np.testing.assert_allclose(result.scores, U[:, :k] * d[:k] * signs, atol=1e-10 * d[0])


def test_gram_path_at_p_much_larger_than_n():
    rng = np.random.default_rng(5)
    X = rng.standard_normal((25, 3000)) * np.linspace(4, 0.1, 3000)
    gram, svd = pca(X, k=10, method="gram"), pca(X, k=10, method="svd")
    np.testing.assert_allclose(gram.components, svd.components, atol=1e-9)
    np.testing.assert_allclose(gram.eigenvalues, svd.eigenvalues, rtol=1e-10)
    np.testing.assert_allclose(gram.components.T @ gram.components, np.eye(10), atol=1e-10)


def test_sign_rule_largest_entry_positive():
    result = pca(low_rank_data(2, 30, 5, 5))
    rows = [first_best(np.abs(column)) for column in result.components.T]  # ties at 1e-12: the first
    assert np.all(result.components[rows, np.arange(result.k)] > 0)


@pytest.mark.parametrize("scale", [False, True])
def test_agrees_with_scikit_learn_on_the_crabs(scale):
    X = load_crabs()[["FL", "RW", "CL", "CW", "BD"]].to_numpy()
    ours = pca(X, k=5, scale=scale)
    data = standardize(X) if scale else X
    reference = PCA(n_components=5, svd_solver="full").fit(data)
    components, scores = fix_signs(reference.components_.T, reference.transform(data))
    np.testing.assert_allclose(ours.components, components, atol=1e-10)
    np.testing.assert_allclose(ours.scores, scores, atol=1e-10)
    np.testing.assert_allclose(ours.eigenvalues, reference.explained_variance_, rtol=1e-10)
    np.testing.assert_allclose(ours.explained_variance_ratio, reference.explained_variance_ratio_, rtol=1e-10)


@given(shapes)
def test_agrees_with_scikit_learn_on_random_data(shape):
    n, p, rank, seed = shape
    X = low_rank_data(seed, n, p, rank)
    k = min(rank, n - 1, p)
    ours = pca(X, k=k)
    reference = PCA(n_components=k, svd_solver="full").fit(X)
    components, scores = fix_signs(reference.components_.T, reference.transform(X))
    scale = max(1.0, np.abs(ours.scores).max())
    np.testing.assert_allclose(ours.components, components, atol=1e-10 * scale)
    np.testing.assert_allclose(ours.scores, scores, atol=1e-10 * scale)
    np.testing.assert_allclose(ours.eigenvalues, reference.explained_variance_, rtol=1e-10, atol=1e-12 * scale**2)


def test_transform_and_reconstruct_round_trip():
    X = low_rank_data(3, 50, 6, 6)
    for scale in (False, True):
        result = pca(X, k=6, scale=scale)
        np.testing.assert_allclose(result.transform(X), result.scores, atol=1e-10)
        np.testing.assert_allclose(result.reconstruct(result.scores), X, atol=1e-9)


def test_scaled_pca_is_pca_of_the_correlation_matrix():
    X = low_rank_data(4, 60, 5, 5) * [1, 10, 100, 1000, 0.1]
    result = pca(X, k=5, scale=True)
    np.testing.assert_allclose(result.eigenvalues, np.sort(np.linalg.eigvalsh(np.corrcoef(X, rowvar=False)))[::-1])
    assert np.isclose(result.eigenvalues.sum(), 5)


def test_results_are_frozen():
    result = pca(low_rank_data(0, 10, 3, 3))
    assert isinstance(result, PCAResult)
    with pytest.raises(AttributeError):
        result.components = None  # type: ignore[misc]
    with pytest.raises(ValueError):
        result.components[0, 0] = 1.0


def test_power_iteration_converges_at_rate_lambda2_over_lambda1():
    Q = np.linalg.qr(np.random.default_rng(0).standard_normal((5, 5)))[0]
    A = Q @ np.diag([2.0, 1.5, 0.5, 0.2, 0.1]) @ Q.T
    result = power_iteration(A, seed=1, tol=1e-13)
    assert result.converged
    assert np.isclose(result.eigenvalue, 2.0)
    assert abs(result.eigenvector @ Q[:, 0]) > 1 - 1e-10
    rate = np.exp(np.mean(np.diff(np.log(result.changes[-15:]))))
    assert abs(rate - 0.75) < 0.02


def test_power_iteration_reports_non_convergence():
    result = power_iteration(np.diag([1.0, 0.999]), seed=0, max_iter=5)
    assert not result.converged and result.n_iter == 5


def test_choose_k_rules():
    spectrum = np.array([10.0, 5.0, 2.5, 0.2, 0.2, 0.1])
    assert choose_k(spectrum, method="gap") == 3
    total = spectrum.sum()
    for threshold in (0.5, 0.8, 0.9, 0.95, 0.99, 1.0):
        k = choose_k(spectrum, threshold=threshold)
        assert spectrum[:k].sum() / total >= threshold - 1e-12
        assert k == 1 or spectrum[: k - 1].sum() / total < threshold
    assert choose_k(spectrum[::-1], threshold=0.9) == choose_k(spectrum, threshold=0.9)


BAD_INPUTS = [
    (lambda: pca(np.array([[1.0, np.nan], [2.0, 3.0]])), ValueError, "X contains NaN"),
    (lambda: pca(np.array([[1.0, np.inf], [2.0, 3.0]])), ValueError, "X contains inf"),
    (lambda: pca(np.arange(5.0)), ValueError, "X must be a 2-D array"),
    (lambda: pca(np.zeros((3, 3, 3))), ValueError, "X must be a 2-D array"),
    (lambda: pca([["a", "b"], ["c", "d"]]), TypeError, "X must hold numbers"),
    (lambda: pca([[1, 2], [3]]), TypeError, "X could not be read"),
    (lambda: pca(np.ones((1, 3))), ValueError, "X needs at least 2 rows"),
    (lambda: pca(np.random.default_rng(0).random((5, 3)), k=0), ValueError, "k must be between 1 and 3"),
    (lambda: pca(np.random.default_rng(0).random((5, 3)), k=4), ValueError, "k must be between 1 and 3"),
    (lambda: pca(np.random.default_rng(0).random((5, 3)), k=2.0), TypeError, "k must be a positive integer"),
    (lambda: pca(np.random.default_rng(0).random((5, 3)), method="qr"), ValueError, "method must be one of"),
    (lambda: pca(np.random.default_rng(0).random((3, 8)), k=3, method="gram"), ValueError, "exceeds the rank"),
    (lambda: standardize(np.array([[1.0, 2.0], [1.0, 3.0], [1.0, 4.0]])), ValueError,
     r"zero variance in column\(s\) \[0\]"),
    (lambda: pca(np.array([[1.0, 2.0], [1.0, 3.0], [1.0, 4.0]]), scale=True), ValueError, "zero variance"),
    (lambda: pca(np.ones((4, 2))).transform(np.ones((2, 3))), ValueError, "X must have 2 columns"),
    (lambda: pca(np.random.default_rng(0).random((4, 2)), k=1).reconstruct(np.ones((2, 2))), ValueError,
     "Z must have 1 columns"),
    (lambda: reconstruction_error(np.ones((3, 2)), "model"), TypeError, "result must be a PCAResult"),
    (lambda: power_iteration(np.array([[1.0, 2.0], [0.0, 1.0]])), ValueError, "A must be symmetric"),
    (lambda: power_iteration(np.eye(2), seed=1.5), TypeError, "seed must be an integer"),
    (lambda: power_iteration(np.zeros((2, 2))), ValueError, "A maps the start vector to zero"),
    (lambda: choose_k([1.0, -2.0]), ValueError, "cannot be negative"),
    (lambda: choose_k([1.0, 0.5], threshold=1.5), ValueError, r"threshold must lie in \(0, 1\]"),
    (lambda: choose_k([1.0, 0.5], method="elbow"), ValueError, "method must be one of"),
    (lambda: covariance(np.ones((3, 2)), ddof=3), ValueError, "ddof must be at most 2"),
]


@pytest.mark.parametrize("call, error, message", BAD_INPUTS, ids=[m for _, _, m in BAD_INPUTS])
def test_bad_input_gets_a_clear_error(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_pandas_input_is_accepted():
    frame = load_crabs()[["FL", "RW", "CL"]]
    np.testing.assert_allclose(pca(frame).eigenvalues, pca(frame.to_numpy()).eigenvalues)


def test_subspace_distance_ignores_basis_choice():
    rng = np.random.default_rng(0)
    A = rng.standard_normal((6, 2))
    B = A @ np.array([[2.0, 1.0], [-1.0, 3.0]])
    assert subspace_distance(A, B) < 1e-12
    assert np.isclose(subspace_distance(np.eye(3)[:, :1], np.eye(3)[:, 1:2]), 1.0)


def test_bootstrap_of_repeated_identical_rows_has_zero_angles():
    # points on a line: every resample (at least two distinct rows) has the same PC1
    rng = np.random.default_rng(3)
    t = rng.normal(size=40)
    direction = np.array([3.0, -1.0, 2.0]) / np.sqrt(14)
    X = np.outer(t, direction)
    result = bootstrap_pca(X, k=1, n_boot=30, seed=1)
    np.testing.assert_allclose(result.angles, 0.0, atol=1e-5)
    assert result.angles.shape == result.eigenvalues.shape == (30, 1)
    assert result.components.shape == (30, 3, 1)


def test_bootstrap_angles_are_folded_and_eigenvalues_descending():
    X = np.random.default_rng(0).normal(size=(30, 4)) * [3.0, 2.0, 1.0, 0.5]
    result = bootstrap_pca(X, k=3, n_boot=50, seed=2)
    assert np.all((result.angles >= 0) & (result.angles <= 90))
    assert np.all(np.diff(result.eigenvalues, axis=1) <= 1e-12)
    assert not result.angles.flags.writeable and not result.eigenvalues.flags.writeable


def test_bootstrap_is_deterministic_with_its_seed():
    X = np.random.default_rng(1).normal(size=(25, 3))
    a, b = bootstrap_pca(X, 2, n_boot=20, seed=5), bootstrap_pca(X, 2, n_boot=20, seed=5)
    np.testing.assert_array_equal(a.angles, b.angles)
    np.testing.assert_array_equal(a.eigenvalues, b.eigenvalues)
    assert not np.array_equal(a.angles, bootstrap_pca(X, 2, n_boot=20, seed=6).angles)


def test_bootstrap_eigenvalue_spread_shrinks_as_n_grows():
    rng = np.random.default_rng(4)
    spreads = []
    for n in (50, 800):
        X = rng.normal(size=(n, 3)) * [3.0, 1.5, 0.5]
        spreads.append(bootstrap_pca(X, 3, n_boot=100, seed=0).eigenvalues.std(axis=0))
    assert np.all(spreads[1] < spreads[0] / 2)


def test_bootstrap_pins_down_a_dominant_component_but_not_two_tied_ones():
    X = np.random.default_rng(6).normal(size=(200, 4)) * [5.0, 1.0, 1.0, 0.2]
    result = bootstrap_pca(X, 3, n_boot=100, seed=0)
    assert np.median(result.angles[:, 0]) < 5 < np.median(result.angles[:, 1])
    # the plane of the two tied components stays put even though each direction wanders
    planes = [subspace_distance(V[:, 1:3], result.full.components[:, 1:3]) for V in result.components]
    assert np.median(planes) < np.sin(np.radians(5)) < np.sin(np.radians(np.median(result.angles[:, 1])))


def refitted_bootstrap(X, k, n_boot, seed, scale):
    """What bootstrap_pca computes, the slow way: pca() refitted on each replicate in turn.
    Returns eigenvalues (n_boot, k), |cosines| to the full-data components (n_boot, k) and
    components (n_boot, p, k)."""
    rng = np.random.default_rng(seed)
    full = pca(X, k, scale=scale)
    fits = [pca(X[rng.integers(0, len(X), size=len(X))], k, scale=scale) for _ in range(n_boot)]
    components = np.stack([fit.components for fit in fits])
    cosines = np.abs(np.einsum("bpj,pj->bj", components, full.components))
    return np.stack([fit.eigenvalues for fit in fits]), cosines, components


@pytest.mark.parametrize("scale", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_bootstrap_equals_refitting_pca_replicate_by_replicate(seed, scale, monkeypatch):
    rng = np.random.default_rng(seed)
    n, p = int(rng.integers(5, 60)), int(rng.integers(1, 7))
    X = rng.normal(size=(n, p)) * rng.uniform(0.1, 5.0, p) + rng.normal(0, 10, p)
    k = int(rng.integers(1, min(n, p) + 1))
    if seed % 2:  # several stacks of replicates, the last one shorter
        monkeypatch.setattr(dimred_teach.pca, "BOOTSTRAP_BATCH_ENTRIES", 7 * n * p)
    result = bootstrap_pca(X, k, n_boot=40, seed=seed, scale=scale)
    eigenvalues, cosines, components = refitted_bootstrap(X, k, 40, seed, scale)
    np.testing.assert_allclose(result.eigenvalues, eigenvalues, rtol=0, atol=1e-12 * eigenvalues.max())
    np.testing.assert_allclose(result.components, components, rtol=0, atol=1e-12)
    # compared as cosines: arccos near 1 turns a rounding difference into a visible angle
    np.testing.assert_allclose(np.cos(np.radians(result.angles)), cosines, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(result.full.components, pca(X, k, scale=scale).components)


def test_bootstrap_with_scale_refuses_a_replicate_with_a_constant_column():
    X = np.random.default_rng(8).normal(size=(12, 3))
    X[:, 1] = 1.0
    X[0, 1] = 2.0  # the full data vary in column 1, but replicates that miss row 0 do not
    with pytest.raises(ValueError, match=r"zero variance in column\(s\) \[1\]"):
        bootstrap_pca(X, 2, n_boot=50, seed=0, scale=True)
    assert bootstrap_pca(X, 2, n_boot=50, seed=0).angles.shape == (50, 2)


def test_sign_flips_of_a_stack_are_those_of_each_matrix():
    stack = np.random.default_rng(9).normal(size=(3, 2, 5, 4))
    stack[0, 1, :, 0] = [0.6, -0.6 * (1 + 1e-15), 0.1, 0.0, 0.0]  # a tie: the first entry decides
    signs = sign_flips(stack)
    assert signs.shape == (3, 2, 4) and signs[0, 1, 0] == 1.0
    for index in np.ndindex(3, 2):
        np.testing.assert_array_equal(signs[index], sign_flips(stack[index]))
    assert sign_flips(np.ones((2, 0, 3))).shape == (2, 3)
    with pytest.raises(ValueError, match="2-D"):
        sign_flips(np.ones(3))
    with pytest.raises(ValueError, match="2-D"):
        fix_signs(stack)  # fix_signs multiplies by the signs of one matrix


@pytest.mark.parametrize(
    "kwargs, name",
    [({"k": 0}, "k"), ({"k": 2, "n_boot": 0}, "n_boot"), ({"k": 2, "n_boot": 2.5}, "n_boot"),
     ({"k": 2, "seed": -1}, "seed"), ({"k": 2, "seed": None}, "seed"), ({"k": 2, "scale": "no"}, "scale")],
)
def test_bootstrap_bad_inputs_name_the_argument(kwargs, name):
    with pytest.raises((TypeError, ValueError), match=name):
        bootstrap_pca(np.random.default_rng(0).normal(size=(10, 3)), **kwargs)


@given(st.lists(st.sampled_from([0.0, 1.0, -1.0, 1.0 + 4e-13, 1.0 - 4e-13, 1.0 + 2e-12, 3.5, -7.0, 1e300,
                                 np.inf, -np.inf, np.nan]), min_size=1, max_size=12),
       st.integers(0, 40), st.booleans())
def test_first_best_is_the_head_of_order_with_ties(values, chain, descending):
    """first_best sorts only the values that can tie with the best; it picks what the full
    ordering puts first, ties at TIE_RTOL (chains of them too), infinities and NaN included."""
    values = np.array(values + [1.0 + i * 0.9e-12 for i in range(chain)])  # a chain of ties, each 0.9e-12 apart
    assert first_best(values, descending) == order_with_ties(values, descending)[0]
