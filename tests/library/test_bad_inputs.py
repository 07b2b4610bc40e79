"""Bad and legal inputs for every library module, one table per module (issue 15).

Each case is (label, call, expectation). A bad input must raise the stated exception
type with a message that names the argument; a legal input (NumPy scalars, float32,
read-only or non-contiguous arrays, tiny densities, ...) must give a right answer. Every
table runs in a subprocess with a time limit, each case under its own alarm, so a hang is
a failure and not a stuck test run. The count of cases per verdict is printed.

    python -m tests.library.test_bad_inputs          # every table, with the counts
"""

from __future__ import annotations

import json
import math
import re
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

CASE_SECONDS = 20
"""Time limit of one case (a hang is reported as a failure)."""


def error(kind: type[Exception], argument: str):
    """The call must raise ``kind`` with a message naming ``argument``."""
    return ("error", kind, argument)


def answer(check):
    """The call is legal: ``check(result)`` must be True."""
    return ("answer", check)


def _data():
    rng = np.random.default_rng(0)
    X = rng.random((12, 4))
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(axis=2))
    return rng, X, D


def _beyond_float(label: str, function, name: str):
    """The case of an integer argument beyond float64's range, 10**400: it must be refused by
    name, not overflow on its way into floating point (``OverflowError``)."""
    return (f"{label} {name}=10**400", lambda: function(10**400), error(ValueError, name))


# ----------------------------------------------------------------------------- tables


def _common_matrix_cases(function, name="X"):
    """The data-matrix classes every function taking X gets."""
    _, X, _ = _data()
    return [
        (f"{name} with NaN", lambda: function(np.where(X > 0.9, np.nan, X)), error(ValueError, name)),
        (f"{name} with inf", lambda: function(np.where(X > 0.9, np.inf, X)), error(ValueError, name)),
        (f"{name} empty", lambda: function(np.empty((0, 4))), error(ValueError, name)),
        (f"{name} 1-D", lambda: function(X[:, 0]), error(ValueError, name)),
        (f"{name} 3-D", lambda: function(X[None]), error(ValueError, name)),
        (f"{name} strings", lambda: function(X.astype(str)), error(TypeError, name)),
        (f"{name} complex", lambda: function(X + 1j), error(TypeError, name)),
        (f"{name} near 1e300", lambda: function(X * 1e300), error(ValueError, name)),
    ]


def _pca_table():
    from dimred_teach.pca import bootstrap_pca, choose_k, covariance, pca, power_iteration

    rng, X, _ = _data()
    A = X.T @ X
    low_rank = rng.random((10, 2)) @ rng.random((2, 5))
    reference = pca(X)
    same = lambda fit: np.allclose(fit.eigenvalues, reference.eigenvalues, rtol=1e-5)  # noqa: E731
    read_only = X.copy()
    read_only.setflags(write=False)
    wide = np.repeat(X, 2, axis=1)
    return _common_matrix_cases(pca) + _common_matrix_cases(covariance) + [
        ("pca k=True", lambda: pca(X, k=True), error(TypeError, "k")),
        ("pca k=2.0", lambda: pca(X, k=2.0), error(TypeError, "k")),
        ("pca sparse X", lambda: pca(__import__("scipy.sparse").sparse.csr_array(X)), error(TypeError, "X")),
        ("pca gram k above the rank", lambda: pca(low_rank, k=4, method="gram"), error(ValueError, "k")),
        ("pca scale='no'", lambda: pca(X, scale="no"), error(TypeError, "scale")),
        ("pca scale=1", lambda: pca(X, scale=1), error(TypeError, "scale")),
        ("pca scale=np.True_", lambda: pca(X, scale=np.True_), answer(lambda fit: fit.scale is not None)),
        ("pca float32", lambda: pca(X.astype(np.float32)), answer(same)),
        ("pca int8", lambda: pca((X * 100).astype(np.int8)), answer(lambda fit: fit.k == 4)),
        ("pca DataFrame", lambda: pca(__import__("pandas").DataFrame(X)), answer(same)),
        ("pca read-only", lambda: pca(read_only), answer(same)),
        ("pca non-contiguous", lambda: pca(wide[:, ::2]), answer(same)),
        ("pca k=np.int64(2)", lambda: pca(X, k=np.int64(2)), answer(lambda fit: fit.k == 2)),
        ("power_iteration tol=inf", lambda: power_iteration(A, tol=math.inf), error(ValueError, "tol")),
        ("bootstrap_pca n_boot=10**9", lambda: bootstrap_pca(X, 2, n_boot=10**9), error(ValueError, "n_boot")),
        _beyond_float("bootstrap_pca", lambda n_boot: bootstrap_pca(X, 2, n_boot=n_boot), "n_boot"),
        _beyond_float("pca", lambda k: pca(X, k=k), "k"),
        ("power_iteration tol=True", lambda: power_iteration(A, tol=True), error(TypeError, "tol")),
        ("power_iteration tol=nan", lambda: power_iteration(A, tol=math.nan), error(ValueError, "tol")),
        ("power_iteration tol=np.float32", lambda: power_iteration(A, tol=np.float32(1e-6)),
         answer(lambda r: r.converged and np.isclose(r.eigenvalue, np.linalg.eigvalsh(A)[-1]))),
        ("power_iteration A near 1e300", lambda: power_iteration(A * 1e300), error(ValueError, "A")),
        ("choose_k threshold=True", lambda: choose_k([3.0, 2.0, 1.0], threshold=True), error(TypeError, "threshold")),
        ("choose_k threshold='0.9'", lambda: choose_k([3.0, 2.0, 1.0], threshold="0.9"), error(TypeError, "threshold")),
        ("choose_k threshold=0", lambda: choose_k([3.0, 2.0, 1.0], threshold=0.0), error(ValueError, "threshold")),
        ("choose_k threshold=np.float32(0.5)", lambda: choose_k([3.0, 2.0, 1.0], threshold=np.float32(0.5)),
         answer(lambda k: k == 1)),
        ("choose_k eigenvalues near 1e300", lambda: choose_k([1e300, 1.0]), error(ValueError, "eigenvalues")),
        ("choose_k gap with equal drops", lambda: choose_k([8.0, 4.0, 2.0 * (1 + 1e-15), 1.0], method="gap"),
         answer(lambda k: k == 1)),
    ]


def _biplot_table():
    import matplotlib

    matplotlib.use("Agg")
    from dimred_teach.biplot import biplot_coordinates, plot_biplot

    _, X, _ = _data()
    coordinates = biplot_coordinates(X, 1.0)
    return _common_matrix_cases(lambda X: biplot_coordinates(X, 1.0)) + [
        ("alpha=True", lambda: biplot_coordinates(X, True), error(TypeError, "alpha")),
        ("alpha=nan", lambda: biplot_coordinates(X, math.nan), error(ValueError, "alpha")),
        ("alpha=np.float32(0.5)", lambda: biplot_coordinates(X, np.float32(0.5)), answer(lambda c: c.alpha == 0.5)),
        ("scale='no'", lambda: biplot_coordinates(X, 1.0, scale="no"), error(TypeError, "scale")),
        ("k=np.int64(2)", lambda: biplot_coordinates(X, 0.0, k=np.int64(2)), answer(lambda c: c.k == 2)),
        ("components out of range", lambda: plot_biplot(coordinates, components=(0, 5)),
         error(ValueError, "components")),
        ("components one number", lambda: plot_biplot(coordinates, components=(0,)), error(ValueError, "components")),
        ("components a string", lambda: plot_biplot(coordinates, components="ab"), error(ValueError, "components")),
        ("components bools", lambda: plot_biplot(coordinates, components=(False, True)),
         error(ValueError, "components")),
        ("groups 2-D", lambda: plot_biplot(coordinates, groups=np.zeros((12, 2))), error(ValueError, "groups")),
        ("groups too short", lambda: plot_biplot(coordinates, groups=np.zeros(3)), error(ValueError, "groups")),
        ("ax='left'", lambda: plot_biplot(coordinates, ax="left"), error(TypeError, "ax")),
        ("coordinates a tuple", lambda: plot_biplot((1, 2)), error(TypeError, "coordinates")),
    ]


