"""Checks of exercise set 09: feature selection versus feature extraction."""

from __future__ import annotations

import itertools

import numpy as np
import scipy.stats

from .. import datasets, selection
from . import CheckFailure, register
from .properties import expect, expect_close


def _number(value, what: str) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise CheckFailure(f"{what} should be a single number, got {type(value).__name__}") from None
    expect(np.isfinite(number), f"{what} is NaN or inf")
    return number


@register("09.t_statistic", hint="t = (mean(a) - mean(b)) / (s * sqrt(1/n_a + 1/n_b)), s^2 the pooled variance "
          "((n_a - 1) s_a^2 + (n_b - 1) s_b^2) / (n_a + n_b - 2)")
def _t_statistic(answer, rng):
    expect(callable(answer), "the answer should be your function two_sample_t(a, b)")
    for _ in range(5):
        n_a, n_b = rng.integers(4, 30, size=2)
        a = rng.normal(rng.normal(), rng.uniform(0.5, 3), n_a)
        b = rng.normal(rng.normal(), rng.uniform(0.5, 3), n_b)
        t = _number(answer(a.copy(), b.copy()), "two_sample_t(a, b)")
        expected = scipy.stats.ttest_ind(a, b).statistic
        expect_close(t, expected, f"two_sample_t on samples of sizes {n_a} and {n_b} "
                     "(it should equal scipy.stats.ttest_ind(a, b).statistic)", atol=1e-8)


@register("09.incremental_step", hint="score every feature not yet chosen by relevance[j] - beta * "
          "sum of redundancy[j, i] over the chosen i; return the index of the largest")
def _incremental_step(answer, rng):
    expect(callable(answer), "the answer should be your function next_feature(relevance, redundancy, selected, beta)")
    for _ in range(8):
        p = int(rng.integers(4, 9))
        relevance = rng.uniform(0, 1, p)
        half = rng.uniform(0, 0.5, (p, p))
        redundancy = half + half.T
        selected = [int(i) for i in rng.choice(p, size=int(rng.integers(1, p - 1)), replace=False)]
        beta = float(rng.uniform(0.2, 2.0))
        choice = answer(relevance.copy(), redundancy.copy(), list(selected), beta)
        expect(isinstance(choice, (int, np.integer)), f"next_feature should return an integer index, got {choice!r}")
        choice = int(choice)
        expect(0 <= choice < p, f"next_feature returned {choice}, which is not a column index 0..{p - 1}")
        expect(choice not in selected, f"next_feature returned {choice}, which is already selected {selected}")
        criterion = relevance - beta * redundancy[:, selected].sum(axis=1)
        remaining = [j for j in range(p) if j not in selected]
        expect(criterion[choice] >= criterion[remaining].max() - 1e-12,
               f"feature {choice} does not maximise relevance - beta * redundancy among the remaining "
               f"features {remaining} (beta = {beta:.3f})")


@register("09.nearest_centroid", hint="centroid of class c = mean of the training rows with label c; each test "
          "row gets the label of the closest centroid (Euclidean distance)")
def _nearest_centroid(answer, rng):
    expect(callable(answer), "the answer should be your function nearest_centroid_predict(X_train, y_train, X_test)")
    for _ in range(4):
        classes = int(rng.integers(2, 5))
        p = int(rng.integers(1, 5))
        y_train = np.concatenate([np.arange(classes), rng.integers(0, classes, 30)])
        X_train = rng.normal(0, 1, (y_train.size, p)) + rng.normal(0, 2, (classes, p))[y_train]
        X_test = rng.normal(0, 3, (int(rng.integers(5, 20)), p))
        predicted = np.asarray(answer(X_train.copy(), y_train.copy(), X_test.copy()))
        expect(predicted.shape == (X_test.shape[0],),
               f"nearest_centroid_predict should return one label per test row, shape ({X_test.shape[0]},), "
               f"got shape {predicted.shape}")
        centroids = np.array([X_train[y_train == c].mean(axis=0) for c in range(classes)])
        distances = ((X_test[:, None, :] - centroids[None]) ** 2).sum(axis=2)
        expect(bool(np.all(np.isin(predicted, np.arange(classes)))),
               "some predicted labels are not among the training labels")
        own = distances[np.arange(X_test.shape[0]), predicted.astype(int)]
        wrong = np.flatnonzero(own > distances.min(axis=1) + 1e-9)
        expect(wrong.size == 0, f"{wrong.size} test row(s) were not given the label of their closest class centroid")


@register("09.mi_from_counts", hint="divide the counts by their total to get p(u, v); the marginals are row and "
          "column sums; sum p log(p / (p_u p_v)) over the non-zero cells, natural log")
def _mi_from_counts(answer, rng):
    expect(callable(answer), "the answer should be your function mi_from_counts(counts)")
    independent = np.outer([1, 2, 3], [2, 2, 4])
    expect_close(_number(answer(independent.copy()), "mi_from_counts"), 0.0,
                 "for a table of independent variables (an outer product) the mutual information should be 0")
    diagonal = np.diag([5, 5, 5, 5])
    expect_close(_number(answer(diagonal.copy()), "mi_from_counts"), np.log(4),
                 "when one variable determines the other (a diagonal table of 4 equal counts) I = log 4 "
                 "(natural logarithm, nats)")
    for _ in range(5):
        counts = rng.integers(0, 6, size=tuple(rng.integers(2, 5, size=2)))
        counts[0, 0] += 1
        rows, cols = np.nonzero(counts)
        a = np.repeat(rows, counts[rows, cols])
        b = np.repeat(cols, counts[rows, cols])
        expect_close(_number(answer(counts.copy()), "mi_from_counts"), selection.discrete_mutual_information(a, b),
                     f"mi_from_counts on a random {counts.shape[0]} x {counts.shape[1]} table of counts", atol=1e-10)


def selection_demo_data() -> tuple[np.ndarray, np.ndarray]:
    """The data of exercise 09.best_pair: ``datasets.make_selection_demo(seed=0)``."""
    frame = datasets.make_selection_demo(seed=0)
    return frame.drop(columns="label").to_numpy(), frame["label"].to_numpy()


@register("09.best_pair", hint="loop over itertools.combinations(range(5), 2) and keep the pair with the largest "
          "selection.cross_val_accuracy(X[:, list(pair)], y)")
def _best_pair(answer, rng):
    try:
        pair = [int(j) for j in answer]
    except (TypeError, ValueError):
        raise CheckFailure(f"best_pair should be two column indices like (0, 4), got {answer!r}") from None
    X, y = selection_demo_data()
    expect(len(pair) == 2 and len(set(pair)) == 2, f"best_pair should be two different column indices, got {pair}")
    expect(all(0 <= j < X.shape[1] for j in pair), f"column indices run from 0 to {X.shape[1] - 1}, got {pair}")
    accuracy = {p: selection.cross_val_accuracy(X[:, list(p)], y) for p in itertools.combinations(range(X.shape[1]), 2)}
    best = max(accuracy.values())
    mine = accuracy[tuple(sorted(pair))]
    expect(mine >= best - 1e-12, f"the pair {pair} reaches accuracy {mine:.4f}, but some pair reaches {best:.4f}")
