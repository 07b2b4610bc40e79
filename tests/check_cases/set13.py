"""Variants and mutants of exercise set 13, Relatives of PPCA: factor analysis, ICA and the GPLVM."""

import numpy as np
import scipy.linalg
from scipy.stats import multivariate_normal

from . import Mutant, Variant, in_float32, solution


def _fa_log_likelihood_scipy(X, W, mean, psi):
    return multivariate_normal(mean, W @ W.T + np.diag(psi)).logpdf(X).sum()


def _fa_log_likelihood_with(transform_psi=lambda psi: psi, constant=True, total=True, logdet=True):
    def answer(X, W, mean, psi):
        n, d = X.shape
        C = W @ W.T + np.diag(transform_psi(psi))
        R = X - mean
        value = -0.5 * (np.sum(R * np.linalg.solve(C, R.T).T) + (n * np.linalg.slogdet(C)[1] if logdet else 0.0)
                        + (n * d * np.log(2 * np.pi) if constant else 0.0))
        return value if total else value / n
    return answer


def _fa_em_step_with(ddof=0, isotropic=False, old_w=False, no_inverse=False, keep_psi=False):
    def answer(X, W, psi):
        n = X.shape[0]
        Xc = X - X.mean(axis=0)
        S = Xc.T @ Xc / (n - ddof)
        G = np.linalg.inv(np.eye(W.shape[1]) + W.T @ (W / psi[:, None]))
        B = G @ (W / psi[:, None]).T
        W_new = S @ B.T if no_inverse else S @ B.T @ np.linalg.inv(G + B @ S @ B.T)
        psi_new = np.diag(S - (W if old_w else W_new) @ B @ S)
        if isotropic:
            psi_new = np.full_like(psi_new, psi_new.mean())
        return W_new, (psi.copy() if keep_psi else psi_new)
    return answer


def _fa_em_step_rotated(X, W, psi):
    """The solution's W_new times an orthogonal matrix: the same model."""
    W_new, psi_new = solution("13.fa_em_step")()(X, W, psi)
    q = W_new.shape[1]
    angle = 0.9
    R = np.eye(q) if q == 1 else scipy.linalg.block_diag(
        np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]]), np.eye(q - 2))
    return W_new @ R, psi_new


def _fastica_step_with(orthonormalise="symmetric", sign=-1.0, derivative=lambda g: 1 - g**2, transposed=False):
    def answer(Z, W):
        n = Z.shape[0]
        g = np.tanh(Z @ (W if transposed else W.T))
        W1 = g.T @ Z / n + sign * np.mean(derivative(g), axis=0)[:, None] * W
        if orthonormalise == "symmetric":
            values, vectors = np.linalg.eigh(W1 @ W1.T)
            return vectors @ np.diag(values**-0.5) @ vectors.T @ W1
        if orthonormalise == "gram-schmidt":
            Q, R = np.linalg.qr(W1.T)
            return (Q * np.sign(np.diag(R))).T
        return W1
    return answer


def _fastica_step_sqrtm(Z, W):
    n = Z.shape[0]
    g = np.tanh(Z @ W.T)
    W1 = g.T @ Z / n - np.diag(np.mean(1 - g**2, axis=0)) @ W
    return np.real(scipy.linalg.inv(scipy.linalg.sqrtm(W1 @ W1.T))) @ W1


def _latent_with(divide_by_n=False, centre=True, subtract_noise=True, noise_over_n=False, rescale=True):
    def answer(Y, q):
        n, D = Y.shape
        Yc = Y - Y.mean(axis=0) if centre else Y
        values, vectors = np.linalg.eigh(Yc @ Yc.T / (n if divide_by_n else D))
        values, vectors = values[::-1], vectors[:, ::-1]
        if not rescale:  # PCA's scores, U D
            return vectors[:, :q] * np.sqrt(values[:q] * D)
        noise = (values[q:].sum() / n if noise_over_n else values[q:].mean()) if subtract_noise else 0.0
        return vectors[:, :q] * np.sqrt(values[:q] - noise)
    return answer