def _mds_table():
    from dimred_teach.mds import (
        classical_mds,
        disparities,
        metric_mds,
        nonmetric_mds,
        procrustes,
        squared_distances,
        stress,
    )

    _, X, D = _data()
    Z = X[:, :2]
    return _common_matrix_cases(squared_distances) + [
        ("classical_mds D near 1e300", lambda: classical_mds(D * 1e300), error(ValueError, "D")),
        ("metric_mds D near 1e300", lambda: metric_mds(D * 1e300), error(ValueError, "D")),
        ("nonmetric_mds D near 1e300", lambda: nonmetric_mds(D * 1e300), error(ValueError, "D")),
        ("classical_mds D with NaN", lambda: classical_mds(np.where(D > 0.9, np.nan, D)), error(ValueError, "D")),
        ("classical_mds squared='yes'", lambda: classical_mds(D, squared="yes"), error(TypeError, "squared")),
        ("classical_mds k=True", lambda: classical_mds(D, k=True), error(TypeError, "k")),
        ("classical_mds float32 D", lambda: classical_mds(D.astype(np.float32)),
         answer(lambda r: np.allclose(np.abs(r.embedding), np.abs(classical_mds(D).embedding), atol=1e-5))),
        ("procrustes scale='no'", lambda: procrustes(Z, Z, scale="no"), error(TypeError, "scale")),
        ("procrustes B near 1e300", lambda: procrustes(Z, Z * 1e300), error(ValueError, "B")),
        ("stress normalized='no'", lambda: stress(D, Z, normalized="no"), error(TypeError, "normalized")),
        ("stress kind=1", lambda: stress(D, Z, kind=1), error(ValueError, "kind")),
        ("disparities Z wrong rows", lambda: disparities(D, Z[:5]), error(ValueError, "Z")),
        ("metric_mds tol=nan", lambda: metric_mds(D, tol=math.nan), error(ValueError, "tol")),
        ("metric_mds tol=True", lambda: metric_mds(D, tol=True), error(TypeError, "tol")),
        ("metric_mds max_iter=1.5", lambda: metric_mds(D, max_iter=1.5), error(TypeError, "max_iter")),
        ("metric_mds tol=np.float32", lambda: metric_mds(D, tol=np.float32(1e-6)),
         answer(lambda r: np.isfinite(r.stress))),
        ("nonmetric_mds seed=-1", lambda: nonmetric_mds(D, seed=-1), error(ValueError, "seed")),
    ]


def _lsi_table():
    import scipy.sparse

    from dimred_teach.lsi import lsi, query_counts, rank_by_cosine, search, term_document_matrix, tfidf, top_terms

    texts = ["apple banana fruit", "banana fruit salad", "car engine wheel", "engine wheel road", "apple road"]
    result = lsi(texts, 2)
    counts = term_document_matrix(texts).counts
    return [
        ("lsi matrix near 1e300", lambda: lsi(np.eye(4) * 1e300, 2), error(ValueError, "docs_or_matrix")),
        ("lsi sparse matrix near 1e300", lambda: lsi(scipy.sparse.csr_array(np.eye(4) * 1e300), 2),
         error(ValueError, "docs_or_matrix")),
        ("lsi matrix with NaN", lambda: lsi(np.where(np.eye(4) > 0, np.nan, 0.0), 2),
         error(ValueError, "docs_or_matrix")),
        ("lsi center='no'", lambda: lsi(texts, 2, center="no"), error(TypeError, "center")),
        ("lsi k=True", lambda: lsi(texts, True), error(TypeError, "k")),
        ("lsi k=np.int64(2)", lambda: lsi(texts, np.int64(2)), answer(lambda r: r.k == 2)),
        ("lsi a single string", lambda: lsi("apple banana", 1), error(TypeError, "docs_or_matrix")),
        ("tfidf negative counts", lambda: tfidf(-counts), error(ValueError, "counts")),
        ("tfidf idf near 1e300", lambda: tfidf(counts, idf=np.full(counts.shape[1], 1e300)), error(ValueError, "idf")),
        ("top_terms component=True", lambda: top_terms(result, True), error(TypeError, "component")),
        ("top_terms component=5", lambda: top_terms(result, 5), error(ValueError, "component")),
        ("top_terms n=np.int64(2)", lambda: top_terms(result, 0, n=np.int64(2)), answer(lambda f: len(f) == 2)),
        ("search n=0", lambda: search(result, "apple", n=0), error(ValueError, "n")),
        ("search space='words'", lambda: search(result, "apple", space="words"), error(ValueError, "space")),
        ("search query with NaN", lambda: search(result, np.full(len(result.vocabulary), np.nan)),
         error(ValueError, "query")),
        ("query_counts a list of texts", lambda: query_counts(result, ["apple"]), error(TypeError, "query")),
        ("query_counts no known word", lambda: query_counts(result, "zebra"), error(ValueError, "query")),
        ("query_counts result an array", lambda: query_counts(np.eye(3), "apple"), error(TypeError, "result")),
        ("rank_by_cosine vector too short", lambda: rank_by_cosine(result.document_coordinates, [1.0]),
         error(ValueError, "vector")),
        ("rank_by_cosine rows with NaN", lambda: rank_by_cosine(np.full((3, 2), np.nan), [1.0, 0.0]),
         error(ValueError, "rows")),
        ("rank_by_cosine n=6", lambda: rank_by_cosine(result.document_coordinates, [1.0, 0.0], n=6),
         error(ValueError, "n")),
        ("rank_by_cosine sparse rows and a zero vector (every score 0)",
         lambda: rank_by_cosine(result.matrix, np.zeros(len(result.vocabulary)), n=5),
         answer(lambda f: f["document"].tolist() == [0, 1, 2, 3, 4] and not f["score"].any())),
    ]


