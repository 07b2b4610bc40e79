"""The check machinery, and the checks of exercise sets 01 and 02: correct answers pass,
typical mistakes fail with a useful message."""

import numpy as np
import pytest

from dimred_teach import check
from dimred_teach.checks import evaluate, get_check
from dimred_teach.checks.set01 import crab_matrix
from dimred_teach.display import rounded


def test_unanswered_and_unimplemented_answers_are_not_yet():
    assert evaluate("01.top_direction", ...).message.startswith("no answer yet")

    def stub(X):
        raise NotImplementedError

    verdict = evaluate("01.sample_covariance", stub, seed=0)
    assert not verdict.passed and "NotImplementedError" in verdict.message


def test_a_crashing_answer_is_reported_not_raised():
    verdict = evaluate("01.sample_covariance", lambda X: 1 / 0, seed=0)
    assert not verdict.passed and "ZeroDivisionError" in verdict.message


def test_check_prints_one_line_and_a_hint(capsys):
    check("01.top_direction", np.ones(5))
    out = capsys.readouterr().out
    assert out.startswith("[not yet] 01.top_direction:") and "hint:" in out


@pytest.mark.parametrize("bad_id", ["1.x", "01-x", "99.anything", "01.unknown"])
def test_unknown_exercise_ids_are_refused(bad_id):
    with pytest.raises(ValueError, match="exercise_id"):
        get_check(bad_id)


def centred(X):
    return X - X.mean(axis=0)


def test_01_sample_covariance():
    assert evaluate("01.sample_covariance", lambda X: np.cov(X, rowvar=False), seed=0).passed
    uncentred = evaluate("01.sample_covariance", lambda X: X.T @ X / (len(X) - 1), seed=0)
    assert not uncentred.passed and "without centring" in uncentred.message
    over_n = evaluate("01.sample_covariance", lambda X: np.cov(X, rowvar=False, ddof=0), seed=0)
    assert not over_n.passed and "divides by n" in over_n.message


def test_01_top_direction():
    values, vectors = np.linalg.eigh(np.cov(crab_matrix(), rowvar=False))
    assert evaluate("01.top_direction", vectors[:, -1]).passed
    assert evaluate("01.top_direction", -vectors[:, -1]).passed  # up to sign
    assert "not the largest" in evaluate("01.top_direction", vectors[:, 0]).message
    assert "length 1" in evaluate("01.top_direction", 2 * vectors[:, -1]).message
    assert "shape" in evaluate("01.top_direction", vectors[:, -2:]).message


def test_01_lagrangian_gradient():
    assert evaluate("01.lagrangian_gradient", lambda S, w, lam: 2 * S @ w - 2 * lam * w, seed=1).passed
    assert not evaluate("01.lagrangian_gradient", lambda S, w, lam: S @ w - lam * w, seed=1).passed


def best_projection(X, r):
    values, vectors = np.linalg.eigh(np.cov(X, rowvar=False))
    return vectors[:, ::-1][:, :r]


def test_01_best_projection():
    assert evaluate("01.best_projection", best_projection, seed=2).passed
    smallest = evaluate("01.best_projection", lambda X, r: np.linalg.eigh(np.cov(X, rowvar=False))[1][:, :r], seed=2)
    assert not smallest.passed and "larger than the minimum" in smallest.message
    scaled = evaluate("01.best_projection", lambda X, r: 2 * best_projection(X, r), seed=2)
    assert not scaled.passed and "orthonormal" in scaled.message


def test_01_score_covariance():
    X = crab_matrix()
    values, vectors = np.linalg.eigh(np.cov(X, rowvar=False))
    scores = centred(X) @ vectors[:, ::-1]
    assert evaluate("01.score_covariance", np.cov(scores, rowvar=False)).passed
    assert "diagonal" in evaluate("01.score_covariance", np.cov(X, rowvar=False)).message
    ascending = centred(X) @ vectors
    assert "largest first" in evaluate("01.score_covariance", np.cov(ascending, rowvar=False)).message


def test_02_eigenvalues_from_svd():
    good = lambda X: np.linalg.svd(centred(X), compute_uv=False) ** 2 / (len(X) - 1)  # noqa: E731
    assert evaluate("02.eigenvalues_from_svd", good, seed=0).passed
    uncentred = lambda X: np.linalg.svd(X, compute_uv=False) ** 2 / (len(X) - 1)  # noqa: E731
    assert not evaluate("02.eigenvalues_from_svd", uncentred, seed=0).passed
    assert "sorted" in evaluate("02.eigenvalues_from_svd", lambda X: good(X)[::-1], seed=0).message


def gram_components(X, k):
    Xc = centred(X)
    values, U = np.linalg.eigh(Xc @ Xc.T)
    top = np.argsort(values)[::-1][:k]
    return Xc.T @ U[:, top] / np.sqrt(values[top])


def test_02_components_from_gram():
    assert evaluate("02.components_from_gram", gram_components, seed=0).passed
    unnormalised = lambda X, k: gram_components(X, k) * 3  # noqa: E731
    assert "orthonormal" in evaluate("02.components_from_gram", unnormalised, seed=0).message
    reversed_order = lambda X, k: gram_components(X, k)[:, ::-1]  # noqa: E731
    verdict = evaluate("02.components_from_gram", reversed_order, seed=0)
    assert not verdict.passed and "ordered" in verdict.message


def test_02_svd_is_pca():
    def good(X, k):
        U, d, Vt = np.linalg.svd(centred(X), full_matrices=False)
        return Vt[:k].T, U[:, :k] * d[:k]

    assert evaluate("02.svd_is_pca", good, seed=0).passed
    assert "pair" in evaluate("02.svd_is_pca", lambda X, k: good(X, k)[0], seed=0).message
    def transposed(X, k):  # the WashU layout: X' = V D U', so its LEFT singular vectors are the directions
        V = np.linalg.svd(centred(X).T, full_matrices=False)[0][:, :k]
        return V, centred(X) @ V

    assert evaluate("02.svd_is_pca", transposed, seed=0).passed
    wrong = lambda X, k: (np.eye(X.shape[1])[:, :k], centred(X)[:, :k])  # noqa: E731
    assert "eigenvector" in evaluate("02.svd_is_pca", wrong, seed=0).message


def test_02_power_iteration_and_smallest_k():
    assert evaluate("02.power_iteration", lambda A: np.linalg.eigh(A)[1][:, -1], seed=0).passed
    assert not evaluate("02.power_iteration", lambda A: np.linalg.eigh(A)[1][:, 0], seed=0).passed

    def smallest_k(values, tol):
        dropped = 1 - np.cumsum(values) / np.sum(values)
        return int(np.argmax(dropped < tol) + 1)

    assert evaluate("02.smallest_k", smallest_k, seed=0).passed
    assert "not the smallest" in evaluate("02.smallest_k", lambda v, t: smallest_k(v, t) + 1, seed=0).message
    assert not evaluate("02.smallest_k", lambda v, t: len(v) + 1, seed=0).passed


def test_rounded_removes_negative_zero():
    assert str(rounded(-1e-9)) == "0.0"
    assert str(rounded(np.array([-1e-9, 1.23456]))) in {"[0.     1.2346]", "[0.0000 1.2346]"}
