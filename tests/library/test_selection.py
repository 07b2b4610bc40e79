"""Feature selection: filter scores against SciPy / scikit-learn, the counterexample of
the notes ("k best features are not the best k"), incremental MI, the wrapper, bad
inputs and the checks of exercise set 09."""

import itertools

import numpy as np
import pytest
import scipy.stats
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import mutual_info_score
from sklearn.metrics.cluster import contingency_matrix
from sklearn.model_selection import PredefinedSplit, cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.neighbors import NearestCentroid as SkNearestCentroid
from sklearn.preprocessing import KBinsDiscretizer

from dimred_teach import datasets, selection
from dimred_teach.checks import evaluate
from dimred_teach.linalg import first_best
from dimred_teach.pca import standardize


def two_class_data(seed, n=60, p=4):
    rng = np.random.default_rng(seed)
    y = rng.permutation(np.repeat([0, 1], n // 2))
    X = rng.standard_normal((n, p)) + np.outer(y, rng.normal(0, 1.5, p))
    return X, y


@pytest.fixture(scope="module")
def demo():
    frame = datasets.make_selection_demo()
    return frame.drop(columns="label").to_numpy(), frame["label"].to_numpy()


# ---------------------------------------------------------------- filter scores


@given(st.integers(0, 10_000))
def test_t_statistic_matches_scipy(seed):
    X, y = two_class_data(seed)
    expected = scipy.stats.ttest_ind(X[y == 1], X[y == 0]).statistic
    np.testing.assert_allclose(selection.t_statistic(X, y), expected, rtol=1e-10)


def test_t_statistic_positive_class_is_the_larger_label():
    X, y = two_class_data(3)
    labels = np.where(y == 1, "b", "a")
    np.testing.assert_allclose(selection.t_statistic(X, labels), selection.t_statistic(X, y))
    np.testing.assert_allclose(selection.t_statistic(X, 1 - y), -selection.t_statistic(X, y))


def test_t_statistic_is_infinite_for_a_perfect_constant_split():
    y = np.array([0, 0, 1, 1])
    X = np.column_stack([[1.0, 1.0, 3.0, 3.0], [0.0, 1.0, 0.5, 2.0]])
    t = selection.t_statistic(X, y)
    assert t[0] == np.inf and np.isfinite(t[1])


def test_mutual_information_matches_sklearn_on_discretised_data():
    for seed in range(10):
        rng = np.random.default_rng(seed)
        y = rng.integers(0, 3, 150)
        X = rng.standard_normal((150, 3)) * rng.uniform(0.1, 50) + y[:, None] * rng.uniform(0, 2, 3)
        codes = KBinsDiscretizer(n_bins=6, encode="ordinal", strategy="uniform", subsample=None).fit_transform(X)
        expected = [mutual_info_score(y, codes[:, j]) for j in range(3)]
        np.testing.assert_allclose(selection.mutual_information(X, y, bins=6), expected, atol=1e-12)


@given(st.integers(0, 10_000))
def test_discrete_mutual_information_matches_sklearn(seed):
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, 4, 50), rng.integers(0, 3, 50)
    assert selection.discrete_mutual_information(a, b) == pytest.approx(mutual_info_score(a, b), abs=1e-12)
    # I(a; a) is the entropy of a
    p = np.bincount(a) / a.size
    p = p[p > 0]
    assert selection.discrete_mutual_information(a, a) == pytest.approx(-np.sum(p * np.log(p)))


@given(st.integers(0, 10_000))
def test_contingency_table_matches_sklearn_and_gives_the_mutual_information(seed):
    """The table of counts that 09.mi_from_counts starts from: scikit-learn's contingency matrix
    (rows the sorted values of a), and its mutual information is discrete_mutual_information."""
    rng = np.random.default_rng(seed)
    a, b = rng.choice([-3, 7, 10], 40), rng.choice(["x", "y", "z", "w"], 40)
    table = selection.contingency_table(a, b)
    np.testing.assert_array_equal(table, contingency_matrix(a, b))
    assert table.dtype.kind == "i" and table.sum() == 40
    joint = table / table.sum()
    product = joint.sum(axis=1, keepdims=True) * joint.sum(axis=0, keepdims=True)
    nonzero = joint > 0
    mi = np.sum(joint[nonzero] * np.log(joint[nonzero] / product[nonzero]))
    assert selection.discrete_mutual_information(a, b) == pytest.approx(max(mi, 0.0), abs=1e-12)


def test_abs_correlation_matches_numpy():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 3))
    target = X @ [1.0, -2.0, 0.0] + rng.standard_normal(40)
    expected = [abs(np.corrcoef(X[:, j], target)[0, 1]) for j in range(3)]
    np.testing.assert_allclose(selection.abs_correlation(X, target), expected)


