"""Checks of exercise set 14, Neighbour embeddings: t-SNE and UMAP.

Every exercise is a function called on fresh random instances; the references are written here directly from
the formulas, independently of :mod:`dimred_teach.neighbour_embedding`.
"""

from __future__ import annotations

import numpy as np

from . import register
from .properties import answer_array, answer_number, expect, expect_close, expect_unlike, in_random_order

FORBIDS = ("dimred_teach.neighbour_embedding",
           # 14.kl_gradient asks for NumPy: scikit-learn's private t-SNE functions return the gradient
           "sklearn.manifold._t_sne._kl_divergence", "sklearn.manifold._t_sne._kl_divergence_bh")
"""What this set's answers may not use: the library's neighbour-embedding module computes the probabilities,
perplexities, similarities, gradient and memberships these exercises ask for, and scikit-learn's private t-SNE
functions the gradient (the grader's kernel for this set does not have the library's module, and sees stand-ins
raising the policy's message for scikit-learn's functions). scikit-learn's compiled Barnes-Hut gradient draws maps
of 2 or 3 columns only: 14.kl_gradient's maps of 4 and 5 columns are beyond it."""

MISTAKES = {
    "not-normalised": "the weights were not divided by their sum",
    "plus-sign": "exp(+beta d^2) instead of exp(-beta d^2)",
    "beta-as-variance": "beta used as the variance (d^2 / (2 beta)) instead of the precision",
    "returns-entropy": "returned the entropy H instead of the perplexity 2^H",
    "natural-log": "the entropy in nats raised to the base 2",
    "zero-probabilities": "a zero probability spoils the entropy (0 log 0 must count as 0)",
    "gaussian-kernel": "a Gaussian kernel instead of the Student-t",
    "diagonal-counted": "the diagonal (i = j) counted in the normalising sum",
    "row-normalised": "each row normalised on its own instead of the whole matrix",
    "no-factor-4": "the factor 4 left out",
    "wrong-sign": "the gradient's sign flipped",
    "no-kernel-weight": "the factor (1 + ||y_i - y_j||^2)^-1 left out",
    "finite-differences": "the slope of sum p log(p / q) for the P given (finite differences), not the formula",
    "normalised-p": "P divided by its sum, so an exaggerated P loses its exaggeration",
    "max-union": "the larger of the two memberships instead of the fuzzy union",
    "plain-sum": "the two memberships added without subtracting their product",
    "average": "the average of the two memberships",
}
"""The typical mistakes this set's checks name: id (stable, counted by ``dimred-teach class-report``) to
short name. A failure no named mistake explains is ``other``."""


def _softmax(logits: np.ndarray) -> np.ndarray:
    weights = np.exp(logits - logits.max())
    return weights / weights.sum()


def _kernel(Y: np.ndarray) -> np.ndarray:
    """(1 + ||y_i - y_j||^2)^-1 with a zero diagonal, shape (n, n)."""
    K = 1.0 / (1.0 + ((Y[:, None, :] - Y[None, :, :]) ** 2).sum(axis=2))
    np.fill_diagonal(K, 0.0)
    return K


MAP_COLUMNS = (1, 2, 3, 4, 5)
"""The numbers of columns of the maps the checks draw, each at least once (the exercises' Y is n x m, any m)."""


def _maps(rng: np.random.Generator) -> list[np.ndarray]:
    """One map for each number of columns in :data:`MAP_COLUMNS` and one more, n from 5 to 14 points."""
    columns = [*MAP_COLUMNS, int(rng.choice(MAP_COLUMNS))]
    return [rng.normal(0.0, rng.uniform(0.5, 3.0), size=(int(rng.integers(5, 15)), m)) for m in columns]


@register("14.neighbour_probabilities",
          hint="weigh each other point by exp(-beta times its squared distance), then make the weights sum to 1")
