"""Checks of exercise set 02, eigendecomposition versus SVD. Every exercise asks for a
function, which is called on fresh random instances in a random order."""

from __future__ import annotations

import numpy as np

from . import CheckFailure, register
from .properties import (
    answer_array,
    answer_integer,
    answer_pair,
    distinct,
    drawn_once,
    expect,
    expect_close,
    expect_same_subspace,
    expect_unit_columns,
    expect_unlike,
    in_random_order,
    is_close,
    note_precision,
    random_orthogonal,
    tolerance,
)
from .set01 import N_VERSUS_N_MINUS_1, covariance, random_data

FORBIDS = ("dimred_teach.pca",)  # eigenvalues from the SVD, the Gram trick, power iteration, choosing k
"""What this set's answers may not use (modules or functions of the library): the grader's
kernel for this set does not have them, and ``check()`` fails an answer that uses them
(:mod:`dimred_teach.checks.policy`)."""

MISTAKES = {
    "ascending": "in ascending order instead of largest first",
    "no-centring": "no centring: the columns' means were not subtracted",
    "divides-by-n": "divided by n instead of n - 1",
    "unsquared": "singular values not squared",
    "wrong-eigenvalues": "not the covariance's eigenvalues",
    "not-unit": "not scaled to length 1",
    "wrong-subspace": "spans the wrong subspace",
    "unscaled-scores": "the eigenvectors U of G, not the scores U D",
    "eigenvalue-scaled": "scaled by the eigenvalues d^2 of G, not by d",
    "scores-of-raw-data": "projected the raw data instead of the centred data",
    "wrong-scores": "scores that are not Xc V (U alone, or signs that do not match the components)",
    "not-leading": "not the leading eigenvector (too few steps, or the smallest one)",
    "zero-based": "r counted from 0",
    "too-few": "r too small: the error is above the tolerance",
    "too-many": "not the smallest r that meets the tolerance",
    "gram-inverse": "(A'A)^-1 without the A' that follows it",
    "no-cutoff": "inverted singular values that are zero",
    "transposed-factors": "U D+ V' instead of V D+ U'",
    "only-diagonal": "only the diagonal of D+, not the matrix",
    "not-inverted": "singular values not inverted (A' or D where D+ belongs)",
    "float64-cutoff": "a float64 cutoff for float32 input (np.finfo(float).eps, not the input's)",
    "wrong-null-space": "not an orthonormal basis of the null space of A",
}
"""The typical mistakes this set's checks name: id (stable, counted by ``dimred-teach class-report``) to
short name. A failure no named mistake explains is ``other``."""


def _wide_data(rng: np.random.Generator) -> np.ndarray:
    """Fresh data with many more variables than points, shape (n, p), p >> n."""
    n, p = int(rng.integers(8, 20)), int(rng.integers(60, 120))
    return rng.standard_normal((n, p)) * np.linspace(3.0, 0.2, p) + rng.normal(0, 5, p)


def _expect_descending(values: np.ndarray, what: str) -> None:
    rises = np.diff(values) > tolerance(1e-10) * float(np.abs(values).max(initial=1.0))
    expect(not np.any(rises), f"{what} should be sorted largest first (descending), got them in ascending or mixed "
                              "order (np.linalg.eigh sorts ascending; np.linalg.svd descending)", mistake="ascending")


@register("02.eigenvalues_from_svd", hint="lambda_j = d_j**2 / (n - 1) with d the singular values of the CENTRED data")
def _eigenvalues_from_svd(answer, rng):
    for X in in_random_order(rng, [random_data(rng) for _ in range(int(rng.integers(4, 7)))]):
        n, p = X.shape
        values = answer_array(answer(X.copy()), "eigenvalues_from_svd(X)", shape=(p,))
        expected = np.linalg.eigvalsh(covariance(X))[::-1]
        _expect_descending(values, "eigenvalues_from_svd(X)")
        expect(not is_close(values, np.linalg.svd(X, compute_uv=False) ** 2 / (n - 1), 1e-6),
               "eigenvalues_from_svd(X) uses the singular values of X itself: centre the columns first",
               mistake="no-centring")
        expect(not is_close(values, expected * (n - 1) / n, 1e-6),
               f"eigenvalues_from_svd(X) divides by n {N_VERSUS_N_MINUS_1}", mistake="divides-by-n")
        expect(not is_close(values, np.sqrt(expected * (n - 1)) / (n - 1), 1e-6),
               "eigenvalues_from_svd(X) divides the singular values by n - 1 without squaring them: "
               "lambda_j = d_j**2 / (n - 1)", mistake="unsquared")
        expect_close(values, expected, f"the eigenvalues of the sample covariance of a data set of shape {X.shape}:",
                     mistake="wrong-eigenvalues")


