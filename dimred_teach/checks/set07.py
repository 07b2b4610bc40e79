"""Checks of exercise set 07, probabilistic PCA.

Function exercises are called on fresh random instances; the value exercise is checked
against the crabs measurements, which the exercise notebook also uses.
"""

from __future__ import annotations

import tracemalloc

import numpy as np

from . import register
from .properties import (
    answer_array,
    answer_number,
    answer_pair,
    drawn_once,
    expect,
    expect_close,
    in_random_order,
    is_close,
)
from .set01 import crab_matrix

FORBIDS = ("dimred_teach.linalg.subspace_distance",  # 07.projector_distance: found by scanning the library
           "scipy.linalg.subspace_angles")  # 07.projector_distance: the sine of the largest angle (issue 52)
"""What this set's answers may not use (modules or functions of the library): the grader's
kernel for this set does not have them, and ``check()`` fails an answer that uses them
(:mod:`dimred_teach.checks.policy`)."""

MISTAKES = {
    "divides-by-n-minus-1": "the 1/(n-1) covariance instead of the maximum-likelihood 1/n",
    "largest-eigenvalues": "averaged the largest eigenvalues",
    "all-eigenvalues": "averaged all the eigenvalues",
    "no-centring": "no centring: the columns' means were not subtracted",
    "wrong-sigma2": "not the mean of the discarded eigenvalues",
    "wrong-update": "W_new is not the EM update",
    "formed-s": "formed the d x d matrix S",
    "old-w-in-trace": "the old W in the sigma2 update",
    "gram-of-w": "W'W (q x q) instead of W W' (d x d)",
    "no-noise": "left out the noise sigma2 I",
    "noise-everywhere": "added sigma2 to every entry",
    "wrong-noise": "not sigma2 in the directions orthogonal to W (sigma instead of sigma2?)",
    "not-orthonormalised": "bases not orthonormalised",
    "frobenius": "the Frobenius norm instead of the spectral norm",
    "wrong-distance": "not the projector distance",
    "posterior-mean": "the posterior-mean factors",
    "wrong-factors": "not the shrinkage factors, in order",
}
"""The typical mistakes this set's checks name: id (stable, counted by ``dimred-teach class-report``) to
short name. A failure no named mistake explains is ``other``."""


def random_ppca_data(rng: np.random.Generator, n: int | None = None, d: int | None = None) -> tuple[np.ndarray, int]:
    """A fresh data set drawn from a PPCA-like model, shape (n, d), and a latent dimension q < d - 1."""
    n, d = n or int(rng.integers(30, 80)), d or int(rng.integers(4, 9))
    q = int(rng.integers(1, d - 1))
    W = rng.standard_normal((d, q)) * rng.uniform(1.0, 3.0, q)
    X = rng.standard_normal((n, q)) @ W.T + rng.uniform(0.3, 1.0) * rng.standard_normal((n, d))
    return X + rng.normal(0.0, 5.0, d), q


def _eigenvalues_1_over_n(X: np.ndarray) -> np.ndarray:
    """Eigenvalues of the 1/n covariance, descending."""
    Xc = X - X.mean(axis=0)
    return np.linalg.eigvalsh(Xc.T @ Xc / X.shape[0])[::-1]


MAXIMUM_LIKELIHOOD_N = "(n versus n - 1: the maximum-likelihood covariance of PPCA uses 1/n, S = Xc'Xc / n)"


@register("07.noise_variance",
          hint="sigma2 is the mean of the d - q smallest eigenvalues of the 1/n covariance (WashU eq. 25)")
def _noise_variance(answer, rng):
    for X, q in in_random_order(rng, [random_ppca_data(rng) for _ in range(int(rng.integers(4, 7)))]):
        n, d = X.shape
        call = f"noise_variance(X, q={q}) for X of shape {X.shape}"
        values = _eigenvalues_1_over_n(X)
        sigma2 = answer_number(answer(X.copy(), q), call)
        expected = values[q:].mean()
        expect(not is_close(sigma2, expected * n / (n - 1), 1e-9),
               f"{call} uses the 1/(n-1) covariance {MAXIMUM_LIKELIHOOD_N}", mistake="divides-by-n-minus-1")
        expect(not is_close(sigma2, values[:q].mean(), 1e-6),
               f"{call} averages the q largest eigenvalues; sigma2 comes from the d - q discarded (smallest) ones",
               mistake="largest-eigenvalues")
        expect(not is_close(sigma2, values.mean(), 1e-9),
               f"{call} averages all d eigenvalues; average only the d - q discarded ones", mistake="all-eigenvalues")
        uncentred = np.linalg.eigvalsh(X.T @ X / n)
        expect(not is_close(sigma2, uncentred[: d - q].mean(), 1e-6), f"{call}: centre X first", mistake="no-centring")
        expect_close(sigma2, expected, f"{call}: sigma2 = mean of the {d - q} smallest eigenvalues of S = Xc'Xc / n",
                     mistake="wrong-sigma2")