def _jl_table():
    from dimred_teach.jl import distortion, jl_delta, jl_epsilon, jl_min_dim, random_projection, worst_distortions

    _, X, _ = _data()
    return _common_matrix_cases(lambda X: random_projection(X, 3)) + [
        ("sparse density=1e-300 (used to hang)", lambda: random_projection(X, 10, kind="sparse", density=1e-300),
         answer(lambda r: r.matrix.nnz == 0 and r.embedding.shape == (12, 10))),
        ("sparse density=1e-19", lambda: random_projection(X, 10, kind="sparse", density=1e-19),
         answer(lambda r: r.embedding.shape == (12, 10))),
        ("sparse density=True", lambda: random_projection(X, 10, kind="sparse", density=True),
         error(TypeError, "density")),
        ("sparse density=np.float32(0.5)", lambda: random_projection(X, 10, kind="sparse", density=np.float32(0.5)),
         answer(lambda r: r.density == 0.5)),
        ("sparse q=10**12", lambda: random_projection(X, 10**12, kind="sparse"), error(ValueError, "q")),
        ("gaussian q=10**12", lambda: random_projection(X, 10**12), error(ValueError, "q")),
        ("worst_distortions q=10**12", lambda: worst_distortions(X, 10**12, 2, kind="sparse"), error(ValueError, "q")),
        ("worst_distortions n_trials=0", lambda: worst_distortions(X, 3, 0), error(ValueError, "n_trials")),
        ("distortion Y wrong rows", lambda: distortion(X, X[:5]), error(ValueError, "Y")),
        ("jl_delta overflow", lambda: jl_delta(10**400, 1, 0.5), error(ValueError, "n")),
        _beyond_float("jl_delta", lambda q: jl_delta(10, q, 0.5), "q"),
        _beyond_float("jl_epsilon", lambda q: jl_epsilon(10, q, 0.5), "q"),
        _beyond_float("random_projection", lambda q: random_projection(X, q), "q"),
        _beyond_float("worst_distortions", lambda n_trials: worst_distortions(X, 3, n_trials), "n_trials"),
        ("worst_distortions n_trials=10**9 (7.45 GiB of results)", lambda: worst_distortions(X, 3, 10**9),
         error(ValueError, "n_trials")),
        ("jl_min_dim eps=1e-300", lambda: jl_min_dim(10, 1e-300, 0.5), error(ValueError, "eps")),
        ("jl_min_dim eps=np.float32(0.2)", lambda: jl_min_dim(205, np.float32(0.2), 0.05),
         answer(lambda q: q == jl_min_dim(205, float(np.float32(0.2)), 0.05))),
        ("jl_epsilon delta=1", lambda: jl_epsilon(10, 100, 1.0), error(ValueError, "delta")),
        ("jl_epsilon n=np.int64(10)", lambda: jl_epsilon(np.int64(10), 100, 0.5),
         answer(lambda eps: eps == jl_epsilon(10, 100, 0.5))),
    ]


def _ppca_table():
    from dimred_teach.ppca import PPCAModel, log_likelihood, ppca_em, ppca_mle, sample

    rng, X, _ = _data()
    W = rng.standard_normal((4, 2))
    mean = X.mean(axis=0)
    model = PPCAModel(W, mean, 0.5)
    line = np.outer(X[:, 0], [1.0, 2.0, 3.0, 4.0])
    return _common_matrix_cases(lambda X: ppca_mle(X, 1)) + [
        ("log_likelihood sigma2=1e-320", lambda: log_likelihood(X, W, mean, 1e-320), error(ValueError, "sigma2")),
        ("log_likelihood sigma2=0", lambda: log_likelihood(X, W, mean, 0.0), error(ValueError, "sigma2")),
        ("log_likelihood W of wrong size", lambda: log_likelihood(X, np.ones((5, 2)), mean, 1.0),
         error(ValueError, "W")),
        ("log_likelihood mean of wrong size", lambda: log_likelihood(X, W, mean[:3], 1.0), error(ValueError, "mean")),
        ("log_likelihood sigma2=np.float32", lambda: log_likelihood(X, W, mean, np.float32(0.5)),
         answer(lambda v: np.isclose(v, log_likelihood(X, W, mean, 0.5)))),
        ("ppca_mle sigma2=1e-320", lambda: ppca_mle(X, 1, sigma2=1e-320), error(ValueError, "sigma2")),
        ("ppca_mle q=True", lambda: ppca_mle(X, True), error(TypeError, "q")),
        ("ppca_em tol=np.float32", lambda: ppca_em(X, 1, tol=np.float32(1e-6)), answer(lambda r: r.converged)),
        ("ppca_em tol=inf", lambda: ppca_em(X, 1, tol=math.inf), error(ValueError, "tol")),
        ("ppca_em start of wrong shape", lambda: ppca_em(X, 1, start=np.ones((4, 2))), error(ValueError, "start")),
        ("ppca_em start zero", lambda: ppca_em(X, 1, start=np.zeros((4, 1))), error(ValueError, "start")),
        ("ppca_em start with inf", lambda: ppca_em(X, 1, start=np.full((4, 1), np.inf)), error(ValueError, "start")),
        ("ppca_em start 1-D", lambda: ppca_em(X, 1, start=np.ones(4)), error(ValueError, "start")),
        ("ppca_em start strings", lambda: ppca_em(X, 1, start=np.ones((4, 1)).astype(str)), error(TypeError, "start")),
        ("ppca_em start float32", lambda: ppca_em(X, 1, max_iter=3, start=np.ones((4, 1), dtype=np.float32)),
         answer(lambda r: np.array_equal(r.history, ppca_em(X, 1, max_iter=3, start=np.ones((4, 1))).history))),
        ("sample return_latent='yes'", lambda: sample(model, 5, seed=0, return_latent="yes"),
         error(TypeError, "return_latent")),
        ("sample n=10**11", lambda: sample(model, 10**11, seed=0), error(ValueError, "n")),
        _beyond_float("sample", lambda n: sample(model, n, seed=0), "n"),
        ("ppca_mle X on a line, q=1 (sigma2 would be 0)", lambda: ppca_mle(line, 1), error(ValueError, "X")),
        ("ppca_mle X constant (sigma2 would be 0)", lambda: ppca_mle(np.ones((12, 4)), 1), error(ValueError, "X")),
        ("ppca_mle X on a line, q=2, method='gram'", lambda: ppca_mle(line, 2, method="gram"), error(ValueError, "X")),
        ("ppca_mle X on a line, q=2, sigma2 fixed, method='gram'",
         lambda: ppca_mle(line, 2, sigma2=0.1, method="gram"), error(ValueError, "X")),
        ("ppca_mle X on a line, q=2, sigma2 fixed (W spans the line)", lambda: ppca_mle(line, 2, sigma2=0.1),
         answer(lambda fit: fit.sigma2 == 0.1 and np.linalg.matrix_rank(fit.W) == 1)),
        ("sample n=np.int64(5)", lambda: sample(model, np.int64(5), seed=0), answer(lambda S: S.shape == (5, 4))),
    ]


def _kernel_table():
    from dimred_teach.kernel import (
        center_kernel,
        kernel_mds,
        kernel_pca,
        kernel_squared_distances,
        polynomial_kernel,
        rbf_kernel,
        whiten,
    )

    _, X, _ = _data()
    return (_common_matrix_cases(rbf_kernel) + _common_matrix_cases(whiten)
            + _common_matrix_cases(lambda X: kernel_pca(X, 2))) + [
        ("polynomial_kernel degree=10**4 gamma=100", lambda: polynomial_kernel(X, degree=10**4, gamma=100.0),
         error(ValueError, "degree")),
        ("polynomial_kernel gamma=1e300", lambda: polynomial_kernel(X, gamma=1e300), error(ValueError, "gamma")),
        ("polynomial_kernel degree=2.0", lambda: polynomial_kernel(X, degree=2.0), error(TypeError, "degree")),
        ("polynomial_kernel coef0=-1", lambda: polynomial_kernel(X, coef0=-1.0), error(ValueError, "coef0")),
        ("kernel_pca huge degree", lambda: kernel_pca(X, 2, kernel="poly", degree=10**4, gamma=100.0),
         error(ValueError, "degree")),
        ("rbf_kernel gamma=np.float32", lambda: rbf_kernel(X, gamma=np.float32(0.5)),
         answer(lambda K: np.allclose(K, rbf_kernel(X, gamma=0.5)))),
        ("rbf_kernel gamma=True", lambda: rbf_kernel(X, gamma=True), error(TypeError, "gamma")),
        ("rbf_kernel gamma=1e300 (a right answer: the identity)", lambda: rbf_kernel(X, gamma=1e300),
         answer(lambda K: np.array_equal(K, np.eye(12)))),
        ("center_kernel 0 x 0", lambda: center_kernel(np.zeros((0, 0))), error(ValueError, "K")),
        ("kernel_squared_distances 0 x 0", lambda: kernel_squared_distances(np.zeros((0, 0))), error(ValueError, "K")),
        ("center_kernel near 1e300", lambda: center_kernel(np.eye(3) * 1e300), error(ValueError, "K")),
        ("kernel_pca unknown parameter", lambda: kernel_pca(X, 2, kernel="rbf", degree=3), error(TypeError, "degree")),
        ("kernel_mds kernel='cosine'", lambda: kernel_mds(X, 2, kernel="cosine"), error(ValueError, "kernel")),
    ]


