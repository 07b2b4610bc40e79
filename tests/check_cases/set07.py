"""Variants and mutants of exercise set 07, probabilistic PCA."""

import numpy as np

from dimred_teach import ppca
from dimred_teach.checks.set01 import crab_matrix

from . import Mutant, Variant, as_list, first_calls_then, float32, in_float32, returning, solution


def noise(X, q, ddof=0, which="smallest", centre=True):
    Xc = X - X.mean(axis=0) if centre else X
    values = np.linalg.eigvalsh(Xc.T @ Xc / (len(X) - ddof))[::-1]
    return float({"smallest": values[q:], "largest": values[:q], "all": values}[which].mean())


def em(X, W, sigma2, ddof=0, old_w_in_trace=False):
    n, d = X.shape
    q = W.shape[1]
    Xc = X - X.mean(axis=0)
    S = Xc.T @ Xc / (n - ddof)
    M = W.T @ W + sigma2 * np.eye(q)
    SW = S @ W
    W_new = SW @ np.linalg.inv(sigma2 * np.eye(q) + np.linalg.solve(M, W.T @ SW))
    W_trace = W if old_w_in_trace else W_new
    return W_new, float(np.trace(S - SW @ np.linalg.solve(M, W_trace.T)) / d)


def em_from(S, W, sigma2):
    q = W.shape[1]
    M = W.T @ W + sigma2 * np.eye(q)
    W_new = S @ W @ np.linalg.inv(sigma2 * np.eye(q) + np.linalg.solve(M, W.T @ S @ W))
    return W_new, float(np.trace(S) - np.trace(S @ W @ np.linalg.solve(M, W_new.T))) / len(S)


def em_by_einsum(X, W, sigma2):
    n, d = X.shape
    q = W.shape[1]
    Xc = X - np.einsum("ij->j", X) / n
    SW = np.einsum("ij,ik->jk", Xc, Xc @ W) / n
    M = W.T @ W + sigma2 * np.eye(q)
    W_new = np.linalg.solve((sigma2 * np.eye(q) + np.linalg.solve(M, W.T @ SW)).T, SW.T).T
    return W_new, float((np.einsum("ij,ij->", Xc, Xc) / n
                         - np.einsum("jq,jq->", SW, np.linalg.solve(M, W_new.T).T)) / d)


def em_rotated(X, W, sigma2):
    W_new, sigma2_new = em_by_einsum(X, W, sigma2)
    Q = np.linalg.qr(np.random.default_rng(W.shape[1]).standard_normal((W.shape[1],) * 2))[0]
    return W_new @ Q, sigma2_new


def projector_distance(A, B, orthonormalise=True, order=2):
    if orthonormalise:
        A, B = np.linalg.qr(A)[0], np.linalg.qr(B)[0]
    return float(np.linalg.norm(A @ A.T - B @ B.T, ord=order))


def crab_shrink(ddof=0, posterior=False):
    fit = ppca.ppca_mle(crab_matrix(), 2)
    lam = np.linalg.eigvalsh(np.cov(crab_matrix(), rowvar=False, ddof=ddof))[::-1][:2]
    return np.sqrt(lam - fit.sigma2) / lam if posterior else (lam - fit.sigma2) / lam