def brute_force_stump_error(x, positive):
    cuts = np.concatenate([[x.min() - 1], np.unique(x)])
    errors = [np.mean((x > t) != positive) for t in cuts]
    return min(min(errors), 1 - max(errors))


@given(st.integers(0, 10_000))
def test_misclassification_rate_is_the_best_stump(seed):
    rng = np.random.default_rng(seed)
    X, y = two_class_data(seed, n=30, p=3)
    X = np.round(X, 1) if seed % 2 else X  # ties in x: thresholds cannot split them
    expected = [brute_force_stump_error(X[:, j], y == 1) for j in range(3)]
    np.testing.assert_allclose(selection.misclassification_rate(X, y), expected)
    assert rng is not None


def test_margin_equals_the_notes_formula_when_separable_and_is_negative_on_overlap():
    y = np.array([0, 0, 0, 1, 1])
    X = np.column_stack([[0.0, 1.0, 2.0, 4.5, 7.0], [0.0, 3.0, 1.0, 2.0, 5.0]])
    gaps = np.abs(X[y == 0][:, None, :] - X[y == 1][None, :, :]).min(axis=(0, 1))
    m = selection.margin(X, y)
    assert m[0] == pytest.approx(gaps[0]) == pytest.approx(2.5)
    assert m[1] == pytest.approx(-1.0)  # classes overlap on [2, 3]


def test_top_k_breaks_ties_by_index_and_handles_lower_is_better():
    scores = np.array([0.3, 0.9, 0.9, np.inf, 0.1])
    np.testing.assert_array_equal(selection.top_k(scores, 3), [3, 1, 2])
    np.testing.assert_array_equal(selection.top_k(scores, 2, higher_is_better=False), [4, 0])


# ---------------------------------------------------------------- the counterexample


def test_k_best_features_are_not_the_best_k(demo):
    X, y = demo
    t = np.abs(selection.t_statistic(X, y))
    top_two = set(selection.top_k(t, 2).tolist())
    assert top_two == {0, 1}  # the strong feature and its copy
    accuracy = {pair: selection.cross_val_accuracy(X[:, list(pair)], y)
                for pair in itertools.combinations(range(X.shape[1]), 2)}
    best_pair = max(accuracy, key=accuracy.get)
    assert best_pair == (2, 3) and accuracy[best_pair] == 1.0
    assert accuracy[(0, 1)] < 0.85
    # each member of the best pair is weak on its own
    assert min(t[2], t[3]) < t[0] / 2
    assert np.all(selection.misclassification_rate(X, y)[[2, 3]] > 0.3)


def test_incremental_mi_avoids_the_redundant_copy(demo):
    X, y = demo
    plain = selection.select_incremental_mi(X, y, 2, beta=0.0)
    penalised = selection.select_incremental_mi(X, y, 2, beta=1.0)
    assert set(plain.selected.tolist()) == {0, 1}
    assert penalised.selected[0] == 0 and penalised.selected[1] != 1


@given(st.integers(0, 10_000), st.integers(1, 5))
def test_incremental_mi_with_beta_zero_is_the_mi_ranking(seed, k):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, 80)
    X = rng.standard_normal((80, 5)) + y[:, None] * rng.uniform(0, 1, 5)
    result = selection.select_incremental_mi(X, y, k, beta=0.0, bins=5)
    mi = selection.mutual_information(X, y, bins=5)
    np.testing.assert_array_equal(result.selected, selection.top_k(mi, k))
    np.testing.assert_allclose(result.criteria, mi[result.selected])
    np.testing.assert_allclose(result.relevance, mi)


