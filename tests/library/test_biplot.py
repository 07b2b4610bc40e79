"""Biplots: the factorisation Xc = G H' for every alpha in [0, 1], the alpha = 1 covariance
and angle identities, the alpha = 0 distance identity, agreement with scikit-learn on the
crabs, bad inputs, the plot, and the checks of exercise set 03."""

import dataclasses

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from scipy.spatial.distance import pdist  # noqa: E402
from sklearn.decomposition import PCA  # noqa: E402

from dimred_teach.biplot import biplot_coordinates, plot_biplot  # noqa: E402
from dimred_teach.checks import evaluate  # noqa: E402
from dimred_teach.datasets import CRABS_MEASUREMENTS, load_crabs, make_crabs_like  # noqa: E402
from dimred_teach.linalg import first_best  # noqa: E402
from dimred_teach.pca import covariance, pca  # noqa: E402

MEASUREMENTS = list(CRABS_MEASUREMENTS)
alphas = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


def random_data(seed, n=30, p=5):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, p)) @ rng.standard_normal((p, p)) + rng.normal(size=p)


def centred(X):
    X = np.asarray(X, dtype=float)
    return X - X.mean(axis=0)


@pytest.fixture(scope="module")
def crabs_X():
    return load_crabs()[MEASUREMENTS]


# ---------------------------------------------------------------- identities of the notes

@given(alpha=alphas, seed=st.integers(0, 10_000), shape=st.sampled_from([(30, 5), (8, 3), (6, 9)]))
def test_full_rank_factorisation_for_every_alpha(alpha, seed, shape):
    X = random_data(seed, *shape)
    rank = min(shape[0] - 1, shape[1])
    coords = biplot_coordinates(X, alpha, k=rank)
    assert coords.rank == rank
    Xc = centred(X)
    np.testing.assert_allclose(coords.scores @ coords.loadings.T, Xc, atol=1e-10 * np.abs(Xc).max())


@given(alpha=alphas, seed=st.integers(0, 10_000), k=st.integers(1, 5))
def test_columns_are_orthogonal_with_the_alpha_split_of_d(alpha, seed, k):
    coords = biplot_coordinates(random_data(seed), alpha, k=k)
    d = coords.singular_values
    np.testing.assert_allclose(coords.scores.T @ coords.scores, np.diag(d ** (2 - 2 * alpha)),
                               rtol=1e-10, atol=1e-10 * d[0] ** 2)
    np.testing.assert_allclose(coords.loadings.T @ coords.loadings, np.diag(d ** (2 * alpha)),
                               rtol=1e-10, atol=1e-10 * max(1.0, d[0] ** 2))


