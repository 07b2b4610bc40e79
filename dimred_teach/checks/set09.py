"""Checks of exercise set 09: feature selection versus feature extraction."""

from __future__ import annotations

import itertools

import numpy as np

from .. import datasets, selection
from . import CheckFailure, register
from .properties import (
    WRONG_FORM,
    answer_array,
    answer_integer,
    answer_number,
    drawn_once,
    expect,
    expect_close,
    in_random_order,
    is_close,
    tolerance,
)

FORBIDS = ("dimred_teach.selection.t_statistic",  # 09.t_statistic
           "dimred_teach.selection.discrete_mutual_information",  # 09.mi_from_counts
           "dimred_teach.selection.fit_nearest_centroid",  # 09.nearest_centroid
           "dimred_teach.selection.soft_threshold",  # 09.lasso_coordinate_step
           "dimred_teach.selection.lasso_path",  # 09.lasso_coordinate_step: the path of one column at one alpha
           "dimred_teach.selection.recursive_feature_elimination")  # 09.rfe_ranking
"""What this set's answers may not use (modules or functions of the library): the grader's
kernel for this set does not have them, and ``check()`` fails an answer that uses them
(:mod:`dimred_teach.checks.policy`)."""

MISTAKES = {
    "missing-one-over-n": "the coordinate step without the 1/n",
    "alpha-times-n": "shrinks by alpha * n",
    "no-zero": "a soft threshold that does not set b_j to 0",
    "assumes-standardised": "right only for standardised columns",
    "full-residual": "the full residual, with feature j left in",
    "unstandardised": "features ranked in their own units, not standardised",
    "drops-largest": "drops the largest coefficient first",
    "no-refit": "no refit after each elimination",
    "reversed": "the ranking reversed",
    "wrong-sign": "t with the wrong sign",
    "welch": "Welch's t instead of the pooled t",
    "population-variances": "population variances (1/n)",
    "wrong-t": "not the pooled two-sample t",
    "selected-again": "a feature already selected",
    "wrong-criterion": "not the feature with the best relevance - beta * redundancy",
    "labels-assumed": "labels assumed to be 0..c-1",
    "wrong-centroid": "not the nearest centroid's label",
    "bits": "bits (log2) instead of nats",
    "wrong-mi": "not the mutual information of the table (counts not normalised?)",
    "column-twice": "one column twice",
    "counted-from-1": "columns counted from 1",
    "not-best-pair": "not the best pair",
    "best-singles": "the two best single features, not the best pair",
    "not-zeroed": "not set to 0 below the threshold",
    "wrong-step": "not the coordinate-descent update",
    "ranks-from-0": "ranks counted from 0",
    "wrong-ranking": "not the ranking of recursive elimination",
}
"""The typical mistakes this set's checks name: id (stable, counted by ``dimred-teach class-report``) to
short name. A failure no named mistake explains is ``other``."""