def test_incremental_mi_relevance_and_redundancy_come_from_contingency_tables(demo):
    """Exercise set 09 has the student compute them so: the mutual information of the table of
    the discretised columns (and the labels)."""
    X, y = demo
    result = selection.select_incremental_mi(X, y, 2, bins=7)
    codes = selection.discretize(X, bins=7)
    columns = range(X.shape[1])
    relevance = [selection.discrete_mutual_information(codes[:, j], y) for j in columns]
    tables = [[selection.contingency_table(codes[:, j], codes[:, i]) for i in columns] for j in columns]
    np.testing.assert_allclose(result.relevance, relevance, atol=1e-15)
    np.testing.assert_allclose(result.redundancy, [[mi_from_counts(t) for t in row] for row in tables], atol=1e-12)


def test_incremental_mi_criteria_follow_the_formula(demo):
    X, y = demo
    result = selection.select_incremental_mi(X, y, 4, beta=0.7)
    for step, j in enumerate(result.selected):
        earlier = result.selected[:step]
        expected = result.relevance[j] - 0.7 * result.redundancy[j, earlier].sum()
        assert result.criteria[step] == pytest.approx(expected)
    assert len(set(result.selected.tolist())) == 4
    np.testing.assert_allclose(result.redundancy, result.redundancy.T)


# ---------------------------------------------------------------- classifier and wrapper


@given(st.integers(0, 10_000))
def test_nearest_centroid_matches_sklearn(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 4, 50)
    X = rng.standard_normal((50, 3)) + y[:, None]
    X_new = rng.standard_normal((30, 3)) * 2
    ours = selection.fit_nearest_centroid(X, y)
    theirs = SkNearestCentroid().fit(X, y)
    np.testing.assert_allclose(ours.centroids, theirs.centroids_)
    np.testing.assert_array_equal(ours.predict(X_new), theirs.predict(X_new))


def test_cross_val_accuracy_matches_sklearn_on_the_same_folds():
    X, y = two_class_data(5, n=60)
    test_fold = np.empty(60, int)
    for fold, rows in enumerate(np.array_split(np.random.default_rng(7).permutation(60), 5)):
        test_fold[rows] = fold
    expected = cross_val_score(SkNearestCentroid(), X, y, cv=PredefinedSplit(test_fold)).mean()
    assert selection.cross_val_accuracy(X, y, folds=5, seed=7) == pytest.approx(expected)


def test_kfold_accuracy_matches_sklearn_for_any_classifier_on_the_same_folds():
    X, y = two_class_data(6, n=60)
    test_fold = np.empty(60, int)
    for fold, rows in enumerate(np.array_split(np.random.default_rng(2).permutation(60), 4)):
        test_fold[rows] = fold
    expected = cross_val_score(KNeighborsClassifier(3), X, y, cv=PredefinedSplit(test_fold)).mean()

    def three_neighbours(X_train, y_train, X_test):
        return KNeighborsClassifier(3).fit(X_train, y_train).predict(X_test)

    assert selection.kfold_accuracy(X, y, three_neighbours, folds=4, seed=2) == pytest.approx(expected)


def test_cross_val_accuracy_is_kfold_accuracy_of_the_nearest_centroid():
    X, y = two_class_data(3, n=46)

    def nearest_centroid(X_train, y_train, X_test):
        return selection.fit_nearest_centroid(X_train, y_train).predict(X_test)

    for folds, seed in ((5, 0), (3, 11)):
        assert selection.cross_val_accuracy(X, y, folds, seed) == selection.kfold_accuracy(X, y, nearest_centroid,
                                                                                         folds, seed)


def test_cross_val_accuracy_is_reproducible_and_depends_on_the_seed():
    X, y = two_class_data(2, n=40)
    values = {selection.cross_val_accuracy(X[:, :1], y, seed=s) for s in range(8)}
    assert selection.cross_val_accuracy(X, y, seed=3) == selection.cross_val_accuracy(X, y, seed=3)
    assert len(values) > 1


def test_forward_selection_starts_with_the_best_single_feature(demo):
    X, y = demo
    result = selection.forward_selection(X, y, 3)
    singles = [selection.cross_val_accuracy(X[:, [j]], y) for j in range(X.shape[1])]
    assert result.selected[0] == first_best(singles)
    assert result.accuracies[0] == pytest.approx(max(singles))
    assert len(set(result.selected.tolist())) == 3
    # greedy search misses the pair that only works jointly
    assert not {2, 3} <= set(result.selected[:2].tolist())