@given(alpha=alphas, seed=st.integers(0, 10_000))
def test_every_alpha_rescales_the_same_svd(alpha, seed):
    X = random_data(seed)
    fit, coords = pca(X, k=3), biplot_coordinates(X, alpha, k=3)
    d = fit.singular_values
    np.testing.assert_allclose(coords.singular_values, d, rtol=1e-12)
    np.testing.assert_allclose(coords.scores, fit.scores / d**alpha, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(coords.loadings, fit.components * d**alpha, rtol=1e-9, atol=1e-12)


@given(alpha=alphas, seed=st.integers(0, 10_000))
def test_two_dimensional_view_is_the_best_rank_two_approximation(alpha, seed):
    X = random_data(seed)
    fit, coords = pca(X, k=2), biplot_coordinates(X, alpha, k=2)
    best = fit.scores @ fit.components.T  # U_2 D_2 V_2'
    np.testing.assert_allclose(coords.scores @ coords.loadings.T, best, atol=1e-10 * np.abs(best).max())


@given(seed=st.integers(0, 10_000), k=st.integers(1, 5))
def test_scaled_scores_have_covariance_identity_over_n_minus_1(seed, k):
    X = random_data(seed)
    scores = biplot_coordinates(X, 1.0, k=k).scores
    np.testing.assert_allclose(np.cov(scores, rowvar=False).reshape(k, k), np.eye(k) / (X.shape[0] - 1),
                               atol=1e-12)


@given(seed=st.integers(0, 10_000), scale=st.booleans())
def test_scaled_loadings_give_covariance_and_their_angles_give_correlation(seed, scale):
    X = random_data(seed)
    H = biplot_coordinates(X, 1.0, k=5, scale=scale).loadings
    n = X.shape[0]
    S = covariance(X) if not scale else np.corrcoef(X, rowvar=False)
    np.testing.assert_allclose(H @ H.T / (n - 1), S, atol=1e-10 * np.abs(S).max())
    unit = H / np.linalg.norm(H, axis=1, keepdims=True)
    np.testing.assert_allclose(unit @ unit.T, np.corrcoef(X, rowvar=False), atol=1e-10)


@given(seed=st.integers(0, 10_000))
def test_unscaled_scores_keep_the_distances_between_points(seed):
    X = random_data(seed)
    coords = biplot_coordinates(X, 0.0, k=5)
    np.testing.assert_allclose(pdist(coords.scores), pdist(X), rtol=1e-9)
    np.testing.assert_allclose(coords.loadings @ coords.loadings.T, np.eye(5), atol=1e-10)  # V is orthogonal


def test_two_dimensional_arrows_only_approximate_the_covariance(crabs_X):
    """With k = 2 the arrows miss exactly the dropped components' part of (n - 1) S."""
    n = crabs_X.shape[0]
    full, view = biplot_coordinates(crabs_X, 1.0, k=5), biplot_coordinates(crabs_X, 1.0, k=2)
    missing = full.loadings[:, 2:] @ full.loadings[:, 2:].T
    np.testing.assert_allclose(view.loadings @ view.loadings.T + missing, (n - 1) * covariance(crabs_X),
                               rtol=1e-10)
    unit = view.loadings / np.linalg.norm(view.loadings, axis=1, keepdims=True)
    gap = np.abs(unit @ unit.T - np.corrcoef(crabs_X, rowvar=False)).max()
    assert 1e-3 < gap < 0.1


# ---------------------------------------------------------------- scikit-learn and the crabs

@pytest.mark.parametrize("scale", [False, True])
def test_pca_agrees_with_sklearn_on_the_crabs_up_to_sign(crabs_X, scale):
    X = crabs_X.to_numpy(dtype=float)
    ours = pca(X, scale=scale)
    data = (X - X.mean(axis=0)) / X.std(axis=0, ddof=1) if scale else X
    theirs = PCA(svd_solver="full").fit(data)
    signs = np.sign(np.sum(ours.components * theirs.components_.T, axis=0))
    np.testing.assert_allclose(ours.components, theirs.components_.T * signs, atol=1e-10)
    np.testing.assert_allclose(ours.scores, theirs.transform(data) * signs, atol=1e-10)
    np.testing.assert_allclose(ours.eigenvalues, theirs.explained_variance_, rtol=1e-10)
    np.testing.assert_allclose(ours.explained_variance_ratio, theirs.explained_variance_ratio_, rtol=1e-10)


def test_scaled_biplot_scores_are_sklearn_whitened_scores_over_sqrt_n_minus_1(crabs_X):
    X = crabs_X.to_numpy(dtype=float)
    coords = biplot_coordinates(X, 1.0, k=5)
    whitened = PCA(whiten=True, svd_solver="full").fit_transform(X)
    signs = np.sign(np.sum(coords.scores * whitened, axis=0))
    np.testing.assert_allclose(coords.scores, whitened * signs / np.sqrt(X.shape[0] - 1), atol=1e-10)


def test_signs_follow_the_course_rule_and_names_come_from_the_frame(crabs_X):
    coords = biplot_coordinates(crabs_X, 0.5)
    V = coords.loadings / coords.singular_values**0.5
    rows = [first_best(np.abs(column)) for column in V.T]  # ties at 1e-12: the first
    assert (V[rows, np.arange(2)] > 0).all()
    assert coords.variable_names == tuple(MEASUREMENTS)
    assert biplot_coordinates(crabs_X.to_numpy(), 0.5).variable_names == ("x1", "x2", "x3", "x4", "x5")
    assert coords.k == 2 and coords.alpha == 0.5


def test_pc1_of_the_crabs_is_a_size_axis(crabs_X):
    coords = biplot_coordinates(crabs_X, 0.0)
    assert (coords.loadings[:, 0] > 0).all()
    assert coords.explained_variance_ratio[0] > 0.98


def test_result_is_frozen(crabs_X):
    coords = biplot_coordinates(crabs_X, 1.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        coords.alpha = 0.0
    with pytest.raises(ValueError):
        coords.scores[0, 0] = 1.0


# ---------------------------------------------------------------- bad inputs

@pytest.mark.parametrize("alpha, error, match", [
    (-0.1, ValueError, r"alpha must lie in \[0, 1\]"),
    (1.5, ValueError, r"alpha must lie in \[0, 1\]"),
    (float("nan"), ValueError, r"alpha must lie in \[0, 1\]"),
    (True, TypeError, "alpha must be a real number"),
    ("1", TypeError, "alpha must be a real number"),
    (None, TypeError, "alpha must be a real number"),
])
def test_bad_alpha(alpha, error, match):
    with pytest.raises(error, match=match):
        biplot_coordinates(random_data(0), alpha)


def test_k_beyond_the_rank_is_refused():
    rng = np.random.default_rng(1)
    low_rank = rng.standard_normal((20, 2)) @ rng.standard_normal((2, 5))  # rank 2 after centring
    assert biplot_coordinates(low_rank, 0.5, k=2).rank == 2
    with pytest.raises(ValueError, match="k must be between 1 and 2 .the centred data has rank 2"):
        biplot_coordinates(low_rank, 0.5, k=3)
    with pytest.raises(ValueError, match="k must be between 1 and 5"):
        biplot_coordinates(random_data(0), 0.5, k=6)
    with pytest.raises(ValueError, match="k must be between 1 and 3"):
        biplot_coordinates(random_data(0, n=4, p=5), 0.5, k=4)  # 4 points: rank at most 3
    with pytest.raises(ValueError, match="k must be between"):
        biplot_coordinates(random_data(0), 0.5, k=0)
    with pytest.raises(TypeError, match="k must be a positive integer"):
        biplot_coordinates(random_data(0), 0.5, k=2.0)


def test_bad_data():
    X = random_data(0)
    X[3, 2] = np.nan
    with pytest.raises(ValueError, match="X contains NaN"):
        biplot_coordinates(X, 0.5)
    with pytest.raises(ValueError, match="X must be a 2-D array"):
        biplot_coordinates(np.arange(5.0), 0.5)
    with pytest.raises(ValueError, match="X has no variance"):
        biplot_coordinates(np.ones((10, 3)), 0.5)
    with pytest.raises(ValueError, match="zero variance in column"):
        biplot_coordinates(np.c_[random_data(0), np.ones(30)], 0.5, scale=True)
    with pytest.raises(TypeError, match="X must hold numbers"):
        biplot_coordinates(pd.DataFrame({"a": ["x", "y", "z"]}), 0.5)


# ---------------------------------------------------------------- the plot

def test_plot_draws_one_labelled_arrow_per_variable_and_a_legend(crabs_X):
    crabs = load_crabs()
    fig, axes = plt.subplots(1, 2)
    for alpha, ax in zip((0.0, 1.0), axes):
        coords = biplot_coordinates(crabs_X, alpha)
        assert plot_biplot(coords, groups=crabs["species"].to_numpy(), ax=ax) is ax
        assert sorted(t.get_text() for t in ax.texts if t.get_text()) == sorted(MEASUREMENTS)
        assert len([c for c in ax.get_children() if isinstance(c, matplotlib.text.Annotation)]) == 5
        assert [t.get_text() for t in ax.get_legend().get_texts()] == ["B", "O"]
    assert axes[0].get_title() == "alpha = 0 (unscaled)" and axes[1].get_title() == "alpha = 1 (scaled)"
    plt.close(fig)


def test_plot_arrow_directions_follow_the_loadings(crabs_X):
    coords = biplot_coordinates(crabs_X, 1.0, k=3)
    fig, ax = plt.subplots()
    plot_biplot(coords, ax=ax, components=(1, 2))
    tips = np.array([a.xy for a in ax.get_children() if isinstance(a, matplotlib.text.Annotation)])
    loadings = coords.loadings[:, 1:3]
    ratios = tips / loadings
    np.testing.assert_allclose(ratios, ratios[0, 0], rtol=1e-9)  # one common positive factor
    assert ratios[0, 0] > 0
    plt.close(fig)


def test_plot_bad_inputs(crabs_X):
    coords = biplot_coordinates(crabs_X, 1.0)
    with pytest.raises(TypeError, match="coordinates must come from biplot_coordinates"):
        plot_biplot(np.zeros((3, 2)))
    for bad in [(0, 2), (1, 1), (-1, 0)]:
        with pytest.raises(ValueError, match="components must be two different column numbers in 0..1"):
            plot_biplot(coords, components=bad)
    with pytest.raises(ValueError, match="groups must have one label per row"):
        plot_biplot(coords, groups=["B"] * 3)
    plt.close("all")


# ---------------------------------------------------------------- the checks of set 03

def _correct_factors(X, alpha, k):
    coords = biplot_coordinates(X, alpha, k=k)
    return coords.scores, coords.loadings


def _flipped_factors(X, alpha, k):  # a sign flip of a column pair is still a correct answer
    G, H = _correct_factors(X, alpha, k)
    return -G, -H


def _uncentred_factors(X, alpha, k):
    U, d, Vt = np.linalg.svd(X, full_matrices=False)
    return U[:, :k] * d[:k] ** (1 - alpha), Vt[:k].T * d[:k] ** alpha


def _swapped_factors(X, alpha, k):
    G, H = _correct_factors(X, 1 - alpha, k)
    return G, H


def _pca_scores_only(X, alpha, k):
    fit = pca(X, k=k)
    return fit.scores, fit.components


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_check_biplot_factors(seed):
    assert evaluate("03.biplot_factors", _correct_factors, seed=seed).passed
    assert evaluate("03.biplot_factors", _flipped_factors, seed=seed).passed
    for wrong in (_uncentred_factors, _swapped_factors, _pca_scores_only):
        verdict = evaluate("03.biplot_factors", wrong, seed=seed)
        assert not verdict.passed, wrong.__name__
    stub = evaluate("03.biplot_factors", lambda X, a, k: (_ for _ in ()).throw(NotImplementedError()), seed=0)
    assert not stub.passed and "NotImplementedError" in stub.message


def test_check_scaled_scores():
    from dimred_teach.checks.set03 import _female_crabs

    X = _female_crabs()  # the exercise's own crabs (the lecture analyses all 200)
    U = biplot_coordinates(X, 1.0, k=5).scores
    assert evaluate("03.scaled_scores", U, seed=0).passed
    assert evaluate("03.scaled_scores", -U, seed=0).passed
    wrong = {
        "the lecture's 200 crabs":
            biplot_coordinates(load_crabs()[list(CRABS_MEASUREMENTS)].to_numpy(float), 1.0, k=5).scores,
        "unscaled scores": biplot_coordinates(X, 0.0, k=5).scores,
        "unit-variance scores": U * np.sqrt(X.shape[0] - 1),
        "two components": U[:, :2],
        "columns out of order": U[:, ::-1],
        "a rotation of U": U @ np.linalg.qr(np.random.default_rng(0).standard_normal((5, 5)))[0],
        "not centred": U + 1.0,
    }
    for name, answer in wrong.items():
        assert not evaluate("03.scaled_scores", answer, seed=0).passed, name


def test_check_arrow_cosines():
    def cosines(X, k):
        H = biplot_coordinates(X, 1.0, k=k).loadings
        unit = H / np.linalg.norm(H, axis=1, keepdims=True)
        return unit @ unit.T

    assert evaluate("03.arrow_cosines", cosines, seed=0).passed
    verdict = evaluate("03.arrow_cosines", lambda X, k: np.corrcoef(X, rowvar=False), seed=0)
    assert not verdict.passed and "correlation matrix" in verdict.message


def _separation(scores, species):
    species = np.asarray(species)
    a, b = scores[species == species[0]], scores[species != species[0]]
    pooled = ((len(a) - 1) * a.var(axis=0, ddof=1) + (len(b) - 1) * b.var(axis=0, ddof=1)) / (len(scores) - 2)
    return np.abs(a.mean(axis=0) - b.mean(axis=0)) / np.sqrt(pooled)


def test_check_species_separation():
    assert evaluate("03.species_separation", _separation, seed=0).passed

    def signed(scores, species):
        species = np.asarray(species)
        a, b = scores[species == species[0]], scores[species != species[0]]
        return (a.mean(axis=0) - b.mean(axis=0)) / np.sqrt((a.var(axis=0, ddof=1) + b.var(axis=0, ddof=1)) / 2)

    def overall_sd(scores, species):
        species = np.asarray(species)
        diff = scores[species == species[0]].mean(axis=0) - scores[species != species[0]].mean(axis=0)
        return np.abs(diff) / scores.std(axis=0, ddof=1)

    for wrong in (signed, overall_sd, lambda s, g: np.abs(s).mean(axis=0)):
        assert not evaluate("03.species_separation", wrong, seed=0).passed


def test_check_species_component():
    """Among the male crabs alone (the lecture names PC3 for all 200), PC2 separates the species."""
    assert evaluate("03.species_component", 2, seed=0).passed
    assert evaluate("03.species_component", np.int64(2), seed=0).passed
    for wrong in (1, 3, 0, 6, 3.0, "PC2", True):
        assert not evaluate("03.species_component", wrong, seed=0).passed, wrong


def test_checks_pass_on_simulated_crabs_of_any_seed():
    """The function checks draw fresh make_crabs_like samples: correct answers pass for many seeds."""
    for seed in range(10, 16):
        assert evaluate("03.biplot_factors", _correct_factors, seed=seed).passed
        assert evaluate("03.species_separation", _separation, seed=seed).passed
    assert make_crabs_like(40, seed=0).shape == (40, 8)
