"""Feature selection: filters, incremental mutual information, wrappers and the LASSO.

Feature *selection* keeps a subset of the original columns of X; feature *extraction*
(PCA, say) builds new columns from all of them. This module implements the filter scores
of the Georgia Tech ECE 6254 notes ("Filtering"), the incremental mutual-information
criterion that penalises redundant features, the unsupervised variance filter, two
wrappers (forward selection around a nearest-centroid classifier, and recursive feature
elimination around least squares) and one embedded method (the LASSO path), as in the
WashU notes (section 1) and the "Solutions" of the Georgia Tech notes.

Conventions
-----------
* Rows are points: X has shape (n, p); y holds one label per row.
* Every score returns one number per column, shape (p,). All are "higher is better"
  except :func:`misclassification_rate` (an error rate: lower is better) and
  :func:`t_statistic` (signed: rank by its absolute value). :func:`top_k` turns scores
  into a ranking.
* The scores for two classes (:func:`misclassification_rate`, :func:`t_statistic`,
  :func:`margin`) need exactly two distinct labels; the "positive" class is the larger
  label in sorted order. Mutual information and the nearest-centroid classifier accept
  any number of classes; :func:`abs_correlation` needs numeric y (a regression target or
  0/1 labels).
* Ties are broken towards the smaller column index, so every ranking is reproducible.
* :func:`lasso_path` and :func:`recursive_feature_elimination` use X and y as given, like
  scikit-learn: standardise the columns first (``pca.standardize``) so that coefficients
  of features in different units can be compared.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.linalg
import scipy.linalg.lapack

from ._results import read_only
from ._validation import (NONNEGATIVE, OPEN_UNIT, POSITIVE, as_data_matrix, as_finite_array, as_vector, check_bool,
                          check_int, check_k, check_real, check_seed)
from .linalg import TIE_RTOL, first_best, order_with_ties

__all__ = [
    "misclassification_rate",
    "t_statistic",
    "margin",
    "abs_correlation",
    "discretize",
    "mutual_information",
    "discrete_mutual_information",
    "top_k",
    "IncrementalMIResult",
    "select_incremental_mi",
    "NearestCentroid",
    "fit_nearest_centroid",
    "cross_val_accuracy",
    "ForwardSelectionResult",
    "forward_selection",
    "variance_filter",
    "soft_threshold",
    "LassoPathResult",
    "lasso_path",
    "RFEResult",
    "recursive_feature_elimination",
]


def _as_labels(y, n: int, name: str = "y") -> np.ndarray:
    """Validate class labels: 1-D, one per row of X, at least two classes, no NaN."""
    labels = np.asarray(y)
    if labels.ndim != 1:
        raise ValueError(f"{name} must be 1-D (one label per row of X), got shape {labels.shape}")
    if labels.shape[0] != n:
        raise ValueError(f"{name} has {labels.shape[0]} labels but X has {n} rows; they must match")
    if labels.dtype.kind == "f" and not np.all(np.isfinite(labels)):
        raise ValueError(f"{name} contains NaN or inf; every row needs a label")
    if labels.dtype == object:
        labels = labels.astype(str)
    if np.unique(labels).size < 2:
        raise ValueError(f"{name} must contain at least two classes, got only {np.unique(labels).tolist()}")
    return labels


def _two_classes(X, y) -> tuple[np.ndarray, np.ndarray]:
    """X as a data matrix and a boolean mask of the positive (larger) class."""
    X = as_data_matrix(X)
    labels = _as_labels(y, X.shape[0])
    classes = np.unique(labels)
    if classes.size != 2:
        raise ValueError(
            f"y must have exactly two classes for this score, got {classes.size}: {classes.tolist()} "
            "(mutual_information handles several classes)"
        )
    positive = labels == classes[1]
    if min(positive.sum(), (~positive).sum()) < 2:
        raise ValueError("y needs at least two points in each class")
    return X, positive


def misclassification_rate(X, y) -> np.ndarray:
    """Training error of the best one-feature threshold classifier, per column.

    For column j the classifier predicts one class when x_j > t and the other when
    x_j <= t; the threshold t and the orientation are chosen to minimise the fraction of
    misclassified rows. This is the notes' r(j) = (1/N) sum 1{y_i != h(x_ij)} with h a
    "decision stump". Lower is better: 0 means the feature alone separates the classes,
    0.5 (or the smaller class's share) means it carries no information.

    Parameters
    ----------
    X : array_like, shape (n, p)
    y : array_like, shape (n,)
        Two classes.

    Returns
    -------
    ndarray, shape (p,)
    """
    X, positive = _two_classes(X, y)
    n = X.shape[0]
    order = np.argsort(X, axis=0, kind="stable")
    pos_sorted = positive[order].astype(float)  # (n, p): labels in the order of each column
    # Errors of "positive when x > t" with t between sorted rows i and i+1 (i = -1 .. n-1):
    # positives at or below t are wrong, negatives above t are wrong.
    pos_below = np.vstack([np.zeros(X.shape[1]), np.cumsum(pos_sorted, axis=0)])
    neg_below = np.arange(n + 1)[:, None] - pos_below
    errors = pos_below + (neg_below[-1] - neg_below)
    # Only cut between distinct values (a threshold cannot split tied values).
    sorted_values = np.take_along_axis(X, order, axis=0)
    valid = np.vstack([np.ones((1, X.shape[1]), bool), np.diff(sorted_values, axis=0) > 0,
                       np.ones((1, X.shape[1]), bool)])
    errors = np.minimum(errors, n - errors)  # either orientation
    best = np.where(valid, errors, np.inf).min(axis=0)
    return best / n


def t_statistic(X, y) -> np.ndarray:
    """Two-sample t statistic with pooled variance, per column (signed).

    t_j = (mean of x_j in the positive class - mean in the other class)
          / (s_j * sqrt(1/n_+ + 1/n_-)),
    with s_j^2 the pooled within-class variance. This is the statistic of
    ``scipy.stats.ttest_ind(X[y == b], X[y == a])`` for labels a < b. Rank features by
    ``abs(t)``: large means well separated class means relative to the spread.

    Returns
    -------
    ndarray, shape (p,)
        ``inf`` (with the sign of the difference) for a column that is constant within
        each class but differs between them; a column that is constant overall raises.
    """
    X, positive = _two_classes(X, y)
    a, b = X[~positive], X[positive]
    n_a, n_b = a.shape[0], b.shape[0]
    pooled = ((n_a - 1) * a.var(axis=0, ddof=1) + (n_b - 1) * b.var(axis=0, ddof=1)) / (n_a + n_b - 2)
    difference = b.mean(axis=0) - a.mean(axis=0)
    scale = np.sqrt(pooled * (1 / n_a + 1 / n_b))
    constant = (scale == 0) & (difference == 0)
    if constant.any():
        raise ValueError(f"X has constant column(s) {np.flatnonzero(constant).tolist()}; "
                         "their t statistic is 0/0 (drop them first)")
    t = np.copysign(np.inf, difference)  # classes constant within, different between
    spread = scale > 0
    t[spread] = difference[spread] / scale[spread]
    return t


def margin(X, y) -> np.ndarray:
    """Signed gap between the two classes along each column.

    margin_j = max(min x_j(+) - max x_j(-), min x_j(-) - max x_j(+)).
    Positive: the classes are separated along x_j and this is the width of the empty
    gap, i.e. the notes' min over pairs |x_kj - x_lj| with k, l from different classes.
    Negative: the classes overlap, and minus the margin is how far one class would have to
    move to clear the other (the width of the overlap when neither range contains the other).
    Higher is better. (The notes' formula alone would also be small but positive for
    heavily overlapping classes; the sign makes the score a ranking.)

    Returns
    -------
    ndarray, shape (p,)
    """
    X, positive = _two_classes(X, y)
    a, b = X[~positive], X[positive]
    return np.maximum(b.min(axis=0) - a.max(axis=0), a.min(axis=0) - b.max(axis=0))


def abs_correlation(X, y) -> np.ndarray:
    """Absolute Pearson correlation |rho(x_j, y)| of each column with a numeric y.

    Higher is better (1: x_j is an exact linear function of y). For two classes coded
    0/1 this is the point-biserial correlation, a monotone function of |t|.

    Returns
    -------
    ndarray, shape (p,)
    """
    X = as_data_matrix(X)
    target = as_vector(y, name="y")
    if target.shape[0] != X.shape[0]:
        raise ValueError(f"y has {target.shape[0]} values but X has {X.shape[0]} rows; they must match")
    Xc = X - X.mean(axis=0)
    yc = target - target.mean()
    x_norm = np.linalg.norm(Xc, axis=0)
    if np.linalg.norm(yc) == 0:
        raise ValueError("y is constant; its correlation with anything is undefined")
    constant = np.flatnonzero(x_norm == 0)
    if constant.size:
        raise ValueError(f"X has constant column(s) {constant.tolist()}; their correlation is undefined")
    return np.abs(Xc.T @ yc) / (x_norm * np.linalg.norm(yc))


def discretize(X, bins: int = 10) -> np.ndarray:
    """Codes 0 .. bins-1 from equal-width bins over each column's range, shape (n, p).

    A constant column gets code 0 everywhere. The bins are per column, so the result
    does not depend on the units of a column.
    """
    X = as_data_matrix(X, min_rows=1)
    bins = check_int(bins, "bins", minimum=2, maximum=2**31)
    low, high = X.min(axis=0), X.max(axis=0)
    width = np.where(high > low, (high - low) / bins, 1.0)
    return np.clip(np.floor((X - low) / width), 0, bins - 1).astype(int)


def discrete_mutual_information(a, b) -> float:
    """Mutual information I(a; b) in nats of two discrete label vectors, shape (n,) each.

    I(a; b) = sum over values (u, v) of p(u, v) log(p(u, v) / (p(u) p(v))), with the
    probabilities estimated by relative frequencies (as ``sklearn.metrics.mutual_info_score``).
    """
    a, b = np.asarray(a), np.asarray(b)
    if a.ndim != 1 or b.ndim != 1 or a.shape != b.shape:
        raise ValueError(f"a and b must be 1-D of the same length, got shapes {a.shape} and {b.shape}")
    if a.size == 0:
        raise ValueError("a and b must not be empty")
    for name, values in (("a", a), ("b", b)):
        if values.dtype.kind == "f" and not np.all(np.isfinite(values)):
            raise ValueError(f"{name} contains NaN or inf; every entry needs a label")
    # labels of mixed types (an object array of numbers and strings) are compared as text
    _, a_codes = np.unique(a.astype(str) if a.dtype == object else a, return_inverse=True)
    _, b_codes = np.unique(b.astype(str) if b.dtype == object else b, return_inverse=True)
    joint = np.zeros((a_codes.max() + 1, b_codes.max() + 1))
    np.add.at(joint, (a_codes, b_codes), 1.0)
    joint /= a.size
    outer = joint.sum(axis=1, keepdims=True) * joint.sum(axis=0, keepdims=True)
    nonzero = joint > 0
    return float(max(0.0, np.sum(joint[nonzero] * np.log(joint[nonzero] / outer[nonzero]))))


def mutual_information(X, y, bins: int = 10) -> np.ndarray:
    """Mutual information I(x_j; y) in nats between each discretised column and the labels.

    Each column is cut into ``bins`` equal-width bins (:func:`discretize`); y is taken as
    discrete labels (any number of classes). Higher is better; 0 means the binned feature
    and the labels are independent in the sample.

    Returns
    -------
    ndarray, shape (p,)
    """
    X = as_data_matrix(X)
    labels = _as_labels(y, X.shape[0])
    codes = discretize(X, bins)
    return np.array([discrete_mutual_information(codes[:, j], labels) for j in range(X.shape[1])])


def top_k(scores, k: int, higher_is_better: bool = True) -> np.ndarray:
    """Indices of the k best scores, best first, shape (k,). Scores equal to 12 significant
    digits (relative to the largest) tie, and ties go to the smaller index."""
    higher_is_better = check_bool(higher_is_better, "higher_is_better")
    values = np.asarray(scores)
    if values.dtype.kind == "c":
        raise TypeError("scores must be real numbers, got complex numbers")
    try:
        values = values.astype(float)
    except (TypeError, ValueError):
        raise TypeError(f"scores must be numbers, got {type(scores).__name__}") from None
    if values.ndim != 1 or np.isnan(values).any():
        raise ValueError(f"scores must be a 1-D array of numbers without NaN (inf is allowed), got shape {values.shape}")
    k = check_k(k, values.size, why=f"there are {values.size} scores")
    return order_with_ties(values, descending=higher_is_better)[:k]


@dataclass(frozen=True)
class IncrementalMIResult:
    """Outcome of :func:`select_incremental_mi`.

    Attributes
    ----------
    selected : ndarray of int, shape (k,)
        Column indices in the order they were chosen.
    criteria : ndarray, shape (k,)
        The criterion I(x_j; y) - beta * sum_i I(x_j; x_selected_i) of each chosen
        column at the step it was chosen.
    relevance : ndarray, shape (p,)
        I(x_j; y) for every column (the plain filter ranking uses these).
    redundancy : ndarray, shape (p, p)
        I(x_j; x_l) between discretised columns (symmetric; the diagonal is the entropy).
    beta : float
    bins : int
    """

    selected: np.ndarray
    criteria: np.ndarray
    relevance: np.ndarray
    redundancy: np.ndarray
    beta: float
    bins: int


def select_incremental_mi(X, y, k: int, beta: float = 1.0, bins: int = 10) -> IncrementalMIResult:
    """Choose k columns one at a time, trading relevance against redundancy.

    With columns j_1 .. j_{m-1} already chosen, step m picks the remaining column j that
    maximises I(x_j; y) - beta * sum_{i<m} I(x_j; x_{j_i}) (Georgia Tech notes, "Avoiding
    redundant features"). With beta = 0 this is the plain ranking by mutual information;
    a larger beta penalises a column that repeats what the chosen ones already say.

    Parameters
    ----------
    X : array_like, shape (n, p)
    y : array_like, shape (n,)
        Class labels (any number of classes).
    k : int
        1 <= k <= p.
    beta : float
        Redundancy penalty, >= 0.
    bins : int
        Equal-width bins per column for the mutual information (>= 2).

    Returns
    -------
    IncrementalMIResult
    """
    X = as_data_matrix(X)
    labels = _as_labels(y, X.shape[0])
    p = X.shape[1]
    k = check_k(k, p, why=f"X has {p} columns")
    beta = check_real(beta, "beta", NONNEGATIVE)
    bins = check_int(bins, "bins", minimum=2)
    codes = discretize(X, bins)
    relevance = np.array([discrete_mutual_information(codes[:, j], labels) for j in range(p)])
    redundancy = np.empty((p, p))
    for j in range(p):
        for l in range(j, p):
            redundancy[j, l] = redundancy[l, j] = discrete_mutual_information(codes[:, j], codes[:, l])
    selected: list[int] = []
    criteria: list[float] = []
    penalty = np.zeros(p)
    for _ in range(k):
        criterion = relevance - beta * penalty
        criterion[selected] = -np.inf
        best = first_best(criterion)  # ties (at 12 significant digits) go to the smaller index
        selected.append(best)
        criteria.append(float(criterion[best]))
        penalty += redundancy[:, best]
    result = IncrementalMIResult(np.array(selected), np.array(criteria), relevance, redundancy, float(beta), bins)
    read_only(result.selected, result.criteria, result.relevance, result.redundancy)
    return result


@dataclass(frozen=True)
class NearestCentroid:
    """A fitted nearest-centroid classifier: each point gets the class of the closest
    class mean (Euclidean distance).

    Attributes
    ----------
    classes : ndarray, shape (c,)
        The sorted class labels.
    centroids : ndarray, shape (c, p)
        The mean of each class's training rows.
    """

    classes: np.ndarray
    centroids: np.ndarray

    def predict(self, X) -> np.ndarray:
        """Predicted labels of the rows of X (shape (m, p)), shape (m,). Ties in distance
        go to the class listed first."""
        X = as_data_matrix(X, min_rows=1)
        if X.shape[1] != self.centroids.shape[1]:
            raise ValueError(f"X must have {self.centroids.shape[1]} columns like the training data, got {X.shape[1]}")
        # ||x - c||^2 = ||x||^2 - 2 x'c + ||c||^2; the first term is the same for every class
        centroid_norms = np.einsum("ij,ij->i", self.centroids, self.centroids)
        relative = centroid_norms - 2.0 * (X @ self.centroids.T)
        # distances within TIE_RTOL of the terms' size are ties, won by the class listed first
        size = np.einsum("ij,ij->i", X, X) + centroid_norms.max()
        nearest = relative <= relative.min(axis=1, keepdims=True) + TIE_RTOL * size[:, None]
        return self.classes[np.argmax(nearest, axis=1)]

    def accuracy(self, X, y) -> float:
        """Fraction of the rows of X whose predicted label equals y."""
        predictions = self.predict(X)
        y = np.asarray(y)
        if y.shape != predictions.shape:
            raise ValueError(f"y must have one label per row of X ({predictions.shape[0]}), got shape {y.shape}")
        return float(np.mean(predictions == y))


def fit_nearest_centroid(X, y) -> NearestCentroid:
    """Fit a :class:`NearestCentroid` classifier on X (shape (n, p)) and labels y (shape (n,))."""
    X = as_data_matrix(X, min_rows=1)
    labels = _as_labels(y, X.shape[0])
    classes, codes = np.unique(labels, return_inverse=True)
    membership = np.zeros((classes.size, X.shape[0]))
    membership[codes, np.arange(X.shape[0])] = 1.0
    centroids = membership @ X / np.bincount(codes)[:, None]
    read_only(classes, centroids)
    return NearestCentroid(classes, centroids)


def _folds(n: int, folds: int, seed: int) -> list[np.ndarray]:
    order = np.random.default_rng(seed).permutation(n)
    return np.array_split(order, folds)


def cross_val_accuracy(X, y, folds: int = 5, seed: int = 0) -> float:
    """Mean accuracy of the nearest-centroid classifier over a seeded k-fold split.

    The rows are shuffled with ``numpy.random.default_rng(seed)`` and cut into ``folds``
    nearly equal parts; each part is predicted by a classifier fitted on the others. The
    same seed gives the same split, so two feature subsets are compared on the same folds.
    A class missing from a training part simply cannot be predicted there.
    """
    X = as_data_matrix(X)
    labels = _as_labels(y, X.shape[0])
    folds = check_int(folds, "folds", minimum=2, maximum=X.shape[0])
    seed = check_seed(seed)
    correct = 0
    for test in _folds(X.shape[0], folds, seed):
        train = np.ones(X.shape[0], bool)
        train[test] = False
        if np.unique(labels[train]).size < 2:
            raise ValueError(f"y leaves a training part with only the class {labels[train][0]!r} (a class with "
                             f"too few members for folds={folds}); use fewer folds or more data")
        model = fit_nearest_centroid(X[train], labels[train])
        correct += int(np.sum(model.predict(X[test]) == labels[test]))
    return correct / X.shape[0]


@dataclass(frozen=True)
class ForwardSelectionResult:
    """Outcome of :func:`forward_selection`.

    Attributes
    ----------
    selected : ndarray of int, shape (k,)
        Column indices in the order they were added.
    accuracies : ndarray, shape (k,)
        Cross-validated accuracy of the first 1, 2, ..., k selected columns.
    """

    selected: np.ndarray
    accuracies: np.ndarray


def forward_selection(X, y, k: int, folds: int = 5, seed: int = 0) -> ForwardSelectionResult:
    """Greedy wrapper: add, one at a time, the column that most improves the
    cross-validated accuracy of the nearest-centroid classifier.

    Every candidate subset is scored on the same seeded folds
    (:func:`cross_val_accuracy`); ties go to the smaller column index. Greedy search
    looks at about p * k subsets instead of all p-choose-k, so it can miss a pair of
    columns that only help together.

    Returns
    -------
    ForwardSelectionResult
    """
    X = as_data_matrix(X)
    labels = _as_labels(y, X.shape[0])
    p = X.shape[1]
    k = check_k(k, p, why=f"X has {p} columns")
    selected: list[int] = []
    accuracies: list[float] = []
    for _ in range(k):
        candidates = [j for j in range(p) if j not in selected]
        scores = [cross_val_accuracy(X[:, selected + [j]], labels, folds, seed) for j in candidates]
        best = first_best(scores)
        selected.append(candidates[best])
        accuracies.append(scores[best])
    result = ForwardSelectionResult(np.array(selected), np.array(accuracies))
    read_only(result.selected, result.accuracies)
    return result


def variance_filter(X, threshold: float = 0.0) -> np.ndarray:
    """Columns whose variance (ddof=0) exceeds ``threshold``: a boolean mask, shape (p,).

    The unsupervised filter of the WashU notes: drop (near-)constant features. It never
    looks at a label, and it depends on the units of each column: after standardising,
    every variance is 1. A column whose values are all equal has variance exactly 0 (so
    ``threshold=0`` drops just the constant columns), as ``sklearn.feature_selection.
    VarianceThreshold``.
    """
    X = as_data_matrix(X, min_rows=1)
    threshold = check_real(threshold, "threshold", NONNEGATIVE)
    variances = np.where(np.ptp(X, axis=0) > 0, X.var(axis=0), 0.0)
    return variances > threshold


def soft_threshold(z, threshold: float) -> np.ndarray:
    """sign(z) * max(|z| - threshold, 0), elementwise: shrink towards 0 by ``threshold``
    and set everything within ``threshold`` of 0 to exactly 0. Same shape as z."""
    z = as_finite_array(z, "z")
    threshold = check_real(threshold, "threshold", NONNEGATIVE)
    return np.sign(z) * np.maximum(np.abs(z) - threshold, 0.0)


@dataclass(frozen=True)
class LassoPathResult:
    """Outcome of :func:`lasso_path`.

    Attributes
    ----------
    alphas : ndarray, shape (m,)
        The penalties, decreasing.
    coefs : ndarray, shape (p, m)
        ``coefs[:, i]`` minimises the LASSO objective at ``alphas[i]`` (as
        ``sklearn.linear_model.lasso_path``).
    entry_order : ndarray of int, shape (q,)
        The columns that are non-zero somewhere on the path, in the order they enter as
        alpha decreases; columns entering at the same alpha come by decreasing |coefficient|
        (at :data:`~dimred_teach.linalg.TIE_RTOL` precision), then by index.
    entry_alphas : ndarray, shape (p,)
        For each column, the largest alpha of the grid at which it is non-zero (NaN if it
        never is).
    n_iter : ndarray of int, shape (m,)
        Coordinate-descent sweeps used at each alpha.
    """

    alphas: np.ndarray
    coefs: np.ndarray
    entry_order: np.ndarray
    entry_alphas: np.ndarray
    n_iter: np.ndarray


def lasso_path(X, y, alphas=None, n_alphas: int = 100, eps: float = 1e-3, tol: float = 1e-12,
               max_iter: int = 100_000, method: str = "homotopy") -> LassoPathResult:
    """The LASSO along a decreasing grid of penalties.

    At each alpha the coefficients b minimise

        (1 / (2n)) ||y - X b||^2 + alpha ||b||_1

    (scikit-learn's objective; no intercept: centre y and standardise X first).

    ``method="homotopy"`` (the default) follows the exact path: b is piecewise linear in
    alpha, and between two breakpoints the active coefficients move along
    d = (X_A' X_A / n)^{-1} sign(c_A), c = X'(y - X b) / n, until a column's |c_j| reaches
    alpha (it enters) or an active coefficient reaches 0 (it leaves): LARS with the LASSO
    modification, about one linear solve per column, then b at each alpha of the grid by
    linear interpolation between breakpoints. Where an active Gram matrix is singular
    (collinear columns, more columns than rows) it falls back to coordinate descent.

    ``method="coordinate"`` is coordinate descent, what notebook 09 teaches. One
    coordinate step sets, with r = y - X b the residual,

        b_j <- S(x_j' r / n + (x_j' x_j / n) b_j, alpha) / (x_j' x_j / n),

    S the :func:`soft_threshold`; sweeps over j = 1..p repeat until no coefficient moves
    by more than ``tol`` times the largest |coefficient|. Each alpha starts from the
    solution of the previous one (warm start). A value |z| within TIE_RTOL of alpha
    counts as reaching it, so a column exactly at its entry point stays 0 on every machine.

    Parameters
    ----------
    X : array_like, shape (n, p)
    y : array_like, shape (n,)
    alphas : array_like, shape (m,), optional
        Positive penalties; sorted decreasing. Default: ``n_alphas`` values spaced evenly on
        a log scale from alpha_max = max_j |x_j' y| / n (the smallest alpha with b = 0)
        down to ``eps * alpha_max``.
    n_alphas : int
    eps : float
        In (0, 1).
    tol : float
        Relative convergence tolerance of the sweeps, > 0.
    max_iter : int
        Most sweeps per alpha; ``RuntimeError`` if they do not converge (coordinate descent).
    method : {"homotopy", "coordinate"}

    Returns
    -------
    LassoPathResult
    """
    if method not in ("homotopy", "coordinate"):
        raise ValueError(f"method must be 'homotopy' or 'coordinate', got {method!r}")
    X = as_data_matrix(X)
    n, p = X.shape
    target = as_vector(y, name="y", length=n)
    tol = check_real(tol, "tol", POSITIVE)
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    if alphas is None:
        n_alphas = check_int(n_alphas, "n_alphas", minimum=1, maximum=10**6)
        eps = check_real(eps, "eps", OPEN_UNIT)
        alpha_max = float(np.abs(X.T @ target).max()) / n
        if alpha_max == 0:
            raise ValueError("y is orthogonal to every column of X (all x_j' y = 0); the path is all zeros "
                             "(pass alphas explicitly)")
        grid = np.geomspace(alpha_max, alpha_max * eps, n_alphas)
    else:
        grid = as_vector(alphas, name="alphas")
        if grid.size == 0 or np.any(grid <= 0):
            raise ValueError("alphas must be a non-empty list of positive penalties")
        grid = np.sort(grid)[::-1]
    path = _homotopy(X, target, grid) if method == "homotopy" else None
    coefs, n_iter = path if path is not None else _coordinate_descent(X, target, grid, tol, max_iter)
    nonzero = coefs != 0
    entered = np.flatnonzero(nonzero.any(axis=1))
    entry_index = np.full(p, grid.size)
    entry_index[entered] = np.argmax(nonzero[entered], axis=1)
    entry_alphas = np.full(p, np.nan)
    entry_alphas[entered] = grid[entry_index[entered]]
    size_at_entry = np.abs(coefs[np.arange(p), np.minimum(entry_index, grid.size - 1)])
    by_size = np.empty(p, dtype=int)
    by_size[order_with_ties(size_at_entry)] = np.arange(p)  # rank of |coefficient| at entry, ties by index
    entry_order = np.lexsort((by_size, entry_index))[:entered.size]
    result = LassoPathResult(grid, coefs, entry_order, entry_alphas, n_iter)
    read_only(result.alphas, result.coefs, result.entry_order, result.entry_alphas, result.n_iter)
    return result


def _coordinate_descent(X: np.ndarray, target: np.ndarray, grid: np.ndarray, tol: float,
                        max_iter: int) -> tuple[np.ndarray, np.ndarray]:
    """Coefficients, shape (p, m), and sweeps per alpha, shape (m,), by cyclic coordinate
    descent with warm starts (see :func:`lasso_path`)."""
    n, p = X.shape
    columns = np.ascontiguousarray(X.T)  # column j as a contiguous row: fast dot products
    squared_norms = [float(c @ c) / n for c in columns]
    usable = [j for j in range(p) if squared_norms[j] > 0]  # an all-zero column keeps coefficient 0
    coefficient = [0.0] * p
    residual = target.copy()
    coefs = np.empty((p, grid.size))
    n_iter = np.empty(grid.size, dtype=int)
    for i, alpha in enumerate(grid):
        for sweeps in range(1, max_iter + 1):
            largest_move = 0.0
            for j in usable:
                old = coefficient[j]
                z = float(columns[j] @ residual) / n + squared_norms[j] * old
                new = 0.0 if abs(z) <= alpha * (1 + TIE_RTOL) else (z - math.copysign(alpha, z)) / squared_norms[j]
                if new != old:
                    residual -= (new - old) * columns[j]
                    coefficient[j] = new
                    largest_move = max(largest_move, abs(new - old))
            if largest_move <= tol * max(max(map(abs, coefficient)), np.finfo(float).tiny):
                break
        else:
            raise RuntimeError(f"coordinate descent did not converge in max_iter={max_iter} sweeps at "
                               f"alpha={alpha:.3g}; raise max_iter or tol")
        coefs[:, i] = coefficient
        n_iter[i] = sweeps
    return coefs, n_iter


def _homotopy(X: np.ndarray, target: np.ndarray, grid: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Coefficients, shape (p, m), on the exact LASSO path, and the breakpoints passed down to
    each alpha of ``grid`` (decreasing), shape (m,); None where an active Gram matrix is
    singular (the caller falls back to coordinate descent)."""
    n, p = X.shape
    gram = X.T @ X / n
    correlation = X.T @ target / n
    alpha = float(np.abs(correlation).max())
    beta = np.zeros(p)
    knots, betas = [alpha], [beta.copy()]
    active: list[int] = []
    lower = np.zeros((p, p), order="F")  # lower[:k, :k]: Cholesky factor of the k active columns' Gram matrix
    columns = np.zeros((p, p), order="F")  # columns[:, :k]: those columns of the Gram matrix, in the same order
    floor = float(grid[-1])
    left = -1  # the column that left at the last breakpoint: it does not come back at once
    with np.errstate(divide="ignore", invalid="ignore"):  # a step towards a column parallel to the path: inf
        for _ in range(10 * p + 10):
            # every column whose |c_j| has reached alpha (at TIE_RTOL precision) joins, in index order
            reached = np.abs(correlation) >= alpha * (1 - TIE_RTOL)
            reached[active] = False
            if 0 <= left:
                reached[left] = False
            for joining in np.flatnonzero(reached) if alpha > 0 else ():
                if not _cholesky_append(lower, len(active), gram[active, joining], gram[joining, joining]):
                    return None
                columns[:, len(active)] = gram[:, joining]
                active.append(int(joining))
            if alpha <= floor or not active:
                break
            chosen, k = np.array(active), len(active)
            direction = scipy.linalg.lapack.dpotrs(lower[:k, :k], np.sign(correlation[chosen]), lower=1)[0]
            change = columns[:, :k] @ direction  # the correlations fall by gamma * change
            smallest = alpha * TIE_RTOL  # only forward steps; a column that just left waits
            up, down = (alpha - correlation) / (1 - change), (alpha + correlation) / (1 + change)
            up[~(up > smallest)] = np.inf
            down[~(down > smallest)] = np.inf
            steps = np.minimum(up, down, out=up)
            steps[chosen] = np.inf
            leave = -beta[chosen] / direction
            leave[~(leave > smallest)] = np.inf
            entering, leaving = int(steps.argmin()), int(leave.argmin())
            gamma = min(steps[entering], leave[leaving], alpha - floor)
            beta[chosen] += gamma * direction
            correlation -= gamma * change
            alpha -= gamma
            knots.append(alpha)
            betas.append(beta.copy())
            left = -1
            if gamma == leave[leaving]:  # an active coefficient reaches 0: it leaves; the factor's rows
                left = active.pop(leaving)  # before it stay, those after it are rebuilt
                beta[left] = 0.0
                for position in range(leaving, len(active)):
                    column = active[position]
                    if not _cholesky_append(lower, position, gram[active[:position], column], gram[column, column]):
                        return None
                    columns[:, position] = gram[:, column]
            elif gamma == steps[entering]:
                correlation[entering] = math.copysign(alpha, correlation[entering])  # exactly on the boundary: it joins
    knots, betas = np.array(knots), np.array(betas).T  # decreasing alphas; coefficients (p, k)
    coefs = np.empty((p, grid.size))
    n_iter = np.empty(grid.size, dtype=int)
    for i, target_alpha in enumerate(grid):
        if target_alpha >= knots[0]:
            coefs[:, i], n_iter[i] = 0.0, 0
            continue
        k = min(int(np.searchsorted(-knots, -target_alpha, side="right")), len(knots) - 1)  # knots[k] <= alpha < knots[k-1]
        left, right = knots[k - 1], knots[k]
        weight = (left - target_alpha) / (left - right) if left > right else 1.0
        coefs[:, i] = betas[:, k - 1] + weight * (betas[:, k] - betas[:, k - 1])
        n_iter[i] = k
    coefs[np.abs(coefs) <= TIE_RTOL * np.abs(coefs).max(initial=0.0)] = 0.0  # exact zeros where a column is out
    return coefs, n_iter


def _cholesky_append(lower: np.ndarray, k: int, cross: np.ndarray, diagonal: float) -> bool:
    """Grow the lower Cholesky factor ``lower[:k, :k]`` of a Gram matrix A by one column, to
    the factor of [[A, c], [c', d]] in ``lower[:k+1, :k+1]``; False (nothing changed) when
    the new column is numerically dependent on the others (relative pivot below 1e-6)."""
    row = scipy.linalg.lapack.dtrtrs(lower[:k, :k], cross, lower=1)[0] if k else np.zeros(0)
    pivot = diagonal - float(row @ row)
    if not pivot > (1e-6) ** 2 * diagonal:
        return False
    lower[k, :k], lower[k, k] = row, math.sqrt(pivot)
    return True


def _least_squares_coefficients(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Slopes of the least-squares fit of y on the columns of X with an intercept, shape (p,)."""
    Xc = X - X.mean(axis=0)
    return np.linalg.lstsq(Xc, y - y.mean(), rcond=None)[0]


@dataclass(frozen=True)
class RFEResult:
    """Outcome of :func:`recursive_feature_elimination`.

    Attributes
    ----------
    ranking : ndarray of int, shape (p,)
        1 for the kept columns; the column eliminated last gets 2, the first one eliminated
        the largest rank (as ``sklearn.feature_selection.RFE.ranking_``).
    eliminated : ndarray of int, shape (p - n_features,)
        Column indices in the order they were dropped.
    support : ndarray of bool, shape (p,)
        The kept columns.
    coefficients : ndarray, shape (p - n_features, p)
        Row s: the least-squares slopes of fit s (s = 0 is the fit on all columns), NaN for
        the columns dropped before it.
    """

    ranking: np.ndarray
    eliminated: np.ndarray
    support: np.ndarray
    coefficients: np.ndarray


def recursive_feature_elimination(X, y, n_features: int = 1) -> RFEResult:
    """Backward elimination around least squares: fit, drop the column with the smallest
    |slope|, refit on the rest, repeat until ``n_features`` columns remain.

    The model is ordinary least squares with an intercept
    (``sklearn.linear_model.LinearRegression``). Slopes are only comparable when the
    columns are in comparable units, so standardise X first. Slopes equal to
    :data:`~dimred_teach.linalg.TIE_RTOL` relative precision tie, and the tie drops the
    smaller column index, so the ranking does not depend on the BLAS.

    Parameters
    ----------
    X : array_like, shape (n, p)
    y : array_like, shape (n,)
        A numeric target.
    n_features : int
        1 <= n_features <= p.

    Returns
    -------
    RFEResult
    """
    X = as_data_matrix(X)
    p = X.shape[1]
    target = as_vector(y, name="y", length=X.shape[0])
    n_features = check_k(n_features, p, name="n_features", why=f"X has {p} columns")
    remaining = list(range(p))
    eliminated: list[int] = []
    coefficients = np.full((p - n_features, p), np.nan)
    for step in range(p - n_features):
        coefficients[step, remaining] = _least_squares_coefficients(X[:, remaining], target)
        eliminated.append(remaining.pop(first_best(np.abs(coefficients[step, remaining]), descending=False)))
    ranking = np.ones(p, dtype=int)
    ranking[eliminated] = np.arange(len(eliminated) + 1, 1, -1)
    result = RFEResult(ranking, np.array(eliminated, dtype=int), ranking == 1, coefficients)
    read_only(result.ranking, result.eliminated, result.support, result.coefficients)
    return result