# ---------------------------------------------------------------- variance filter, LASSO path, RFE


def regression_data(seed, n=80, p=6):
    """Correlated columns in different units and a target depending on three of them."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, p)) @ rng.normal(0, 1, (p, p)) * rng.uniform(0.1, 10, p) + rng.normal(0, 5, p)
    y = (X[:, :3] / X[:, :3].std(axis=0)) @ rng.normal(0, 1, 3) + rng.normal(0, 1, n)
    return X, y


@pytest.mark.parametrize("seed", range(8))
def test_variance_filter_matches_sklearn_variance_threshold(seed):
    from sklearn.feature_selection import VarianceThreshold

    rng = np.random.default_rng(seed)
    X = rng.normal(0, 1, (30, 6)) * [1e-3, 0.1, 1, 10, 1, 1]
    X[:, 4] = 0.1  # constant, but np.var of it is not exactly 0 in floating point
    X[:, 5] = np.where(np.arange(30) == 7, 1.0, 0.0)  # near-constant: one row differs, variance 29/900
    for threshold in (0.0, 0.01, 0.05, 0.5):
        ours = selection.variance_filter(X, threshold)
        assert np.array_equal(ours, VarianceThreshold(threshold).fit(X).get_support())
    assert selection.variance_filter(X).tolist() == [True, True, True, True, False, True]


def test_variance_filter_depends_on_units_and_standardising_removes_it():
    X = np.random.default_rng(0).standard_normal((50, 3)) * [0.05, 1.0, 20.0]  # metres, say
    assert selection.variance_filter(X, 0.01).tolist() == [False, True, True]
    assert selection.variance_filter(X * 100, 0.01).all()  # centimetres instead of metres: everything passes
    assert selection.variance_filter(standardize(X, ddof=0), 0.99).all()  # every variance is 1


def test_soft_threshold_shrinks_and_zeroes():
    z = np.array([-3.0, -0.5, 0.0, 0.2, 1.0, 2.5])
    assert np.array_equal(selection.soft_threshold(z, 1.0), [-2.0, 0.0, 0.0, 0.0, 0.0, 1.5])
    assert np.array_equal(selection.soft_threshold(z, 0.0), z)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")  # its duality gap at 1e-14
@pytest.mark.parametrize("method", ["homotopy", "coordinate"])
@pytest.mark.parametrize("seed", range(10))
def test_lasso_path_matches_sklearn_lasso_path(seed, method):
    """Same alphas, same objective: coefficients agree to 1e-8 (absolute, coefficients of order 1)."""
    from sklearn.linear_model import lasso_path

    X, y = regression_data(seed, n=40 + 10 * seed, p=4 + seed % 5)
    Xs, yc = standardize(X, ddof=0), y - y.mean()
    ours = selection.lasso_path(Xs, yc, n_alphas=30, method=method)
    alphas, coefs, _ = lasso_path(Xs, yc, alphas=ours.alphas, tol=1e-14, max_iter=100_000)
    assert np.array_equal(alphas, ours.alphas)
    assert ours.coefs.shape == coefs.shape == (X.shape[1], 30)
    assert np.abs(ours.coefs - coefs).max() < 1e-8
    # the default grid starts where every coefficient is 0: alpha_max = max |x_j' y| / n
    assert ours.alphas[0] == pytest.approx(np.abs(Xs.T @ yc).max() / len(yc), rel=1e-14)
    assert not ours.coefs[:, 0].any()
    assert ours.entry_order[0] == first_best(np.abs(Xs.T @ yc))


@pytest.mark.parametrize("method", ["homotopy", "coordinate"])
@pytest.mark.parametrize("seed", range(5))
def test_lasso_path_satisfies_the_optimality_conditions(seed, method):
    """Subgradient (KKT) conditions: |x_j' r| / n <= alpha, with equality and the sign of b_j when b_j != 0."""
    X, y = regression_data(seed, n=60, p=7)
    n = len(y)
    result = selection.lasso_path(X - X.mean(axis=0), y - y.mean(), alphas=[5.0, 1.0, 0.3, 0.01], method=method)
    for alpha, b in zip(result.alphas, result.coefs.T):
        gradient = (X - X.mean(axis=0)).T @ (y - y.mean() - (X - X.mean(axis=0)) @ b) / n
        assert np.all(np.abs(gradient) <= alpha * (1 + 1e-8))
        active = b != 0
        assert np.allclose(gradient[active], alpha * np.sign(b[active]), rtol=1e-8)


