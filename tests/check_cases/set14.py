"""Variants and mutants of exercise set 14, Neighbour embeddings: t-SNE and UMAP."""

import numpy as np
from scipy.special import softmax
from scipy.stats import entropy

from . import Mutant, Variant, in_float32, solution


def _kernel(Y, gaussian=False, keep_diagonal=False):
    D2 = ((Y[:, None, :] - Y[None, :, :]) ** 2).sum(axis=2)
    K = np.exp(-D2) if gaussian else 1.0 / (1.0 + D2)
    if not keep_diagonal:
        np.fill_diagonal(K, 0.0)
    return K


def _q(Y, rows=False, **kernel):
    K = _kernel(Y, **kernel)
    return K / (K.sum(axis=1, keepdims=True) if rows else K.sum())


def _gradient_with(factor=4.0, sign=1.0, weighted=True):
    def answer(Y, P):
        n = len(Y)
        K = _kernel(Y)
        Q = K / K.sum()
        gradient = np.zeros_like(Y)
        for i in range(n):
            for j in range(n):
                if i != j:
                    gradient[i] += (P[i, j] - Q[i, j]) * (K[i, j] if weighted else 1.0) * (Y[i] - Y[j])
        return sign * factor * gradient
    return answer


def _kl(Y, P):
    """sum over i != j of p_ij log(p_ij / q_ij), for any P (exaggerated too)."""
    Q = _q(Y)
    off = ~np.eye(len(Y), dtype=bool)
    return float(np.sum(P[off] * np.log(P[off] / Q[off])))


def _finite_differences(normalise=False):
    """Central differences of the KL for the P given (or P divided by its sum), step scaled to the precision."""
    def answer(Y, P):
        h = np.finfo(Y.dtype).eps ** (1 / 3) * max(1.0, float(np.abs(Y).max()))
        P = P / P.sum() if normalise else P
        gradient = np.zeros_like(Y)
        for index in np.ndindex(*Y.shape):
            step = np.zeros_like(Y)
            step[index] = h
            gradient[index] = (_kl(Y + step, P) - _kl(Y - step, P)) / (2 * h)
        return gradient
    return answer


def _gradient_of_normalised_p(Y, P):
    return _gradient_with()(Y, P / P.sum())


CASES = {
    "14.neighbour_probabilities": (
        [
            Variant("the solution", solution("14.neighbour_probabilities")),
            Variant("float32", lambda: in_float32(solution("14.neighbour_probabilities")())),
            Variant("scipy's softmax", lambda: lambda d2, beta: softmax(-beta * d2)),
            Variant("without the shift", lambda: lambda d2, beta: np.exp(-beta * d2) / np.exp(-beta * d2).sum()),
        ],
        [
            Mutant("not normalised", lambda: lambda d2, beta: np.exp(-beta * d2), r"sum to 1", "not-normalised"),
            Mutant("plus sign", lambda: lambda d2, beta: softmax(beta * d2), r"nearer points", "plus-sign"),
            Mutant("beta as the variance", lambda: lambda d2, beta: softmax(-d2 / (2 * beta)), r"precision",
                   "beta-as-variance"),
            Mutant("distances not squared", lambda: lambda d2, beta: softmax(-beta * np.sqrt(d2)), r"does not hold",
                   "other"),
        ],
    ),
    "14.perplexity_of": (
        [
            Variant("the solution", solution("14.perplexity_of")),
            Variant("float32", lambda: in_float32(solution("14.perplexity_of")())),
            Variant("scipy's entropy in base 2", lambda: lambda p: 2.0 ** entropy(p, base=2)),
            Variant("e to the entropy in nats", lambda: lambda p: float(np.exp(entropy(p)))),
        ],
        [
            Mutant("the entropy", lambda: lambda p: entropy(p, base=2), r"entropy, not the perplexity",
                   "returns-entropy"),
            Mutant("natural log under base 2", lambda: lambda p: 2.0 ** entropy(p), r"bits", "natural-log"),
            Mutant("0 log 0 as NaN", lambda: lambda p: float(2.0 ** -(p * np.log2(p)).sum()), r"zero probability",
                   "zero-probabilities"),
        ],
    ),
    "14.student_t_similarities": (
        [
            Variant("the solution", solution("14.student_t_similarities")),
            Variant("float32", lambda: in_float32(solution("14.student_t_similarities")())),
            Variant("by broadcasting, outside the solution", lambda: lambda Y: _q(Y)),
        ],
        [
            Mutant("a Gaussian kernel", lambda: lambda Y: _q(Y, gaussian=True), r"Student-t", "gaussian-kernel"),
            Mutant("the diagonal counted", lambda: lambda Y: _q(Y, keep_diagonal=True), r"q_ii must be 0",
                   "diagonal-counted"),
            Mutant("rows normalised", lambda: lambda Y: _q(Y, rows=True), r"not each row", "row-normalised"),
        ],
    ),
    "14.kl_gradient": (
        [
            Variant("the solution", solution("14.kl_gradient")),
            Variant("float32", lambda: in_float32(solution("14.kl_gradient")())),
            Variant("a double loop", lambda: _gradient_with()),
        ],
        [
            Mutant("no factor 4", lambda: _gradient_with(factor=1.0), r"constant factor", "no-factor-4"),
            Mutant("the sign flipped", lambda: _gradient_with(sign=-1.0), r"wrong way", "wrong-sign"),
            Mutant("no kernel weight", lambda: _gradient_with(weighted=False), r"weighted by the Student-t",
                   "no-kernel-weight"),
            Mutant("factor 2", lambda: _gradient_with(factor=2.0), r"does not hold", "other"),
            Mutant("central finite differences of the KL", lambda: _finite_differences(), r"finite differences",
                   "finite-differences"),
            Mutant("central finite differences of the KL, in float32", lambda: in_float32(_finite_differences()),
                   r"finite differences|does not hold", ("finite-differences", "other")),
            Mutant("finite differences of the KL of P divided by its sum", lambda: _finite_differences(normalise=True),
                   r"as if it summed to 1", "normalised-p"),
            Mutant("the formula with P divided by its sum", lambda: _gradient_of_normalised_p, r"as if it summed to 1",
                   "normalised-p"),
        ],
    ),
    "14.fuzzy_union": (
        [
            Variant("the solution", solution("14.fuzzy_union")),
            Variant("float32", lambda: in_float32(solution("14.fuzzy_union")())),
            Variant("one minus both missing", lambda: lambda A: 1.0 - (1.0 - A) * (1.0 - A.T)),
        ],
        [
            Mutant("the maximum", lambda: lambda A: np.maximum(A, A.T), r"larger membership", "max-union"),
            Mutant("the sum", lambda: lambda A: A + A.T, r"exceed 1", "plain-sum"),
            Mutant("the average", lambda: lambda A: (A + A.T) / 2, r"averages", "average"),
            Mutant("the product", lambda: lambda A: A * A.T, r"does not hold", "other"),
        ],
    ),
}
