"""Random projections and the Johnson-Lindenstrauss bound (dimred_teach.jl, checks set 06)."""

import dataclasses
import math

import numpy as np
import pytest
import scipy.sparse
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats
from sklearn.random_projection import SparseRandomProjection, johnson_lindenstrauss_min_dim

from dimred_teach._validation import as_data_matrix_or_sparse
from dimred_teach.checks import evaluate
from dimred_teach.jl import (
    distortion,
    jl_delta,
    jl_epsilon,
    jl_min_dim,
    random_projection,
    worst_distortions,
)


def notes_bound(n, eps, delta):
    return 8 / eps**2 * math.log(n / math.sqrt(delta))


def squared_norm_ratios(x, q, kind, seeds, density=None):
    """||U x||^2 / ||x||^2 for one projection per seed."""
    x = np.asarray(x, dtype=float).reshape(1, -1)
    return np.array([
        np.sum(random_projection(x, q, kind=kind, seed=s, density=density).embedding ** 2) for s in seeds
    ]) / np.sum(x**2)


# --- the bound -------------------------------------------------------------------------------------------

def test_notes_worked_numbers_exactly():
    assert jl_min_dim(205, 0.2, 0.05) == 1365
    assert jl_min_dim(2_000_000, 0.2, 0.05) == 3202
    assert round(jl_epsilon(205, 100, 0.05), 2) == 0.74
    assert jl_epsilon(205, 100, 0.05) == pytest.approx(0.738694855, abs=1e-9)
    # the notes' "log(n) + 1.498..." for 95% confidence
    assert -0.5 * math.log(0.05) == pytest.approx(1.4978661, abs=1e-7)


@given(n=st.integers(2, 10**9), eps=st.floats(0.01, 0.99), delta=st.floats(1e-6, 0.99))
def test_min_dim_is_the_least_integer_satisfying_the_bound(n, eps, delta):
    q, bound = jl_min_dim(n, eps, delta), notes_bound(n, eps, delta)
    assert isinstance(q, int)
    assert q >= bound * (1 - 1e-9)
    assert q - 1 < bound


@given(n=st.integers(2, 10**7), q=st.integers(1, 10**6), delta=st.floats(1e-6, 0.99))
def test_epsilon_inverts_min_dim(n, q, delta):
    eps = jl_epsilon(n, q, delta)
    assert notes_bound(n, eps, delta) == pytest.approx(q, rel=1e-12)
    if eps < 1:
        assert jl_min_dim(n, eps, delta) == q


@given(n=st.integers(2, 10**7), eps=st.floats(0.01, 0.99), delta=st.floats(1e-6, 0.99))
def test_min_dim_then_epsilon_and_delta_meet_the_request(n, eps, delta):
    q = jl_min_dim(n, eps, delta)
    assert jl_epsilon(n, q, delta) <= eps * (1 + 1e-9)
    assert jl_delta(n, q, eps) <= delta * (1 + 1e-8)
    if q > 1:
        assert jl_delta(n, q - 1, eps) > delta


def test_bound_grows_like_log_n_and_inverse_eps_squared():
    assert jl_min_dim(10**6, 0.1, 0.05) > jl_min_dim(10**3, 0.1, 0.05)
    ratio = notes_bound(1000, 0.1, 0.05) / notes_bound(1000, 0.2, 0.05)
    assert ratio == pytest.approx(4.0)


@pytest.mark.parametrize("n", [2, 10, 205, 10**4, 2 * 10**6])
@pytest.mark.parametrize("eps", [0.05, 0.1, 0.2, 0.5, 0.9])
def test_relationship_with_scikit_learn(n, eps):
    """scikit-learn uses Dasgupta and Gupta's tails, 4 log(n) / (eps^2/2 - eps^3/3), without delta (truncated to
    an int). That is the notes' bound at delta = 1 divided by (1 - 2 eps / 3); so the notes' q with a delta is
    (1 - 2 eps / 3) * sklearn's unrounded value + 4 log(1/delta) / eps^2, and sklearn asks for more when delta = 1."""
    sklearn_exact = 4 * math.log(n) / (eps**2 / 2 - eps**3 / 3)
    assert int(johnson_lindenstrauss_min_dim(n, eps=eps)) == math.floor(sklearn_exact * (1 + 1e-12))
    for delta in [0.5, 0.05, 0.001]:
        ours = (1 - 2 * eps / 3) * sklearn_exact + 4 * math.log(1 / delta) / eps**2
        assert jl_min_dim(n, eps, delta) == math.ceil(ours * (1 - 1e-9))
    assert notes_bound(n, eps, 1.0) < sklearn_exact