@pytest.mark.parametrize("method", ["homotopy", "coordinate"])
def test_lasso_path_on_an_orthogonal_design_is_soft_thresholding(method):
    """With X'X / n = I every coefficient is S(x_j' y / n, alpha): features enter in the order of |x_j' y|."""
    rng = np.random.default_rng(3)
    n = 50
    Q = np.linalg.qr(rng.standard_normal((n, 4)))[0] * np.sqrt(n)
    y = Q @ [0.5, -2.0, 1.0, 0.0] + rng.normal(0, 0.01, n)
    result = selection.lasso_path(Q, y, alphas=[3.0, 1.5, 0.7, 0.2, 0.05], method=method)
    for alpha, b in zip(result.alphas, result.coefs.T):
        assert np.allclose(b, selection.soft_threshold(Q.T @ y / n, alpha), atol=1e-10)
    assert result.entry_order.tolist() == [1, 2, 0]  # column 3 (only noise, |x_3' y| / n < 0.05) never enters
    assert result.entry_alphas[1] == 1.5 and result.entry_alphas[0] == 0.2 and np.isnan(result.entry_alphas[3])


@pytest.mark.parametrize("method", ["homotopy", "coordinate"])
def test_lasso_path_ties_at_entry_go_by_size_then_index(method):
    """Two columns with the same |x_j' y| enter at the same alpha; the order is the index, whatever the rounding."""
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0], [0.3, 0.3], [-0.3, -0.3]])
    y = np.array([1.0, 1.0, -1.0, -1.0, 0.0, 0.0])  # x_0' y = x_1' y = 2
    result = selection.lasso_path(X, y, alphas=[10.0, 1.0, 0.1], method=method)
    assert abs(result.coefs[0, 1]) == pytest.approx(abs(result.coefs[1, 1]), rel=1e-12)
    assert result.entry_order.tolist() == [0, 1]
    swapped = selection.lasso_path(X[:, ::-1], y, alphas=[10.0, 1.0, 0.1], method=method)
    assert swapped.entry_order.tolist() == [0, 1]


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("n_features", [1, 3])
def test_rfe_matches_sklearn_rfe_with_linear_regression(seed, n_features):
    from sklearn.feature_selection import RFE
    from sklearn.linear_model import LinearRegression

    X, y = regression_data(seed, n=50 + 5 * seed, p=6 + seed % 3)
    Xs = standardize(X)
    ours = selection.recursive_feature_elimination(Xs, y, n_features)
    reference = RFE(LinearRegression(), n_features_to_select=n_features).fit(Xs, y)
    assert np.array_equal(ours.ranking, reference.ranking_)
    assert np.array_equal(ours.support, reference.support_)
    assert np.array_equal(ours.ranking[ours.eliminated], np.arange(ours.ranking.max(), 1, -1))
    # the first fit is LinearRegression on every column; each later fit has NaN for the dropped columns
    assert np.allclose(ours.coefficients[0], LinearRegression().fit(Xs, y).coef_, rtol=1e-10, atol=1e-12)
    dropped_before = np.array([[k in ours.eliminated[:step] for k in range(X.shape[1])]
                               for step in range(len(ours.eliminated))])
    assert np.array_equal(np.isnan(ours.coefficients), dropped_before)


def test_rfe_depends_on_units_and_refits_after_each_elimination():
    X, y = regression_data(1, n=200, p=6)
    standardised = selection.recursive_feature_elimination(standardize(X), y).ranking
    raw = selection.recursive_feature_elimination(X, y).ranking
    assert not np.array_equal(standardised, raw)
    # ranking by the |slopes| of the first fit only (no refitting) is a different answer here
    first_fit = np.abs(np.linalg.lstsq(standardize(X), y - y.mean(), rcond=None)[0])
    no_refit = np.empty(6, dtype=int)
    no_refit[np.argsort(first_fit)] = np.arange(6, 0, -1)
    assert not np.array_equal(standardised, no_refit)


