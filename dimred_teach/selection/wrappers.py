"""Wrappers: subsets of features judged by a model. The cross-validated accuracy of any
classifier (:func:`kfold_accuracy`), forward selection around a nearest-centroid classifier
scored by it, and recursive feature elimination around least squares."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._read_only import read_only
from .._validation import as_data_matrix, as_vector, check_int, check_k, check_seed
from ..linalg import TIE_RTOL, first_best
from .filters import _as_labels


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


def kfold_accuracy(X, y, predict, folds: int = 5, seed: int = 0) -> float:
    """Mean accuracy of a classifier over a seeded k-fold split.

    The rows are shuffled with ``numpy.random.default_rng(seed)`` and cut into ``folds``
    nearly equal parts; each part is predicted by the classifier trained on the others. The
    same seed gives the same split, so two feature subsets (or two classifiers) are compared
    on the same folds.

    Parameters
    ----------
    X : array_like, shape (n, p)
    y : array_like, shape (n,)
        Class labels; every training part must hold at least two classes.
    predict : callable
        ``predict(X_train, y_train, X_test)`` returns the predicted labels of the rows of
        ``X_test``, shape (m,).
    folds : int
        2 <= folds <= n.
    seed : int
        Seed of the split.

    Returns
    -------
    float
        The fraction of the n rows whose held-out prediction equals their label.
    """
    X = as_data_matrix(X)
    labels = _as_labels(y, X.shape[0])
    if not callable(predict):
        raise TypeError(f"predict must be a function predict(X_train, y_train, X_test), got {type(predict).__name__}")
    folds = check_int(folds, "folds", minimum=2, maximum=X.shape[0])
    seed = check_seed(seed)
    correct = 0
    for test in _folds(X.shape[0], folds, seed):
        train = np.ones(X.shape[0], bool)
        train[test] = False
        if np.unique(labels[train]).size < 2:
            raise ValueError(f"y leaves a training part with only the class {labels[train][0]!r} (a class with "
                             f"too few members for folds={folds}); use fewer folds or more data")
        predicted = np.asarray(predict(X[train], labels[train], X[test]))
        if predicted.shape != (test.size,):
            raise ValueError(f"predict must return one label per row of X_test, shape ({test.size},), "
                             f"got shape {predicted.shape}")
        correct += int(np.sum(predicted == labels[test]))
    return correct / X.shape[0]


def _nearest_centroid_labels(X_train, y_train, X_test) -> np.ndarray:
    return fit_nearest_centroid(X_train, y_train).predict(X_test)


def cross_val_accuracy(X, y, folds: int = 5, seed: int = 0) -> float:
    """Mean accuracy of the nearest-centroid classifier over a seeded k-fold split: the
    :func:`kfold_accuracy` of :func:`fit_nearest_centroid`'s predictions. A class missing from
    a training part simply cannot be predicted there."""
    return kfold_accuracy(X, y, _nearest_centroid_labels, folds, seed)


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


@dataclass(frozen=True)
class RFECVResult:
    """Outcome of :func:`recursive_feature_elimination_cv`.

    Attributes
    ----------
    fold_mse : ndarray, shape (folds, p)
        Column k - 1: the held-out mean squared error of least squares on the k columns that
        recursive feature elimination on the fold's training rows keeps.
    mean_mse : ndarray, shape (p,)
        ``fold_mse`` averaged over the folds (minus ``sklearn``'s ``RFECV`` mean test score
        with ``scoring="neg_mean_squared_error"`` on the same folds).
    n_features : int
        The number of columns with the smallest mean error; errors equal at
        :data:`~dimred_teach.linalg.TIE_RTOL` relative precision tie, and the tie goes to fewer
        columns.
    elimination : RFEResult
        Recursive feature elimination on all rows down to ``n_features`` columns: its
        ``support`` is the chosen set.
    """

    fold_mse: np.ndarray
    mean_mse: np.ndarray
    n_features: int
    elimination: RFEResult


def _held_out_mse(X_train: np.ndarray, y_train: np.ndarray, X_test: np.ndarray, y_test: np.ndarray) -> float:
    """Mean squared error on the test rows of least squares with an intercept fitted on the training rows."""
    slopes = _least_squares_coefficients(X_train, y_train)
    prediction = y_train.mean() + (X_test - X_train.mean(axis=0)) @ slopes
    return float(np.mean((y_test - prediction) ** 2))


def recursive_feature_elimination_cv(X, y, folds: int = 5, seed: int = 0) -> RFECVResult:
    """Choose how many columns recursive feature elimination keeps, by cross-validation.

    On each fold of a seeded split (the folds of :func:`cross_val_accuracy`), run the
    elimination on the training rows only, and score each number k of columns it keeps by
    the held-out error of least squares on those k columns; keep the k with the smallest
    mean error, then eliminate on all rows down to it. This is
    ``sklearn.feature_selection.RFECV(LinearRegression(), cv=<the same folds>,
    scoring="neg_mean_squared_error")``. Standardise X first (see
    :func:`recursive_feature_elimination`).

    Parameters
    ----------
    X : array_like, shape (n, p)
    y : array_like, shape (n,)
        A numeric target.
    folds : int
        2 <= folds <= n; every training part needs more rows than columns.
    seed : int
        Seed of the split.

    Returns
    -------
    RFECVResult
    """
    X = as_data_matrix(X)
    n, p = X.shape
    target = as_vector(y, name="y", length=n)
    folds = check_int(folds, "folds", minimum=2, maximum=n)
    seed = check_seed(seed)
    parts = _folds(n, folds, seed)
    if n - max(len(part) for part in parts) <= p:
        raise ValueError(f"folds={folds} leaves training parts of {n - max(len(part) for part in parts)} rows for "
                         f"{p} columns; use fewer folds or fewer columns")
    fold_mse = np.empty((folds, p))
    for fold, test in enumerate(parts):
        train = np.setdiff1d(np.arange(n), test)
        eliminated = list(recursive_feature_elimination(X[train], target[train]).eliminated)
        survivor = sorted(set(range(p)) - set(eliminated))
        kept_in_order = survivor + eliminated[::-1]  # the first k of these are the k columns RFE keeps
        for k in range(1, p + 1):
            columns = kept_in_order[:k]
            fold_mse[fold, k - 1] = _held_out_mse(X[np.ix_(train, columns)], target[train],
                                                  X[np.ix_(test, columns)], target[test])
    mean_mse = fold_mse.mean(axis=0)
    n_features = first_best(mean_mse, descending=False) + 1  # ties (at TIE_RTOL) go to the first: fewer columns
    result = RFECVResult(fold_mse, mean_mse, n_features, recursive_feature_elimination(X, target, n_features))
    read_only(result.fold_mse, result.mean_mse)
    return result