def _em_reference(X: np.ndarray, W: np.ndarray, sigma2: float) -> tuple[np.ndarray, float]:
    """One EM update of Tipping and Bishop, with S W = Xc'(Xc W)/n and tr S = ||Xc||_F^2 / n (no d x d matrix)."""
    n, d = X.shape
    q = W.shape[1]
    Xc = X - X.mean(axis=0)
    XW = Xc @ W
    SW = Xc.T @ XW / n
    M = W.T @ W + sigma2 * np.eye(q)
    W_new = SW @ np.linalg.inv(sigma2 * np.eye(q) + np.linalg.solve(M, XW.T @ XW / n))
    return W_new, float(np.sum(Xc**2) / n - np.trace(np.linalg.solve(M, W_new.T @ SW))) / d


WIDE_D, WIDE_N = 3000, 40
"""07.em_step's wide case: d = 3000 dimensions, so S (d x d) takes 72 MB where the update needs
under 3 MB; an answer whose allocations peak above a quarter of S's size formed a d x d matrix."""


@drawn_once(maxsize=32)  # about 1 MB each
def _wide_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, float]:
    """07.em_step's wide case: X of shape (WIDE_N, WIDE_D), W of shape (WIDE_D, 2) and sigma2. Drawn once
    per state of ``rng`` (:func:`~dimred_teach.checks.properties.drawn_once`): X's latent dimension, up to
    d - 2, makes it take most of the check's time."""
    X, _ = random_ppca_data(rng, WIDE_N, WIDE_D)
    return X, rng.standard_normal((WIDE_D, 2)), float(rng.uniform(0.5, 3.0))


def _em_peak_bytes(answer, X: np.ndarray, W: np.ndarray, sigma2: float):
    """(answer's result, the peak of the memory NumPy and Python allocated during the call, in bytes)."""
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    tracemalloc.reset_peak()
    try:
        before = tracemalloc.get_traced_memory()[0]
        result = answer(X, W, sigma2)
        return result, tracemalloc.get_traced_memory()[1] - before
    finally:
        if started:
            tracemalloc.stop()


@register("07.em_step",
          hint="with S = Xc'Xc/n and M = W'W + sigma2 I: W_new = S W (sigma2 I + M^-1 W'S W)^-1, "
               "sigma2_new = tr(S - S W M^-1 W_new')/d")