def _neighbour_probabilities(answer, rng):
    cases = [(rng.uniform(0.1, 6.0, int(rng.integers(4, 12))), float(rng.uniform(0.3, 3.0))) for _ in range(5)]
    for d2, beta in in_random_order(rng, cases):
        right = _softmax(-beta * d2)
        p = answer_array(answer(d2.copy(), beta), "neighbour_probabilities(d2, beta)", shape=d2.shape)
        expect_unlike(p, np.exp(-beta * d2), right, "the probabilities must sum to 1", mistake="not-normalised")
        expect_unlike(p, _softmax(beta * d2), right, "nearer points must be likelier, not less likely",
                      mistake="plus-sign")
        expect_unlike(p, _softmax(-d2 / (2 * beta)), right,
                      "beta is the precision 1 / (2 sigma^2): it multiplies the squared distance",
                      mistake="beta-as-variance")
        expect_close(p, right, "neighbour_probabilities(d2, beta) = the normalised weights exp(-beta d2)")


@register("14.perplexity_of", hint="the entropy in bits uses log base 2; the perplexity is 2 to that power")
def _perplexity_of(answer, rng):
    cases = []
    for _ in range(5):
        p = rng.dirichlet(np.full(int(rng.integers(3, 10)), rng.uniform(0.3, 3.0)))
        cases.append(p)
    with_zeros = rng.dirichlet(np.ones(6))
    with_zeros[rng.choice(6, 2, replace=False)] = 0.0
    cases.append(with_zeros / with_zeros.sum())
    for p in in_random_order(rng, cases):
        positive = p[p > 0]
        entropy_bits = float(-(positive * np.log2(positive)).sum())
        right = 2.0 ** entropy_bits
        raw = answer(p.copy())
        try:
            finite = bool(np.all(np.isfinite(np.asarray(raw, dtype=float))))
        except (TypeError, ValueError):
            finite = True  # not a number at all: answer_number names that
        expect(finite or (p > 0).all(), "perplexity_of(p) is not a finite number for a p with zero entries: "
               "a zero probability contributes nothing to the entropy", mistake="zero-probabilities")
        value = answer_number(raw, "perplexity_of(p)")
        expect_unlike(value, entropy_bits, right, "perplexity_of(p) looks like the entropy, not the perplexity",
                      mistake="returns-entropy")
        expect_unlike(value, 2.0 ** float(-(positive * np.log(positive)).sum()), right,
                      "the entropy in the exponent of 2 must be measured in bits (log base 2)", mistake="natural-log")
        expect_close(value, right, "perplexity_of(p) = 2 ** (entropy in bits)")


@register("14.student_t_similarities",
          hint="the kernel (1 + squared distance)^-1 for every pair i != j, divided by its sum over all such pairs")
def _student_t_similarities(answer, rng):
    for Y in in_random_order(rng, _maps(rng)):
        n = len(Y)
        K = _kernel(Y)
        right = K / K.sum()
        Q = answer_array(answer(Y.copy()), "student_t_similarities(Y)", shape=(n, n))
        D2 = ((Y[:, None, :] - Y[None, :, :]) ** 2).sum(axis=2)
        G = np.exp(-D2)
        np.fill_diagonal(G, 0.0)
        expect_unlike(Q, G / G.sum(), right, "the map's kernel is the heavy-tailed Student-t, not a Gaussian",
                      mistake="gaussian-kernel")
        with_diagonal = 1.0 / (1.0 + D2)
        expect_unlike(Q, with_diagonal / with_diagonal.sum(), right,
                      "q_ii must be 0 and the normalising sum runs over pairs k != l only", mistake="diagonal-counted")
        expect_unlike(Q, K / K.sum(axis=1, keepdims=True), right,
                      "Q is one distribution over all pairs: the whole matrix sums to 1, not each row",
                      mistake="row-normalised")
        expect_close(Q, right, "student_t_similarities(Y) = the normalised Student-t kernel")


def _spring_sum(Y: np.ndarray, W: np.ndarray) -> np.ndarray:
    """sum_j W_ij (y_i - y_j) for each i, shape (n, m), for a W with a zero diagonal."""
    return W.sum(axis=1)[:, None] * Y - W @ Y