def test_rfe_ties_drop_the_smaller_index_whatever_the_row_order():
    rng = np.random.default_rng(0)
    A = rng.standard_normal((40, 4))
    Q = np.linalg.qr(A - A.mean(axis=0))[0]  # centred, orthonormal columns: the slopes are the weights below
    y = Q @ [1.0, 1.0, 3.0, 1.0]  # three equal slopes
    for rows in (np.arange(40), rng.permutation(40)):
        result = selection.recursive_feature_elimination(Q[rows], y[rows])
        assert result.eliminated.tolist() == [0, 1, 3]
        assert result.ranking.tolist() == [4, 3, 1, 2]


# ---------------------------------------------------------------- bad inputs


@pytest.mark.parametrize("score", [selection.t_statistic, selection.margin, selection.misclassification_rate,
                                   selection.mutual_information])
def test_length_mismatch_is_reported(score):
    X, y = two_class_data(0)
    with pytest.raises(ValueError, match="y has 59 labels but X has 60 rows"):
        score(X, y[:-1])


def test_two_class_scores_refuse_three_classes_and_one_class():
    X, _ = two_class_data(0, n=30)
    with pytest.raises(ValueError, match="exactly two classes"):
        selection.t_statistic(X, np.arange(30) % 3)
    with pytest.raises(ValueError, match="at least two classes"):
        selection.margin(X, np.zeros(30))
    with pytest.raises(ValueError, match="y must be 1-D"):
        selection.t_statistic(X, np.zeros((30, 1)))


def test_nan_and_constant_columns_are_reported():
    X, y = two_class_data(0, n=20)
    X_nan = X.copy()
    X_nan[0, 0] = np.nan
    with pytest.raises(ValueError, match="X contains NaN"):
        selection.mutual_information(X_nan, y)
    X[:, 1] = 2.0
    with pytest.raises(ValueError, match=r"constant column\(s\) \[1\]"):
        selection.t_statistic(X, y)
    with pytest.raises(ValueError, match=r"constant column\(s\) \[1\]"):
        selection.abs_correlation(X, y)
    with pytest.raises(ValueError, match="y is constant"):
        selection.abs_correlation(X[:, [0]], np.ones(20))


def test_k_beta_bins_and_folds_are_validated():
    X, y = two_class_data(0, n=20, p=3)
    with pytest.raises(ValueError, match="k must be between 1 and 3"):
        selection.select_incremental_mi(X, y, 4)
    with pytest.raises(ValueError, match="k must be between 1 and 3"):
        selection.forward_selection(X, y, 0)
    with pytest.raises(TypeError, match="k must be a positive integer"):
        selection.top_k([1.0, 2.0], 1.5)
    with pytest.raises(ValueError, match=r"beta must lie in \[0, inf\)"):
        selection.select_incremental_mi(X, y, 2, beta=-1)
    with pytest.raises(ValueError, match="bins must be at least 2"):
        selection.discretize(X, bins=1)
    with pytest.raises(ValueError, match="folds must be at most 20"):
        selection.cross_val_accuracy(X, y, folds=21)
    with pytest.raises(TypeError, match="seed must be an integer"):
        selection.cross_val_accuracy(X, y, seed=None)
    with pytest.raises(ValueError, match="X must have 3 columns"):
        selection.fit_nearest_centroid(X, y).predict(X[:, :2])
    with pytest.raises(ValueError, match="scores must be a 1-D array"):
        selection.top_k([np.nan, 1.0], 1)


def test_selection_demo_is_reproducible_and_validated():
    a, b = datasets.make_selection_demo(seed=4), datasets.make_selection_demo(seed=4)
    assert a.equals(b) and a.shape == (400, 6)
    np.testing.assert_allclose(a["pair_a"] + a["pair_b"], 0.4 * (2 * a["label"] - 1))
    with pytest.raises(ValueError, match="n must be even"):
        datasets.make_selection_demo(n=11)


# ---------------------------------------------------------------- the checks of set 09


def pooled_t(a, b):
    a, b = np.asarray(a, float), np.asarray(b, float)
    pooled = ((a.size - 1) * a.var(ddof=1) + (b.size - 1) * b.var(ddof=1)) / (a.size + b.size - 2)
    return (a.mean() - b.mean()) / np.sqrt(pooled * (1 / a.size + 1 / b.size))


