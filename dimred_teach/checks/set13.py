"""Checks of exercise set 13, Relatives of PPCA: factor analysis, ICA and the GPLVM.

Every exercise is a function called on fresh random instances; the references are written
here directly with d x d (or n x n) matrices, independently of the library's modules.
"""

from __future__ import annotations

import numpy as np

from . import register
from .properties import (
    answer_array,
    answer_number,
    answer_pair,
    expect,
    expect_close,
    in_random_order,
    is_close,
    random_orthogonal,
)

FORBIDS = ("dimred_teach.factor_analysis", "dimred_teach.ica", "dimred_teach.gplvm",
           # 13.fastica_step asks for NumPy: scikit-learn's private FastICA does the step (its iteration with
           # max_iter=1), the symmetric orthonormalisation and g, g'
           "sklearn.decomposition._fastica._ica_par", "sklearn.decomposition._fastica._sym_decorrelation",
           "sklearn.decomposition._fastica._logcosh")
"""What this set's answers may not use: the library's factor analysis, FastICA and GPLVM
would answer exercises 1-4, scikit-learn's private FastICA code exercise 3 (the grader's kernel
for this set does not have the library's modules, and sees stand-ins raising the policy's
message for scikit-learn's functions)."""

MISTAKES = {
    "psi-as-deviation": "psi used as standard deviations (Psi = diag(psi^2))",
    "no-constant": "left out the 2 pi constant",
    "mean-not-sum": "averaged over the rows instead of summing",
    "divides-by-n-minus-1": "the 1/(n-1) covariance instead of the maximum-likelihood 1/n",
    "isotropic-psi": "one common noise variance (the PPCA update) instead of one per variable",
    "old-w-in-psi": "the old W in the psi update",
    "wrong-update": "W_new is not the EM update",
    "wrong-psi": "psi_new is not the EM update",
    "not-orthogonal": "the rows were not made orthonormal again",
    "not-symmetric": "orthonormalised one row after another (Gram-Schmidt) instead of symmetrically",
    "plus-sign": "added the g' term instead of subtracting it",
    "wrong-step": "not the fixed-point step",
    "pca-scores": "PCA's scores, not rescaled",
    "no-noise-subtracted": "did not subtract the noise from the kept eigenvalues",
    "divides-by-n": "Y Y' / n instead of Y Y' / D",
    "no-centring": "no centring: the columns' means were not subtracted",
    "wrong-latent": "not the latent points of the linear GPLVM",
    "inverse-order": "for each estimated column its true source (the inverse permutation)",
    "signed-argmax": "the largest signed correlation, so a flipped source is missed",
    "covariance-not-correlation": "covariances instead of correlations, so a column's scale decides the match",
    "no-signs": "signs not aligned",
}
"""The typical mistakes this set's checks name: id (stable, counted by ``dimred-teach class-report``) to
short name. A failure no named mistake explains is ``other``."""


def _fa_instance(rng: np.random.Generator):
    """Data X (n, d) from a factor model, and parameters W (d, q), psi (d,) that differ from the fit."""
    n, d = int(rng.integers(30, 80)), int(rng.integers(4, 8))
    q = int(rng.integers(1, d - 2))
    W_true = rng.standard_normal((d, q)) * rng.uniform(1.0, 2.0, q)
    X = rng.standard_normal((n, q)) @ W_true.T + rng.standard_normal((n, d)) * rng.uniform(0.3, 1.5, d)
    return X + rng.normal(0.0, 4.0, d), rng.standard_normal((d, q)), rng.uniform(0.3, 2.5, d)


def _log_density(X: np.ndarray, mean: np.ndarray, C: np.ndarray) -> float:
    """sum_i log N(x_i | mean, C), natural log."""
    n, d = X.shape
    R = X - mean
    return float(-0.5 * (n * d * np.log(2 * np.pi) + n * np.linalg.slogdet(C)[1]
                         + np.sum(R * np.linalg.solve(C, R.T).T)))


@register("13.fa_log_likelihood",
          hint="C = W W' + diag(psi); the sum over rows of -1/2 (d log 2 pi + log|C| + (x - mean)' C^-1 (x - mean))")