def _selection_table():
    from dimred_teach.selection import (
        discretize,
        lasso_path,
        recursive_feature_elimination,
        soft_threshold,
        t_statistic,
        variance_filter,
    )

    _, X, _ = _data()
    y = np.repeat([0, 1], 6)
    target = np.arange(12.0)
    return (_common_matrix_cases(lambda X: t_statistic(X, y)) + _common_matrix_cases(lambda X: discretize(X))
            + _common_matrix_cases(variance_filter) + _common_matrix_cases(lambda X: lasso_path(X, np.arange(12.0)))
            + _common_matrix_cases(lambda X: recursive_feature_elimination(X, np.arange(12.0))) + [
        ("variance_filter threshold=-1", lambda: variance_filter(X, -1.0), error(ValueError, "threshold")),
        ("variance_filter threshold='0'", lambda: variance_filter(X, "0"), error(TypeError, "threshold")),
        ("variance_filter a constant column", lambda: variance_filter(np.column_stack([X, np.full(12, 0.1)])),
         answer(lambda keep: keep.tolist() == [True] * 4 + [False])),
        ("soft_threshold z with NaN", lambda: soft_threshold([1.0, np.nan], 0.5), error(ValueError, "z")),
        ("soft_threshold z strings", lambda: soft_threshold(["a"], 0.5), error(TypeError, "z")),
        ("soft_threshold threshold=-1", lambda: soft_threshold([1.0], -1.0), error(ValueError, "threshold")),
        ("soft_threshold threshold=np.float32", lambda: soft_threshold([1.0], np.float32(0.5)),
         answer(lambda v: v.tolist() == [0.5])),
        ("lasso_path y wrong length", lambda: lasso_path(X, target[:5]), error(ValueError, "y")),
        ("lasso_path y with NaN", lambda: lasso_path(X, np.where(target > 5, np.nan, target)), error(ValueError, "y")),
        ("lasso_path y all zeros", lambda: lasso_path(X, np.zeros(12)), error(ValueError, "y")),
        ("lasso_path coordinate descent, max_iter=1",
         lambda: lasso_path(X, target, method="coordinate", max_iter=1), error(RuntimeError, "lasso_path")),
        ("lasso_path alphas with 0", lambda: lasso_path(X, target, alphas=[1.0, 0.0]), error(ValueError, "alphas")),
        ("lasso_path alphas empty", lambda: lasso_path(X, target, alphas=[]), error(ValueError, "alphas")),
        ("lasso_path alphas increasing (sorted for you)", lambda: lasso_path(X, target, alphas=[0.1, 1.0]),
         answer(lambda r: r.alphas.tolist() == [1.0, 0.1])),
        ("lasso_path eps=1", lambda: lasso_path(X, target, eps=1.0), error(ValueError, "eps")),
        ("lasso_path n_alphas=0", lambda: lasso_path(X, target, n_alphas=0), error(ValueError, "n_alphas")),
        ("lasso_path tol=0", lambda: lasso_path(X, target, tol=0.0), error(ValueError, "tol")),
        ("lasso_path max_iter=0", lambda: lasso_path(X, target, max_iter=0), error(ValueError, "max_iter")),
        ("lasso_path (coordinate descent) max_iter=1 does not converge",
         lambda: lasso_path(X, target, alphas=[1e-3], max_iter=1, method="coordinate"),
         error(RuntimeError, "max_iter")),
        ("lasso_path method unknown", lambda: lasso_path(X, target, method="lars"), error(ValueError, "method")),
        ("lasso_path an all-zero column (coefficient 0)",
         lambda: lasso_path(np.column_stack([X, np.zeros(12)]), target),
         answer(lambda r: not r.coefs[-1].any())),
        ("recursive_feature_elimination n_features=0", lambda: recursive_feature_elimination(X, target, 0),
         error(ValueError, "n_features")),
        ("recursive_feature_elimination n_features=5", lambda: recursive_feature_elimination(X, target, 5),
         error(ValueError, "n_features")),
        ("recursive_feature_elimination n_features=2.0", lambda: recursive_feature_elimination(X, target, 2.0),
         error(TypeError, "n_features")),
        ("recursive_feature_elimination y wrong length", lambda: recursive_feature_elimination(X, target[:3]),
         error(ValueError, "y")),
        ("recursive_feature_elimination y strings", lambda: recursive_feature_elimination(X, ["a"] * 12),
         error(TypeError, "y")),
    ] + _selection_scores_and_classifiers_table())


def _selection_scores_and_classifiers_table():
    from dimred_teach.selection import (
        contingency_table,
        cross_val_accuracy,
        discrete_mutual_information,
        discretize,
        fit_nearest_centroid,
        kfold_accuracy,
        mutual_information,
        select_incremental_mi,
        top_k,
    )

    _, X, _ = _data()
    y = np.repeat([0, 1], 6)
    mixed_a = np.array([1, "a", 1, "a", 2.5, "a"], dtype=object)
    labels_b = np.array([0, 1, 0, 1, 1, 1])
    lonely = np.array([0] * 11 + [1])
    return [
        ("top_k complex scores", lambda: top_k(np.array([1 + 2j, 3 + 0j]), 1), error(TypeError, "scores")),
        ("top_k higher_is_better='no'", lambda: top_k([1.0, 2.0], 1, higher_is_better="no"),
         error(TypeError, "higher_is_better")),
        ("top_k k=True", lambda: top_k([1.0, 2.0], True), error(TypeError, "k")),
        ("top_k near-equal scores", lambda: top_k([0.3, 0.1 + 0.2, 0.2], 2),
         answer(lambda idx: idx.tolist() == [0, 1])),
        ("discretize bins=10**30", lambda: discretize(X, bins=10**30), error(ValueError, "bins")),
        ("discretize a column spanning +-1e308", lambda: discretize(np.array([[-1e308], [1e308], [0.0]])),
         error(ValueError, "X")),
        ("discretize bins=np.int64(4)", lambda: discretize(X, bins=np.int64(4)), answer(lambda c: c.max() == 3)),
        ("discrete_mutual_information mixed object labels", lambda: discrete_mutual_information(mixed_a, labels_b),
         answer(lambda v: np.isclose(v, discrete_mutual_information(mixed_a.astype(str), labels_b)))),
        ("discrete_mutual_information NaN labels", lambda: discrete_mutual_information([0.0, np.nan], [0, 1]),
         error(ValueError, "a")),
        ("mutual_information y with NaN", lambda: mutual_information(X, np.where(y > 0, np.nan, 0.0)),
         error(ValueError, "y")),
        ("select_incremental_mi beta=np.float32", lambda: select_incremental_mi(X, y, 2, beta=np.float32(0.5)),
         answer(lambda r: r.beta == 0.5)),
        ("select_incremental_mi beta=True", lambda: select_incremental_mi(X, y, 2, beta=True),
         error(TypeError, "beta")),
        ("select_incremental_mi beta=-1", lambda: select_incremental_mi(X, y, 2, beta=-1), error(ValueError, "beta")),
        ("cross_val_accuracy one-member class", lambda: cross_val_accuracy(X, lonely, folds=3),
         error(ValueError, "y")),
        ("cross_val_accuracy folds=1", lambda: cross_val_accuracy(X, y, folds=1), error(ValueError, "folds")),
        ("contingency_table lengths differ", lambda: contingency_table([0, 1, 1], [0, 1]),
         error(ValueError, "a and b")),
        ("contingency_table 2-D a", lambda: contingency_table(np.eye(2), [0, 1]), error(ValueError, "a and b")),
        ("contingency_table empty", lambda: contingency_table([], []), error(ValueError, "a and b")),
        ("contingency_table inf labels", lambda: contingency_table([0, 1], [np.inf, 0.0]), error(ValueError, "b")),
        ("contingency_table mixed object labels", lambda: contingency_table(mixed_a, labels_b),
         answer(lambda t: np.array_equal(t, contingency_table(mixed_a.astype(str), labels_b)))),
        ("kfold_accuracy predict not callable", lambda: kfold_accuracy(X, y, "nearest"), error(TypeError, "predict")),
        ("kfold_accuracy predict gives one label too many",
         lambda: kfold_accuracy(X, y, lambda A, b, B: np.zeros(len(B) + 1)), error(ValueError, "predict")),
        ("kfold_accuracy one-member class", lambda: kfold_accuracy(X, lonely, lambda A, b, B: b[:len(B)], folds=3),
         error(ValueError, "y")),
        ("kfold_accuracy folds=13", lambda: kfold_accuracy(X, y, lambda A, b, B: b[:len(B)], folds=13),
         error(ValueError, "folds")),
        ("nearest centroid y 2-D", lambda: fit_nearest_centroid(X, y[:, None]), error(ValueError, "y")),
        ("nearest centroid X near 1e300", lambda: fit_nearest_centroid(X * 1e300, y), error(ValueError, "X")),
    ]


