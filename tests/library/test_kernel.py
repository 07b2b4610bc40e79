"""Whitening, kernels, kernel PCA and kernel MDS: the identities of WashU notes §4.3 and §5,
agreement with scikit-learn, bad inputs, and the checks of exercise set 08."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.spatial.distance import cdist
from sklearn.decomposition import KernelPCA
from sklearn.metrics import pairwise

from dimred_teach import kernel
from dimred_teach.checks import evaluate
from dimred_teach.datasets import make_circles
from dimred_teach.linalg import first_best
from dimred_teach.pca import covariance, pca


def data(seed, n=30, p=3):
    """Correlated, uncentred, full-rank data, shape (n, p)."""
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, p)) @ rng.standard_normal((p, p)) + rng.normal(0, 3, p)


def same_up_to_column_signs(A, B, atol=1e-8):
    signs = np.where(np.sum(A * B, axis=0) < 0, -1.0, 1.0)
    return np.allclose(A * signs, B, atol=atol)


KERNEL_CASES = [
    ("linear", {}),
    ("poly", {"degree": 2, "gamma": 0.5, "coef0": 1.0}),
    ("poly", {"degree": 3}),
    ("rbf", {"gamma": 0.3}),
    ("rbf", {}),
]


# --- whitening ---------------------------------------------------------------------------


@given(seed=st.integers(0, 2**32 - 1), p=st.integers(1, 5), extra=st.integers(1, 30))
def test_whitened_covariance_is_identity(seed, p, extra):
    X = data(seed, n=p + extra, p=p)
    result = kernel.whiten(X)
    assert np.allclose(covariance(result.whitened), np.eye(p), atol=1e-8)
    assert np.allclose(result.whitened, (X - X.mean(axis=0)) @ result.matrix)
    # W = V Lambda^(-1/2), so W W' is the inverse covariance
    assert np.allclose(result.matrix @ result.matrix.T, np.linalg.inv(covariance(X)), rtol=1e-6, atol=1e-8)


def test_whitened_data_is_sqrt_n_minus_one_times_u():
    """WashU Exercise 4.3 in rows-are-points layout: the whitened data are sqrt(n-1) U."""
    X = data(1, n=40, p=3)
    U, _, _ = np.linalg.svd(X - X.mean(axis=0), full_matrices=False)
    assert same_up_to_column_signs(kernel.whiten(X).whitened, np.sqrt(39) * U)


def test_whiten_transform_and_frozen_result():
    X = data(2)
    result = kernel.whiten(X)
    assert np.allclose(result.transform(X), result.whitened)
    Y = data(3, n=5)
    assert np.allclose(result.transform(Y), (Y - X.mean(axis=0)) @ result.matrix)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.matrix = np.eye(3)
    with pytest.raises(ValueError):
        result.whitened[0, 0] = 1.0
    with pytest.raises(ValueError, match="Y must have 3 columns"):
        result.transform(Y[:, :2])


def test_whiten_refuses_rank_deficient_data():
    X = data(4)
    with pytest.raises(ValueError, match="rank deficient"):
        kernel.whiten(np.column_stack([X, X[:, 0] + 2 * X[:, 1]]))
    with pytest.raises(ValueError, match="rank deficient"):
        kernel.whiten(np.column_stack([X, np.full(len(X), 7.0)]))
    with pytest.raises(ValueError, match="more points than variables"):
        kernel.whiten(data(5, n=3, p=3))


def test_whiten_bad_inputs():
    X = data(6)
    X[1, 1] = np.nan
    with pytest.raises(ValueError, match="X contains NaN"):
        kernel.whiten(X)
    with pytest.raises(ValueError, match="X must be a 2-D"):
        kernel.whiten(np.arange(5.0))


# --- kernels ---------------------------------------------------------------------------


def test_kernels_agree_with_scikit_learn():
    X, Y = data(7, n=12, p=4), data(8, n=5, p=4)
    assert np.allclose(kernel.linear_kernel(X, Y), pairwise.linear_kernel(X, Y))
    assert np.allclose(kernel.polynomial_kernel(X, Y), pairwise.polynomial_kernel(X, Y))
    assert np.allclose(kernel.polynomial_kernel(X, Y, degree=2, gamma=0.2, coef0=0.0),
                       pairwise.polynomial_kernel(X, Y, degree=2, gamma=0.2, coef0=0.0))
    assert np.allclose(kernel.rbf_kernel(X, Y), pairwise.rbf_kernel(X, Y))
    assert np.allclose(kernel.rbf_kernel(X, Y, gamma=0.05), pairwise.rbf_kernel(X, Y, gamma=0.05))
    assert kernel.rbf_kernel(X, Y).shape == (12, 5)


def test_kernels_default_to_the_gram_matrix_of_x():
    X = data(9, n=10)
    for name, params in KERNEL_CASES:
        K = kernel.kernel_matrix(X, kernel=name, **params)
        assert np.allclose(K, kernel.kernel_matrix(X, X, kernel=name, **params))
        assert np.allclose(K, K.T)
        assert np.linalg.eigvalsh(K).min() > -1e-8 * np.abs(K).max()  # positive semi-definite
    assert np.array_equal(np.diag(kernel.rbf_kernel(X)), np.ones(10))


def test_polynomial_kernel_is_an_inner_product_of_explicit_features():
    X = data(10, n=8, p=2)
    x1, x2 = X[:, 0], X[:, 1]
    r2 = np.sqrt(2)
    Phi = np.column_stack([x1**2, x2**2, r2 * x1 * x2, r2 * x1, r2 * x2, np.ones(8)])
    assert np.allclose(kernel.polynomial_kernel(X, degree=2, gamma=1.0, coef0=1.0), Phi @ Phi.T)


def test_center_kernel_is_centring_in_feature_space():
    X = data(11, n=8, p=2)
    x1, x2 = X[:, 0], X[:, 1]
    Phi = np.column_stack([x1**2, x2**2, np.sqrt(2) * x1 * x2])  # degree 2, coef0 0
    Phi_c = Phi - Phi.mean(axis=0)
    centred = kernel.center_kernel(kernel.polynomial_kernel(X, degree=2, gamma=1.0, coef0=0.0))
    assert np.allclose(centred, Phi_c @ Phi_c.T)
    assert np.allclose(centred.sum(axis=0), 0)
    assert np.allclose(kernel.center_kernel(centred), centred)  # H is a projector


def test_kernel_squared_distances():
    X = data(12, n=9)
    assert np.allclose(kernel.kernel_squared_distances(kernel.linear_kernel(X)), cdist(X, X, "sqeuclidean"))
    K = kernel.rbf_kernel(X, gamma=0.2)
    D2 = kernel.kernel_squared_distances(K)
    assert np.allclose(D2, 2 - 2 * K)
    assert np.all(D2 >= 0) and np.all(np.diag(D2) == 0)


def test_kernel_bad_inputs():
    X = data(13, n=6)
    with pytest.raises(ValueError, match="Y must have as many columns as X"):
        kernel.rbf_kernel(X, X[:, :2])
    with pytest.raises(ValueError, match="gamma"):
        kernel.rbf_kernel(X, gamma=0.0)
    with pytest.raises(TypeError, match="gamma"):
        kernel.rbf_kernel(X, gamma="wide")
    with pytest.raises(ValueError, match="degree"):
        kernel.polynomial_kernel(X, degree=0)
    with pytest.raises(TypeError, match="degree"):
        kernel.polynomial_kernel(X, degree=2.5)
    with pytest.raises(ValueError, match="coef0"):
        kernel.polynomial_kernel(X, coef0=-1.0)
    with pytest.raises(ValueError, match="kernel must be one of"):
        kernel.kernel_matrix(X, kernel="sigmoid")
    with pytest.raises(TypeError, match="unexpected parameter.*degree"):
        kernel.kernel_matrix(X, kernel="rbf", degree=2)
    with pytest.raises(ValueError, match="K must be a square"):
        kernel.center_kernel(X)
    with pytest.raises(ValueError, match="K must be symmetric"):
        kernel.kernel_squared_distances(X[:3, :3] + np.triu(np.ones((3, 3)), 1))


# --- kernel PCA ------------------------------------------------------------------------


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(6, 30), p=st.integers(1, 5))
def test_linear_kernel_pca_is_pca(seed, n, p):
    X = data(seed, n=n, p=p)
    k = min(p, n - 1)
    linear = kernel.kernel_pca(X, k, kernel="linear")
    ordinary = pca(X, k=k)
    assert np.allclose(linear.eigenvalues, ordinary.eigenvalues, rtol=1e-8, atol=1e-10)
    assert same_up_to_column_signs(linear.scores, ordinary.scores, atol=1e-7 * max(1.0, np.abs(ordinary.scores).max()))
    Y = data(seed + 1, n=4, p=p)
    assert same_up_to_column_signs(linear.transform(Y), ordinary.transform(Y),
                                   atol=1e-7 * max(1.0, np.abs(ordinary.scores).max()))


@pytest.mark.parametrize("name, params", KERNEL_CASES)
def test_kernel_pca_agrees_with_scikit_learn(name, params):
    X, Y = data(14, n=40, p=3), data(15, n=7, p=3)
    ours = kernel.kernel_pca(X, 3, kernel=name, **params)
    theirs = KernelPCA(3, kernel=name, **params).fit(X)
    fitted = theirs.transform(X)
    signs = np.where(np.sum(fitted * ours.scores, axis=0) < 0, -1.0, 1.0)
    assert np.allclose(fitted * signs, ours.scores, atol=1e-8)
    assert np.allclose(theirs.transform(Y) * signs, ours.transform(Y), atol=1e-8)
    assert np.allclose(theirs.eigenvalues_ / (len(X) - 1), ours.eigenvalues)


def test_kernel_pca_result_properties():
    X, _ = make_circles(60, noise=0.05, factor=0.3, seed=1)
    result = kernel.kernel_pca(X, 3, kernel="rbf", gamma=2.0)
    K_tilde = kernel.center_kernel(kernel.rbf_kernel(X, gamma=2.0))
    assert np.all(np.diff(result.eigenvalues) <= 0)
    assert np.allclose(result.eigenvalues, result.scores.var(axis=0, ddof=1))
    assert np.allclose(result.scores, K_tilde @ result.dual_coef)
    assert np.allclose(result.dual_coef.T @ K_tilde @ result.dual_coef, np.eye(3))  # unit components
    assert np.allclose(result.transform(X), result.scores)
    rows = [first_best(np.abs(column)) for column in result.scores.T]  # the sign rule, ties at 1e-12
    assert np.all(result.scores[rows, np.arange(3)] > 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.kernel = "linear"
    with pytest.raises(TypeError):
        result.params["gamma"] = 1.0
    with pytest.raises(ValueError):
        result.scores[0, 0] = 0.0


def test_kernel_pca_separates_the_circles():
    X, labels = make_circles(300, noise=0.05, factor=0.3, seed=8)
    first = kernel.kernel_pca(X, 1, kernel="rbf", gamma=2.0).scores[:, 0]
    inner, outer = first[labels == 1], first[labels == 0]
    assert inner.min() > outer.max() or inner.max() < outer.min()
    linear = pca(X, k=1).scores[:, 0]
    assert not (linear[labels == 1].min() > linear[labels == 0].max()
                or linear[labels == 1].max() < linear[labels == 0].min())


def test_kernel_pca_bad_inputs():
    X = data(16, n=10, p=2)
    with pytest.raises(ValueError, match="k must be between 1 and 9"):
        kernel.kernel_pca(X, 10)
    with pytest.raises(TypeError, match="k must be a positive integer"):
        kernel.kernel_pca(X, 1.5)
    with pytest.raises(ValueError, match="exceeds the number of positive eigenvalues"):
        kernel.kernel_pca(X, 3, kernel="linear")  # the linear feature space has 2 dimensions
    with pytest.raises(ValueError, match="exceeds the number of positive eigenvalues"):
        kernel.kernel_pca(np.ones((5, 2)), 1, kernel="rbf")  # identical points
    with pytest.raises(ValueError, match="kernel must be one of"):
        kernel.kernel_pca(X, 2, kernel="cosine")
    with pytest.raises(TypeError, match="unexpected parameter.*gamma"):
        kernel.kernel_pca(X, 2, kernel="linear", gamma=1.0)
    with pytest.raises(ValueError, match="Y must have as many columns as X"):
        kernel.kernel_pca(X, 2).transform(np.ones((3, 3)))


# --- kernel MDS ------------------------------------------------------------------------


@pytest.mark.parametrize("name, params", KERNEL_CASES)
def test_kernel_mds_equals_kernel_pca_scores(name, params):
    X = data(17, n=25, p=3)
    k = 3
    mds = kernel.kernel_mds(X, k, kernel=name, **params)
    kpca = kernel.kernel_pca(X, k, kernel=name, **params)
    assert np.allclose(mds.embedding, kpca.scores, atol=1e-8)
    assert np.allclose(mds.eigenvalues / (len(X) - 1), kpca.eigenvalues)
    K = kernel.kernel_matrix(X, kernel=name, **params)
    assert np.allclose(mds.squared_distances, np.add.outer(np.diag(K), np.diag(K)) - 2 * K)


def test_linear_kernel_mds_is_classical_mds_of_euclidean_distances():
    X = data(18, n=20, p=3)
    mds = kernel.kernel_mds(X, 2, kernel="linear")
    assert np.allclose(mds.squared_distances, cdist(X, X, "sqeuclidean"))
    # classical MDS recovers the configuration: pairwise distances of the full embedding match
    full = kernel.kernel_mds(X, 3, kernel="linear").embedding
    assert np.allclose(cdist(full, full), cdist(X, X))
    assert same_up_to_column_signs(mds.embedding, pca(X, k=2).scores)


def test_kernel_mds_bad_inputs():
    X = data(19, n=8, p=2)
    with pytest.raises(ValueError, match="k must be between 1 and 7"):
        kernel.kernel_mds(X, 8)
    with pytest.raises(ValueError, match="exceeds the number of positive eigenvalues"):
        kernel.kernel_mds(X, 3, kernel="linear")
    with pytest.raises(ValueError, match="X contains inf"):
        kernel.kernel_mds(np.full((4, 2), np.inf), 1)


# --- the checks of exercise set 08 -------------------------------------------------------


def _whiten_solution(X):
    U = np.linalg.svd(X - X.mean(axis=0), full_matrices=False)[0]
    return np.sqrt(X.shape[0] - 1) * U


def test_check_whiten():
    assert evaluate("08.whiten", _whiten_solution, seed=0).passed
    def rotated(X):  # any rotation of whitened data is whitened too
        p = X.shape[1]
        Q = np.linalg.qr(np.arange(p * p, dtype=float).reshape(p, p) + np.eye(p))[0]
        return kernel.whiten(X).whitened @ Q

    assert evaluate("08.whiten", rotated, seed=1).passed
    unit = evaluate("08.whiten", lambda X: np.linalg.svd(X - X.mean(axis=0), full_matrices=False)[0], seed=0)
    assert not unit.passed and "sqrt(n - 1)" in unit.message
    uncentred = evaluate("08.whiten", lambda X: X @ kernel.whiten(X).matrix, seed=0)
    assert not uncentred.passed and "centre" in uncentred.message
    standardised = evaluate("08.whiten", lambda X: (X - X.mean(axis=0)) / X.std(axis=0, ddof=1), seed=0)
    assert not standardised.passed
    ddof0 = evaluate("08.whiten", lambda X: np.sqrt(X.shape[0]) * _whiten_solution(X) / np.sqrt(X.shape[0] - 1), seed=0)
    assert not ddof0.passed and "1/n" in ddof0.message


def test_check_center_kernel():
    assert evaluate("08.center_kernel", kernel.center_kernel, seed=0).passed
    rows_only = evaluate("08.center_kernel", lambda K: K - K.mean(axis=1, keepdims=True), seed=0)
    assert not rows_only.passed and "symmetric" in rows_only.message
    assert not evaluate("08.center_kernel", lambda K: K, seed=0).passed
    assert not evaluate("08.center_kernel", lambda K: K - K.mean(), seed=0).passed


def test_check_rbf_kernel():
    assert evaluate("08.rbf_kernel", lambda X, Y, gamma: kernel.rbf_kernel(X, Y, gamma=gamma), seed=0).passed
    transposed = evaluate("08.rbf_kernel", lambda X, Y, gamma: kernel.rbf_kernel(Y, X, gamma=gamma), seed=0)
    assert not transposed.passed and "transposed" in transposed.message
    not_squared = evaluate("08.rbf_kernel", lambda X, Y, gamma: np.exp(-gamma * cdist(X, Y)), seed=0)
    assert not not_squared.passed
    halved = evaluate("08.rbf_kernel", lambda X, Y, gamma: np.exp(-gamma * cdist(X, Y, "sqeuclidean") / 2), seed=0)
    assert not halved.passed


def test_check_linear_kpca_scores():
    """The exercise's function gets only K = X X': the library's kernel PCA of the data passes only through K."""
    def from_kernel(K, k):
        mu, A = np.linalg.eigh(kernel.center_kernel(K))
        return A[:, ::-1][:, :k] * np.sqrt(mu[::-1][:k])

    assert evaluate("08.linear_kpca_scores", from_kernel, seed=0).passed
    assert evaluate("08.linear_kpca_scores", lambda K, k: -from_kernel(K, k), seed=0).passed
    unit = evaluate("08.linear_kpca_scores", lambda K, k: np.linalg.eigh(kernel.center_kernel(K))[1][:, ::-1][:, :k],
                    seed=0)
    assert not unit.passed and "length 1" in unit.message
    swapped = evaluate("08.linear_kpca_scores", lambda K, k: from_kernel(K, k)[:, ::-1], seed=0)
    assert not swapped.passed and "order" in swapped.message
    uncentred = evaluate("08.linear_kpca_scores", lambda K, k: (lambda mu, A: A[:, ::-1][:, :k] * np.sqrt(
        mu[::-1][:k]))(*np.linalg.eigh(K)), seed=0)  # forgot to centre
    assert not uncentred.passed and "centre K" in uncentred.message
    assert not evaluate("08.linear_kpca_scores", ..., seed=0).passed


def test_check_circle_gamma_asks_for_the_function():
    """Issue 38: 08.circle_gamma asks for the gammas that separate fresh rings (proven in
    tests/check_cases/set08.py); a gamma typed in, right for the notebook's rings, no longer passes."""
    for typed in (0.25, 0.5, 2.0, "wide"):
        assert not evaluate("08.circle_gamma", typed, seed=0).passed
