"""Filter scores: one number per column from the column and the labels alone (the Georgia
Tech ECE 6254 notes, "Filtering"), the ranking they give, and the unsupervised variance
filter. Ties are broken towards the smaller column index."""

from __future__ import annotations

import numpy as np

from .._validation import NONNEGATIVE, as_data_matrix, as_vector, check_bool, check_k, check_real
from ..linalg import order_with_ties


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
        raise ValueError("scores must be a 1-D array of numbers without NaN (inf is allowed), "
                         f"got shape {values.shape}")
    k = check_k(k, values.size, why=f"there are {values.size} scores")
    return order_with_ties(values, descending=higher_is_better)[:k]


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