def _fa_log_likelihood(answer, rng):
    cases = []
    for _ in range(int(rng.integers(4, 7))):
        X, W, psi = _fa_instance(rng)
        cases.append((X, W, rng.normal(0.0, 4.0, X.shape[1]), psi))
    for X, W, mean, psi in in_random_order(rng, cases):
        n, d = X.shape
        call = f"fa_log_likelihood(X, W, mean, psi) for X of shape {X.shape} and W of shape {W.shape}"
        value = answer_number(answer(X.copy(), W.copy(), mean.copy(), psi.copy()), call)
        expected = _log_density(X, mean, W @ W.T + np.diag(psi))
        expect(not is_close(value, _log_density(X, mean, W @ W.T + np.diag(psi**2)), 1e-6),
               f"{call} treats psi as standard deviations; psi holds the noise variances, the diagonal of Psi itself",
               mistake="psi-as-deviation")
        expect(not is_close(value, expected + 0.5 * n * d * np.log(2 * np.pi), 1e-6),
               f"{call} leaves out the normal density's 2 pi constant", mistake="no-constant")
        expect(not is_close(value, expected / n, 1e-6),
               f"{call} averages over the rows; the log-likelihood of independent rows is their sum",
               mistake="mean-not-sum")
        expect_close(value, expected, f"{call} = sum over the rows of log N(x | mean, W W' + diag(psi))", rtol=1e-6,
                     mistake="other")


def _fa_em_reference(X: np.ndarray, W: np.ndarray, psi: np.ndarray, ddof: int = 0, isotropic: bool = False,
                     old_w: bool = False):
    """One EM update of factor analysis, written with d x d matrices (and the variants of typical mistakes)."""
    n = X.shape[0]
    Xc = X - X.mean(axis=0)
    S = Xc.T @ Xc / (n - ddof)
    G = np.linalg.inv(np.eye(W.shape[1]) + W.T @ np.diag(1 / psi) @ W)
    B = G @ W.T @ np.diag(1 / psi)
    W_new = S @ B.T @ np.linalg.inv(G + B @ S @ B.T)
    psi_new = np.diag(S - (W if old_w else W_new) @ B @ S)
    return W_new, (np.full_like(psi_new, psi_new.mean()) if isotropic else psi_new)


@register("13.fa_em_step",
          hint="S = Xc'Xc / n, G = (I + W' Psi^-1 W)^-1, B = G W' Psi^-1; W_new = S B' (G + B S B')^-1 and "
               "psi_new = diag(S - W_new B S), one value per variable")
def _fa_em_step(answer, rng):
    cases = [_fa_instance(rng) for _ in range(int(rng.integers(4, 7)))]
    for X, W, psi in in_random_order(rng, cases):
        (_, d), q = X.shape, W.shape[1]
        call = f"fa_em_step(X, W, psi) for X of shape {X.shape} and q = {q}"
        W_part, psi_part = answer_pair(answer(X.copy(), W.copy(), psi.copy()), call, "(W_new, psi_new)")
        W_new = answer_array(W_part, f"W_new of {call}", shape=(d, q))
        psi_new = answer_array(psi_part, f"psi_new of {call}", shape=(d,))
        W_ref, psi_ref = _fa_em_reference(X, W, psi)
        scale = float(np.abs(W_ref @ W_ref.T).max())
        W_unbiased = _fa_em_reference(X, W, psi, ddof=1)[0]
        expect(not is_close(W_new @ W_new.T, W_unbiased @ W_unbiased.T, 1e-6, scale=scale),
               f"{call} uses S = Xc'Xc / (n - 1); the maximum-likelihood covariance divides by n",
               mistake="divides-by-n-minus-1")
        expect_close(W_new @ W_new.T, W_ref @ W_ref.T, f"W_new W_new' of {call} = the update equation's", rtol=1e-6,
                     scale=scale, mistake="wrong-update")
        expect(not is_close(psi_new, _fa_em_reference(X, W, psi, isotropic=True)[1], 1e-6),
               f"psi_new of {call} gives every variable the same noise variance (that is PPCA's update); factor "
               "analysis keeps one per variable", mistake="isotropic-psi")
        expect(not is_close(psi_new, _fa_em_reference(X, W, psi, old_w=True)[1], 1e-6),
               f"psi_new of {call} uses the old W; the update uses W_new", mistake="old-w-in-psi")
        expect_close(psi_new, psi_ref, f"psi_new of {call} = diag(S - W_new B S)", rtol=1e-6, mistake="wrong-psi")