def _autoencoder_table():
    from dimred_teach.autoencoder import (
        finite_difference_gradient,
        linear_ae_gradients,
        tanh_ae_gradients,
        train_linear_autoencoder,
        train_tanh_autoencoder,
    )

    rng, X, _ = _data()
    W = rng.standard_normal((2, 3))
    square = lambda W: float(np.sum(W**2))  # noqa: E731
    p, h, k = 4, 3, 2
    params = {"W1": np.zeros((p, h)), "b1": np.zeros(h), "W2": np.zeros((h, k)), "b2": np.zeros(k),
              "W3": np.zeros((k, h)), "b3": np.zeros(h), "W4": np.zeros((h, p)), "b4": np.zeros(p)}
    return _common_matrix_cases(lambda X: linear_ae_gradients(X, np.ones((4, 2)), np.ones((2, 4)))) + [
        ("finite_difference_gradient W with NaN", lambda: finite_difference_gradient(square, W * np.nan),
         error(ValueError, "W")),
        ("finite_difference_gradient W=None", lambda: finite_difference_gradient(square, None), error(TypeError, "W")),
        ("finite_difference_gradient W complex", lambda: finite_difference_gradient(square, W + 1j),
         error(TypeError, "W")),
        ("finite_difference_gradient W a string", lambda: finite_difference_gradient(square, "W"),
         error(TypeError, "W")),
        ("finite_difference_gradient h=0", lambda: finite_difference_gradient(square, W, h=0.0),
         error(ValueError, "h")),
        ("finite_difference_gradient h=None", lambda: finite_difference_gradient(square, W, h=None),
         error(TypeError, "h")),
        ("finite_difference_gradient loss not callable", lambda: finite_difference_gradient(3.0, W),
         error(TypeError, "loss")),
        ("finite_difference_gradient loss returns a vector", lambda: finite_difference_gradient(lambda W: W.ravel(), W),
         error(ValueError, "loss")),
        ("finite_difference_gradient loss returns NaN", lambda: finite_difference_gradient(lambda W: np.nan, W),
         error(ValueError, "loss")),
        ("finite_difference_gradient loss returns a string", lambda: finite_difference_gradient(lambda W: "x", W),
         error(TypeError, "loss")),
        ("finite_difference_gradient h=np.float32", lambda: finite_difference_gradient(square, W, h=np.float32(1e-3)),
         answer(lambda g: np.allclose(g, 2 * W, atol=1e-4))),
        ("tanh_ae_gradients params=None", lambda: tanh_ae_gradients(X, None), error(TypeError, "params")),
        ("tanh_ae_gradients params with NaN", lambda: tanh_ae_gradients(X, {**params, "W1": np.full((p, h), np.nan)}),
         error(ValueError, "params")),
        ("tanh_ae_gradients params a string", lambda: tanh_ae_gradients(X, {**params, "b1": "abc"}),
         error(TypeError, "params")),
        ("tanh_ae_gradients params complex", lambda: tanh_ae_gradients(X, {**params, "b4": np.zeros(p) + 1j}),
         error(TypeError, "params")),
        ("tanh_ae_gradients X near 1e300", lambda: tanh_ae_gradients(X * 1e300, params), error(ValueError, "X")),
        ("train_linear_autoencoder learning_rate=np.float32",
         lambda: train_linear_autoencoder(X, 2, learning_rate=np.float32(0.05), epochs=5),
         answer(lambda model: model.learning_rate == float(np.float32(0.05)))),
        ("train_linear_autoencoder epochs=True", lambda: train_linear_autoencoder(X, 2, epochs=True),
         error(TypeError, "epochs")),
        ("train_linear_autoencoder k=0", lambda: train_linear_autoencoder(X, 0), error(ValueError, "k")),
        ("train_linear_autoencoder k=10**9", lambda: train_linear_autoencoder(X, 10**9), error(ValueError, "k")),
        _beyond_float("train_linear_autoencoder", lambda k: train_linear_autoencoder(X, k), "k"),
        _beyond_float("train_linear_autoencoder", lambda epochs: train_linear_autoencoder(X, 2, epochs=epochs),
                      "epochs"),
        _beyond_float("train_tanh_autoencoder", lambda hidden: train_tanh_autoencoder(X, 2, hidden=hidden), "hidden"),
        ("train_linear_autoencoder init_scale=1e200 (the starting loss overflows)",
         lambda: train_linear_autoencoder(X, 2, init_scale=1e200), error(ValueError, "init_scale")),
        ("train_tanh_autoencoder hidden=10**9", lambda: train_tanh_autoencoder(X, 2, hidden=10**9),
         error(ValueError, "hidden")),
        ("train_tanh_autoencoder k=10**12", lambda: train_tanh_autoencoder(X, 10**12), error(ValueError, "k")),
        ("train_linear_autoencoder epochs=10**12", lambda: train_linear_autoencoder(X, 2, epochs=10**12),
         error(ValueError, "epochs")),
        ("train_linear_autoencoder k=6 (overcomplete: copies X)",
         lambda: train_linear_autoencoder(X, 6, learning_rate=0.5, epochs=300),
         answer(lambda model: np.allclose(model.reconstruct(X), X, atol=1e-3))),
    ] + _tied_autoencoder_table()