def _t_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Two normal samples of different sizes on which the pooled t is at least 0.05 in size and Welch's t differs
    from it by at least 0.1%. Near t = 0 every mistake is as small as t, and rounding the data to float32 (which
    moves t by about 1e-8 times the data's size over s * sqrt(1/n_a + 1/n_b)) is no longer small against t; with
    nearly equal sample variances Welch's t is the pooled t to float32 precision."""
    while True:
        n_a, n_b = (int(v) for v in rng.choice(np.arange(4, 30), size=2, replace=False))
        a = rng.normal(rng.normal(), rng.uniform(0.5, 3), n_a)
        b = rng.normal(rng.normal(), rng.uniform(0.5, 3), n_b)
        pooled = ((n_a - 1) * a.var(ddof=1) + (n_b - 1) * b.var(ddof=1)) / (n_a + n_b - 2) * (1 / n_a + 1 / n_b)
        welch = a.var(ddof=1) / n_a + b.var(ddof=1) / n_b
        if abs(a.mean() - b.mean()) >= 0.05 * np.sqrt(pooled) and abs(np.sqrt(welch / pooled) - 1) >= 1e-3:
            return a, b


@register("09.t_statistic", hint="t = (mean(a) - mean(b)) / (s * sqrt(1/n_a + 1/n_b)), s^2 the pooled variance "
          "((n_a - 1) s_a^2 + (n_b - 1) s_b^2) / (n_a + n_b - 2)")
def _t_statistic(answer, rng):
    expect(callable(answer), "the answer should be your function two_sample_t(a, b)")
    cases = [_t_case(rng) for _ in range(int(rng.integers(5, 8)))]
    if len({a.mean() > b.mean() for a, b in cases}) == 1:  # t of both signs, or |t| would pass as t
        cases[0] = cases[0][::-1]
    for a, b in in_random_order(rng, cases):
        call = f"two_sample_t(a, b) on samples of sizes {a.size} and {b.size}"
        t = answer_number(answer(a.copy(), b.copy()), call)
        n_a, n_b = a.size, b.size
        difference = a.mean() - b.mean()
        pooled = ((n_a - 1) * a.var(ddof=1) + (n_b - 1) * b.var(ddof=1)) / (n_a + n_b - 2)
        expected = difference / np.sqrt(pooled * (1 / n_a + 1 / n_b))  # = scipy.stats.ttest_ind(a, b).statistic
        expect(not is_close(t, -expected, 1e-8) or expected == 0,
               f"{call} has the wrong sign: t = (mean(a) - mean(b)) / ..., negative when a's mean is smaller",
               mistake="wrong-sign")
        welch = difference / np.sqrt(a.var(ddof=1) / n_a + b.var(ddof=1) / n_b)
        expect(not is_close(t, welch, 1e-8), f"{call} is Welch's t (separate variances); use the POOLED variance",
               mistake="welch")
        biased = difference / np.sqrt(((n_a - 1) * a.var() + (n_b - 1) * b.var()) / (n_a + n_b - 2)
                                                 * (1 / n_a + 1 / n_b))
        pooled_biased = difference / np.sqrt((n_a * a.var() + n_b * b.var()) / (n_a + n_b)
                                                        * (1 / n_a + 1 / n_b))
        expect(not any(is_close(t, value, 1e-8) for value in (biased, pooled_biased)),
               f"{call}: s_a^2 and s_b^2 are the sample variances (divide by n - 1, ddof=1), and the pooled "
               "variance divides by n_a + n_b - 2", mistake="population-variances")
        expect_close(t, expected, f"{call} should equal scipy.stats.ttest_ind(a, b).statistic:", mistake="wrong-t")


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
        # of sum) choose another feature, so each mistake shows; the other cases are ones on which the first
        # candidate (what a loop that never updates its best returns) is not the answer either: at least 4 of
        # them, so an answer that is right on its first few calls and then guesses still fails
        right = _next_feature(*case)
        shows = {"exclude": _next_feature(*case, exclude=False) != right,
                 "beta": _next_feature(case[0], case[1], case[2], 0.0) != right,
                 "sum": _next_feature(*case, reduce=np.mean) != right}
        first = min(set(range(p)) - set(case[2]))
        useful = ([kind for kind, value in shows.items() if value and wanted[kind]]
                  or ["any"] * bool(wanted["any"] and right != first))
        if useful:
            cases.append(case)
            for kind in useful:
                wanted[kind] -= 1
    for relevance, redundancy, selected, beta in in_random_order(rng, cases):
        p = relevance.size
        call = f"next_feature(relevance, redundancy, selected={selected}, beta={beta:.6g}) for {p} features"
        choice = answer_integer(answer(relevance.copy(), redundancy.copy(), list(selected), beta), call)
        expect(0 <= choice < p, f"{call} returned {choice}, which is not a column index 0..{p - 1}")
        expect(choice not in selected, f"{call} returned {choice}, which is already selected", mistake="selected-again")
        criterion = relevance - beta * redundancy[:, selected].sum(axis=1)
        remaining = [j for j in range(p) if j not in selected]
        best = max(remaining, key=lambda j: criterion[j])
        expect(criterion[choice] >= criterion[best] - 1e-12,
               f"{call} returned feature {choice}, whose criterion relevance - beta * (sum of its redundancy with the "
               f"selected) is {criterion[choice]:.6g}; another feature not yet selected reaches a higher one",
               mistake="wrong-criterion")


def _centroid_labels(X_train: np.ndarray, y_train: np.ndarray, X_test: np.ndarray) -> dict[str, np.ndarray]:
    """The labels of the rows of X_test by the nearest centroid, and by two typical mistakes, by name."""
    classes = np.unique(y_train)
    centroids = np.array([X_train[y_train == c].mean(axis=0) for c in classes])
    difference = X_test[:, None, :] - centroids[None]
    nearest_row = (((X_test[:, None, :] - X_train[None]) ** 2).sum(axis=2)).argmin(axis=1)
    return {"right": classes[(difference**2).sum(axis=2).argmin(axis=1)],
            "manhattan": classes[np.abs(difference).sum(axis=2).argmin(axis=1)],
            "training-row": y_train[nearest_row]}  # 1-nearest neighbour, not the centroid


@register("09.nearest_centroid", hint="centroid of class c = mean of the training rows with label c; each test "
          "row gets the label of the closest centroid (Euclidean distance); the labels may be any integers")
def _nearest_centroid(answer, rng):
    expect(callable(answer), "the answer should be your function nearest_centroid_predict(X_train, y_train, X_test)")
    # on every case the test rows get at least two labels (one label for all would pass a constant answer); at
    # least one case on which the Manhattan distance changes some label (on one column, or with no test row near
    # a boundary, the two distances agree), and one on which the nearest training row does; 4 to 6 cases in all
    cases, wanted = [], {"manhattan": 1, "training-row": 1, "any": int(rng.integers(3, 5))}
    while any(wanted.values()):
        classes = int(rng.integers(2, 5))
        labels = rng.choice(np.arange(-20, 100), size=classes, replace=False)  # any integers, not 0..c-1
        p = int(rng.integers(1, 5))
        index = np.concatenate([np.arange(classes), rng.integers(0, classes, 30)])
        X_train = rng.normal(0, 1, (index.size, p)) + rng.normal(0, 2, (classes, p))[index]
        case = (X_train, labels[index], rng.normal(0, 3, (int(rng.integers(5, 20)), p)))
        found = _centroid_labels(*case)
        if np.unique(found["right"]).size < 2:
            continue
        useful = [kind for kind in ("manhattan", "training-row")
                  if wanted[kind] and not np.array_equal(found[kind], found["right"])]
        useful = useful or ["any"] * bool(wanted["any"])
        if useful:
            cases.append(case)
            for kind in useful:
                wanted[kind] -= 1
    for X_train, y_train, X_test in in_random_order(rng, cases):
        classes = np.unique(y_train)
        call = f"nearest_centroid_predict(X_train, y_train, X_test) with labels {classes.tolist()}"
        predicted = answer_array(answer(X_train.copy(), y_train.copy(), X_test.copy()), call, (X_test.shape[0],))
        expect(bool(np.all(np.isin(predicted, classes))),
               f"{call}: some predicted labels are not among the training labels (did you return centroid indices "
               "0, 1, ...? the labels may be any integers)", mistake="labels-assumed")
        centroids = np.array([X_train[y_train == c].mean(axis=0) for c in classes])
        distances = ((X_test[:, None, :] - centroids[None]) ** 2).sum(axis=2)
        own = distances[np.arange(X_test.shape[0]), np.searchsorted(classes, predicted)]
        wrong = np.flatnonzero(own > distances.min(axis=1) * (1 + 1e-9) + 1e-12)
        expect(wrong.size == 0, f"{call}: {wrong.size} test row(s) were not given the label of their closest class "
                                "centroid (mean of the class's training rows, Euclidean distance)",
               mistake="wrong-centroid")


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
               f"{call} is in bits (log base 2); use the natural logarithm (nats)", mistake="bits")
        expect_close(value, expected, f"{call}:", scale=max(1.0, expected), mistake="wrong-mi")