def _white_instance(rng: np.random.Generator):
    """Whitened mixtures Z (n, k) of independent non-Gaussian sources and a random orthogonal W (k, k), far from
    symmetric, so that Z W is not Z W' (every 2 x 2 reflection is symmetric)."""
    n, k = int(rng.integers(200, 500)), int(rng.integers(2, 5))
    sources = np.column_stack([rng.uniform(-1, 1, n) if j % 2 else rng.laplace(0, 1, n) for j in range(k)])
    mixed = sources @ rng.standard_normal((k, k))
    mixed -= mixed.mean(axis=0)
    values, vectors = np.linalg.eigh(mixed.T @ mixed / n)
    Z = mixed @ vectors / np.sqrt(values)
    while True:
        W = random_orthogonal(rng, k)
        if np.abs(W - W.T).max() > 0.2:
            return Z, W


def _symmetric(W1: np.ndarray) -> np.ndarray:
    U, _, Vt = np.linalg.svd(W1)
    return U @ Vt


def _gram_schmidt(W1: np.ndarray) -> np.ndarray:
    """The rows of W1 orthonormalised one after another (signs kept)."""
    Q, R = np.linalg.qr(W1.T)
    return (Q * np.sign(np.diag(R))).T


@register("13.fastica_step",
          hint="Y = Z W', W1 = tanh(Y)' Z / n - diag(mean of 1 - tanh(Y)^2 over the rows) W, then W_new = U V' from "
               "the SVD W1 = U S V'")
def _fastica_step(answer, rng):
    cases = [_white_instance(rng) for _ in range(int(rng.integers(3, 6)))]
    for Z, W in in_random_order(rng, cases):
        n, k = Z.shape
        call = f"fastica_step(Z, W) for Z of shape {Z.shape}"
        W_new = answer_array(answer(Z.copy(), W.copy()), call, shape=(k, k))
        g = np.tanh(Z @ W.T)
        W1 = g.T @ Z / n - np.mean(1 - g**2, axis=0)[:, None] * W
        expect(is_close(W_new @ W_new.T, np.eye(k), 1e-6, scale=1.0),
               f"{call} is not orthogonal (W_new W_new' should be I): make the rows orthonormal after the update",
               mistake="not-orthogonal")
        expect(not is_close(W_new, _gram_schmidt(W1), 1e-6, scale=1.0),
               f"{call} orthonormalises the rows one after another, which favours the first row; use the symmetric "
               "(W1 W1')^(-1/2) W1", mistake="not-symmetric")
        plus = g.T @ Z / n + np.mean(1 - g**2, axis=0)[:, None] * W
        expect(not is_close(W_new, _symmetric(plus), 1e-6, scale=1.0),
               f"{call} adds the g' term; the fixed point subtracts it", mistake="plus-sign")
        expect_close(W_new, _symmetric(W1), f"{call} = (W1 W1')^(-1/2) W1", rtol=1e-6, scale=1.0,
                     mistake="wrong-step")


def _latent_reference(Y: np.ndarray, q: int, divisor: float | None = None, centre: bool = True) -> np.ndarray:
    """X X' of the linear GPLVM's latent points (n x n), with the variants of typical mistakes."""
    n, D = Y.shape
    Yc = Y - Y.mean(axis=0) if centre else Y
    values, vectors = np.linalg.eigh(Yc @ Yc.T / (D if divisor is None else divisor))
    values, vectors = values[::-1], vectors[:, ::-1]
    X = vectors[:, :q] * np.sqrt(np.clip(values[:q] - values[q:].mean(), 0.0, None))
    return X @ X.T