def _latent_from_svd_rotated(Y, q):
    """From the SVD of Yc (eigenvalues s^2 / D), then rotated and sign-flipped: still right."""
    n, D = Y.shape
    U, s, _ = np.linalg.svd(Y - Y.mean(axis=0), full_matrices=False)
    values = np.concatenate([s**2 / D, np.zeros(max(0, n - len(s)))])
    X = U[:, :q] * np.sqrt(values[:q] - values[q:].mean())
    return -X @ np.linalg.qr(np.arange(1.0, q * q + 1).reshape(q, q) + np.eye(q))[0]


def _match_with(axis=1, absolute=True, with_signs=True, order_as_list=False, identity=False):
    def answer(estimated, true):
        k = true.shape[1]
        C = np.corrcoef(true.T, estimated.T)[:k, k:]
        order = np.argmax(np.abs(C) if absolute else C, axis=axis)
        if identity:
            order = np.arange(k)
        signs = np.sign(C[np.arange(k), order]) if with_signs else np.ones(k)
        return (order.tolist(), signs.tolist()) if order_as_list else (order, signs)
    return answer


def _match_by(similarity):
    """Matching by another similarity than the correlation (``similarity(true, estimated)``, shape (k, k))."""
    def answer(estimated, true):
        C = similarity(true, estimated)
        order = np.argmax(np.abs(C), axis=1)
        return order, np.sign(C[np.arange(true.shape[1]), order])
    return answer


def _covariances(true, estimated):
    k = true.shape[1]
    return np.cov(true.T, estimated.T)[:k, k:]


def _raw_cosines(true, estimated):
    return true.T @ estimated / np.outer(np.linalg.norm(true, axis=0), np.linalg.norm(estimated, axis=0))


def _standardised_products(true, estimated):
    """Correlations as products of standardised columns, by hand."""
    def standardise(A):
        return (A - A.mean(axis=0)) / A.std(axis=0)
    return standardise(true).T @ standardise(estimated) / len(true)


def _match_by_loop(estimated, true):
    k = true.shape[1]
    order, signs = [], []
    for j in range(k):
        correlations = [np.corrcoef(true[:, j], estimated[:, m])[0, 1] for m in range(k)]
        best = int(np.argmax(np.abs(correlations)))
        order.append(best)
        signs.append(1 if correlations[best] > 0 else -1)
    return np.array(order), np.array(signs)