def _tied_autoencoder_table():
    from dimred_teach.autoencoder import tied_ae_gradients, train_tied_autoencoder

    rng, X, _ = _data()
    tied = {"W": rng.standard_normal((4, 6)), "b": np.zeros(6), "c": np.zeros(4)}
    return [
        ("train_tied_autoencoder sparsity=-0.1", lambda: train_tied_autoencoder(X, 8, sparsity=-0.1, epochs=2),
         error(ValueError, "sparsity")),
        ("train_tied_autoencoder sparsity=nan", lambda: train_tied_autoencoder(X, 8, sparsity=np.nan, epochs=2),
         error(ValueError, "sparsity")),
        ("train_tied_autoencoder contraction=-1", lambda: train_tied_autoencoder(X, 8, contraction=-1.0, epochs=2),
         error(ValueError, "contraction")),
        ("train_tied_autoencoder contraction='0.1'", lambda: train_tied_autoencoder(X, 8, contraction="0.1", epochs=2),
         error(TypeError, "contraction")),
        ("train_tied_autoencoder noise=-0.3", lambda: train_tied_autoencoder(X, 8, noise=-0.3, epochs=2),
         error(ValueError, "noise")),
        ("train_tied_autoencoder noise=inf", lambda: train_tied_autoencoder(X, 8, noise=math.inf, epochs=2),
         error(ValueError, "noise")),
        ("train_tied_autoencoder noise=True", lambda: train_tied_autoencoder(X, 8, noise=True, epochs=2),
         error(TypeError, "noise")),
        ("train_tied_autoencoder copies=0", lambda: train_tied_autoencoder(X, 8, noise=0.1, copies=0, epochs=2),
         error(ValueError, "copies")),
        ("train_tied_autoencoder copies=10**9", lambda: train_tied_autoencoder(X, 8, noise=0.1, copies=10**9, epochs=2),
         error(ValueError, "copies")),
        ("train_tied_autoencoder m=0", lambda: train_tied_autoencoder(X, 0, epochs=2), error(ValueError, "m")),
        ("train_tied_autoencoder m=2.5", lambda: train_tied_autoencoder(X, 2.5, epochs=2), error(TypeError, "m")),
        ("train_tied_autoencoder X with NaN", lambda: train_tied_autoencoder(X * np.nan, 8, epochs=2),
         error(ValueError, "X")),
        ("train_tied_autoencoder noise=np.float32, m=np.int64",
         lambda: train_tied_autoencoder(X, np.int64(8), noise=np.float32(0.1), epochs=2),
         answer(lambda model: model.noise == float(np.float32(0.1)) and model.encode(X).shape == (12, 8))),
        ("train_tied_autoencoder learning_rate=1e200",
         lambda: train_tied_autoencoder(X, 8, learning_rate=1e200, epochs=5),
         error(ValueError, "learning_rate")),
        ("tied_ae_gradients target of another shape",
         lambda: tied_ae_gradients(X, tied, target=X[:, :3]), error(ValueError, "target")),
        ("tied_ae_gradients target with inf", lambda: tied_ae_gradients(X, tied, target=X * np.inf),
         error(ValueError, "target")),
        ("tied_ae_gradients params['c'] of length 3", lambda: tied_ae_gradients(X, {**tied, "c": np.zeros(3)}),
         error(ValueError, "params")),
        ("tied_ae_gradients params missing b", lambda: tied_ae_gradients(X, {"W": tied["W"], "c": tied["c"]}),
         error(ValueError, "params")),
        ("tied_ae_gradients sparsity=-1", lambda: tied_ae_gradients(X, tied, sparsity=-1.0),
         error(ValueError, "sparsity")),
        ("tied_ae_gradients contraction=inf", lambda: tied_ae_gradients(X, tied, contraction=math.inf),
         error(ValueError, "contraction")),
    ]


def _imputation_table():
    from dimred_teach.imputation import low_rank_impute, zero_noise_em

    rng, X, _ = _data()
    R = np.where(rng.random(X.shape) < 0.2, np.nan, X)
    return [
        ("low_rank_impute center='yes'", lambda: low_rank_impute(R, 2, center="yes"), error(TypeError, "center")),
        ("zero_noise_em center=1", lambda: zero_noise_em(R, 2, center=1), error(TypeError, "center")),
        ("low_rank_impute k=4 (centred 12 x 4: rank 3)", lambda: low_rank_impute(R, 4), error(ValueError, "k")),
        ("low_rank_impute max_iter=0", lambda: low_rank_impute(R, 2, max_iter=0), error(ValueError, "max_iter")),
        ("low_rank_impute tol=-1", lambda: low_rank_impute(R, 2, tol=-1.0), error(ValueError, "tol")),
        ("low_rank_impute R with inf", lambda: low_rank_impute(np.where(R > 0.9, np.inf, R), 2),
         error(ValueError, "X")),
        ("low_rank_impute center=np.bool_(False), k=np.int64(2)",
         lambda: low_rank_impute(R, np.int64(2), center=np.bool_(False)),
         answer(lambda r: r.completed.shape == X.shape)),
    ]


def _manifold_table():
    from dimred_teach.manifold import isomap, laplacian_eigenmaps, neighbourhood_graph

    _, X, _ = _data()
    return [
        *_common_matrix_cases(lambda X: isomap(X, 2, n_neighbors=5)),
        ("isomap n_neighbors=0", lambda: isomap(X, 2, n_neighbors=0), error(ValueError, "n_neighbors")),
        ("isomap n_neighbors=12 (only 11 others)", lambda: isomap(X, 2, n_neighbors=12),
         error(ValueError, "n_neighbors")),
        ("isomap k=0", lambda: isomap(X, 0, n_neighbors=5), error(ValueError, "k")),
        ("laplacian_eigenmaps n_neighbors=2.5", lambda: laplacian_eigenmaps(X, 2, n_neighbors=2.5),
         error(TypeError, "n_neighbors")),
        ("neighbourhood_graph n_neighbors=np.int64(4)", lambda: neighbourhood_graph(X, np.int64(4)),
         answer(lambda graph: graph is not None)),
    ]


def _datasets_table():
    from dimred_teach.datasets import (
        data_path,
        make_circles,
        make_crabs_like,
        make_ratings,
        make_selection_demo,
        make_spiral,
        make_swiss_roll,
    )

    return [
        ("data_path('../dimred_teach/pca.py')", lambda: data_path("../dimred_teach/pca.py"),
         error(ValueError, "filename")),
        ("data_path('/etc/passwd')", lambda: data_path("/etc/passwd"), error(ValueError, "filename")),
        ("data_path('..')", lambda: data_path(".."), error(ValueError, "filename")),
        ("data_path(3)", lambda: data_path(3), error(TypeError, "filename")),
        ("data_path('crabs.csv')", lambda: data_path("crabs.csv"), answer(lambda path: path.is_file())),
        ("make_crabs_like n=10**11", lambda: make_crabs_like(10**11, seed=0), error(ValueError, "n")),
        ("make_selection_demo n=10**11", lambda: make_selection_demo(10**11), error(ValueError, "n")),
        ("make_spiral n=10**11", lambda: make_spiral(10**11), error(ValueError, "n")),
        _beyond_float("make_spiral", make_spiral, "n"),
        _beyond_float("make_swiss_roll", make_swiss_roll, "n"),
        _beyond_float("make_ratings", lambda n_items: make_ratings(n_items=n_items), "n_items"),
        ("make_circles n=10**11", lambda: make_circles(10**11), error(ValueError, "n")),
        ("make_swiss_roll n=10**9", lambda: make_swiss_roll(10**9), error(ValueError, "n")),
        ("make_ratings n_users=10**9", lambda: make_ratings(n_users=10**9), error(ValueError, "n_users")),
        ("make_ratings n_items=10**12", lambda: make_ratings(n_items=10**12), error(ValueError, "n_items")),
        ("make_spiral noise=np.float32", lambda: make_spiral(10, noise=np.float32(0.1)),
         answer(lambda r: len(r[0]) == 10)),
        ("make_spiral turns=inf", lambda: make_spiral(10, turns=math.inf), error(ValueError, "turns")),
        ("make_circles factor=True", lambda: make_circles(10, factor=True), error(TypeError, "factor")),
        ("make_circles factor=1", lambda: make_circles(10, factor=1.0), error(ValueError, "factor")),
        ("make_crabs_like n=np.int64(8)", lambda: make_crabs_like(np.int64(8), seed=0), answer(lambda f: len(f) == 8)),
        ("make_crabs_like seed=1.5", lambda: make_crabs_like(8, seed=1.5), error(TypeError, "seed")),
    ]