# --- E ||Ux||^2 = ||x||^2 and concentration ----------------------------------------------------------

def test_gaussian_projection_preserves_squared_length_in_expectation():
    x, q, draws = np.random.default_rng(0).normal(size=25), 15, 3000
    ratios = squared_norm_ratios(x, q, "gaussian", range(draws))
    assert abs(ratios.mean() - 1) < 4.5 * math.sqrt(2 / q / draws)
    # q * ratio is chi-square(q): variance 2/q; sample variance has relative sd sqrt((2 + 12/q)/draws)
    assert abs(ratios.var(ddof=1) * q / 2 - 1) < 4.5 * math.sqrt((2 + 12 / q) / draws)
    assert stats.kstest(ratios * q, stats.chi2(q).cdf).pvalue > 1e-3


@pytest.mark.parametrize("density", [None, 1 / 3, 0.05])
def test_sparse_projection_mean_and_variance(density):
    """Entries +-sqrt(s/q) w.p. 1/(2s): E ratio = 1, Var ratio = (2 + (s - 3) sum x^4 / ||x||^4) / q."""
    x, q, draws = np.random.default_rng(1).normal(size=40), 20, 2000
    ratios = squared_norm_ratios(x, q, "sparse", range(draws), density=density)
    s = math.sqrt(x.size) if density is None else 1 / density
    variance = (2 + (s - 3) * np.sum(x**4) / np.sum(x**2) ** 2) / q
    assert abs(ratios.mean() - 1) < 4.5 * math.sqrt(variance / draws)
    assert ratios.var(ddof=1) == pytest.approx(variance, rel=4.5 * math.sqrt(3 / draws) + 0.05)


def test_sparse_achlioptas_matches_gaussian_in_distribution():
    x = np.random.default_rng(2).normal(size=60)
    gaussian = squared_norm_ratios(x, 30, "gaussian", range(1500))
    sparse = squared_norm_ratios(x, 30, "sparse", range(10_000, 11_500), density=1 / 3)
    assert stats.ks_2samp(gaussian, sparse).pvalue > 1e-3


def test_ratio_spread_shrinks_like_one_over_sqrt_q():
    x = np.random.default_rng(3).normal(size=10)
    spreads = [squared_norm_ratios(x, q, "gaussian", range(800)).std() for q in (10, 40, 160)]
    assert spreads[0] / spreads[1] == pytest.approx(2, rel=0.15)
    assert spreads[1] / spreads[2] == pytest.approx(2, rel=0.15)


@pytest.mark.parametrize("kind", ["gaussian", "sparse"])
def test_empirical_failure_rate_stays_below_delta_at_the_bounds_q(kind):
    n, eps, delta, trials = 20, 0.3, 0.1, 200
    X = np.random.default_rng(4).normal(size=(n, 60))
    q = jl_min_dim(n, eps, delta)
    failures = int(np.sum(worst_distortions(X, q, trials, kind=kind, seed=7) > eps))
    assert failures <= stats.binom.ppf(0.999, trials, delta)


def test_worst_distortions_reproduces_single_projections():
    X = np.random.default_rng(5).normal(size=(12, 30))
    worst = worst_distortions(X, 8, 4, kind="sparse", seed=100, density=0.2)
    singles = [distortion(X, random_projection(X, 8, kind="sparse", seed=100 + t, density=0.2).embedding).worst
               for t in range(4)]
    np.testing.assert_allclose(worst, singles, rtol=1e-12)


# --- random_projection ------------------------------------------------------------------------------------

def test_gaussian_projection_is_x_times_u_transpose_and_reproducible():
    X = np.random.default_rng(6).normal(size=(7, 11))
    first, again = random_projection(X, 5, seed=3), random_projection(X, 5, seed=3)
    assert first.embedding.shape == (7, 5) and first.matrix.shape == (5, 11) and first.q == 5
    np.testing.assert_allclose(first.embedding, X @ first.matrix.T, rtol=1e-12)
    np.testing.assert_array_equal(first.embedding, again.embedding)
    assert not np.array_equal(first.matrix, random_projection(X, 5, seed=4).matrix)
    np.testing.assert_allclose(first.transform(X[:2]), first.embedding[:2], rtol=1e-12)
    assert first.kind == "gaussian" and first.density == 1.0 and first.seed == 3


