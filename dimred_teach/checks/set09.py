"""Checks of exercise set 09: feature selection versus feature extraction."""

from __future__ import annotations

import functools
import itertools

import numpy as np

from .. import datasets, selection
from . import register
from .properties import answer_array, answer_integer, answer_number, expect, expect_close, in_random_order, is_close


@register("09.t_statistic", hint="t = (mean(a) - mean(b)) / (s * sqrt(1/n_a + 1/n_b)), s^2 the pooled variance "
          "((n_a - 1) s_a^2 + (n_b - 1) s_b^2) / (n_a + n_b - 2)")
def _t_statistic(answer, rng):
    expect(callable(answer), "the answer should be your function two_sample_t(a, b)")
    cases = []
    for _ in range(int(rng.integers(5, 8))):
        n_a, n_b = (int(v) for v in rng.choice(np.arange(4, 30), size=2, replace=False))
        a = rng.normal(rng.normal(), rng.uniform(0.5, 3), n_a)
        b = rng.normal(rng.normal(), rng.uniform(0.5, 3), n_b)
        cases.append((a, b))
    for a, b in in_random_order(rng, cases):
        call = f"two_sample_t(a, b) on samples of sizes {a.size} and {b.size}"
        t = answer_number(answer(a.copy(), b.copy()), call)
        n_a, n_b = a.size, b.size
        difference = a.mean() - b.mean()
        pooled = ((n_a - 1) * a.var(ddof=1) + (n_b - 1) * b.var(ddof=1)) / (n_a + n_b - 2)
        expected = difference / np.sqrt(pooled * (1 / n_a + 1 / n_b))  # = scipy.stats.ttest_ind(a, b).statistic
        expect(not is_close(t, -expected, 1e-8) or expected == 0,
               f"{call} has the wrong sign: t = (mean(a) - mean(b)) / ..., negative when a's mean is smaller")
        welch = difference / np.sqrt(a.var(ddof=1) / n_a + b.var(ddof=1) / n_b)
        expect(not is_close(t, welch, 1e-8), f"{call} is Welch's t (separate variances); use the POOLED variance")
        biased = difference / np.sqrt(((n_a - 1) * a.var() + (n_b - 1) * b.var()) / (n_a + n_b - 2)
                                                 * (1 / n_a + 1 / n_b))
        pooled_biased = difference / np.sqrt((n_a * a.var() + n_b * b.var()) / (n_a + n_b)
                                                        * (1 / n_a + 1 / n_b))
        expect(not any(is_close(t, value, 1e-8) for value in (biased, pooled_biased)),
               f"{call}: s_a^2 and s_b^2 are the sample variances (divide by n - 1, ddof=1), and the pooled "
               "variance divides by n_a + n_b - 2")
        expect_close(t, expected, f"{call} should equal scipy.stats.ttest_ind(a, b).statistic:")


def _next_feature(relevance, redundancy, selected, beta, exclude=True, reduce=np.sum) -> int:
    criterion = relevance - beta * reduce(redundancy[:, selected], axis=1)
    if exclude:
        criterion[selected] = -np.inf
    return int(np.argmax(criterion))


@register("09.incremental_step", hint="score every feature not yet chosen by relevance[j] - beta * "
          "sum of redundancy[j, i] over the chosen i; return the index of the largest")
def _incremental_step(answer, rng):
    expect(callable(answer), "the answer should be your function next_feature(relevance, redundancy, selected, beta)")
    cases, wanted = [], {"exclude": 2, "beta": 2, "sum": 2, "any": int(rng.integers(4, 7))}
    while any(wanted.values()):
        p = int(rng.integers(4, 9))
        half = rng.uniform(0, 0.5, (p, p))
        redundancy = half + half.T
        if rng.random() < 0.5:
            np.fill_diagonal(redundancy, 0.0)  # the exercise says nothing about the diagonal
        case = (rng.uniform(0, 1, p), redundancy,
                [int(i) for i in rng.choice(p, size=int(rng.integers(1, p - 1)), replace=False)],
                float(rng.uniform(0.2, 2.0)))
        # keep cases on which the typical mistakes (selected features not excluded, beta ignored, mean instead
        # of sum) choose another feature, so each mistake shows
        right = _next_feature(*case)
        shows = {"exclude": _next_feature(*case, exclude=False) != right,
                 "beta": _next_feature(case[0], case[1], case[2], 0.0) != right,
                 "sum": _next_feature(*case, reduce=np.mean) != right}
        useful = [kind for kind, value in shows.items() if value and wanted[kind]] or ["any"] * bool(wanted["any"])
        if useful:
            cases.append(case)
            for kind in useful:
                wanted[kind] -= 1
    for relevance, redundancy, selected, beta in in_random_order(rng, cases):
        p = relevance.size
        call = f"next_feature(relevance, redundancy, selected={selected}, beta={beta:.6g}) for {p} features"
        choice = answer_integer(answer(relevance.copy(), redundancy.copy(), list(selected), beta), call)
        expect(0 <= choice < p, f"{call} returned {choice}, which is not a column index 0..{p - 1}")
        expect(choice not in selected, f"{call} returned {choice}, which is already selected")
        criterion = relevance - beta * redundancy[:, selected].sum(axis=1)
        remaining = [j for j in range(p) if j not in selected]
        best = max(remaining, key=lambda j: criterion[j])
        expect(criterion[choice] >= criterion[best] - 1e-12,
               f"{call} returned feature {choice}, whose criterion relevance - beta * (sum of its redundancy with the "
               f"selected) is {criterion[choice]:.6g}; feature {best} reaches {criterion[best]:.6g}")