def _factor_analysis_table():
    from dimred_teach.factor_analysis import fa_em, log_likelihood

    rng, X, _ = _data()
    W, mean, psi = rng.standard_normal((4, 1)), X.mean(axis=0), np.full(4, 0.5)
    constant = X.copy()
    constant[:, 2] = 3.0
    return _common_matrix_cases(lambda X: fa_em(X, 1)) + [
        ("fa_em q=4 (not below d)", lambda: fa_em(X, 4), error(ValueError, "q")),
        ("fa_em q=1.0", lambda: fa_em(X, 1.0), error(TypeError, "q")),
        ("fa_em seed=1.5", lambda: fa_em(X, 1, seed=1.5), error(TypeError, "seed")),
        ("fa_em tol=0", lambda: fa_em(X, 1, tol=0.0), error(ValueError, "tol")),
        ("fa_em max_iter=0", lambda: fa_em(X, 1, max_iter=0), error(ValueError, "max_iter")),
        ("fa_em isotropic='yes'", lambda: fa_em(X, 1, isotropic="yes"), error(TypeError, "isotropic")),
        ("fa_em a constant column", lambda: fa_em(constant, 1), error(ValueError, "column")),
        ("fa_em X float32", lambda: fa_em(X.astype(np.float32), 1, max_iter=5),
         answer(lambda r: r.W.dtype == np.float64 and r.n_iter == 5)),
        ("log_likelihood psi=0", lambda: log_likelihood(X, W, mean, np.zeros(4)), error(ValueError, "psi")),
        ("log_likelihood psi of wrong length", lambda: log_likelihood(X, W, mean, psi[:3]), error(ValueError, "psi")),
        ("log_likelihood W of wrong size", lambda: log_likelihood(X, np.ones((5, 1)), mean, psi),
         error(ValueError, "W")),
        ("log_likelihood psi=1e-320", lambda: log_likelihood(X, W, mean, np.full(4, 1e-320)),
         error(ValueError, "psi")),
    ]


def _ica_table():
    from dimred_teach.ica import fastica, negentropy

    rng, X, _ = _data()
    return _common_matrix_cases(lambda X: fastica(X)) + [
        ("fastica k=5 (above d)", lambda: fastica(X, k=5), error(ValueError, "k")),
        ("fastica k=0", lambda: fastica(X, k=0), error(ValueError, "k")),
        ("fastica fun='tanh'", lambda: fastica(X, fun="tanh"), error(ValueError, "fun")),
        ("fastica seed=None", lambda: fastica(X, seed=None), error(TypeError, "seed")),
        ("fastica tol=-1", lambda: fastica(X, tol=-1.0), error(ValueError, "tol")),
        ("fastica n <= d", lambda: fastica(X[:4]), error(ValueError, "X")),
        ("fastica k=np.int64(2)", lambda: fastica(X, k=np.int64(2)), answer(lambda r: r.sources.shape == (12, 2))),
        ("transform Y of wrong width", lambda: fastica(X).transform(X[:, :3]), error(ValueError, "Y")),
        ("negentropy Y 1-D", lambda: negentropy(X[:, 0]), error(ValueError, "Y")),
    ]


def _gplvm_table():
    from dimred_teach.gplvm import fit_gplvm, gplvm_linear, log_marginal_likelihood

    rng, X, _ = _data()
    latent = rng.standard_normal((12, 1))
    return _common_matrix_cases(lambda Y: gplvm_linear(Y, 1), name="Y") + [
        ("gplvm_linear q=12 (not below n)", lambda: gplvm_linear(X, 12), error(ValueError, "q")),
        ("gplvm_linear q=5 (above D)", lambda: gplvm_linear(X, 5), error(ValueError, "q")),
        ("gplvm_linear rank-1 Y", lambda: gplvm_linear(np.outer(X[:, 0], [1.0, 2.0, 3.0]), 1), error(ValueError, "q")),
        ("fit_gplvm kernel='poly'", lambda: fit_gplvm(X, 1, kernel="poly"), error(ValueError, "kernel")),
        ("fit_gplvm max_iter=0", lambda: fit_gplvm(X, 1, max_iter=0), error(ValueError, "max_iter")),
        ("fit_gplvm Y float32", lambda: fit_gplvm(X.astype(np.float32), 1, max_iter=3),
         answer(lambda r: r.latent.shape == (12, 1))),
        ("fit_gplvm init of wrong shape", lambda: fit_gplvm(X, 1, init=latent[:5]), error(ValueError, "init")),
        ("fit_gplvm init with NaN", lambda: fit_gplvm(X, 1, init=np.full((12, 1), np.nan)), error(ValueError, "init")),
        ("log_marginal_likelihood noise=0", lambda: log_marginal_likelihood(X, latent, noise=0.0),
         error(ValueError, "noise")),
        ("log_marginal_likelihood variance=-1", lambda: log_marginal_likelihood(X, latent, "rbf", variance=-1.0),
         error(ValueError, "variance")),
        ("log_marginal_likelihood latent of wrong length",
         lambda: log_marginal_likelihood(X, latent[:5]), error(ValueError, "latent")),
        ("log_marginal_likelihood latent with NaN",
         lambda: log_marginal_likelihood(X, np.full((12, 1), np.nan)), error(ValueError, "latent")),
        ("log_marginal_likelihood noise=1e-300 with a duplicate latent",
         lambda: log_marginal_likelihood(X, np.zeros((12, 1)), "rbf", noise=1e-300), error(ValueError, "noise")),
    ]