def next_feature(relevance, redundancy, selected, beta):
    criterion = np.asarray(relevance, float) - beta * np.asarray(redundancy)[:, list(selected)].sum(axis=1)
    criterion[list(selected)] = -np.inf
    return int(np.argmax(criterion))


def nearest_centroid_predict(X_train, y_train, X_test):
    return selection.fit_nearest_centroid(X_train, y_train).predict(X_test)


def mi_from_counts(counts):
    joint = np.asarray(counts, float) / np.sum(counts)
    outer = joint.sum(1, keepdims=True) * joint.sum(0, keepdims=True)
    mask = joint > 0
    return float(np.sum(joint[mask] * np.log(joint[mask] / outer[mask])))


@pytest.mark.parametrize("exercise_id, right, wrongs", [
    ("09.t_statistic", pooled_t, [
        lambda a, b: np.mean(a) - np.mean(b),
        lambda a, b: scipy.stats.ttest_ind(a, b, equal_var=False).statistic,
        lambda a, b: -pooled_t(a, b),
    ]),
    ("09.incremental_step", next_feature, [
        lambda r, R, s, beta: int(np.argmax(r)),
        lambda r, R, s, beta: next_feature(r, R, s, 0.0),
        lambda r, R, s, beta: next_feature(r, -np.asarray(R), s, beta),
    ]),
    ("09.nearest_centroid", nearest_centroid_predict, [
        lambda A, y, B: np.full(len(B), np.unique(y)[0]),
        lambda A, y, B: selection.fit_nearest_centroid(A, y).predict(A)[: len(B)],
    ]),
    ("09.mi_from_counts", mi_from_counts, [
        lambda c: mi_from_counts(c) / np.log(2),  # bits instead of nats
        lambda c: 0.0,
    ]),
    ("09.best_pair", lambda X, y: max(itertools.combinations(range(X.shape[1]), 2), key=lambda pair: (
        selection.kfold_accuracy(X[:, list(pair)], y, nearest_centroid_predict))), [
        lambda X, y: (0, 4),  # the notebook's pair, typed
        lambda X, y: (2, 2),
        lambda X, y: "pair",
    ]),
])
def test_checks_pass_right_and_fail_wrong_answers(exercise_id, right, wrongs):
    assert evaluate(exercise_id, right, seed=0).passed
    assert evaluate(exercise_id, right, seed=1).passed
    for wrong in wrongs:
        verdict = evaluate(exercise_id, wrong, seed=0)
        assert not verdict.passed, wrong
    assert not evaluate(exercise_id, ..., seed=0).passed


def test_t_statistic_is_zero_without_a_mean_difference_and_warns_nothing():
    X = np.array([[1.0, 0.0], [3.0, 1.0], [1.0, 2.0], [3.0, 1.0]])
    t = selection.t_statistic(X, [0, 0, 1, 1])
    assert t[0] == 0.0 and np.isfinite(t[1])


@pytest.mark.parametrize("shape", [(200, 30), (30, 60), (500, 20)])
def test_the_exact_path_agrees_with_coordinate_descent(shape):
    """The homotopy (the default) and coordinate descent (what notebook 09 teaches) give the same
    path, also with more columns than rows (the homotopy stops at the grid's last alpha)."""
    n, p = shape
    X, y = regression_data(7, n=n, p=p)
    Xs, yc = standardize(X, ddof=0), y - y.mean()
    fast = selection.lasso_path(Xs, yc, n_alphas=40, eps=0.05)
    taught = selection.lasso_path(Xs, yc, alphas=fast.alphas, method="coordinate")
    assert np.abs(fast.coefs - taught.coefs).max() < 1e-8
    assert np.array_equal(fast.entry_order, taught.entry_order)


def test_collinear_columns_fall_back_to_coordinate_descent():
    """A duplicated column makes the active Gram matrix singular: the path is still the LASSO's
    (the homotopy hands over to coordinate descent), and splits the weight as coordinate descent does."""
    X, y = regression_data(2, n=80, p=4)
    X = np.column_stack([X, X[:, 0]])
    Xs, yc = standardize(X, ddof=0), y - y.mean()
    result = selection.lasso_path(Xs, yc, n_alphas=20)
    taught = selection.lasso_path(Xs, yc, alphas=result.alphas, method="coordinate")
    assert np.array_equal(result.coefs, taught.coefs) and np.array_equal(result.n_iter, taught.n_iter)