CASES = {
    "13.fa_log_likelihood": (
        [
            Variant("the solution", solution("13.fa_log_likelihood")),
            Variant("float32", lambda: in_float32(solution("13.fa_log_likelihood")())),
            Variant("scipy's multivariate_normal", lambda: _fa_log_likelihood_scipy),
        ],
        [
            Mutant("psi as standard deviations", lambda: _fa_log_likelihood_with(lambda psi: psi**2),
                   r"standard deviations", "psi-as-deviation"),
            Mutant("no 2 pi constant", lambda: _fa_log_likelihood_with(constant=False), r"2 pi constant",
                   "no-constant"),
            Mutant("the mean over rows", lambda: _fa_log_likelihood_with(total=False), r"averages over the rows",
                   "mean-not-sum"),
            Mutant("no log-determinant", lambda: _fa_log_likelihood_with(logdet=False), r"does not hold", "other"),
        ],
    ),
    "13.fa_em_step": (
        [
            Variant("the solution", solution("13.fa_em_step")),
            Variant("float32", lambda: in_float32(solution("13.fa_em_step")())),
            Variant("W_new rotated", lambda: _fa_em_step_rotated),
            Variant("O(n d q) form", lambda: _fa_em_step_with()),
        ],
        [
            Mutant("S divided by n - 1", lambda: _fa_em_step_with(ddof=1), r"n - 1", "divides-by-n-minus-1"),
            Mutant("W_new without the inverse", lambda: _fa_em_step_with(no_inverse=True), r"update equation",
                   "wrong-update"),
            Mutant("PPCA's common noise", lambda: _fa_em_step_with(isotropic=True), r"same noise variance",
                   "isotropic-psi"),
            Mutant("the old W in psi", lambda: _fa_em_step_with(old_w=True), r"old W", "old-w-in-psi"),
            Mutant("psi not updated", lambda: _fa_em_step_with(keep_psi=True), r"psi_new", "wrong-psi"),
        ],
    ),
    "13.fastica_step": (
        [
            Variant("the solution", solution("13.fastica_step")),
            Variant("float32", lambda: in_float32(solution("13.fastica_step")())),
            Variant("(W1 W1')^(-1/2) by eigh", lambda: _fastica_step_with()),
            Variant("(W1 W1')^(-1/2) by sqrtm", lambda: _fastica_step_sqrtm),
        ],
        [
            Mutant("no orthonormalisation", lambda: _fastica_step_with(orthonormalise="none"), r"not orthogonal",
                   "not-orthogonal"),
            Mutant("Gram-Schmidt", lambda: _fastica_step_with(orthonormalise="gram-schmidt"),
                   r"one after another", "not-symmetric"),
            Mutant("plus sign", lambda: _fastica_step_with(sign=1.0), r"adds the g' term", "plus-sign"),
            Mutant("g' = 1 - tanh", lambda: _fastica_step_with(derivative=lambda g: 1 - g), r"does not hold",
                   "wrong-step"),
            Mutant("Z W instead of Z W'", lambda: _fastica_step_with(transposed=True), r"does not hold",
                   "wrong-step"),
        ],
    ),
    "13.linear_gplvm_latent": (
        [
            Variant("the solution", solution("13.linear_gplvm_latent")),
            Variant("float32", lambda: in_float32(solution("13.linear_gplvm_latent")())),
            Variant("from the SVD, rotated and flipped", lambda: _latent_from_svd_rotated),
        ],
        [
            Mutant("PCA scores", lambda: _latent_with(rescale=False), r"PCA's scores", "pca-scores"),
            Mutant("noise not subtracted", lambda: _latent_with(subtract_noise=False), r"subtract the noise",
                   "no-noise-subtracted"),
            Mutant("Y Y' / n", lambda: _latent_with(divide_by_n=True), r"divide by D", "divides-by-n"),
            Mutant("no centring", lambda: _latent_with(centre=False), r"centre", "no-centring"),
            Mutant("noise summed over n - q, divided by n", lambda: _latent_with(noise_over_n=True), r"does not hold",
                   "wrong-latent"),
        ],
    ),
    "13.match_sources": (
        [
            Variant("the solution", solution("13.match_sources")),
            Variant("float32", lambda: in_float32(solution("13.match_sources")())),
            Variant("a loop over pairs, integer signs", lambda: _match_by_loop),
            Variant("lists", lambda: _match_with(order_as_list=True)),
            Variant("standardised columns' products, in float32",
                    lambda: in_float32(_match_by(_standardised_products))),
        ],
        [
            Mutant("the inverse permutation", lambda: _match_with(axis=0), r"for each estimated column",
                   "inverse-order"),
            Mutant("signed correlation", lambda: _match_with(absolute=False), r"flipped source", "signed-argmax"),
            Mutant("no signs", lambda: _match_with(with_signs=False), r"all \+1", "no-signs"),
            Mutant("covariances", lambda: _match_by(_covariances), r"covariances", "covariance-not-correlation"),
            Mutant("covariances in float32", lambda: in_float32(_match_by(_covariances)), r"covariances",
                   "covariance-not-correlation"),
            Mutant("raw products", lambda: _match_by(lambda true, estimated: true.T @ estimated), r"raw columns",
                   "no-centring"),
            Mutant("cosines of the raw columns", lambda: _match_by(_raw_cosines), r"raw columns", "no-centring"),
            # 0..k-1 is one order of k! (6 to 120): on 7 instances in 1,000 it is what the signed argmax or the raw
            # columns give there, and the check rightly names that mistake
            Mutant("the identity order", lambda: _match_with(identity=True),
                   r"best match|absolute value|centre|scale-free|estimated column",
                   ("other", "signed-argmax", "no-centring", "covariance-not-correlation", "inverse-order")),
        ],
    ),
}