@register("02.components_from_gram",
          hint="eigenvectors U of G (n x n) with the k LARGEST eigenvalues, each scaled by the square root of its "
               "eigenvalue: Z = U_k D_k, since G = Xc Xc' = U D^2 U'")
def _components_from_gram(answer, rng):
    ks = [int(rng.integers(2, 4))] + [int(rng.integers(1, 4)) for _ in range(int(rng.integers(3, 6)))]  # k >= 2
    cases = [(X - X.mean(axis=0), k) for k, X in zip(ks, (_wide_data(rng) for _ in ks))]  # once: an order shows
    for Xc, k in in_random_order(rng, cases):
        n = Xc.shape[0]
        G = Xc @ Xc.T
        call = f"components_from_gram(G, {k}) for a Gram matrix of {n} x {n}"
        Z = answer_array(answer(G.copy(), k), call, shape=(n, k))
        U, d, _ = np.linalg.svd(Xc, full_matrices=False)
        expected = U[:, :k] * d[:k]  # = Xc V_k, up to the signs of its columns
        lengths = np.linalg.norm(Z, axis=0)
        expect(not is_close(lengths, np.ones(k), 1e-6),
               f"the columns of {call} have length 1: those are the eigenvectors U of G; the scores are U D, each "
               "column scaled by the square root of its eigenvalue", mistake="unscaled-scores")
        expect(not is_close(np.sort(lengths)[::-1], d[:k] ** 2, 1e-6),
               f"the columns of {call} are scaled by the eigenvalues d_j^2 of G: scale by their square roots d_j",
               mistake="eigenvalue-scaled")
        expect(not is_close(lengths, d[:k][::-1], 1e-6) or k == 1,
               f"{call}: the components should be sorted largest first (np.linalg.eigh sorts ascending)",
               mistake="ascending")
        expect_same_subspace(Z, expected, f"the {k} score columns of {call}", mistake="wrong-subspace")
        expect_close(Z @ Z.T, expected @ expected.T, f"{call}: Z Z' = U_k D_k^2 U_k' (the scores Xc V_k)",
                     scale=d[0] ** 2, mistake="wrong-subspace")


@register("02.svd_is_pca", hint="take the SVD of the centred data; the directions are the right singular vectors, "
                                "the scores are U D (or Xc @ V)")
def _svd_is_pca(answer, rng):
    cases = []
    for _ in range(int(rng.integers(4, 7))):
        X = random_data(rng)
        cases.append((X, int(rng.integers(1, X.shape[1] + 1))))
    for X, k in in_random_order(rng, cases):
        n, p = X.shape
        components, scores = answer_pair(answer(X.copy(), k), "pca_via_svd(X, k)", "(components, scores)")
        V = answer_array(components, f"the components of pca_via_svd(X, {k})", shape=(p, k))
        Z = answer_array(scores, f"the scores of pca_via_svd(X, {k})", shape=(n, k))
        Xc = X - X.mean(axis=0)
        S = covariance(X)
        lam = np.linalg.eigvalsh(S)[::-1][:k]
        expect_unit_columns(V, f"each component of pca_via_svd(X, {k})")
        _expect_descending(np.diag(V.T @ S @ V), "the components, by their variance v'Sv,")
        expect_close(S @ V, V * lam, "each component is an eigenvector of S with the matching eigenvalue (largest "
                                     "first): S V = V Lambda", scale=lam[0], mistake="ascending")
        expect(not is_close(Z, X @ V, 1e-6) or is_close(Z, Xc @ V, 1e-6),
               "the scores are the raw data projected on the components: project the CENTRED data",
               mistake="scores-of-raw-data")
        expect_close(Z, Xc @ V, "the scores should be the centred data projected on the components, Xc @ V "
                                "(with the same signs as the components)", mistake="wrong-scores")