def test_lasso_path_names_a_wrong_method():
    with pytest.raises(ValueError, match="method"):
        selection.lasso_path(np.eye(3), np.ones(3), method="lars")


def _regression(seed: int, n: int = 120, p: int = 6) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)) * rng.uniform(0.5, 3.0, p) + rng.normal(0, 2, p)
    coefficients = np.zeros(p)
    coefficients[rng.choice(p, 3, replace=False)] = rng.choice([-2.0, -0.7, 0.5, 1.5], 3)
    return X, X @ coefficients + rng.normal(size=n) + 4.0


def _splits(n: int, folds: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The library's folds as scikit-learn (train, test) pairs: the same seeded permutation split."""
    order = np.random.default_rng(seed).permutation(n)
    return [(np.setdiff1d(np.arange(n), test), test) for test in np.array_split(order, folds)]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lasso_cv_matches_sklearn_lasso_cv_on_the_same_folds(seed):
    from sklearn.linear_model import LassoCV

    X, y = _regression(seed)
    result = selection.lasso_cv(standardize(X), y, folds=5, seed=seed)
    reference = LassoCV(alphas=result.alphas, cv=_splits(len(y), 5, seed), tol=1e-14, max_iter=10**6)
    reference.fit(standardize(X), y)
    np.testing.assert_allclose(result.fold_mse, reference.mse_path_.T, rtol=1e-8, atol=1e-10)
    assert result.alpha == pytest.approx(reference.alpha_, rel=1e-12)
    np.testing.assert_allclose(result.coef, reference.coef_, atol=1e-8)
    assert result.intercept == pytest.approx(reference.intercept_, abs=1e-8)
    assert result.mean_mse[list(result.alphas).index(result.alpha)] == result.mean_mse.min()


def test_lasso_cv_ties_go_to_the_larger_penalty_and_inputs_are_validated():
    X, y = _regression(4)
    rng = np.random.default_rng(4)
    noise = rng.normal(size=30)  # y unrelated to X: the empty model predicts best
    result = selection.lasso_cv(X[:30], noise, alphas=[1e-3, 40.0, 50.0], folds=3)
    assert result.alphas.tolist() == [50.0, 40.0, 1e-3]
    assert result.fold_mse[:, 0].tolist() == result.fold_mse[:, 1].tolist()  # both alphas: every coefficient 0
    assert result.mean_mse[0] < result.mean_mse[2] and result.alpha == 50.0 and not result.coef.any()
    with pytest.raises(ValueError, match="folds"):
        selection.lasso_cv(X, y, folds=1)
    with pytest.raises(ValueError, match="alphas"):
        selection.lasso_cv(X, y, alphas=[1.0, -1.0])
    with pytest.raises(ValueError, match="y"):
        selection.lasso_cv(X, y[:-1])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rfe_cv_matches_sklearn_rfecv_on_the_same_folds(seed):
    from sklearn.feature_selection import RFECV
    from sklearn.linear_model import LinearRegression

    X, y = _regression(seed)
    Z = standardize(X)
    result = selection.recursive_feature_elimination_cv(Z, y, folds=4, seed=seed)
    reference = RFECV(LinearRegression(), step=1, cv=_splits(len(y), 4, seed), scoring="neg_mean_squared_error")
    reference.fit(Z, y)
    np.testing.assert_allclose(result.mean_mse, -reference.cv_results_["mean_test_score"], rtol=1e-10)
    assert result.n_features == reference.n_features_
    assert result.elimination.support.tolist() == reference.support_.tolist()


def test_rfe_cv_keeps_the_informative_columns_and_refuses_too_many_folds():
    X, y = _regression(7, n=200, p=8)
    result = selection.recursive_feature_elimination_cv(standardize(X), y)
    informative = set(np.flatnonzero(np.abs(np.linalg.lstsq(np.column_stack([X, np.ones(200)]), y, rcond=None)[0][:-1])
                                     > 0.3))
    assert set(np.flatnonzero(result.elimination.support)) == informative
    assert result.fold_mse.shape == (5, 8) and np.all(np.diff(result.mean_mse[:3]) < 0)
    with pytest.raises(ValueError, match="training parts of"):
        selection.recursive_feature_elimination_cv(X[:12], y[:12], folds=2)