def _em_step(answer, rng):
    from ..ppca import log_likelihood

    cases = []
    for _ in range(int(rng.integers(4, 7))):
        X, q = random_ppca_data(rng)
        cases.append((X, rng.standard_normal((X.shape[1], q)), float(rng.uniform(0.5, 3.0))))
    for X, W, sigma2 in in_random_order(rng, cases):
        n, d = X.shape
        q = W.shape[1]
        call = f"em_step(X, W, sigma2) for X of shape {X.shape} and q = {q}"
        W_part, sigma2_part = answer_pair(answer(X.copy(), W.copy(), sigma2), call, "(W_new, sigma2_new)")
        W_new = answer_array(W_part, f"W_new of {call}", shape=(d, q))
        sigma2_new = answer_number(sigma2_part, f"sigma2_new of {call}")
        expect(sigma2_new > 0, f"sigma2_new of {call} should be positive, got {sigma2_new:.6g}")
        W_ref, sigma2_ref = _em_reference(X, W, sigma2)
        W_unbiased = _em_reference(X * np.sqrt(n / (n - 1)), W, sigma2)[0]
        expect(not is_close(W_new @ W_new.T, W_unbiased @ W_unbiased.T, 1e-6),
               f"{call} uses S = Xc'Xc / (n - 1) {MAXIMUM_LIKELIHOOD_N}", mistake="divides-by-n-minus-1")
        mean = X.mean(axis=0)
        before, after = log_likelihood(X, W, mean, sigma2), log_likelihood(X, W_new, mean, sigma2_new)
        expect(after >= before - 1e-8 * abs(before),
               f"{call}: the log-likelihood went down from {before:.10g} to {after:.10g}; an EM step never "
               "decreases it")
        # The likelihood sees W only through W W', so compare that (any rotation of W_new is fine).
        expect_close(W_new @ W_new.T, W_ref @ W_ref.T, f"{call}: W_new W_new' = the update equation's",
                     mistake="wrong-update")
        expect_close(sigma2_new, sigma2_ref, f"{call}: sigma2_new = tr(S - S W M^-1 W_new') / d (with the NEW W)",
                     mistake="old-w-in-trace")
    X, W, sigma2 = _wide_case(rng)
    call = f"em_step(X, W, sigma2) for X of shape {X.shape} and q = 2"
    result, peak = _em_peak_bytes(answer, X.copy(), W.copy(), sigma2)
    expect(peak < WIDE_D**2 * 8 / 4, f"{call} allocated {peak / 1e6:.0f} MB at its peak: it forms a d x d matrix "
                                    "(S itself takes 72 MB here); compute S W as Xc' (Xc W) / n and tr S as the sum "
                                    "of the squared entries of Xc / n", mistake="formed-s")
    W_part, sigma2_part = answer_pair(result, call, "(W_new, sigma2_new)")
    W_new = answer_array(W_part, f"W_new of {call}", shape=(WIDE_D, 2))
    W_ref, sigma2_ref = _em_reference(X, W, sigma2)
    # ||W_new W_new' - W_ref W_ref'||_F^2 from q x q products only
    gap = np.sum((W_new.T @ W_new) ** 2) + np.sum((W_ref.T @ W_ref) ** 2) - 2 * np.sum((W_new.T @ W_ref) ** 2)
    expect(is_close(np.sqrt(max(gap, 0.0)), 0.0, 1e-6, scale=float(np.sum((W_ref.T @ W_ref) ** 2)) ** 0.5),
           f"{call}: W_new W_new' is not the update equation's", mistake="wrong-update")
    expect_close(answer_number(sigma2_part, f"sigma2_new of {call}"), sigma2_ref,
                 f"{call}: sigma2_new = tr(S - S W M^-1 W_new') / d (with the NEW W)", mistake="old-w-in-trace")


@register("07.marginal_covariance", hint="x = W z + mean + noise with z ~ N(0, I): Cov(x) = W W' + sigma2 I")
def _marginal_covariance(answer, rng):
    cases = []
    for _ in range(int(rng.integers(4, 7))):
        d = int(rng.integers(3, 8))
        cases.append((rng.standard_normal((d, int(rng.integers(1, d)))), float(rng.uniform(0.2, 2.0))))
    for W, sigma2 in in_random_order(rng, cases):
        (d, q), call = W.shape, f"marginal_covariance(W, sigma2={sigma2:.6g}) for W of shape {W.shape}"
        C = answer_array(answer(W.copy(), sigma2), call, shape=(d, d), wrong_shape="gram-of-w")
        scale = float(np.abs(W @ W.T).max() + sigma2)
        expect_close(C, C.T, f"{call} should be symmetric:", scale=scale)
        expect(not is_close(C, W @ W.T, 1e-8, scale=scale), f"{call} equals W W': the noise adds sigma2 I",
               mistake="no-noise")
        expect(not is_close(C, W @ W.T + sigma2, 1e-8, scale=scale),
               f"{call} adds sigma2 to every entry; the noise is independent across coordinates, so it adds "
               "sigma2 I (the diagonal only)", mistake="noise-everywhere")
        # C is pinned down by what it does on span(W) and on its orthogonal complement.
        complement = np.linalg.qr(W, mode="complete")[0][:, q:]
        expect_close(C @ complement, sigma2 * complement,
                     f"{call}: C u = sigma2 u for every u orthogonal to the columns of W", scale=scale,
                     mistake="wrong-noise")
        expect_close(C @ W, W @ (W.T @ W + sigma2 * np.eye(q)), f"{call}: C W = W (W'W + sigma2 I)", scale=scale)