@register("13.linear_gplvm_latent",
          hint="eigenpairs of Yc Yc' / D (n x n), largest first; noise = mean of the n - q smallest eigenvalues; "
               "X = U_q (Lambda_q - noise I)^(1/2)")
def _linear_gplvm_latent(answer, rng):
    cases = []
    for _ in range(int(rng.integers(4, 7))):
        n, D = int(rng.integers(12, 30)), int(rng.integers(4, 10))
        q = int(rng.integers(1, min(D, 4)))
        Y = rng.standard_normal((n, q)) @ rng.standard_normal((q, D)) * 2 + 0.5 * rng.standard_normal((n, D))
        cases.append((Y + rng.normal(0.0, 3.0, D), q))
    for Y, q in in_random_order(rng, cases):
        n, D = Y.shape
        call = f"linear_gplvm_latent(Y, q={q}) for Y of shape {Y.shape}"
        X = answer_array(answer(Y.copy(), q), call, shape=(n, q))
        gram = X @ X.T  # the latent points are defined up to a rotation: compare X X'
        expected = _latent_reference(Y, q)
        scale = float(np.abs(expected).max())
        Yc = Y - Y.mean(axis=0)
        U, s, _ = np.linalg.svd(Yc, full_matrices=False)
        scores = U[:, :q] * s[:q]
        expect(not is_close(gram, scores @ scores.T, 1e-6, scale=scale),
               f"{call} returns PCA's scores; the GPLVM's points rescale each component", mistake="pca-scores")
        unshrunk = U[:, :q] * (s[:q] / np.sqrt(D))
        expect(not is_close(gram, unshrunk @ unshrunk.T, 1e-6, scale=scale),
               f"{call}: subtract the noise from the kept eigenvalues before the square root",
               mistake="no-noise-subtracted")
        expect(not is_close(gram, _latent_reference(Y, q, divisor=n), 1e-6, scale=scale),
               f"{call} divides Y Y' by n; the D columns of Y are the independent samples here, so divide by D",
               mistake="divides-by-n")
        expect(not is_close(gram, _latent_reference(Y, q, centre=False), 1e-6, scale=scale),
               f"{call}: centre the columns of Y first", mistake="no-centring")
        expect_close(gram, expected, f"X X' of {call} = U_q (Lambda_q - noise I) U_q'", rtol=1e-6, scale=scale,
                     mistake="wrong-latent")


def _correlations(true: np.ndarray, estimated: np.ndarray) -> np.ndarray:
    """C[j, m] = corr(true_j, estimated_m), shape (k, k)."""
    k = true.shape[1]
    return np.corrcoef(true.T, estimated.T)[:k, k:]


def _misled_orders(true: np.ndarray, estimated: np.ndarray) -> dict[str, list[np.ndarray]]:
    """The orders each typical mistake of 13.match_sources gives, by mistake id: for each
    estimated column its source, the largest signed correlation, covariances, and the products
    of the raw (uncentred) columns, summed or normalised to cosines."""
    k = true.shape[1]
    C = _correlations(true, estimated)
    raw = true.T @ estimated
    cosines = raw / np.outer(np.linalg.norm(true, axis=0), np.linalg.norm(estimated, axis=0))
    return {"inverse-order": [np.argmax(np.abs(C), axis=0)], "signed-argmax": [np.argmax(C, axis=1)],
            "covariance-not-correlation": [np.argmax(np.abs(np.cov(true.T, estimated.T)[:k, k:]), axis=1)],
            "no-centring": [np.argmax(np.abs(raw), axis=1), np.argmax(np.abs(cosines), axis=1)]}


def _tells_apart(right: np.ndarray, misled: dict[str, list[np.ndarray]]) -> bool:
    """Whether every mistake's order differs from the right one and from every other mistake's."""
    named = [(mistake, order) for mistake, orders in misled.items() for order in orders]
    return all(not np.array_equal(order, right) for _, order in named) and all(
        not np.array_equal(x, y) for i, (a, x) in enumerate(named) for b, y in named[i + 1:] if a != b)