def test_results_are_frozen():
    X = np.random.default_rng(7).normal(size=(6, 4))
    projection = random_projection(X, 3, seed=0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        projection.kind = "sparse"
    with pytest.raises(ValueError):
        projection.embedding[0, 0] = 1.0
    result = distortion(X, projection.embedding)
    with pytest.raises(ValueError):
        result.ratios[0] = 1.0


@pytest.mark.parametrize("family", [scipy.sparse.csr_matrix, scipy.sparse.csr_array, scipy.sparse.coo_array])
def test_sparse_projection_keeps_sparse_data_sparse(family):
    dense = scipy.sparse.random_array((30, 2000), density=0.01, rng=np.random.default_rng(8)).toarray()
    X = family(dense)
    projection = random_projection(X, 50, kind="sparse", seed=1)
    assert scipy.sparse.issparse(projection.embedding)
    assert isinstance(projection.embedding, scipy.sparse.spmatrix) == isinstance(X, scipy.sparse.spmatrix)
    assert scipy.sparse.issparse(projection.matrix)
    np.testing.assert_allclose(projection.embedding.toarray(), dense @ projection.matrix.T.toarray(), atol=1e-12)
    # the same matrix on the dense version of X gives the same numbers, as a dense array
    dense_projection = random_projection(dense, 50, kind="sparse", seed=1)
    assert isinstance(dense_projection.embedding, np.ndarray)
    np.testing.assert_allclose(dense_projection.embedding, projection.embedding.toarray(), atol=1e-12)


def test_sparse_matrix_entries_and_density():
    q, p, density = 200, 5000, 0.01
    U = random_projection(np.ones((1, p)), q, kind="sparse", seed=9, density=density).matrix
    expected = q * p * density
    assert abs(U.nnz - expected) < 5 * math.sqrt(expected)
    np.testing.assert_allclose(np.abs(U.data), 1 / math.sqrt(density * q))
    assert abs(np.mean(U.data > 0) - 0.5) < 5 * math.sqrt(0.25 / U.nnz)
    default = random_projection(np.ones((1, p)), q, kind="sparse", seed=9)
    assert default.density == pytest.approx(1 / math.sqrt(p))


def test_sparse_values_agree_with_scikit_learn():
    """Same definition as sklearn's SparseRandomProjection: +-sqrt(1 / density) / sqrt(q)."""
    X = np.random.default_rng(10).normal(size=(5, 400))
    ours = random_projection(X, 30, kind="sparse", seed=0, density=0.1).matrix
    theirs = SparseRandomProjection(n_components=30, density=0.1, random_state=0).fit(X).components_
    np.testing.assert_allclose(np.unique(np.abs(ours.data)), np.unique(np.abs(theirs.data)))


# --- distortion -------------------------------------------------------------------------------------------

def test_distortion_of_known_maps():
    X = np.random.default_rng(11).normal(size=(9, 4))
    identity = distortion(X, X)
    np.testing.assert_allclose(identity.ratios, 1.0)
    assert identity.worst == pytest.approx(0.0, abs=1e-12) and identity.within(1e-9)
    doubled = distortion(X, 2 * X)
    np.testing.assert_allclose(doubled.ratios, 4.0)
    assert doubled.worst == pytest.approx(3.0) and not doubled.within(2.9)
    rotation, _ = np.linalg.qr(np.random.default_rng(12).normal(size=(4, 4)))
    assert distortion(X, X @ rotation).worst < 1e-12
    moved = X.copy()
    moved[6] += 1.0
    assert 6 in distortion(X, moved).worst_pair
    assert distortion(X, X).ratios.shape == (36,)


def test_distortion_sparse_input_matches_dense():
    X = scipy.sparse.random_array((15, 300), density=0.1, format="csr", rng=np.random.default_rng(13))
    Y = random_projection(X, 40, kind="sparse", seed=2).embedding
    sparse_result = distortion(X, Y)
    dense_result = distortion(X.toarray(), Y.toarray())
    np.testing.assert_allclose(sparse_result.ratios, dense_result.ratios, rtol=1e-9)
    assert sparse_result.worst_pair == dense_result.worst_pair


# --- bad input --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("bad", [0, 1, -0.1, 1.5, float("nan")])
def test_eps_and_delta_outside_unit_interval(bad):
    with pytest.raises(ValueError, match="eps"):
        jl_min_dim(10, bad, 0.05)
    with pytest.raises(ValueError, match="delta"):
        jl_min_dim(10, 0.2, bad)
    with pytest.raises(ValueError, match="delta"):
        jl_epsilon(10, 5, bad)
    with pytest.raises(ValueError, match="eps"):
        jl_delta(10, 5, bad)


def test_bad_n_and_q():
    with pytest.raises(ValueError, match="n"):
        jl_min_dim(1, 0.2, 0.05)
    with pytest.raises(TypeError, match="n"):
        jl_min_dim(2e6, 0.2, 0.05)
    with pytest.raises(ValueError, match="q"):
        jl_epsilon(10, 0, 0.05)
    with pytest.raises(TypeError, match="eps"):
        jl_min_dim(10, "0.2", 0.05)
    X = np.ones((3, 4)) * np.arange(3)[:, None]
    with pytest.raises(ValueError, match="q"):
        random_projection(X, 0)
    with pytest.raises(TypeError, match="q"):
        random_projection(X, 2.0)
    with pytest.raises(ValueError, match="n_trials"):
        worst_distortions(X, 2, 0)


def test_huge_counts_are_refused_by_name_before_any_work():
    """Issue 54: q beyond float64 overflowed in jl_delta; n_trials = 10**9 allocated 7.45 GiB."""
    with pytest.raises(ValueError, match=r"^q must be at most 1.8e\+308 .*got 1e\+400$"):
        jl_delta(10, 10**400, 0.5)
    with pytest.raises(ValueError, match=r"^q must be at most 1.8e\+308 .*got 1e\+400$"):
        jl_epsilon(10, 10**400, 0.5)
    assert jl_delta(10, 10**300, 0.5) == 0.0  # a huge q within float64 is a right answer: delta underflows
    X = np.ones((3, 4)) * np.arange(3)[:, None]
    with pytest.raises(ValueError, match=r"^n_trials = 1000000000 .* asks for 1e\+09 numbers \(7.45 GiB of float64\), "
                       r"more than this library allocates .*; lower n_trials$"):
        worst_distortions(X, 2, 10**9)


@pytest.mark.parametrize("seed", [1.5, None, "0", True])
def test_seed_must_be_an_integer(seed):
    with pytest.raises(TypeError, match="seed"):
        random_projection(np.eye(3), 2, seed=seed)


def test_bad_kind_density_and_size():
    X = np.eye(4)
    with pytest.raises(ValueError, match="kind"):
        random_projection(X, 2, kind="dense")
    with pytest.raises(ValueError, match="density"):
        random_projection(X, 2, kind="gaussian", density=0.5)
    with pytest.raises(ValueError, match="density"):
        random_projection(X, 2, kind="sparse", density=0.0)
    with pytest.raises(ValueError, match="kind='sparse'"):
        random_projection(scipy.sparse.csr_array((2, 10**7)), 100)


def test_bad_data():
    with pytest.raises(ValueError, match="X contains NaN"):
        random_projection(np.array([[1.0, np.nan], [0.0, 1.0]]), 2)
    bad_sparse = scipy.sparse.csr_array(np.array([[1.0, 0.0], [0.0, np.inf]]))
    with pytest.raises(ValueError, match="X contains inf"):
        random_projection(bad_sparse, 2, kind="sparse")
    with pytest.raises(TypeError, match="X must be real"):
        random_projection(scipy.sparse.csr_array(np.array([[1j, 0], [0, 1]])), 2)
    with pytest.raises(ValueError, match="2-D"):
        random_projection(np.ones(5), 2)
    with pytest.raises(ValueError, match="identical rows 0 and 2"):
        distortion(np.array([[1.0, 2.0], [0.0, 1.0], [1.0, 2.0]]), np.ones((3, 1)))
    with pytest.raises(ValueError, match="identical rows"):
        distortion(scipy.sparse.csr_array(np.array([[1.0, 0.0], [1.0, 0.0]])), np.eye(2))
    with pytest.raises(ValueError, match="Y must have one row per row of X"):
        distortion(np.eye(3), np.eye(2))
    projection = random_projection(np.eye(3), 2, seed=0)
    with pytest.raises(ValueError, match="X must have 3 columns"):
        projection.transform(np.ones((2, 4)))


def test_sparse_validator_copies_and_refuses_too_few_rows():
    X = scipy.sparse.csr_array(np.array([[1, 0, 2], [0, 3, 0]], dtype=np.int64))
    validated = as_data_matrix_or_sparse(X)
    assert validated.dtype == np.float64 and isinstance(validated, scipy.sparse.csr_array)
    validated.data[:] = 0.0
    assert X.data.tolist() == [1, 2, 3]
    with pytest.raises(ValueError, match="X needs at least 2 rows"):
        distortion(scipy.sparse.csr_array(np.ones((1, 3))), np.ones((1, 2)))
    with pytest.raises(ValueError, match="Y needs at least 1 columns"):
        as_data_matrix_or_sparse(scipy.sparse.csr_array((3, 0)), name="Y")


# --- the checks of exercise set 06 ------------------------------------------------------------------------

def notes_min_dim(n, eps, delta):
    """The notes' closed form: exercise 06.min_dim asks for the smallest q the union bound with the
    Dasgupta-Gupta tail guarantees instead (the solution's search)."""
    return math.ceil(8 / eps**2 * math.log(n / math.sqrt(delta)))


def right_min_dim(n, eps, delta):
    from check_cases import solution_answer

    return solution_answer("06.min_dim")(n, eps, delta)


def right_epsilon_for(n, q, delta):
    return math.sqrt(8 * math.log(n / math.sqrt(delta)) / q)


def right_simulate(x, q, n_draws, seed):
    Z = np.random.default_rng(seed).standard_normal((n_draws, q, len(x)))
    return np.sum((Z @ x) ** 2, axis=1) / q


def right_failure_rate(X, q, eps, n_trials, seed):
    return float(np.mean([distortion(X, random_projection(X, q, seed=seed + t).embedding).worst > eps
                          for t in range(n_trials)]))


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("exercise, answer", [
    ("06.min_dim", right_min_dim),
    ("06.epsilon_for", right_epsilon_for),
    ("06.simulate_squared_norms", right_simulate),
    ("06.failure_rate", right_failure_rate),
])
def test_checks_pass_correct_answers(exercise, answer, seed):
    verdict = evaluate(exercise, answer, seed=seed)
    assert verdict.passed, verdict.message


def unscaled_simulate(x, q, n_draws, seed):
    return right_simulate(x, q, n_draws, seed) * q


def one_matrix_simulate(x, q, n_draws, seed):
    U = np.random.default_rng(seed).standard_normal((q, len(x))) / math.sqrt(q)
    return np.full(n_draws, np.sum((U @ x) ** 2))


def unseeded_simulate(x, q, n_draws, seed):
    return right_simulate(x, q, n_draws, None)


def pairwise_failure_rate(X, q, eps, n_trials, seed):
    return float(np.mean([np.mean(np.abs(distortion(X, random_projection(X, q, seed=seed + t).embedding).ratios - 1)
                                  > eps) for t in range(n_trials)]))


def unsquared_failure_rate(X, q, eps, n_trials, seed):
    return float(np.mean([np.max(np.abs(np.sqrt(distortion(X, random_projection(X, q, seed=seed + t).embedding)
                                                .ratios) - 1)) > eps for t in range(n_trials)]))


@pytest.mark.parametrize("exercise, answer, message", [
    ("06.min_dim", notes_min_dim, "notes' bound"),
    ("06.epsilon_for", lambda n, q, d: math.sqrt(8 * math.log(n / d) / q), "putting it back"),
    ("06.epsilon_for", lambda n, q, d: 8 * math.log(n / math.sqrt(d)) / q, "putting it back"),
    ("06.simulate_squared_norms", unscaled_simulate, "1 / sqrt(q)"),
    ("06.simulate_squared_norms", one_matrix_simulate, "fresh U"),
    ("06.simulate_squared_norms", unseeded_simulate, "same seed"),
    ("06.simulate_squared_norms", lambda x, q, n, s: right_simulate(x, q, n, s)[:-1], "shape"),
    ("06.failure_rate", pairwise_failure_rate, "a trial fails when"),
    ("06.failure_rate", unsquared_failure_rate, "a trial fails when"),
    ("06.failure_rate", lambda *args: 1 - right_failure_rate(*args), "a trial fails when"),
    ("06.failure_rate", lambda *args: 100 * right_failure_rate(*args), "fraction between 0 and 1"),
])
def test_checks_fail_typical_wrong_answers(exercise, answer, message):
    for seed in (0, 1):
        verdict = evaluate(exercise, answer, seed=seed)
        assert not verdict.passed
        assert message in verdict.message, verdict.message
