"""Mutual information of discretised features with the labels, and the incremental criterion
that penalises features redundant with those already chosen (Georgia Tech ECE 6254 notes,
"Avoiding redundant features")."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._read_only import read_only
from .._validation import NONNEGATIVE, as_data_matrix, check_int, check_k, check_real
from ..linalg import first_best
from .filters import _as_labels


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


def contingency_table(a, b) -> np.ndarray:
    """How often each pair of values of two discrete label vectors occurs together.

    Parameters
    ----------
    a, b : array_like, shape (n,) each
        Labels of any kind (numbers or strings; labels of mixed types are compared as text).

    Returns
    -------
    ndarray of int, shape (number of distinct values of a, number of distinct values of b)
        ``table[u, v]`` counts the i with a[i] the u-th and b[i] the v-th distinct value, in
        sorted order; the entries sum to n.
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
    table = np.zeros((a_codes.max() + 1, b_codes.max() + 1), dtype=np.int64)
    np.add.at(table, (a_codes, b_codes), 1)
    return table


def discrete_mutual_information(a, b) -> float:
    """Mutual information I(a; b) in nats of two discrete label vectors, shape (n,) each.

    I(a; b) = sum over values (u, v) of p(u, v) log(p(u, v) / (p(u) p(v))), with the
    probabilities estimated by relative frequencies (:func:`contingency_table` divided by n,
    as ``sklearn.metrics.mutual_info_score``).
    """
    table = contingency_table(a, b)
    joint = table / table.sum()
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
        for other in range(j, p):
            redundancy[j, other] = redundancy[other, j] = discrete_mutual_information(codes[:, j], codes[:, other])
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