def _matching_instance(rng: np.random.Generator):
    """True sources (n, k) and estimates, both with means of their own: the estimates permuted
    (not by an involution), scaled, some flipped, with a little noise, and one large-scale
    estimate leaking a little of the source whose own estimate is small. Drawn again until
    covariances and raw products each pair some source with another column than correlations
    do, every typical mistake gives an order of its own, and correlations pick every match by a
    clear margin."""
    while True:
        n, k = int(rng.integers(150, 400)), int(rng.integers(3, 6))
        unit = np.column_stack([rng.laplace(0, 1, n) if j % 2 else rng.uniform(-1, 1, n) for j in range(k)])
        unit = (unit - unit.mean(axis=0)) / unit.std(axis=0)
        permutation = rng.permutation(k)
        while np.array_equal(permutation[permutation], np.arange(k)):  # the inverse must differ from it
            permutation = rng.permutation(k)
        signs = rng.choice([-1.0, 1.0], k)
        signs[int(rng.integers(k))] = -1.0
        scales = rng.uniform(0.5, 2.0, k)
        small, large = rng.choice(k, 2, replace=False)  # estimated columns: a small one, a large one that leaks
        scales[small], scales[large] = rng.uniform(0.2, 0.4), rng.uniform(3.5, 5.0)
        signal = unit[:, permutation]
        signal[:, large] += 0.35 * unit[:, permutation[small]]
        estimated = signal * (signs * scales) + 0.1 * rng.standard_normal((n, k)) + rng.uniform(5.0, 15.0, k)
        true = unit * rng.uniform(0.5, 2.0, k) + rng.choice([-1.0, 1.0], k) * rng.uniform(1.0, 3.0, k)
        C = np.abs(_correlations(true, estimated))
        ranked = np.sort(C, axis=1)
        right = np.argmax(C, axis=1)
        if np.all(ranked[:, -1] - ranked[:, -2] > 0.3) and _tells_apart(right, _misled_orders(true, estimated)):
            return estimated, true


@register("13.match_sources",
          hint="C[j, m] = corr(true_j, estimated_m); order[j] = the m with the largest |C[j, m]|, signs[j] = the sign "
               "of C[j, order[j]]")
def _match_sources(answer, rng):
    cases = [_matching_instance(rng) for _ in range(int(rng.integers(3, 6)))]
    for estimated, true in in_random_order(rng, cases):
        n, k = true.shape
        call = f"match_sources(estimated, true) for {k} sources"
        order_part, signs_part = answer_pair(answer(estimated.copy(), true.copy()), call, "(order, signs)")
        order = answer_array(order_part, f"order of {call}", shape=(k,))
        signs = answer_array(signs_part, f"signs of {call}", shape=(k,))
        C = _correlations(true, estimated)
        expected = np.argmax(np.abs(C), axis=1)
        misled = _misled_orders(true, estimated)
        expect(not np.array_equal(order, misled["covariance-not-correlation"][0]),
               f"order of {call} follows covariances, which grow with a column's scale: a large column that holds a "
               "little of a source outweighs the small column that is that source; compare on a scale-free measure",
               mistake="covariance-not-correlation")
        expect(not any(np.array_equal(order, raw) for raw in misled["no-centring"]),
               f"order of {call} compares the raw columns, whose means dominate their products: centre the columns "
               "first", mistake="no-centring")
        expect(not np.array_equal(order, misled["inverse-order"][0]),
               f"order of {call} gives, for each estimated column, its true source; the exercise asks for each true "
               "source j the estimated column that matches it", mistake="inverse-order")
        expect(not np.array_equal(order, misled["signed-argmax"][0]),
               f"order of {call} misses a flipped source: compare correlations in absolute value",
               mistake="signed-argmax")
        expect(bool(np.all(order == np.round(order))) and sorted(order.astype(int).tolist()) == list(range(k)),
               f"order of {call} should hold each column index 0..{k - 1} once")
        expect(np.array_equal(order, expected), f"order of {call} does not pair each source with its best match")
        expect(not np.all(signs == 1.0), f"signs of {call} are all +1, but some estimates are flipped",
               mistake="no-signs")
        expect(np.array_equal(signs, np.sign(C[np.arange(k), expected])),
               f"signs of {call}: some matched column still correlates negatively with its source once multiplied")