@register("14.kl_gradient",
          hint="for each i, add up 4 (p_ij - q_ij) (1 + ||y_i - y_j||^2)^-1 (y_i - y_j) over j, with P as given")
def _kl_gradient(answer, rng):
    maps = _maps(rng)
    exaggerations = [1.0, 1.0, 4.0, 12.0, *rng.uniform(2.0, 12.0, len(maps) - 4)]  # early exaggeration's factors
    for Y, exaggeration in in_random_order(rng, list(zip(maps, exaggerations))):
        n = len(Y)
        P = rng.uniform(0.0, 1.0, (n, n))
        P = P + P.T
        np.fill_diagonal(P, 0.0)
        P *= exaggeration / P.sum()
        K = _kernel(Y)
        Q = K / K.sum()
        right = 4.0 * _spring_sum(Y, (P - Q) * K)
        call = f"kl_gradient(Y, P) for a map of {Y.shape[1]} column(s) and P summing to {exaggeration:.3g}"
        gradient = answer_array(answer(Y.copy(), P.copy()), call, shape=Y.shape)
        scale = float(np.abs(right).max())
        expect_unlike(gradient, right / 4.0, right, f"{call} is off by a constant factor", scale=scale,
                      mistake="no-factor-4")
        expect_unlike(gradient, -right, right, f"{call} points the wrong way: it is the derivative of KL, which grows "
                      "when similar pairs are pulled apart", scale=scale, mistake="wrong-sign")
        unweighted = P - Q
        np.fill_diagonal(unweighted, 0.0)
        expect_unlike(gradient, 4.0 * _spring_sum(Y, unweighted), right,
                      f"{call}: each pair's spring is weighted by the Student-t kernel of its distance", scale=scale,
                      mistake="no-kernel-weight")
        # d/dy_i of sum p log(p / q) is 4 sum_j (p_ij - (sum P) q_ij) k_ij (y_i - y_j): the formula only when
        # P sums to 1
        expect_unlike(gradient, 4.0 * _spring_sum(Y, (P - exaggeration * Q) * K), right,
                      f"{call} is the slope of sum p log(p / q) for this P, as finite differences give it; with an "
                      "exaggerated P that slope is not t-SNE's gradient: use the formula", scale=scale,
                      mistake="finite-differences")
        expect_unlike(gradient, 4.0 * _spring_sum(Y, (P / exaggeration - Q) * K), right,
                      f"{call} treats P as if it summed to 1; use P as given, exaggerated or not", scale=scale,
                      mistake="normalised-p")
        expect_close(gradient, right, f"{call} = 4 sum_j (p_ij - q_ij) (1 + ||y_i - y_j||^2)^-1 (y_i - y_j)",
                     scale=scale)


@register("14.fuzzy_union", hint="the probability that at least one of two independent edges exists")
def _fuzzy_union(answer, rng):
    for _ in range(5):
        n = int(rng.integers(4, 10))
        A = rng.uniform(0.0, 1.0, (n, n)) * (rng.random((n, n)) < 0.6)
        np.fill_diagonal(A, 0.0)
        right = A + A.T - A * A.T
        W = answer_array(answer(A.copy()), "fuzzy_union(A)", shape=(n, n))
        expect_unlike(W, np.maximum(A, A.T), right, "fuzzy_union(A) takes the larger membership; the fuzzy "
                      "union of two memberships is larger than either when both are positive", mistake="max-union")
        expect_unlike(W, A + A.T, right, "fuzzy_union(A) can exceed 1; memberships stay in [0, 1]",
                      mistake="plain-sum")
        expect_unlike(W, (A + A.T) / 2, right, "fuzzy_union(A) averages; the union of two memberships is at "
                      "least the larger of them", mistake="average")
        expect_close(W, right, "fuzzy_union(A) = the probabilistic union of w_{i->j} and w_{j->i}")