def _neighbour_embedding_table():
    from dimred_teach.neighbour_embedding import (
        conditional_probabilities,
        fit_ab,
        fuzzy_simplicial_set,
        tsne,
        tsne_kl_gradient,
        umap,
        umap_loss_gradient,
    )

    rng, X, D = _data()
    P = np.full((12, 12), 1 / 132)
    np.fill_diagonal(P, 0.0)
    Y = rng.standard_normal((12, 2))
    return _common_matrix_cases(lambda X: tsne(X, 3.0, max_iter=5, exaggeration_iter=2)) + [
        ("tsne perplexity=11 (not below n - 1)", lambda: tsne(X, 11.0), error(ValueError, "perplexity")),
        ("tsne perplexity='30'", lambda: tsne(X, "30"), error(TypeError, "perplexity")),
        ("tsne n_components=4", lambda: tsne(X, 3.0, n_components=4), error(ValueError, "n_components")),
        ("tsne early_exaggeration=0.5", lambda: tsne(X, 3.0, early_exaggeration=0.5),
         error(ValueError, "early_exaggeration")),
        ("tsne learning_rate='fast'", lambda: tsne(X, 3.0, learning_rate="fast"), error(ValueError, "learning_rate")),
        ("tsne learning_rate=0", lambda: tsne(X, 3.0, learning_rate=0.0), error(ValueError, "learning_rate")),
        ("tsne exaggeration_iter above max_iter", lambda: tsne(X, 3.0, max_iter=10, exaggeration_iter=20),
         error(ValueError, "exaggeration_iter")),
        ("tsne init='spectral'", lambda: tsne(X, 3.0, init="spectral"), error(ValueError, "init")),
        ("tsne init of wrong shape", lambda: tsne(X, 3.0, init=np.zeros((12, 3))), error(ValueError, "init")),
        ("tsne seed=None", lambda: tsne(X, 3.0, init="random", seed=None), error(TypeError, "seed")),
        ("tsne 3001 points", lambda: tsne(np.zeros((3001, 2))), error(ValueError, "X")),
        ("tsne X float32", lambda: tsne(X.astype(np.float32), 3.0, max_iter=5, exaggeration_iter=2),
         answer(lambda r: r.embedding.dtype == np.float64 and r.embedding.shape == (12, 2))),
        ("conditional_probabilities negative distances", lambda: conditional_probabilities(-D, 3.0),
         error(ValueError, "sq_distances")),
        ("conditional_probabilities not square", lambda: conditional_probabilities(D[:5], 3.0),
         error(ValueError, "sq_distances")),
        ("conditional_probabilities perplexity=1", lambda: conditional_probabilities(D, 1.0),
         error(ValueError, "perplexity")),
        ("tsne_kl_gradient P of wrong size", lambda: tsne_kl_gradient(Y, P[:5, :5]), error(ValueError, "P")),
        ("tsne_kl_gradient P negative", lambda: tsne_kl_gradient(Y, -P), error(ValueError, "P")),
        ("tsne_kl_gradient Y with NaN", lambda: tsne_kl_gradient(np.full((12, 2), np.nan), P), error(ValueError, "Y")),
        ("fuzzy_simplicial_set n_neighbors=12 (not below n)", lambda: fuzzy_simplicial_set(X, 12),
         error(ValueError, "n_neighbors")),
        ("fuzzy_simplicial_set n_neighbors=1", lambda: fuzzy_simplicial_set(X, 1), error(ValueError, "n_neighbors")),
        ("fuzzy_simplicial_set n_neighbors=np.int64(4)", lambda: fuzzy_simplicial_set(X, np.int64(4)),
         answer(lambda g: g.neighbors.shape == (12, 4))),
        ("fit_ab min_dist=1 (not below spread)", lambda: fit_ab(1.0), error(ValueError, "min_dist")),
        ("fit_ab spread=0", lambda: fit_ab(0.1, spread=0.0), error(ValueError, "spread")),
        ("umap_loss_gradient W above 1", lambda: umap_loss_gradient(Y, 2 * np.ones((12, 12)), 1.0, 1.0),
         error(ValueError, "W")),
        ("umap_loss_gradient b=0", lambda: umap_loss_gradient(Y, P, 1.0, 0.0), error(ValueError, "b")),
        ("umap_loss_gradient coincident points", lambda: umap_loss_gradient(np.zeros((12, 2)), P, 1.0, 1.0),
         error(ValueError, "Y")),
        ("umap n_epochs=0", lambda: umap(X, 4, n_epochs=0), error(ValueError, "n_epochs")),
        ("umap min_dist=-0.1", lambda: umap(X, 4, -0.1), error(ValueError, "min_dist")),
    ]


TABLES = {
    "pca": _pca_table, "biplot": _biplot_table, "mds": _mds_table, "lsi": _lsi_table, "jl": _jl_table,
    "ppca": _ppca_table, "kernel": _kernel_table, "selection": _selection_table, "autoencoder": _autoencoder_table,
    "datasets": _datasets_table, "imputation": _imputation_table, "manifold": _manifold_table,
    "factor_analysis": _factor_analysis_table, "ica": _ica_table, "gplvm": _gplvm_table,
    "neighbour_embedding": _neighbour_embedding_table,
}


# ----------------------------------------------------------------------------- runner


class _Timeout(Exception):
    pass


def _on_alarm(signum, frame):
    raise _Timeout


def verdict(call, expectation) -> tuple[str, str]:
    """(verdict, detail) of one case; the verdicts that pass are "clear error" and "right answer"."""
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.alarm(CASE_SECONDS)
    try:
        result = call()
    except _Timeout:
        return "hang", f"no answer within {CASE_SECONDS} s"
    except Exception as raised:  # noqa: BLE001 - every outcome is classified below
        signal.alarm(0)
        if expectation[0] == "answer":
            return "legal input refused", f"{type(raised).__name__}: {raised}"
        _, kind, argument = expectation
        if not isinstance(raised, kind):
            return "wrong exception type", f"expected {kind.__name__}, got {type(raised).__name__}: {raised}"
        if not re.search(rf"(?<![A-Za-z0-9_]){re.escape(argument)}(?![A-Za-z0-9_])", str(raised)):
            return "unclear error", f"the message does not name {argument!r}: {raised}"
        return "clear error", ""
    finally:
        signal.alarm(0)
    if expectation[0] == "error":
        return "silent result", f"expected {expectation[1].__name__} naming {expectation[2]!r}, got a result"
    try:
        right = bool(expectation[1](result))
    except Exception as raised:  # noqa: BLE001
        return "wrong answer", f"the check raised {type(raised).__name__}: {raised}"
    return ("right answer", "") if right else ("wrong answer", "the result fails its check")


def run_table(module: str) -> list[tuple[str, str, str]]:
    """(label, verdict, detail) of every case of one module's table."""
    import warnings

    warnings.simplefilter("ignore")  # a case is judged by its result, not by warnings on the way
    return [(label, *verdict(call, expectation)) for label, call, expectation in TABLES[module]()]


PASSING = ("clear error", "right answer")


@pytest.mark.parametrize("module", sorted(TABLES))
def test_bad_inputs_table(module, record_property):
    """Run one module's table in a subprocess (a hang cannot stop the test run) and require
    every case to end in a clear error or a right answer."""
    root = Path(__file__).resolve().parents[2]
    script = f"import json, tests.library.test_bad_inputs as t; print(json.dumps(t.run_table({module!r})))"
    try:
        completed = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True,
                                   timeout=20 * CASE_SECONDS)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the {module} table did not finish within {20 * CASE_SECONDS} s")
    assert completed.returncode == 0, completed.stderr[-3000:]
    rows = json.loads(completed.stdout.strip().splitlines()[-1])
    counts = Counter(v for _, v, _ in rows)
    record_property("verdicts", dict(counts))
    print(f"{module}: {len(rows)} cases, " + ", ".join(f"{v}: {c}" for v, c in sorted(counts.items())))
    failures = [f"{label}: {v} ({detail})" for label, v, detail in rows if v not in PASSING]
    assert not failures, "\n".join(failures)


def main() -> int:
    total = Counter()
    for module in sorted(TABLES):
        rows = run_table(module)
        counts = Counter(v for _, v, _ in rows)
        total.update(counts)
        print(f"{module:12s} {len(rows):4d} cases  " + ", ".join(f"{v}: {c}" for v, c in sorted(counts.items())))
        for label, v, detail in rows:
            if v not in PASSING:
                print(f"    {label}: {v} ({detail})")
    print(f"{'all':12s} {sum(total.values()):4d} cases  " + ", ".join(f"{v}: {c}" for v, c in sorted(total.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
