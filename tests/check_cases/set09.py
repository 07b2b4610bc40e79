"""Variants and mutants of exercise set 09, feature selection versus feature extraction."""

import itertools

import numpy as np
import scipy.stats

from dimred_teach import selection

from . import Mutant, Variant, first_calls_then, given, in_float32, returning, solution


def t_stat(a, b, ddof=1, welch=False):
    n_a, n_b = len(a), len(b)
    if welch:
        return float((a.mean() - b.mean()) / np.sqrt(a.var(ddof=1) / n_a + b.var(ddof=1) / n_b))
    pooled = ((n_a - 1) * a.var(ddof=ddof) + (n_b - 1) * b.var(ddof=ddof)) / (n_a + n_b - 2)
    return float((a.mean() - b.mean()) / np.sqrt(pooled * (1 / n_a + 1 / n_b)))


def next_feature(relevance, redundancy, selected, beta, exclude=True, reduce=np.sum):
    criterion = relevance - beta * reduce(redundancy[:, list(selected)], axis=1)
    if exclude:
        criterion[list(selected)] = -np.inf
    return int(np.argmax(criterion))


def next_feature_loop(relevance, redundancy, selected, beta):
    best, best_j = -np.inf, None
    for j in range(len(relevance)):
        if j in selected:
            continue
        value = relevance[j] - beta * sum(redundancy[j][i] for i in selected)
        if value > best:
            best, best_j = value, j
    return best_j


def nearest(X_train, y_train, X_test, metric="euclidean", return_index=False, centre=np.mean):
    classes = np.unique(y_train)
    centroids = np.array([centre(X_train[y_train == c], axis=0) for c in classes])
    difference = X_test[:, None, :] - centroids[None]
    distances = np.abs(difference).sum(2) if metric == "manhattan" else (difference**2).sum(2)
    index = np.argmin(distances, axis=1)
    return index if return_index else classes[index]


def mi(counts, log=np.log):
    joint = np.asarray(counts, dtype=float) / np.sum(counts)
    product = joint.sum(1, keepdims=True) * joint.sum(0, keepdims=True)
    nonzero = joint > 0
    return float(np.sum(joint[nonzero] * log(joint[nonzero] / product[nonzero])))


def mi_entropies(counts):
    joint = np.asarray(counts, dtype=float) / np.sum(counts)

    def entropy(p):
        p = p[p > 0]
        return -np.sum(p * np.log(p))

    return entropy(joint.sum(1)) + entropy(joint.sum(0)) - entropy(joint.ravel())


def soft(z, threshold):
    return np.sign(z) * max(abs(z) - threshold, 0.0)


def coordinate_step(X, y, b, j, alpha, scale_n=1.0, shrink=1.0, zero=True, divide=True, partial=True):
    """One LASSO coordinate step; the keywords switch on the typical mistakes."""
    n = X.shape[0]
    residual = y - X @ b + (X[:, j] * b[j] if partial else 0.0)
    z = X[:, j] @ residual / n * scale_n
    shrunk = soft(z, alpha * shrink) if zero else z - np.sign(z) * alpha * shrink
    return float(shrunk / (X[:, j] @ X[:, j] / n * scale_n) if divide else shrunk)


def coordinate_step_cases(X, y, b, j, alpha):
    """The same step written as the three cases of the subgradient condition, with loops."""
    n, p = len(X), len(X[0])
    rho = sum(X[i][j] * (y[i] - sum(X[i][k] * b[k] for k in range(p) if k != j)) for i in range(n)) / n
    squared = sum(X[i][j] ** 2 for i in range(n)) / n
    if rho > alpha:
        return (rho - alpha) / squared
    if rho < -alpha:
        return (rho + alpha) / squared
    return 0.0


def rfe(X, y, standardise=True, smallest=True, refit=True, reverse=False, ddof=0):
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    Z = (X - X.mean(0)) / X.std(0, ddof=ddof) if standardise else X
    p = Z.shape[1]
    remaining, ranking = list(range(p)), np.ones(p, dtype=int)
    design = np.column_stack([np.ones(len(y)), Z])  # an explicit intercept column
    first = np.abs(np.linalg.lstsq(design, y, rcond=None)[0][1:])
    while len(remaining) > 1:
        size = np.abs(np.linalg.lstsq(design[:, [0] + [k + 1 for k in remaining]], y, rcond=None)[0][1:]) \
            if refit else first[remaining]
        dropped = remaining.pop(int(np.argmin(size) if smallest else np.argmax(size)))
        ranking[dropped] = len(remaining) + 1
    return p + 1 - ranking if reverse else ranking


def sklearn_rfe(X, y):
    from sklearn.feature_selection import RFE
    from sklearn.linear_model import LinearRegression
    from sklearn.preprocessing import StandardScaler

    return RFE(LinearRegression(), n_features_to_select=1).fit(StandardScaler().fit_transform(X), y).ranking_