CASES = {
    "07.noise_variance": (
        [
            Variant("float32", lambda: in_float32(solution("07.noise_variance")())),
            Variant("np.cov with ddof=0", lambda: lambda X, q: np.linalg.eigvalsh(np.cov(X, rowvar=False, ddof=0))[
                : X.shape[1] - q].mean()),
            Variant("one-element array", lambda: lambda X, q: np.array([noise(X, q)])),
            Variant("from the SVD", lambda: lambda X, q: float(np.mean(np.linalg.svd(
                X - X.mean(0), compute_uv=False)[q:] ** 2) / len(X))),
        ],
        [
            Mutant("1/(n-1)", lambda: lambda X, q: noise(X, q, ddof=1), r"n versus n - 1", "divides-by-n-minus-1"),
            Mutant("largest eigenvalues", lambda: lambda X, q: noise(X, q, which="largest"), r"largest",
                    "largest-eigenvalues"),
            Mutant("all eigenvalues", lambda: lambda X, q: noise(X, q, which="all"), r"all d", "all-eigenvalues"),
            Mutant("no centring", lambda: lambda X, q: noise(X, q, centre=False), r"centre", "no-centring"),
            Mutant("right for three calls, then 1", first_calls_then(noise, 3, lambda X, q: 1.0), r"smallest",
                    "wrong-sigma2"),
        ],
    ),
    "07.em_step": (
        [
            Variant("list pair", lambda: returning(solution("07.em_step")(), list)),
            Variant("einsum, solve instead of inv", lambda: em_by_einsum),
            Variant("rotated W_new", lambda: em_rotated),
            Variant("float32", lambda: in_float32(solution("07.em_step")())),
        ],
        [
            Mutant("S with 1/(n-1)", lambda: lambda X, W, s: em(X, W, s, ddof=1), r"n versus n - 1",
                    "divides-by-n-minus-1"),
            Mutant("old W in the trace", lambda: lambda X, W, s: em(X, W, s, old_w_in_trace=True), r"NEW W",
                    "old-w-in-trace"),
            Mutant("only W_new", lambda: lambda X, W, s: em(X, W, s)[0], r"pair", "wrong-form"),
            Mutant("S formed (d x d)", lambda: em, r"forms a d x d matrix", "formed-s"),
            Mutant("np.cov for S", lambda: lambda X, W, s: em_from(np.cov(X, rowvar=False, ddof=0), W, s),
                   r"forms a d x d matrix", "formed-s"),
            Mutant("right for three calls, then no change", first_calls_then(em, 3, lambda X, W, s: (W, s)),
                   r"update equation|sigma2_new", "wrong-update"),
        ],
    ),
    "07.marginal_covariance": (
        [
            Variant("float32", lambda: in_float32(solution("07.marginal_covariance")())),
            Variant("nested lists", lambda: returning(solution("07.marginal_covariance")(), as_list)),
            Variant("einsum", lambda: lambda W, s: np.einsum("iq,jq->ij", W, W) + np.diag(np.full(len(W), s))),
        ],
        [
            Mutant("no noise", lambda: lambda W, s: W @ W.T, r"noise adds", "no-noise"),
            Mutant("noise everywhere", lambda: lambda W, s: W @ W.T + s, r"diagonal only", "noise-everywhere"),
            Mutant("sigma instead of sigma2", lambda: lambda W, s: W @ W.T + np.sqrt(s) * np.eye(len(W)),
                   r"sigma2 u", "wrong-noise"),
            Mutant("W'W", lambda: lambda W, s: W.T @ W + s * np.eye(W.shape[1]), r"shape", "gram-of-w"),
            Mutant("right for three calls, then the identity",
                   first_calls_then(lambda W, s: W @ W.T + s * np.eye(len(W)), 3, lambda W, s: np.eye(len(W))),
                   r"sigma2", "wrong-noise"),
        ],
    ),
    "07.projector_distance": (
        [
            Variant("float32", lambda: in_float32(solution("07.projector_distance")())),
            Variant("SVD orthonormalisation", lambda: lambda A, B: (lambda P, Q: float(np.linalg.norm(
                P @ P.T - Q @ Q.T, 2)))(np.linalg.svd(A, full_matrices=False)[0],
                                        np.linalg.svd(B, full_matrices=False)[0])),
            Variant("numpy float", lambda: returning(projector_distance, np.float64)),
        ],
        [
            Mutant("Frobenius norm", lambda: lambda A, B: projector_distance(A, B, order="fro"), r"Frobenius",
                    "frobenius"),
            Mutant("not orthonormalised", lambda: lambda A, B: projector_distance(A, B, orthonormalise=False),
                   r"orthonormalise", "not-orthonormalised"),
            Mutant("right for three calls, then 0", first_calls_then(projector_distance, 3, lambda A, B: 0.0),
                   r"distance should be", "wrong-distance"),
        ],
    ),
    "07.shrinkage": (
        [
            Variant("float32", lambda: float32(solution("07.shrinkage")())),
            Variant("list", lambda: list(solution("07.shrinkage")())),
            Variant("tuple", lambda: tuple(solution("07.shrinkage")())),
            Variant("from the fitted W", lambda: (lambda fit: np.diag(np.linalg.solve(
                fit.W.T @ fit.W + fit.sigma2 * np.eye(2), fit.W.T @ fit.W)))(ppca.ppca_mle(crab_matrix(), 2))),
        ],
        [
            Mutant("posterior-mean factors", lambda: crab_shrink(posterior=True), r"posterior mean", "posterior-mean"),
            Mutant("1/(n-1) eigenvalues", lambda: crab_shrink(ddof=1), r"n versus n - 1", "divides-by-n-minus-1"),
            Mutant("complement", lambda: 1 - crab_shrink(), r"shrink_j", "wrong-factors"),
            Mutant("reversed", lambda: crab_shrink()[::-1], r"in order", "wrong-factors"),
        ],
    ),
}
