"""Multidimensional scaling: the identities of the notes (Oxford §1.4, WashU §4.2), agreement
with scikit-learn, the stress definitions, SMACOF's monotone descent, bad input, and the
checks of exercise set 04."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.manifold import MDS, ClassicalMDS

from dimred_teach import mds
from dimred_teach.checks import evaluate, get_check
from dimred_teach.checks.set04 import recover_b_points
from dimred_teach.datasets import load_eurodist
from dimred_teach.linalg import first_best
from dimred_teach.pca import pca


def cloud(seed, n, p):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, p)) * rng.uniform(0.5, 3.0, size=p) + rng.normal(scale=4.0, size=p)


def distances(X):
    return np.sqrt(mds.squared_distances(X))


@pytest.fixture(scope="module")
def eurodist():
    return load_eurodist().to_numpy()


# --- B from D and classical MDS ------------------------------------------------------------

def test_squared_distances_match_the_definition():
    X = cloud(0, 7, 3)
    expected = np.array([[np.sum((a - b) ** 2) for b in X] for a in X])
    np.testing.assert_allclose(mds.squared_distances(X), expected, atol=1e-12)


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 25), p=st.integers(1, 5))
def test_double_centring_recovers_the_centred_gram_matrix(seed, n, p):
    X = cloud(seed, n, p)
    D2 = mds.squared_distances(X)
    B = mds.double_center(D2)
    Xc = X - X.mean(axis=0)
    scale = max(1.0, np.abs(D2).max())
    np.testing.assert_allclose(B, Xc @ Xc.T, atol=1e-9 * scale)
    np.testing.assert_allclose(B @ np.ones(n), 0.0, atol=1e-9 * scale)
    b = np.diag(B)
    np.testing.assert_allclose(b[:, None] + b[None, :] - 2 * B, D2, atol=1e-9 * scale)


@given(seed=st.integers(0, 2**32 - 1), p=st.integers(1, 6), extra=st.integers(1, 20))
def test_classical_mds_recovers_points_up_to_a_rigid_motion(seed, p, extra):
    X = cloud(seed, p + extra, p)
    result = mds.classical_mds(distances(X), k=p)
    fit = mds.procrustes(X, result.embedding, scale=False)
    assert fit.relative_residual < 1e-18
    assert np.allclose(fit.rotation.T @ fit.rotation, np.eye(p))
    assert result.is_euclidean
    values = result.eigenvalues
    assert values.shape == (p + extra,)
    assert np.all(np.diff(values) <= 1e-9 * values[0])
    np.testing.assert_allclose(values[p:], 0.0, atol=1e-9 * values[0])


def test_squared_flag_means_d_already_holds_squares():
    X = cloud(1, 10, 3)
    D = distances(X)
    a, b = mds.classical_mds(D, k=2), mds.classical_mds(D**2, k=2, squared=True)
    np.testing.assert_allclose(a.embedding, b.embedding)
    np.testing.assert_allclose(a.eigenvalues, b.eigenvalues)


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(6, 30), p=st.integers(3, 6))
def test_classical_mds_equals_pca_scores_up_to_sign(seed, n, p):
    X = cloud(seed, n, p)
    k = 2
    result, reference = mds.classical_mds(distances(X), k=k), pca(X, k=k)
    signs = np.sign(np.sum(result.embedding * reference.scores, axis=0))
    np.testing.assert_allclose(result.embedding, reference.scores * signs, atol=1e-8 * np.abs(X).max())
    np.testing.assert_allclose(result.eigenvalues[:k], (n - 1) * reference.eigenvalues, rtol=1e-9)


def test_classical_mds_agrees_with_scikit_learn_up_to_sign():
    X = cloud(2, 40, 5)
    D = distances(X)
    ours = mds.classical_mds(D, k=3)
    theirs = ClassicalMDS(n_components=3, metric="precomputed").fit(D)
    signs = np.sign(np.sum(ours.embedding * theirs.embedding_, axis=0))
    np.testing.assert_allclose(ours.embedding, theirs.embedding_ * signs, atol=1e-9)
    np.testing.assert_allclose(ours.eigenvalues[:3], theirs.eigenvalues_, rtol=1e-10)


def test_all_eigenvalues_are_reported_including_negative_ones(eurodist):
    result = mds.classical_mds(eurodist, k=2)
    full = np.linalg.eigvalsh(mds.double_center(eurodist**2))[::-1]
    np.testing.assert_allclose(result.eigenvalues, full, atol=1e-6 * full[0])
    assert result.eigenvalues.shape == (21,)
    assert np.sum(result.eigenvalues < -1e-9 * result.eigenvalues[0]) == 9
    assert not result.is_euclidean


def test_signs_are_fixed_and_the_embedding_is_centred(eurodist):
    Z = mds.classical_mds(eurodist, k=3).embedding
    rows = [first_best(np.abs(column)) for column in Z.T]  # ties at 1e-12: the first
    assert np.all(Z[rows, np.arange(3)] > 0)
    np.testing.assert_allclose(Z.mean(axis=0), 0.0, atol=1e-8)


def test_dimensions_without_a_positive_eigenvalue_get_zero_coordinates():
    star = np.array([[0, 1, 1, 1], [1, 0, 2, 2], [1, 2, 0, 2], [1, 2, 2, 0.0]])
    result = mds.classical_mds(star, k=3)
    assert result.eigenvalues[-1] < 0
    assert np.all(np.isfinite(result.embedding))
    np.testing.assert_allclose(result.embedding[:, 2], 0.0)


def test_result_is_frozen():
    result = mds.classical_mds(distances(cloud(3, 6, 2)), k=2)
    with pytest.raises(ValueError):
        result.embedding[0, 0] = 1.0
    with pytest.raises(AttributeError):
        result.eigenvalues = None


# --- Procrustes ----------------------------------------------------------------------------

@given(seed=st.integers(0, 2**32 - 1), p=st.integers(1, 5))
def test_procrustes_undoes_a_similarity_transform(seed, p):
    rng = np.random.default_rng(seed)
    A = cloud(seed, 12, p)
    Q, R = np.linalg.qr(rng.normal(size=(p, p)))
    Q = Q * np.sign(np.diag(R))
    s, t = rng.uniform(0.2, 5.0), rng.normal(size=p)
    B = (A @ Q.T - t) / s
    fit = mds.procrustes(A, B)
    assert fit.relative_residual < 1e-20
    np.testing.assert_allclose(fit.scale, s, rtol=1e-9)
    np.testing.assert_allclose(fit.rotation, Q, atol=1e-9)
    np.testing.assert_allclose(fit.aligned, A, atol=1e-9 * np.abs(A).max())


def test_rigid_procrustes_preserves_distances_and_is_optimal():
    rng = np.random.default_rng(5)
    A = cloud(5, 15, 3)
    B = A @ np.linalg.qr(rng.normal(size=(3, 3)))[0] + rng.normal(scale=0.3, size=(15, 3))
    fit = mds.procrustes(A, B, scale=False)
    assert fit.scale == 1.0
    np.testing.assert_allclose(mds.squared_distances(fit.aligned), mds.squared_distances(B), atol=1e-9)
    for _ in range(20):  # no other orthogonal map does better
        Q = np.linalg.qr(rng.normal(size=(3, 3)))[0] @ fit.rotation
        other = B @ Q + (A.mean(axis=0) - B.mean(axis=0) @ Q)
        assert np.sum((A - other) ** 2) >= fit.residual - 1e-9


def test_procrustes_rejects_mismatched_or_degenerate_input():
    with pytest.raises(ValueError, match="same shape"):
        mds.procrustes(np.ones((4, 2)), np.ones((4, 3)))
    with pytest.raises(ValueError, match="B has all its points"):
        mds.procrustes(cloud(0, 4, 2), np.ones((4, 2)))


# --- stress ---------------------------------------------------------------------------------

def test_stress_definitions_on_a_small_example():
    D = np.array([[0.0, 3.0, 4.0], [3.0, 0.0, 6.0], [4.0, 6.0, 0.0]])
    Z = np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 4.0]])  # distances 3, 4, 5
    # ordered pairs i != j: each unordered pair counted twice
    assert mds.stress(D, Z, "kruskal") == pytest.approx(2 * (6 - 5) ** 2)
    assert mds.stress(D, Z, "sammon") == pytest.approx(2 * (6 - 5) ** 2 / 6)
    assert mds.stress(D, Z, "kruskal", normalized=True) == pytest.approx(2 / (2 * (9 + 16 + 36)))
    assert mds.stress(D, Z, "sammon", normalized=True) == pytest.approx((2 / 6) / (2 * 13))
    B = mds.double_center(D**2)
    Zc = Z - Z.mean(axis=0)
    assert mds.stress(D, Z, "strain") == pytest.approx(np.sum((B - Zc @ Zc.T) ** 2))
    # the order of D is that of the distances 3 < 4 < 5, so a perfect increasing g exists
    assert mds.stress(D, Z, "nonmetric") == pytest.approx(0.0, abs=1e-15)


def test_nonmetric_stress_by_hand_when_the_order_is_broken():
    D = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 3.0], [2.0, 3.0, 0.0]])
    Z = np.array([[0.0, 0.0], [5.0, 0.0], [0.0, 1.0]])  # distances 5 (D=1), 1 (D=2), sqrt(26) (D=3)
    d = np.array([5.0, 1.0, np.sqrt(26.0)])
    fitted = np.array([3.0, 3.0, np.sqrt(26.0)])  # pool the first two: increasing fit
    expected = np.sum((fitted - d) ** 2) / np.sum(d**2)
    assert mds.stress(D, Z, "nonmetric") == pytest.approx(expected)
    np.testing.assert_allclose(mds.disparities(D, Z)[[0, 0, 1], [1, 2, 2]], fitted)


def test_classical_strain_is_the_sum_of_squared_dropped_eigenvalues(eurodist):
    for k in (1, 2, 5):
        result = mds.classical_mds(eurodist, k=k)
        dropped = np.sum(result.eigenvalues[k:] ** 2)
        assert mds.stress(eurodist, result.embedding, "strain") == pytest.approx(dropped, rel=1e-9)


def test_nonmetric_stress_ignores_increasing_transforms_and_scale(eurodist):
    Z = mds.classical_mds(eurodist, k=2).embedding
    value = mds.stress(eurodist, Z, "nonmetric")
    assert mds.stress(np.sqrt(eurodist), Z, "nonmetric") == pytest.approx(value, rel=1e-12)
    assert mds.stress(eurodist, 7.0 * Z, "nonmetric") == pytest.approx(value, rel=1e-12)


def test_exact_embedding_has_zero_metric_stress():
    X = cloud(6, 12, 2)
    D = distances(X)
    for kind in ("kruskal", "sammon", "strain", "nonmetric"):
        assert mds.stress(D, X, kind) == pytest.approx(0.0, abs=1e-12 * np.sum(D**2))


# --- SMACOF ----------------------------------------------------------------------------------

@pytest.mark.parametrize("fit", [
    lambda D: mds.metric_mds(D, 2, kind="kruskal"),
    lambda D: mds.metric_mds(D, 2, kind="sammon"),
    lambda D: mds.metric_mds(D, 2, kind="kruskal", init="random", seed=3, max_iter=1000),
    lambda D: mds.nonmetric_mds(D, 2),
    lambda D: mds.nonmetric_mds(D, 2, init="random", seed=3, max_iter=1000),
], ids=["kruskal", "sammon", "kruskal-random", "nonmetric", "nonmetric-random"])
def test_smacof_never_increases_its_objective(fit, eurodist):
    result = fit(eurodist)
    steps = np.diff(result.history)
    assert np.all(steps <= 1e-12 * result.history[0])
    assert result.history[-1] < result.history[0]
    assert result.n_iter == len(result.history) - 1
    assert result.converged


def test_smacof_improves_on_classical_and_reports_its_stress(eurodist):
    classical = mds.classical_mds(eurodist, k=2).embedding
    for kind in ("kruskal", "sammon"):
        result = mds.metric_mds(eurodist, 2, kind=kind)
        assert result.stress == pytest.approx(mds.stress(eurodist, result.embedding, kind))
        assert result.stress < mds.stress(eurodist, classical, kind)
    result = mds.nonmetric_mds(eurodist, 2)
    assert result.stress == pytest.approx(mds.stress(eurodist, result.embedding, "nonmetric"))
    assert result.stress < mds.stress(eurodist, classical, "nonmetric")


def test_metric_mds_finds_an_exact_embedding():
    X = cloud(7, 15, 2)
    result = mds.metric_mds(distances(X), 2, init="random", seed=1, max_iter=2000, tol=1e-14)
    assert mds.procrustes(X, result.embedding, scale=False).relative_residual < 1e-8


def test_metric_mds_is_at_least_as_good_as_scikit_learn(eurodist):
    ours = mds.metric_mds(eurodist, 2, tol=1e-9)
    theirs = MDS(n_components=2, metric="precomputed", init="classical_mds", n_init=1, max_iter=300,
                 eps=1e-9, normalized_stress=False).fit(eurodist)
    # scikit-learn sums over unordered pairs, the notes over ordered pairs
    assert ours.stress / 2 <= theirs.stress_ * (1 + 1e-3)


@pytest.mark.parametrize("data", ["eurodist", "noisy"])
def test_default_stopping_rule_stops_where_scikit_learn_stops(data, eurodist):
    """Same start, same Guttman steps and the same relative stopping rule (eps = tol = 1e-6):
    the same number of iterations and the same raw stress to 1e-9 relative."""
    if data == "noisy":
        rng = np.random.default_rng(0)
        D = distances(rng.standard_normal((120, 3)) * [5.0, 2.0, 1.0]) * rng.uniform(0.8, 1.2, (120, 120))
        D = (D + D.T) / 2
        np.fill_diagonal(D, 0.0)
    else:
        D = eurodist
    ours = mds.metric_mds(D, 2)
    theirs = MDS(n_components=2, metric="precomputed", init="classical_mds", n_init=1, max_iter=300,
                 eps=1e-6, normalized_stress=False).fit(D)
    assert ours.converged and abs(ours.n_iter - theirs.n_iter_) <= 1
    assert ours.stress / 2 == pytest.approx(theirs.stress_, rel=1e-9)
    assert ours.normalized_stress == pytest.approx(mds.stress(D, ours.embedding, normalized=True), rel=1e-12)
    assert ours.stress == pytest.approx(mds.stress(D, ours.embedding), rel=1e-12)


def test_random_start_is_reproducible_with_its_seed(eurodist):
    a = mds.metric_mds(eurodist, 2, init="random", seed=11, max_iter=5)
    b = mds.metric_mds(eurodist, 2, init="random", seed=11, max_iter=5)
    c = mds.metric_mds(eurodist, 2, init="random", seed=12, max_iter=5)
    np.testing.assert_array_equal(a.embedding, b.embedding)
    assert not np.allclose(a.embedding, c.embedding)


def test_nonmetric_disparities_are_increasing_in_d(eurodist):
    result = mds.nonmetric_mds(eurodist, 2)
    rows, cols = np.triu_indices(21, k=1)
    order = np.argsort(eurodist[rows, cols], kind="stable")
    fitted = result.disparities[rows, cols][order]
    assert np.all(np.diff(fitted) >= -1e-9)
    assert np.sum(fitted**2) * 2 == pytest.approx(np.sum(eurodist**2))


# --- bad input -------------------------------------------------------------------------------

GOOD = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.5], [2.0, 1.5, 0.0]])


def with_entry(i, j, value, symmetric=True):
    D = GOOD.copy()
    D[i, j] = value
    if symmetric:
        D[j, i] = value
    return D


@pytest.mark.parametrize("bad, message", [
    (np.ones((3, 4)), "square"),
    (np.ones(3), "square"),
    (with_entry(0, 1, 5.0, symmetric=False), "symmetric"),
    (with_entry(0, 1, -1.0), "negative"),
    (with_entry(1, 1, 0.5), "zero diagonal"),
    (with_entry(0, 2, np.nan), "NaN"),
    (with_entry(0, 2, np.inf), "inf"),
    (np.zeros((1, 1)), "at least 2 points"),
], ids=["not-square", "1-D", "not-symmetric", "negative", "diagonal", "nan", "inf", "one-point"])
@pytest.mark.parametrize("function", [
    lambda D: mds.classical_mds(D, k=1),
    lambda D: mds.metric_mds(D, k=1),
    lambda D: mds.nonmetric_mds(D, k=1),
    lambda D: mds.stress(D, np.arange(3.0)[:, None]),
], ids=["classical", "metric", "nonmetric", "stress"])
def test_bad_distance_matrices_are_refused_by_name(function, bad, message):
    with pytest.raises(ValueError, match=f"^D .*{message}"):
        function(bad)


def test_double_center_names_its_argument():
    with pytest.raises(ValueError, match="D2 must be symmetric"):
        mds.double_center(with_entry(0, 1, 5.0, symmetric=False))


@pytest.mark.parametrize("k, error", [(3, ValueError), (4, ValueError), (0, ValueError), (1.5, TypeError)])
def test_k_must_leave_room_for_the_centring(k, error):
    with pytest.raises(error, match="k"):
        mds.classical_mds(GOOD, k=k)


def test_other_bad_arguments():
    with pytest.raises(ValueError, match="kind must be one of"):
        mds.stress(GOOD, np.eye(3), kind="sammons")
    with pytest.raises(ValueError, match="Z must have one row per point"):
        mds.stress(GOOD, np.eye(4))
    with pytest.raises(ValueError, match="zero dissimilarities"):
        mds.metric_mds(np.array([[0, 0, 1], [0, 0, 1], [1, 1, 0.0]]), k=1, kind="sammon")
    with pytest.raises(ValueError, match="init must be one of"):
        mds.metric_mds(GOOD, k=1, init="pca")
    with pytest.raises(TypeError, match="seed"):
        mds.nonmetric_mds(GOOD, k=1, init="random", seed=None)
    with pytest.raises(ValueError, match="all zeros"):
        mds.nonmetric_mds(np.zeros((3, 3)), k=1)
    with pytest.raises(ValueError, match="tol"):
        mds.metric_mds(GOOD, k=1, tol=-1.0)


def test_a_non_euclidean_matrix_is_legal(eurodist):
    result = mds.classical_mds(eurodist, k=2)
    assert np.all(np.isfinite(result.embedding))
    assert result.eigenvalues[-1] < -0.1 * result.eigenvalues[0]


# --- plotting --------------------------------------------------------------------------------

def test_shepard_diagram_and_overlay_draw(eurodist):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from dimred_teach.plotting import procrustes_overlay, shepard_diagram

    Z = mds.classical_mds(eurodist, k=2).embedding
    ax = shepard_diagram(eurodist, Z, fit="isotonic")
    assert len(ax.collections[0].get_offsets()) == 21 * 20 // 2
    with pytest.raises(ValueError, match="fit must be one of"):
        shepard_diagram(eurodist, Z, fit="linear")
    ax = procrustes_overlay(Z, Z + 1.0, labels=list("abcdefghijklmnopqrstu"))
    assert len(ax.texts) == 21
    plt.close("all")


# --- the checks of exercise set 04 -------------------------------------------------------------

def classical_reference(D, k):
    return np.array(mds.classical_mds(D, k).embedding)


def align_reference(A, B):
    return np.array(mds.procrustes(A, B, scale=False).aligned)


def euclidean_reference(D):
    return mds.classical_mds(D, k=1).is_euclidean


STAR = np.array([[0, 1, 1, 1], [1, 0, 1.9, 1.9], [1, 1.9, 0, 1.9], [1, 1.9, 1.9, 0.0]])
"""A centre 1 from three points that are 1.9 apart: every triangle inequality holds with room (the
lecture's star, 2 apart, holds with equality), but no three unit vectors are pairwise that far apart."""


def correct_answers():
    X = recover_b_points()
    return {
        "04.recover_b": mds.double_center(mds.squared_distances(X)),
        "04.classical_mds": classical_reference,
        "04.align": align_reference,
        "04.eurodist_spectrum": get_check("04.eurodist_spectrum").answer(),  # without Athens, relative
        "04.is_euclidean": euclidean_reference,
        "04.non_euclidean_metric": STAR,
    }


@pytest.mark.parametrize("exercise_id", sorted(correct_answers()))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_checks_pass_on_correct_answers(exercise_id, seed):
    verdict = evaluate(exercise_id, correct_answers()[exercise_id], seed=seed)
    assert verdict.passed, verdict.message


def _eigh_ascending_mds(D, k):  # forgets that eigh sorts ascending
    B = mds.double_center(D**2)
    values, vectors = np.linalg.eigh(B)
    return vectors[:, :k] * np.sqrt(np.clip(values[:k], 0, None))


def _skips_second_dimension(D, k):  # right whenever k is the full dimension, wrong below it
    full = classical_reference(D, k + 1)
    if mds.classical_mds(D, k + 1).eigenvalues[k] < 1e-9 * mds.classical_mds(D, 1).eigenvalues[0]:
        return full[:, :k]
    return full[:, [0, *range(2, k + 1)]]


WRONG = [
    ("04.recover_b", lambda: recover_b_points() @ recover_b_points().T, "B 1 should be 0"),
    ("04.recover_b", lambda: -0.5 * mds.squared_distances(recover_b_points()), "B 1 should be 0"),
    ("04.recover_b", lambda: 2 * mds.double_center(mds.squared_distances(recover_b_points())), "-1/2"),
    ("04.recover_b", lambda: np.eye(3), "shape"),
    ("04.classical_mds", lambda: _eigh_ascending_mds, "smallest eigenvalues"),
    ("04.classical_mds", lambda: (lambda D, k: classical_reference(np.sqrt(D), k)), "SQUARED"),
    ("04.classical_mds", lambda: (lambda D, k: classical_reference(D, k) / np.linalg.norm(
        classical_reference(D, k), axis=0)), "square root"),
    ("04.classical_mds", lambda: _skips_second_dimension, "best 2-dimensional view"),
    ("04.align", lambda: (lambda A, B: A.copy()), "rigidly"),
    ("04.align", lambda: (lambda A, B: B - B.mean(axis=0) + A.mean(axis=0)), "not as close"),
    ("04.align", lambda: (lambda A, B: np.array(mds.procrustes(A, B, scale=True).aligned)), "rigidly"),
    ("04.eurodist_spectrum", lambda: mds.classical_mds(load_eurodist().to_numpy(), k=1).eigenvalues, "Athens"),
    ("04.is_euclidean", lambda: (lambda D: True), "is not Euclidean"),
    ("04.is_euclidean", lambda: (lambda D: bool(np.all(D[:, :, None] + D[None] >= D[:, None, :] - 1e-9))),
     "is not Euclidean"),
    ("04.is_euclidean", lambda: (lambda D: 1), "True or False"),
    ("04.non_euclidean_metric", lambda: np.array([[0, 1, 2], [1, 0, 1], [2, 1, 0.0]]), "D is Euclidean"),
    ("04.non_euclidean_metric", lambda: np.array([[0, 1, 5], [1, 0, 1], [5, 1, 0.0]]), "triangle inequality"),
    ("04.non_euclidean_metric", lambda: np.zeros((4, 4)), "positive"),
]


@pytest.mark.parametrize("exercise_id, make_answer, message", WRONG)
def test_checks_fail_on_wrong_answers(exercise_id, make_answer, message):
    verdict = evaluate(exercise_id, make_answer(), seed=0)
    assert not verdict.passed
    assert message in verdict.message


def test_checks_report_missing_answers():
    assert "no answer yet" in evaluate("04.recover_b", ..., seed=0).message

    def stub(D, k):
        raise NotImplementedError

    assert "no answer yet" in evaluate("04.classical_mds", stub, seed=0).message