@register("09.nearest_centroid", hint="centroid of class c = mean of the training rows with label c; each test "
          "row gets the label of the closest centroid (Euclidean distance); the labels may be any integers")
def _nearest_centroid(answer, rng):
    expect(callable(answer), "the answer should be your function nearest_centroid_predict(X_train, y_train, X_test)")
    cases = []
    for _ in range(int(rng.integers(4, 7))):
        classes = int(rng.integers(2, 5))
        labels = rng.choice(np.arange(-20, 100), size=classes, replace=False)  # any integers, not 0..c-1
        p = int(rng.integers(1, 5))
        index = np.concatenate([np.arange(classes), rng.integers(0, classes, 30)])
        X_train = rng.normal(0, 1, (index.size, p)) + rng.normal(0, 2, (classes, p))[index]
        cases.append((X_train, labels[index], rng.normal(0, 3, (int(rng.integers(5, 20)), p))))
    for X_train, y_train, X_test in in_random_order(rng, cases):
        classes = np.unique(y_train)
        call = f"nearest_centroid_predict(X_train, y_train, X_test) with labels {classes.tolist()}"
        predicted = answer_array(answer(X_train.copy(), y_train.copy(), X_test.copy()), call, (X_test.shape[0],))
        expect(bool(np.all(np.isin(predicted, classes))),
               f"{call}: some predicted labels are not among the training labels (did you return centroid indices "
               "0, 1, ...? the labels may be any integers)")
        centroids = np.array([X_train[y_train == c].mean(axis=0) for c in classes])
        distances = ((X_test[:, None, :] - centroids[None]) ** 2).sum(axis=2)
        own = distances[np.arange(X_test.shape[0]), np.searchsorted(classes, predicted)]
        wrong = np.flatnonzero(own > distances.min(axis=1) * (1 + 1e-9) + 1e-12)
        expect(wrong.size == 0, f"{call}: {wrong.size} test row(s) were not given the label of their closest class "
                                "centroid (mean of the class's training rows, Euclidean distance)")


@register("09.mi_from_counts", hint="divide the counts by their total to get p(u, v); the marginals are row and "
          "column sums; sum p log(p / (p_u p_v)) over the non-zero cells, natural log")
def _mi_from_counts(answer, rng):
    expect(callable(answer), "the answer should be your function mi_from_counts(counts)")
    cases = [(np.outer([1, 2, 3], [2, 2, 4]), "a table of independent variables (an outer product), whose I is 0"),
             (np.diag([5, 5, 5, 5]), "a diagonal table of 4 equal counts (one variable determines the other), "
                                     "whose I is log 4")]
    for _ in range(int(rng.integers(4, 7))):
        counts = rng.integers(0, 6, size=tuple(rng.integers(2, 5, size=2)))
        counts[0, 0] += 1
        cases.append((counts, f"a random {counts.shape[0]} x {counts.shape[1]} table of counts"))
    for counts, description in in_random_order(rng, cases):
        rows, cols = np.nonzero(counts)
        expected = selection.discrete_mutual_information(np.repeat(rows, counts[rows, cols]),
                                                         np.repeat(cols, counts[rows, cols]))
        call = f"mi_from_counts(counts) for {description}"
        value = answer_number(answer(counts.copy()), call)
        expect(expected == 0 or not is_close(value, expected / np.log(2), 1e-8),
               f"{call} is in bits (log base 2); use the natural logarithm (nats)")
        expect_close(value, expected, f"{call}:", scale=max(1.0, expected))


@functools.lru_cache(maxsize=1)
def _pair_accuracies() -> dict[tuple[int, int], float]:
    X, y = selection_demo_data()
    return {pair: selection.cross_val_accuracy(X[:, list(pair)], y)
            for pair in itertools.combinations(range(X.shape[1]), 2)}


def selection_demo_data() -> tuple[np.ndarray, np.ndarray]:
    """The data of exercise 09.best_pair: ``datasets.make_selection_demo(seed=0)``."""
    frame = datasets.make_selection_demo(seed=0)
    return frame.drop(columns="label").to_numpy(), frame["label"].to_numpy()


@register("09.best_pair", hint="loop over itertools.combinations(range(5), 2) and keep the pair with the largest "
          "selection.cross_val_accuracy(X[:, list(pair)], y)")
def _best_pair(answer, rng):
    is_pair = isinstance(answer, (tuple, list)) or (isinstance(answer, np.ndarray) and answer.ndim == 1)
    expect(is_pair and len(answer) == 2, f"best_pair should be a pair of two column indices like (0, 4), "
                                         f"got {answer!r}")
    pair = [answer_integer(j, "each entry of best_pair (a column index)") for j in answer]
    accuracy = _pair_accuracies()
    p = max(max(key) for key in accuracy) + 1
    expect(pair[0] != pair[1], f"best_pair should be two different column indices, got {pair}")
    expect(all(0 <= j < p for j in pair), f"column indices run from 0 to {p - 1}, got {pair}")
    best = max(accuracy.values())
    mine = accuracy[tuple(sorted(pair))]
    expect(mine >= best - 1e-12, f"the pair {tuple(pair)} reaches accuracy {mine:.6g}, but some pair reaches "
                                 f"{best:.6g} (columns count from 0)")