def _random_basis_of(Q: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Another basis (not orthonormal) of the column space of Q."""
    k = Q.shape[1]
    return Q @ (rng.standard_normal((k, k)) + 3 * np.eye(k))


@register("07.projector_distance",
          hint="orthonormalise each basis (np.linalg.qr), form P = Q Q', return the spectral norm np.linalg.norm(., 2)")
def _projector_distance(answer, rng):
    cases = []
    for _ in range(int(rng.integers(2, 4))):
        m = int(rng.integers(5, 9))
        rotation = np.linalg.qr(rng.standard_normal((m, m)))[0]
        A = rotation[:, :2]
        theta = float(rng.uniform(0.2, 1.3))
        tilted = np.column_stack([np.cos(theta) * rotation[:, 0] + np.sin(theta) * rotation[:, 2], rotation[:, 1]])
        cases += [(A, _random_basis_of(A, rng), 0.0, "two bases of the same plane"),
                  (A, _random_basis_of(tilted, rng), np.sin(theta),
                   f"two planes that share a line and are tilted by theta = {theta:.6g}"),
                  (A, _random_basis_of(rotation[:, 2:4], rng), 1.0, "two orthogonal planes")]
    for A, B, expected, description in in_random_order(rng, cases):
        call = f"projector_distance(A, B) for {description}"
        gap = answer_number(answer(A.copy(), B.copy()), call)
        P_A, P_B = (np.linalg.qr(M)[0] @ np.linalg.qr(M)[0].T for M in (A, B))
        raw = float(np.linalg.norm(A @ A.T - B @ B.T, 2))
        expect(is_close(raw, expected, 1e-6, scale=1.0) or not is_close(gap, raw, 1e-6, scale=1.0),
               f"{call} is {gap:.6g}, not {expected:.6g}: orthonormalise the bases first (the projector onto the "
               "columns of A is Q Q' only for an orthonormal Q)", mistake="not-orthonormalised")
        frobenius = float(np.linalg.norm(P_A - P_B))
        expect(expected == 0 or not is_close(gap, frobenius, 1e-6, scale=1.0),
               f"{call} is the Frobenius norm of P_A - P_B; the course uses the spectral norm (ord=2)",
               mistake="frobenius")
        basis = " whatever the basis (compare projectors)" if expected == 0 else ""
        expect_close(gap, expected, f"{call}: the distance should be {expected:.6g}{basis};", scale=1.0,
                     mistake="wrong-distance")


def _crab_shrinkage() -> np.ndarray:
    """The answer of 07.shrinkage, as the solution computes it: (lambda_j - sigma2) / lambda_j for the two largest
    eigenvalues of the crabs' 1/n covariance and the maximum-likelihood sigma2 with q = 2, shape (2,)."""
    from ..ppca import ppca_mle

    X = crab_matrix()
    lam = _eigenvalues_1_over_n(X)[:2]
    return (lam - ppca_mle(X, 2).sigma2) / lam


@register("07.shrinkage",
          hint="for the MLE, M = W'W + sigma2 I = Lambda_q, so W M^-1 W' = V_q diag((lambda_j - sigma2)/lambda_j) V_q'",
          answer=_crab_shrinkage)
def _shrinkage(answer, rng):
    from ..pca import pca
    from ..ppca import ppca_mle

    X = crab_matrix()
    shrink = answer_array(answer, "shrink", shape=(2,))
    fit = ppca_mle(X, 2)
    V = pca(X, 2).components
    lam = _eigenvalues_1_over_n(X)[:2]
    expect(not is_close(shrink, np.sqrt(lam - fit.sigma2) / lam, 1e-6),
           "those are the factors of the latent posterior mean E[z|x]; the reconstruction W E[z|x] "
           "multiplies by sqrt(lambda_j - sigma2) once more", mistake="posterior-mean")
    n = X.shape[0]
    unbiased = lam * n / (n - 1)
    expect(not is_close(shrink, (unbiased - fit.sigma2) / unbiased, 1e-9),
           f"those factors use the eigenvalues of the 1/(n-1) covariance {MAXIMUM_LIKELIHOOD_N}",
           mistake="divides-by-n-minus-1")
    expect(bool(np.all((shrink > 0) & (shrink < 1))), "shrinkage factors lie strictly between 0 and 1")
    operator = fit.W @ np.linalg.solve(fit.W.T @ fit.W + fit.sigma2 * np.eye(2), fit.W.T)
    expect_close(operator @ V, V * shrink, "W M^-1 W' v_j = shrink_j v_j for the two crabs components, in order "
                                           "(f_1 for the first)", scale=1.0, mistake="wrong-factors")