POWER_SIZE = 12_000
"""The order of the matrices 02.power_iteration receives, sparse (four nonzeros a row): a
product A @ v costs about 0.1 ms, but a dense copy alone takes 1.15 GB, so np.linalg.eigh of
A.toarray() (a second 1.15 GB for the eigenvectors, minutes of O(m^3) work on one core) is beyond
the grading kernel's 2 GB and its 20 s a call (tests/checks/test_checks_01_02.py holds the arithmetic)."""
POWER_BLOCK = 4


@drawn_once()  # about 0.7 MB each; the proofs' 20 seeds draw 95 (cyclically: all must fit)
def sparse_psd_with_gap(rng: np.random.Generator, m: int = POWER_SIZE) -> tuple:
    """A symmetric positive definite m x m CSR matrix with a clear gap lambda_2 / lambda_1 between
    0.5 and 0.7 (blocks of 4 on the diagonal, rows and columns shuffled), and its unit leading
    eigenvector, shape (m,). Drawn once per state of ``rng``
    (:func:`~dimred_teach.checks.properties.drawn_once`)."""
    import scipy.sparse

    blocks = m // POWER_BLOCK
    Q = np.linalg.qr(rng.standard_normal((blocks, POWER_BLOCK, POWER_BLOCK)))[0]
    values = rng.uniform(0.1, 1.0, (blocks, POWER_BLOCK))
    values[0, 0] = values.max() / rng.uniform(0.5, 0.7)
    entries = (Q * values[:, None, :]) @ Q.transpose(0, 2, 1)
    start = (np.arange(blocks) * POWER_BLOCK)[:, None, None]
    rows = np.broadcast_to(start + np.arange(POWER_BLOCK)[None, :, None], entries.shape)
    columns = np.broadcast_to(start + np.arange(POWER_BLOCK)[None, None, :], entries.shape)
    order = rng.permutation(m)  # new index of each old row
    A = scipy.sparse.csr_array((entries.ravel(), (order[rows.ravel()], order[columns.ravel()])), shape=(m, m))
    leading = np.zeros(m)
    leading[order[:POWER_BLOCK]] = Q[0][:, 0]
    return A, leading


@register("02.power_iteration", hint="repeat v <- A v / |A v| from a random start; stop when v stops changing")
def _power_iteration(answer, rng):
    for A, leading in in_random_order(rng, [sparse_psd_with_gap(rng) for _ in range(int(rng.integers(4, 6)))]):
        m = A.shape[0]
        v = answer_array(answer(A.copy()), "leading_eigenvector(A)", shape=(m,))
        expect_unit_columns(v[:, None], "the vector", mistake="not-unit")
        cosine = abs(float(v @ leading))
        expect(1 - cosine <= tolerance(1e-10),
               f"leading_eigenvector(A) is not the leading eigenvector of a {m} x {m} matrix: |cos angle| = "
               f"{cosine:.12f}; iterate until the vector stops changing (to 1e-12)", mistake="not-leading")