def random_pairs_data(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A fresh sample of the lecture's demo data (:func:`dimred_teach.datasets.make_selection_demo`), its five
    columns in a random order: X of shape (n, 5) and the labels, shape (n,)."""
    frame = datasets.make_selection_demo(n=2 * int(rng.integers(50, 120)), seed=int(rng.integers(2**31)))
    X = frame[rng.permutation(["strong", "strong_copy", "pair_a", "pair_b", "noise"])].to_numpy()
    return X, frame["label"].to_numpy()


@drawn_once()
def _pairs_case(rng: np.random.Generator, best_last: bool = False) -> tuple[np.ndarray, np.ndarray, dict]:
    """:func:`random_pairs_data` (X of shape (n, 5), labels of shape (n,)) and the cross-validated accuracy of
    the nearest-centroid classifier on each pair of columns, by pair (j, k), j < k. With ``best_last``, the last
    column is in every best pair (the sample is drawn again when the best pairs share no column): columns counted
    from 1 then reach index 5 whichever best pair an answer finds. Drawn once per state of ``rng``
    (:func:`~dimred_teach.checks.properties.drawn_once`): the ten cross-validations take most of 09.best_pair's
    time."""
    while True:
        X, y = random_pairs_data(rng)
        accuracy = {key: selection.cross_val_accuracy(X[:, list(key)], y)
                    for key in itertools.combinations(range(X.shape[1]), 2)}
        if not best_last:
            return X, y, accuracy
        best = max(accuracy.values())
        shared = set.intersection(*(set(key) for key, value in accuracy.items() if value >= best - 1e-12))
        if shared:
            break
    last = min(shared)
    order = [k for k in range(X.shape[1]) if k != last] + [last]
    moved = {k: order.index(k) for k in order}  # a column's index after the move
    # a pair's accuracy does not depend on the order of its two columns (nor of the others)
    return X[:, order], y, {tuple(sorted((moved[j], moved[k]))): value for (j, k), value in accuracy.items()}


def _answer_pair(found, call: str) -> tuple[int, int]:
    is_pair = isinstance(found, (tuple, list)) or (isinstance(found, np.ndarray) and found.ndim == 1)
    expect(is_pair and len(found) == 2, f"{call} should return a pair of two column indices like (0, 4), got "
                                        f"{found!r}", WRONG_FORM)
    return tuple(answer_integer(j, f"each entry of {call} (a column index)") for j in found)


@register("09.best_pair", hint="loop over itertools.combinations(range(X.shape[1]), 2) and keep the pair with the "
          "largest selection.kfold_accuracy(X[:, list(pair)], y, nearest_centroid_predict)")
def _best_pair(answer, rng):
    cases = [_pairs_case(rng, best_last=True)] + [_pairs_case(rng) for _ in range(int(rng.integers(2, 4)))]
    failures = []
    for X, y, accuracy in in_random_order(rng, cases):
        try:
            _best_pair_on(answer, X, y, accuracy)
        except CheckFailure as failure:
            failures.append(failure)
    if failures:  # a mistake one instance names (columns counted from 1 show where an index reaches p)
        raise min(failures, key=lambda failure: ["counted-from-1", "best-singles", "not-best-pair"].index(
            failure.mistake) if failure.mistake in ("counted-from-1", "best-singles", "not-best-pair") else -1)


def _best_pair_on(answer, X: np.ndarray, y: np.ndarray, accuracy: dict) -> None:
    """Check one answer of 09.best_pair on X (n, p), labels y (n,) and the accuracy of each pair of columns."""
    call = f"best_pair(X, y) for X of shape {X.shape}"
    pair = _answer_pair(answer(X.copy(), y.copy()), call)
    p = X.shape[1]
    expect(pair[0] != pair[1], f"{call} should be two different column indices, got {pair}", mistake="column-twice")
    best = max(accuracy.values())
    shifted = tuple(sorted(j - 1 for j in pair))
    expect(not (max(pair) == p and accuracy.get(shifted, 0) >= best - 1e-12),
           f"{call} = {pair}: column indices run from 0 to {p - 1} (count from 0)", mistake="counted-from-1")
    expect(all(0 <= j < p for j in pair), f"{call} = {pair}: column indices run from 0 to {p - 1}")
    a, b = X[y == 1], X[y == 0]
    t = np.abs(a.mean(axis=0) - b.mean(axis=0)) / np.sqrt(a.var(axis=0, ddof=1) + b.var(axis=0, ddof=1))
    singles = tuple(sorted(np.argsort(t)[-2:].tolist()))  # classes of equal size: |t| up to a common factor
    mine = tuple(sorted(pair))
    expect(mine != singles or accuracy[mine] >= best - 1e-12, f"{call} = {pair} are the two best single features "
           "(largest |t|); another pair reaches a higher accuracy together", mistake="best-singles")
    expect(accuracy[mine] >= best - 1e-12, f"{call} = {pair} reaches accuracy {accuracy[mine]:.6g}, but another "
                                           "pair reaches a higher one", mistake="not-best-pair")


def _soft(z: float, threshold: float) -> float:
    return float(selection.soft_threshold(z, threshold))


def _coordinate_values(X, y, b, j, alpha) -> dict[str, float]:
    """The right new b_j and the values of the typical mistakes, by name."""
    n = X.shape[0]
    squared = X[:, j] @ X[:, j] / n
    z = X[:, j] @ (y - X @ b + X[:, j] * b[j]) / n
    return {
        "right": _soft(z, alpha) / squared,
        "missing-one-over-n": _soft(n * z, alpha) / (n * squared),  # x_j' r and x_j' x_j without the 1/n
        "alpha-times-n": _soft(z, alpha * n) / squared,
        "no-zero": (z - np.copysign(alpha, z)) / squared,
        "assumes-standardised": _soft(z, alpha),  # no division by x_j' x_j / n
        "full-residual": _soft(X[:, j] @ (y - X @ b) / n, alpha) / squared,
    }


COORDINATE_MISTAKES = {
    "missing-one-over-n": "the threshold is applied to x_j' r without the 1/n (it shrinks by alpha/n instead of "
                          "alpha): use z = x_j' r_j / n and divide by x_j' x_j / n",
    "alpha-times-n": "it shrinks by alpha * n; with the 1/n in z = x_j' r_j / n the threshold is alpha itself",
    "no-zero": "the soft threshold must set b_j to exactly 0 when |z| <= alpha; you subtracted alpha * sign(z) "
               "without the max(|z| - alpha, 0)",
    "assumes-standardised": "it is right only for standardised columns: divide S(z, alpha) by x_j' x_j / n "
                    "(the columns here are not standardised)",
    "full-residual": "the residual r_j must leave out feature j (y - X b + x_j b_j); you used y - X b",
}


def _coordinate_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, float]:
    """X (n, p), not standardised, y (n,), b (p,), a column j and z = x_j' r_j / n, with |z| at least 1% of the sum
    of the sizes of its terms, sum_i |x_ij| (|y_i| + sum_k |x_ik b_k|) / n. Rounding the data to float32 moves z by
    up to 3 units of float32's rounding (about 2e-7) of that sum: a z that cancels down to 2e-5 of it (drawn now
    and then) can be off by 1%, far beyond float32's tolerance; at 1% the error stays below 2e-5 of z, within it
    (a nonzero step is at least 0.4 |z| / (x_j' x_j / n), and float32's tolerance is 1.2e-4 of that)."""
    while True:
        n, p = int(rng.integers(10, 40)), int(rng.integers(2, 6))
        X = rng.normal(0, 1, (n, p)) * rng.uniform(0.3, 3, p) + rng.normal(0, 1, p)  # not standardised
        y = X @ rng.normal(0, 1, p) + rng.normal(0, 1, n)
        b, j = rng.normal(0, 1, p), int(rng.integers(p))
        z = X[:, j] @ (y - X @ b + X[:, j] * b[j]) / n
        if abs(z) >= 0.01 * np.abs(X[:, j]) @ (np.abs(y) + np.abs(X) @ np.abs(b)) / n:
            return X, y, b, j, float(z)


@register("09.lasso_coordinate_step", hint="z = x_j' (y - X b + x_j b_j) / n; return sign(z) * max(|z| - alpha, 0) "
          "/ (x_j' x_j / n)")
def _lasso_coordinate_step(answer, rng):
    expect(callable(answer), "the answer should be your function lasso_coordinate_step(X, y, b, j, alpha)")
    cases = []
    for zero in [True] * 2 + [False] * int(rng.integers(3, 5)):
        X, y, b, j, z = _coordinate_case(rng)
        # zero cases: |z| < alpha (the answer is exactly 0); others: alpha well below |z|
        alpha = abs(z) * (rng.uniform(1.2, 3.0) if zero else rng.uniform(0.1, 0.6))
        cases.append((X, y, b, j, float(alpha)))
    for X, y, b, j, alpha in in_random_order(rng, cases):
        call = f"lasso_coordinate_step(X, y, b, j={j}, alpha={alpha:.6g}) with X of shape {X.shape}"
        value = answer_number(answer(X.copy(), y.copy(), b.copy(), j, alpha), call)
        values = _coordinate_values(X, y, b, j, alpha)
        right = values["right"]
        scale = max(abs(values["no-zero"]), abs(values["assumes-standardised"]), 1e-300)
        # a value can match two mistakes at once (both 0, say): name every one it matches
        matched = [mistake for mistake in COORDINATE_MISTAKES
                   if is_close(value, values[mistake], 1e-8, scale)
                   and not is_close(values[mistake], right, 1e-8, scale)]
        expect(not matched, f"{call}: " + "; or: ".join(COORDINATE_MISTAKES[m] for m in matched),
               matched[0] if matched else "other")
        if right == 0:
            expect(abs(value) <= tolerance(1e-8) * scale,
                   f"{call} should be exactly 0: here |z| = |x_j' r_j| / n is below alpha, and the soft threshold "
                   f"sets b_j to 0; got {value:.6g}", mistake="not-zeroed")
        expect_close(value, right, f"{call}:", scale=scale, mistake="wrong-step")


def _rfe(Z: np.ndarray, y: np.ndarray, smallest: bool = True, refit: bool = True) -> tuple[np.ndarray, float]:
    """RFE ranking of least squares on the columns of Z, and the smallest relative gap between the
    dropped |coefficient| and the next one (how far the case is from a tie)."""
    p = Z.shape[1]
    Zc, yc = Z - Z.mean(axis=0), y - y.mean()  # centring a column does not depend on the others
    remaining, ranking, gap = list(range(p)), np.ones(p, dtype=int), np.inf
    first = np.abs(np.linalg.lstsq(Zc, yc, rcond=None)[0])
    while len(remaining) > 1:
        if refit and len(remaining) < p:
            size = np.abs(np.linalg.lstsq(Zc[:, remaining], yc, rcond=None)[0])
        else:
            size = first[remaining]
        order = np.argsort(size if smallest else -size)
        gap = min(gap, abs(size[order[1]] - size[order[0]]) / size.max())
        dropped = remaining.pop(int(order[0]))
        ranking[dropped] = len(remaining) + 1
    return ranking, gap


RFE_MISTAKES = {
    "unstandardised": "ranks the columns in their own units: standardise them first (subtract the mean, "
           "divide by the standard deviation), so the coefficients are comparable",
    "drops-largest": "drops the feature with the LARGEST |coefficient| first; drop the smallest",
    "no-refit": "ranks by the |coefficients| of the first fit only: refit on the remaining features after "
                "each elimination",
    "reversed": "gives the ranking reversed: ranking 1 is the feature that survives, p the one dropped first",
}


@register("09.rfe_ranking", hint="standardise the columns; while more than one feature is left: least squares on "
          "the remaining ones, drop the smallest |coefficient|, give it rank = number still left + 1")
def _rfe_ranking(answer, rng):
    expect(callable(answer), "the answer should be your function rfe_ranking(X, y)")
    cases, wanted = [], {mistake: 1 for mistake in RFE_MISTAKES} | {"any": int(rng.integers(5, 7))}
    while any(wanted.values()):
        n, p = int(rng.integers(30, 80)), int(rng.integers(4, 7))
        mixing = np.eye(p) + rng.normal(0, 0.6, (p, p))
        X = (rng.normal(0, 1, (n, p)) @ mixing) * rng.uniform(0.1, 10, p) + rng.normal(0, 3, p)
        y = (X / X.std(axis=0)) @ rng.normal(0, 1, p) + rng.normal(0, 1, n)
        Z = (X - X.mean(axis=0)) / X.std(axis=0)
        (right, gap), (unstandardised, unstandardised_gap) = _rfe(Z, y), _rfe(X, y)
        if gap < 1e-3 or unstandardised_gap < 1e-3:  # stay far from ties, where float32 might flip the order
            continue
        mistakes = {"unstandardised": unstandardised, "drops-largest": _rfe(Z, y, smallest=False)[0],
                    "no-refit": _rfe(Z, y, refit=False)[0], "reversed": p + 1 - right}
        wrong = [tuple(ranking) for ranking in mistakes.values() if not np.array_equal(ranking, right)]
        if len(set(wrong)) < len(wrong):  # two mistakes give one ranking: the case cannot tell which was made
            continue
        useful = [m for m, ranking in mistakes.items() if wanted[m] and not np.array_equal(ranking, right)]
        # at least 5 cases in all, on which 1..p (the columns left in their order, an answer that never drops
        # anything) is not the ranking: an answer right on its first few calls that then guesses it still fails
        useful += ["any"] * bool(wanted["any"] and not np.array_equal(right, np.arange(1, p + 1)))
        if useful:
            cases.append((X, y, right, mistakes))
            for mistake in useful:
                wanted[mistake] -= 1
    for X, y, right, mistakes in in_random_order(rng, cases):
        p = X.shape[1]
        call = f"rfe_ranking(X, y) with X of shape {X.shape}"
        ranking = answer_array(answer(X.copy(), y.copy()), call, (p,))
        expect(bool(np.all(ranking == np.round(ranking))), f"{call} should return whole numbers 1..{p}")
        ranking = np.round(ranking).astype(int)
        expect(sorted(ranking.tolist()) == list(range(1, p + 1)),
               f"{call} should give each of the ranks 1..{p} once, got {ranking.tolist()}", mistake="ranks-from-0")
        matched = [mistake for mistake in RFE_MISTAKES
                   if np.array_equal(ranking, mistakes[mistake]) and not np.array_equal(ranking, right)]
        expect(not matched, f"{call} gave {ranking.tolist()}; it " + "; or it ".join(RFE_MISTAKES[m] for m in matched),
               matched[0] if matched else "other")
        expect(np.array_equal(ranking, right), f"{call} gave {ranking.tolist()}, which is not the ranking of "
                                               "recursive elimination of the smallest |coefficient|",
               mistake="wrong-ranking")