CASES = {
    "09.t_statistic": (
        [
            Variant("scipy", lambda: lambda a, b: scipy.stats.ttest_ind(a, b).statistic),
            Variant("float32", lambda: in_float32(solution("09.t_statistic")())),
            Variant("numpy float", lambda: lambda a, b: np.float64(t_stat(a, b))),
        ],
        [
            Mutant("Welch", lambda: lambda a, b: t_stat(a, b, welch=True), r"POOLED", "welch"),
            Mutant("population variances", lambda: lambda a, b: t_stat(a, b, ddof=0), r"n - 1", "population-variances"),
            Mutant("b - a", lambda: lambda a, b: t_stat(b, a), r"wrong sign", "wrong-sign"),
            Mutant("absolute value", lambda: lambda a, b: abs(t_stat(a, b)), r"wrong sign", "wrong-sign"),
            Mutant("right for three calls, then 0", first_calls_then(t_stat, 3, lambda a, b: 0.0), r"ttest_ind",
                    "wrong-t"),
        ],
    ),
    "09.incremental_step": (
        [
            Variant("loop", lambda: next_feature_loop),
            Variant("numpy integer", lambda: returning(next_feature, np.int64)),
        ],
        [
            Mutant("selected not excluded", lambda: lambda *a: next_feature(*a, exclude=False), r"already selected",
                    "selected-again"),
            Mutant("beta ignored", lambda: lambda r, R, s, b: next_feature(r, R, s, 0.0), r"reaches",
                    "wrong-criterion"),
            Mutant("mean redundancy", lambda: lambda *a: next_feature(*a, reduce=np.mean), r"reaches",
                    "wrong-criterion"),
            Mutant("float index", lambda: lambda *a: float(next_feature(*a)), r"whole number", "wrong-form"),
            Mutant("right for three calls, then the first unselected",
                   first_calls_then(next_feature, 3, lambda r, R, s, b: min(set(range(len(r))) - set(s))),
                   r"reaches", "wrong-criterion"),
        ],
    ),
    "09.nearest_centroid": (
        [
            Variant("list output", lambda: returning(nearest, list)),
            Variant("float32", lambda: in_float32(solution("09.nearest_centroid")())),
            Variant("unsquared distances", lambda: lambda X, y, T: np.unique(y)[np.argmin(np.linalg.norm(
                T[:, None, :] - np.array([X[y == c].mean(0) for c in np.unique(y)])[None], axis=2), axis=1)]),
        ],
        [
            Mutant("labels 0..c-1 assumed", lambda: lambda X, y, T: nearest(X, y, T, return_index=True), r"labels",
                    "labels-assumed"),
            Mutant("Manhattan distance", lambda: lambda X, y, T: nearest(X, y, T, metric="manhattan"), r"Euclidean",
                    "wrong-centroid"),
            Mutant("nearest training row",
                   lambda: lambda X, y, T: y[np.argmin(((T[:, None] - X[None]) ** 2).sum(2), axis=1)],
                   r"closest class centroid", "wrong-centroid"),
            Mutant("right for three calls, then the first label",
                   first_calls_then(nearest, 3, lambda X, y, T: np.full(len(T), y[0])), r"closest", "wrong-centroid"),
        ],
    ),
    "09.mi_from_counts": (
        [
            Variant("entropies", lambda: mi_entropies),
            Variant("float32", lambda: lambda counts: np.float32(mi(np.asarray(counts, dtype=np.float32)))),
            Variant("list input", lambda: lambda counts: mi(counts.tolist())),
        ],
        [
            Mutant("bits", lambda: lambda counts: mi(counts, log=np.log2), r"bits", "bits"),
            Mutant("counts not normalised", lambda: lambda counts: mi(counts) * np.sum(counts), r"mi_from_counts",
                    "wrong-mi"),
            Mutant("right for three calls, then 0", first_calls_then(mi, 3, lambda counts: 0.0), r"mi_from_counts",
                    "wrong-mi"),
        ],
    ),
    "09.best_pair": (
        [
            Variant("list", lambda: returning(best_pair, list)),
            Variant("reversed", lambda: returning(best_pair, lambda pair: tuple(pair)[::-1])),
            Variant("numpy array of numpy integers", lambda: returning(best_pair, np.array)),
            Variant("float32 data", lambda: lambda X, y: best_pair(X.astype(np.float32), y)),
            Variant("the solution, with its own nearest_centroid_predict", solution("09.best_pair")),
            Variant("the library's nearest-centroid accuracy", lambda: lambda X, y: best_pair(
                X, y, accuracy_of=selection.cross_val_accuracy)),
        ],
        [
            Mutant("a string", lambda: lambda X, y: "".join(map(str, best_pair(X, y))), r"pair of two column indices",
                   "wrong-form"),
            Mutant("floats", lambda: lambda X, y: tuple(float(j) for j in best_pair(X, y)), r"whole number",
                   "wrong-form"),
            Mutant("the two best single features", lambda: lambda X, y: tuple(np.argsort(np.abs(
                scipy.stats.ttest_ind(X[y == 1], X[y == 0]).statistic))[-2:]), r"best single features", "best-singles"),
            Mutant("the worst pair", lambda: lambda X, y: best_pair(X, y, worst=True), r"another pair reaches",
                   "not-best-pair"),
            Mutant("the notebook's pair, typed", lambda: lambda X, y: (0, 4), r"another pair reaches|single",
                   ("not-best-pair", "best-singles")),
            Mutant("counted from 1", lambda: lambda X, y: tuple(j + 1 for j in best_pair(X, y)), r"count from 0",
                   "counted-from-1"),
            Mutant("three columns", lambda: lambda X, y: best_pair(X, y) + (0,), r"pair", "wrong-form"),
            Mutant("one column twice", lambda: lambda X, y: (best_pair(X, y)[0],) * 2, r"different", "column-twice"),
        ],
    ),
    "09.lasso_coordinate_step": (
        [
            Variant("three cases with loops", lambda: given(coordinate_step_cases, lambda v: v.tolist())),
            Variant("float32", lambda: in_float32(solution("09.lasso_coordinate_step")())),
            Variant("numpy float", lambda: returning(coordinate_step, np.float64)),
            Variant("library soft threshold", lambda: lambda X, y, b, j, alpha: float(
                selection.soft_threshold(X[:, j] @ (y - X @ b + X[:, j] * b[j]) / len(y), alpha)
                / (X[:, j] @ X[:, j] / len(y)))),
        ],
        [
            Mutant("forgot the 1/n", lambda: lambda *a: coordinate_step(*a, scale_n=len(a[1])), r"without the 1/n",
                    "missing-one-over-n"),
            Mutant("shrinks by alpha * n", lambda: lambda *a: coordinate_step(*a, shrink=len(a[1])), r"alpha \* n",
                    "alpha-times-n"),
            Mutant("soft threshold that does not zero", lambda: lambda *a: coordinate_step(*a, zero=False),
                   r"exactly 0", "no-zero"),
            Mutant("assumes standardised columns", lambda: lambda *a: coordinate_step(*a, divide=False),
                   r"standardised", "assumes-standardised"),
            Mutant("full residual", lambda: lambda *a: coordinate_step(*a, partial=False), r"leave out feature j",
                    ("full-residual", "alpha-times-n")),
            Mutant("right for three calls, then off by 0.5",
                   first_calls_then(coordinate_step, 3, lambda *a: coordinate_step(*a) + 0.5),
                   r"does not hold|should be exactly 0", ("wrong-step", "not-zeroed")),
        ],
    ),
    "09.rfe_ranking": (
        [
            Variant("scikit-learn RFE", lambda: sklearn_rfe),
            Variant("ddof=1, intercept column", lambda: lambda X, y: rfe(X, y, ddof=1)),
            Variant("list output", lambda: returning(rfe, list)),
            Variant("float32", lambda: in_float32(solution("09.rfe_ranking")())),
            Variant("library", lambda: lambda X, y: selection.recursive_feature_elimination(
                (X - X.mean(0)) / X.std(0), y).ranking),
        ],
        [
            Mutant("unstandardised features", lambda: lambda X, y: rfe(X, y, standardise=False), r"own units",
                    "unstandardised"),
            Mutant("drops the largest coefficient", lambda: lambda X, y: rfe(X, y, smallest=False), r"LARGEST",
                    "drops-largest"),
            Mutant("no refit after each elimination", lambda: lambda X, y: rfe(X, y, refit=False),
                   r"refit on the remaining", "no-refit"),
            Mutant("ranking reversed", lambda: lambda X, y: rfe(X, y, reverse=True), r"reversed", "reversed"),
            Mutant("ranks from 0", lambda: lambda X, y: rfe(X, y) - 1, r"ranks 1\.\.", "ranks-from-0"),
            # 1..p is one ranking among p! (24 to 720): on some cases it is exactly the ranking a typical mistake
            # gives there, and the check rightly names that mistake
            Mutant("right for three calls, then 1..p",
                   first_calls_then(rfe, 3, lambda X, y: np.arange(1, X.shape[1] + 1)), r"rfe_ranking",
                   ("wrong-ranking", "unstandardised", "drops-largest", "no-refit", "reversed")),
        ],
    ),
}


def best_pair(X, y, worst=False, accuracy_of=lambda X, y: selection.kfold_accuracy(X, y, nearest)):
    accuracy = {pair: accuracy_of(X[:, list(pair)], y) for pair in itertools.combinations(range(X.shape[1]), 2)}
    return (min if worst else max)(accuracy, key=accuracy.get)