@register("02.smallest_k", hint="relative error of r components = (sum of eigenvalues after r) / (sum of all)")
def _smallest_k(answer, rng):
    cases = []
    for number in range(int(rng.integers(6, 10))):
        spectrum = np.sort(rng.exponential(1.0, int(rng.integers(4, 12))))[::-1]
        relative = np.append(1 - np.cumsum(spectrum)[:-1] / spectrum.sum(), 0.0)
        if number < 2:  # a tolerance just above one of the relative errors: the strict "below" matters
            tol = float(relative[int(rng.integers(0, spectrum.size - 1))]) * (1 + 1e-7)
        else:
            tol = float(rng.uniform(0.02, 0.5))
        cases.append((spectrum, tol))
    for spectrum, tol in in_random_order(rng, cases):
        call = f"smallest_k(eigenvalues, tol={tol:.10g}) for {spectrum.size} eigenvalues"
        r = answer_integer(answer(spectrum.copy(), tol), call)
        expect(r >= 1, f"{call}: r must lie between 1 and {spectrum.size}, got {r}", mistake="zero-based")
        expect(r <= spectrum.size, f"{call} = {r} is not the smallest: there are only {spectrum.size} eigenvalues, "
                                   f"and r = {spectrum.size} keeps them all", mistake="too-many")
        error = spectrum[r:].sum() / spectrum.sum()
        shown, limit = distinct(error, tol)
        expect(error < tol, f"{call} = {r}: the relative error {shown} with r = {r} is not below tol = {limit}",
               mistake="too-few")
        if r > 1:
            before = spectrum[r - 1:].sum() / spectrum.sum()
            shown, limit = distinct(before, tol)
            expect(before >= tol, f"{call} = {r} is not the smallest: r - 1 = {r - 1} already has relative error "
                                  f"{shown} < tol = {limit}", mistake="too-many")


def _matrix_of_rank(rng: np.random.Generator, m: int, n: int, rank: int) -> np.ndarray:
    """A random m x n matrix of the given rank with whole-number entries (so float32 holds it exactly) times a
    power of 2, its nonzero singular values within a factor of 30 of each other."""
    while True:
        A = rng.integers(-3, 4, (m, rank)) @ rng.integers(-3, 4, (rank, n))
        d = np.linalg.svd(A, compute_uv=False)
        if d[rank - 1] > d[0] / 30:
            return np.ldexp(A.astype(float), int(rng.integers(-6, 7)))


def _pseudo_inverse_cases(rng: np.random.Generator) -> list[tuple[np.ndarray, int]]:
    """Tall and wide matrices, of full rank and rank-deficient, each with its rank; a rank-deficient tall one and
    a rank-deficient wide one also rotated and rounded to float32 (their zero singular values become float32
    rounding noise). Never square: then the shape of an
    answer alone tells A+ (n x m) from A (m x n) and from (A'A)^-1 (n x n), so those mistakes are named."""
    cases = []
    for tall in (True, False, True, False, bool(rng.integers(2))):
        small, large = sorted(int(v) for v in rng.choice(np.arange(3, 9), 2, replace=False))
        m, n = (large, small) if tall else (small, large)
        for rank in (small, int(rng.integers(1, small))):
            cases.append((_matrix_of_rank(rng, m, n, rank), rank))
    for A, rank in [case for case in cases[:4] if case[1] < min(case[0].shape)]:  # zero up to rounding in float32
        cases.append((_rounded_to_float32(rng, A, rank), rank))
    return cases


def _rounded_to_float32(rng: np.random.Generator, A: np.ndarray, rank: int) -> np.ndarray:
    """``P A Q`` for random orthogonal P (m x m) and Q (n x n), rounded to float32 (m x n), whose rounding made
    the singular values beyond ``rank`` nonzero: the largest of them is at least 1/1000 of float32's eps times
    the largest, far above a float64 cutoff (max(m, n) * 2.2e-16 times the largest), so a cutoff with float64's
    eps inverts it on every LAPACK. (Rotated on one side only, a rank-1 A = x y' whose x holds only 0, 1 and 2
    stays exactly rank 1 in float32, as scaling by a power of 2 rounds nothing: a tenth of the draws were.)"""
    while True:
        P, Q = (random_orthogonal(rng, size) for size in A.shape)
        rounded = (P @ A @ Q).astype(np.float32)
        d = np.linalg.svd(rounded.astype(float), compute_uv=False)
        if d[rank] >= 1e-3 * np.finfo(np.float32).eps * d[0]:
            return rounded


@register("02.pseudo_inverse",
          hint="A+ = V D+ U' from the SVD A = U D V': D+ holds 1/d_j for d_j above max(m, n) * eps * d_1 (eps of "
               "A's dtype), 0 for the others; A+ has the transposed shape of A; the null space is spanned by the "
               "rows of V' whose singular values are cut off or missing (full_matrices=True)")
def _pseudo_inverse(answer, rng):
    for A, rank in in_random_order(rng, _pseudo_inverse_cases(rng)):
        m, n = A.shape
        call = f"pseudo_inverse(A) for A of shape {A.shape}, dtype {A.dtype} and rank {rank}"
        note_precision(A)
        try:
            pair = answer(A.copy())
        except np.linalg.LinAlgError as error:
            raise CheckFailure(f"{call} raised LinAlgError ({error}): A'A is singular when A does not have full "
                               "column rank, so (A'A)^-1 does not exist; the SVD with a cutoff works for every A",
                               mistake="gram-inverse") \
                from None
        result, null = answer_pair(pair, call, "(A_plus, null_basis)")
        try:
            finite = bool(np.all(np.isfinite(np.asarray(result, dtype=float))))
        except (TypeError, ValueError):
            finite = True  # answer_array below says what is wrong
        expect(finite or rank == min(m, n),
               f"{call} contains inf or NaN: it divided by a singular value of A that is zero (up to rounding); "
               "invert only the singular values above a cutoff, and use 0 for the others", mistake="no-cutoff")
        expect(np.shape(result) != (m, n),
               f"{call} has the shape of A, {(m, n)}; A+ has the transposed shape {(n, m)}: are the SVD factors in "
               "the wrong order? A+ = V D+ U', not U D+ V'", mistake="transposed-factors")
        expect(np.shape(result) != (n, n),
               f"{call} has the shape {(n, n)} of A'A: (A'A)^-1 alone is not A+ (for full column rank "
               f"A+ = (A'A)^-1 A', of shape {(n, m)})", mistake="gram-inverse")
        G = answer_array(result, call, shape=(n, m), wrong_shape="only-diagonal")
        U, d, Vt = np.linalg.svd(A, full_matrices=False)
        reference = Vt[:rank].T @ (U[:, :rank] / d[:rank]).T
        expect_unlike(G, A.T, reference, f"{call} is A' = V D U': the singular values are not inverted (D+ holds "
                                         "1/d_j where D holds d_j)", mistake="not-inverted")
        singular = np.linalg.svd(G, compute_uv=False)  # A+'s are 1/d_rank >= ... >= 1/d_1, then zeros
        expect(A.dtype != np.float32 or singular[0] <= 1e2 / d[rank - 1],  # 1/noise swamps float32 G's others
               f"{call} inverted a singular value of A that is zero up to float32 rounding: for float32 input the "
               "cutoff needs float32's eps, np.finfo(d.dtype).eps, not np.finfo(float).eps", mistake="float64-cutoff")
        beyond = singular[rank:]
        expect(not np.any(beyond > tolerance(1e-6) / d[rank - 1]),
               f"{call} has more than {rank} nonzero singular values: it inverted a singular value of A that is zero "
               "up to rounding; invert only the singular values above a cutoff such as max(m, n) * eps * d_1",
               mistake="no-cutoff")
        expect_close(A @ G @ A, A, f"{call}: the Penrose condition (1) A A+ A = A", scale=d[0])
        expect_close(G @ A @ G, G, f"{call}: the Penrose condition (2) A+ A A+ = A+", scale=1 / d[rank - 1])
        expect_close((A @ G).T, A @ G, f"{call}: the Penrose condition (3) (A A+)' = A A+", scale=1.0)
        expect_close((G @ A).T, G @ A, f"{call}: the Penrose condition (4) (A+ A)' = A+ A", scale=1.0)
        N = answer_array(null, f"the null-space basis of {call}", shape=(n, None), wrong_shape="wrong-null-space")
        expect(N.shape[1] == n - rank, f"the null-space basis of {call} has {N.shape[1]} columns: the null space of "
                                       "A has dimension n - rank", mistake="wrong-null-space")
        expect_close(N.T @ N, np.eye(n - rank), f"the null-space basis of {call} should be orthonormal: N'N = I",
                     scale=1.0, mistake="wrong-null-space")
        expect_close(A @ N, np.zeros((m, n - rank)), f"the null-space basis of {call} should solve A N = 0",
                     scale=d[0], mistake="wrong-null-space")
