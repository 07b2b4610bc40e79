"""Checks of exercise set 03, biplots on the crabs data.

Function answers are called on fresh simulated crabs (``make_crabs_like`` with a seed
drawn from the check's generator); value answers are compared with properties of the
real crabs, which the checks load themselves.
"""

from __future__ import annotations

import functools

import numpy as np

from ..datasets import CRABS_MEASUREMENTS, load_crabs, make_crabs_like
from ..pca import pca
from . import register
from .properties import (
    WRONG_FORM,
    answer_array,
    answer_integer,
    answer_pair,
    drawn_once,
    expect,
    expect_close,
    expect_same_subspace,
    in_random_order,
    is_close,
    tolerance,
)

FORBIDS = ("dimred_teach.pca.bootstrap_pca",  # 03.bootstrap_angle
           "dimred_teach.biplot.biplot_coordinates")  # 03.biplot_factors
"""What this set's answers may not use (modules or functions of the library): the grader's
kernel for this set does not have them, and ``check()`` fails an answer that uses them
(:mod:`dimred_teach.checks.policy`)."""

MISTAKES = {
    "no-centring": "no centring: the columns' means were not subtracted",
    "inconsistent-signs": "signs of scores and loadings that do not match",
    "alpha-on-wrong-factor": "alpha on the wrong factor",
    "not-centred": "scores of uncentred data",
    "standardised-scores": "standardised scores sqrt(n - 1) U instead of U",
    "alpha-zero-scores": "the alpha = 0 scores U D instead of U",
    "rotated": "columns that are not singular vectors (rotated)",
    "ascending": "in ascending order instead of largest first",
    "not-normalised": "arrows not normalised to length 1",
    "correlations": "the correlation matrix of all measurements",
    "alpha-zero-loadings": "the cosines of the alpha = 0 loadings",
    "signed": "a signed difference, not a size",
    "population-variances": "population variances (1/n) in the pooled variance",
    "wrong-separation": "not the pooled separation of the two groups",
    "wrong-component": "not the component that separates the species best",
    "unseeded": "the seed is not used",
    "sign-not-folded": "angles above 90 degrees: signs not aligned",
    "no-replacement": "resampled without replacement",
    "wrong-size": "not n rows per replicate",
    "wrong-angles": "angles unlike the bootstrap of component j (columns resampled, or j counted from 0)",
    "zero-based": "j counted from 0",
    "lecture-data": "the lecture's data, not the exercise's",
}
"""The typical mistakes this set's checks name: id (stable, counted by ``dimred-teach class-report``) to
short name. A failure no named mistake explains is ``other``."""


ALPHAS = (0.0, 0.3, 1.0)


@functools.lru_cache(maxsize=1)
def _crabs():
    """The real crabs: measurements (200, 5) and species labels (200,), read-only."""
    crabs = load_crabs()
    X = crabs[list(CRABS_MEASUREMENTS)].to_numpy(dtype=float)
    species = crabs["species"].astype(str).to_numpy()
    X.setflags(write=False)
    species.setflags(write=False)
    return X, species


def _fresh_crabs(rng: np.random.Generator) -> np.ndarray:
    """Measurements of a new simulated crabs sample, shape (n, 5), 30 <= n < 80."""
    frame = make_crabs_like(int(rng.integers(30, 80)), seed=int(rng.integers(2**31)))
    return frame[list(CRABS_MEASUREMENTS)].to_numpy(dtype=float)


def _factors(answer, X: np.ndarray, alpha: float, k: int):
    n, p = X.shape
    call = f"biplot_factors(X, alpha={alpha:.3g}, k={k})"
    scores, loadings = answer_pair(answer(X.copy(), alpha, k), call, "(scores, loadings)")
    return (answer_array(scores, f"the scores of {call}", (n, k)),
            answer_array(loadings, f"the loadings of {call}", (p, k)))


@register("03.biplot_factors",
          hint="centre X, take the SVD Xc = U D V', then scores = U_k D_k^(1-alpha) and loadings = V_k D_k^alpha")
def _biplot_factors(answer, rng):
    samples = []
    for _ in range(2):
        X = _fresh_crabs(rng)
        samples.append((X, np.linalg.svd(X - X.mean(axis=0), full_matrices=False),
                        np.linalg.svd(X, full_matrices=False)))
    alphas = (*ALPHAS, float(rng.uniform()))
    cases = [(samples[int(rng.integers(2))], alpha, 2) for alpha in alphas]
    cases += [(samples[int(rng.integers(2))], float(rng.choice(alphas[1:])), 5) for _ in range(2)]
    for (X, (U, d, Vt), (Uu, du, Vtu)), alpha, k in in_random_order(rng, cases):
        Xc = X - X.mean(axis=0)
        G, H = _factors(answer, X, alpha, k)
        where = f"(alpha={alpha:.3g}, k={k})"
        expect(not is_close(G @ H.T, (Uu[:, :k] * du[:k]) @ Vtu[:k], 1e-6),
               f"scores @ loadings.T is the rank-{k} part of X itself {where}: take the SVD of the CENTRED data",
               mistake="no-centring")
        expect_close(G @ H.T, (U[:, :k] * d[:k]) @ Vt[:k], f"scores @ loadings.T = U_k D_k V_k' {where} (the "
                     "signs of a score column and its loading column must match)", scale=np.abs(Xc).max(),
                     mistake="inconsistent-signs")
        expect_same_subspace(H, Vt[:k].T, f"the loadings {where}")
        expect_same_subspace(G, U[:, :k], f"the scores {where}")
        expect_close(np.linalg.norm(G, axis=0), d[:k] ** (1 - alpha),
                     f"the lengths of the score columns = d_j^(1 - alpha) {where} (is alpha on the right factor?)",
                     mistake="alpha-on-wrong-factor")
        expect_close(np.linalg.norm(H, axis=0), d[:k] ** alpha,
                     f"the lengths of the loading columns = d_j^alpha {where}")


def _female_crabs() -> np.ndarray:
    """The 100 female crabs' measurements, shape (100, 5), of exercise 03.scaled_scores (the
    lecture computes the scaled scores of all 200)."""
    return _crabs()[0][load_crabs()["sex"].to_numpy() == "F"]


def _female_scaled_scores() -> np.ndarray:
    """U of the female crabs' centred measurements, each column's largest entry positive."""
    X = _female_crabs()
    U = np.linalg.svd(X - X.mean(axis=0), full_matrices=False)[0]
    return U * np.sign(U[np.argmax(np.abs(U), axis=0), range(U.shape[1])])


@register("03.scaled_scores",
          hint="alpha = 1 and k = 5: the scores are U, the left singular vectors of the female crabs' centred "
               "measurements", answer=_female_scaled_scores, float32_slack=100.0)  # float32 SVD: 30 units
def _scaled_scores(answer, rng):
    X = _female_crabs()
    n, p = X.shape
    Xc = X - X.mean(axis=0)
    Z = answer_array(answer, "scaled_scores", (None, None))
    expect(Z.shape != (2 * n, p), f"scaled_scores has {2 * n} rows, one per crab of the lecture: the exercise asks "
                                  f"for the {n} female crabs", mistake="lecture-data")
    expect(Z.shape == (n, p), f"scaled_scores should have shape ({n}, {p}), got {Z.shape}", mistake=WRONG_FORM)
    expect(is_close(Z.mean(axis=0), np.zeros(p), 1e-10, scale=np.abs(Z).max()),
           "each column of scaled_scores should have mean 0 (scores of centred data)", mistake="not-centred")
    covariance = np.cov(Z, rowvar=False)
    expect(not is_close(covariance, np.eye(p), 1e-6),
           "the covariance of scaled_scores is I: those are standardised scores, sqrt(n - 1) U; the alpha = 1 "
           "scores are U itself, with covariance I / (n - 1)", mistake="standardised-scores")
    expect_close(covariance, np.eye(p) / (n - 1), "the covariance of scaled_scores = I / (n - 1)",
                 mistake="alpha-zero-scores")
    expect_close(Z @ (Z.T @ Xc), Xc, "scaled_scores spans the columns of the centred data", scale=np.abs(Xc).max())
    loadings = Xc.T @ Z  # = V D when Z = U
    gram = loadings.T @ loadings
    expect(is_close(gram, np.diag(np.diag(gram)), 1e-6),
           "each column of scaled_scores should be a left singular vector of the centred data "
           "(Xc.T @ scaled_scores should have orthogonal columns)", mistake="rotated")
    norms = np.sqrt(np.diag(gram))
    expect(not np.any(np.diff(norms) > tolerance(1e-9) * norms[0]),
           "the columns of scaled_scores should be ordered by decreasing singular value (largest first)",
           mistake="ascending")


def _reference_cosines(X: np.ndarray, k: int) -> np.ndarray:
    d, Vt = np.linalg.svd(X - X.mean(axis=0), full_matrices=False)[1:]
    H = Vt[:k].T * d[:k]
    unit = H / np.linalg.norm(H, axis=1, keepdims=True)
    return unit @ unit.T


@register("03.arrow_cosines",
          hint="alpha = 1: loadings H = V_k D_k; normalise each row of H to length 1, then take all dot products")
def _arrow_cosines(answer, rng):
    samples = [_fresh_crabs(rng) for _ in range(2)]
    cases = [(samples[int(rng.integers(2))], k) for k in (1, 2, 2, 3, 4, 5)]
    for X, k in in_random_order(rng, cases):
        p = X.shape[1]
        call = f"arrow_cosines(X, k={k})"
        C = answer_array(answer(X.copy(), k), call, (p, p))
        expect_close(np.diag(C), np.ones(p), f"the cosine of the angle between an arrow and itself is 1, so the "
                                             f"diagonal of {call} (did you normalise the arrows to length 1?)",
                     mistake="not-normalised")
        expect_close(C, C.T, f"{call} should be symmetric; the symmetry")
        expect(k == p or not is_close(C, np.corrcoef(X, rowvar=False), 1e-6),
               f"{call} is the correlation matrix of the measurements: that is what the arrows give with all "
               f"{p} components, but with k = {k} the cosines of the k-dimensional arrows differ; compute them",
               mistake="correlations")
        expect_close(C, _reference_cosines(X, k), f"{call}: the cosines between the rows of the alpha = 1 "
                                                  "loadings V_k D_k", scale=1.0, mistake="alpha-zero-loadings")


def _reference_separation(scores: np.ndarray, labels: np.ndarray) -> np.ndarray:
    first = labels == labels[0]
    a, b = scores[first], scores[~first]
    pooled = ((len(a) - 1) * a.var(axis=0, ddof=1) + (len(b) - 1) * b.var(axis=0, ddof=1)) / (len(scores) - 2)
    return np.abs(a.mean(axis=0) - b.mean(axis=0)) / np.sqrt(pooled)


LABEL_PAIRS = (("B", "O"), ("orange", "blue"), (0, 1), (3, -7), (2.5, 10.0))
"""Label values the separation check draws from: the exercise allows any two distinct values."""


@register("03.species_separation",
          hint="per column: |mean of one species - mean of the other| / pooled standard deviation, "
               "pooled variance = ((n1 - 1) s1^2 + (n2 - 1) s2^2) / (n1 + n2 - 2)")
def _species_separation(answer, rng):
    cases = []
    for _ in range(int(rng.integers(4, 7))):
        n, k = int(rng.integers(20, 60)), int(rng.integers(2, 6))
        first, second = LABEL_PAIRS[int(rng.integers(len(LABEL_PAIRS)))]
        n_first = int(rng.integers(5, n - 5))
        labels = rng.permutation(np.array([first] * n_first + [second] * (n - n_first)))
        shift = rng.normal(scale=3.0, size=k)
        scores = rng.normal(scale=rng.uniform(0.5, 4.0, size=k), size=(n, k)) + np.outer(labels == second, shift)
        cases.append((scores, labels))
    for scores, labels in in_random_order(rng, cases):
        groups = ", ".join(repr(v) for v in dict.fromkeys(labels.tolist()))
        call = f"species_separation(scores, species) with labels {groups} and {len(labels)} rows"
        result = answer_array(answer(scores.copy(), labels.copy()), call, (scores.shape[1],))
        expect(bool(np.all(result >= 0)), f"{call}: the separation is a size: it should never be negative "
                                          "(take |...|)", mistake="signed")
        first = labels == labels[0]
        a, b = scores[first], scores[~first]
        biased = np.abs(a.mean(axis=0) - b.mean(axis=0)) / np.sqrt((a.var(axis=0) * len(a) + b.var(axis=0) * len(b))
                                                                   / len(scores))
        expect(not is_close(result, biased, 1e-6),
               f"{call}: the pooled variance uses the groups' sample variances (divide by n - 1) and n1 + n2 - 2",
               mistake="population-variances")
        expect_close(result, _reference_separation(scores, labels),
                     f"{call}: separation = |difference of the group means| / pooled within-group sd",
                     mistake="wrong-separation")


def _male_separations() -> np.ndarray:
    """How well each standardised component of the male crabs separates the species, shape (5,)."""
    X, species = _crabs()
    males = load_crabs()["sex"].to_numpy() == "M"  # the lecture names the species component of all 200 crabs
    return _reference_separation(pca(X[males], scale=True).scores, species[males])


@register("03.species_component",
          hint="PCA of the standardised measurements of the male crabs (all 5 components), then compare the "
               "species separation of every component",
          answer=lambda: int(np.argmax(_male_separations())) + 1)
def _species_component(answer, rng):
    separation = _male_separations()
    answer = answer_integer(answer, "species_pc")
    expect(answer != 0, "species_pc = 0: count the components from 1 (PC1 is component 1)")
    expect(1 <= answer <= separation.size, f"species_pc should be between 1 and {separation.size}, got {answer}")
    best = int(np.argmax(separation)) + 1
    expect(answer == best,
           f"PC{answer} separates the species by {separation[answer - 1]:.3f} pooled standard deviations, "
           f"but another component does much better (count from 1: PC1 is component 1)", mistake="wrong-component")


def _stretched_cloud(rng: np.random.Generator, spreads) -> np.ndarray:
    """Gaussian points, 150 <= n < 250, with the given standard deviations along random
    orthogonal axes (so no component lies along a coordinate axis)."""
    p = len(spreads)
    rotation = np.linalg.qr(rng.normal(size=(p, p)))[0]
    return (rng.normal(size=(int(rng.integers(150, 250)), p)) * spreads) @ rotation.T


BOOT_REPLICATES = 100
"""Replicates the check asks for."""


def _bootstrap_angles(X: np.ndarray, j: int, n_boot: int, seed: int, draws=None, centre: bool = True,
                      component: int | None = None) -> np.ndarray:
    """The angles of the exercise's stream (replicate b: rows rng.integers(0, n, n)), or of a mistaken
    variant of it: other ``draws(rng, n)``, no centring, another component (counted from 1)."""
    rng = np.random.default_rng(seed)
    draws = draws or (lambda rng, n: rng.integers(0, n, n))
    index = (component or j) - 1

    def direction(rows):
        return np.linalg.svd(rows - rows.mean(axis=0) if centre else rows, full_matrices=False)[2][index]

    full = direction(X)
    cosines = [abs(direction(X[draws(rng, len(X))]) @ full) for _ in range(n_boot)]
    return np.degrees(np.arccos(np.clip(cosines, 0.0, 1.0)))


_STREAM_MISTAKES = (
    ({"centre": False}, "no-centring", "the components of the raw rows: centre each replicate (and the full data) "
                                       "before its SVD"),
    ({"draws": lambda rng, n: rng.choice(n, n // 2, replace=False)}, "no-replacement",
     "n/2 rows drawn without replacement: draw n rows WITH replacement"),
    ({"draws": lambda rng, n: rng.integers(0, n, n // 2)}, "wrong-size", "n/2 rows per replicate: draw n"),
    ({"draws": lambda rng, n: rng.integers(0, n, 2 * n)}, "wrong-size", "2n rows per replicate: draw n"),
)


@drawn_once()
def _angle_case(rng: np.random.Generator, spreads: tuple[float, ...], j: int) -> tuple[np.ndarray, int, np.ndarray]:
    """03.bootstrap_angle's instance: a fresh cloud X of shape (n, len(spreads)) far from the origin, a seed,
    and the exercise's angles of component j for them, shape (BOOT_REPLICATES,). Drawn once per state of ``rng``
    (:func:`~dimred_teach.checks.properties.drawn_once`): the replicates' SVDs take most of the check's time."""
    X = _stretched_cloud(rng, spreads) + rng.normal(scale=20.0, size=len(spreads))  # far from the origin
    seed = int(rng.integers(2**31))
    return X, seed, _bootstrap_angles(X, j, BOOT_REPLICATES, seed)


@register("03.bootstrap_angle",
          hint="rng = np.random.default_rng(seed); for each replicate in turn draw the rows rng.integers(0, n, n), "
               "centre them, take component j of their SVD, and arccos(|v_j(replicate) . v_j(full)|) in degrees")
def _bootstrap_angle(answer, rng):
    cases = [((6.0, 1.0, 0.7, 0.3), 1), ((4.0, 1.0, 0.95, 0.3), 2), ((4.0, 1.0, 0.95, 0.3), 3)]
    for spreads, j in in_random_order(rng, cases):
        X, seed, reference = _angle_case(rng, spreads, j)
        call = f"bootstrap_angle(X, j={j}, n_boot={BOOT_REPLICATES}, seed={seed})"
        angles = answer_array(answer(X.copy(), j, BOOT_REPLICATES, seed), call, (BOOT_REPLICATES,))
        again = answer_array(answer(X.copy(), j, BOOT_REPLICATES, seed), call, (BOOT_REPLICATES,))
        expect(is_close(again, angles, 1e-9, scale=90.0),
               f"{call} gave different angles on a second call: draw with np.random.default_rng(seed)",
               mistake="unseeded")
        expect(bool(np.all(angles >= -tolerance(1e-9) * 90)), f"{call}: an angle is negative")
        expect(bool(np.all(angles <= 90 * (1 + tolerance(1e-9)))),
               f"{call}: an angle above 90 degrees ({float(angles.max()):.1f}); a component's sign is arbitrary, "
               "so compare with |cosine| (fold the angle into [0, 90])", mistake="sign-not-folded")
        if is_close(angles, reference, 1e-9, scale=90.0):
            continue
        expect(float(np.median(angles)) > 1e-3 * float(np.median(reference)),
               f"{call}: the angles are all about 0, so every replicate is the data itself: draw the rows "
               "with replacement (some rows twice, some not at all)", mistake="no-replacement")
        mistakes = [*_STREAM_MISTAKES]
        if j < len(spreads):
            mistakes.append(({"component": j + 1}, "zero-based", f"component {j + 1}: count the components from 1"))
        for options, mistake, what in mistakes:
            expect(not is_close(angles, _bootstrap_angles(X, j, BOOT_REPLICATES, seed, **options), 1e-9, scale=90.0),
                   f"{call} gives the angles of {what}", mistake=mistake)
        expect_close(angles, reference, f"{call}: the angles of the exercise's stream, draw for draw (replicate b "
                                        "uses the rows rng.integers(0, n, n), one call per replicate, in order),",
                     scale=90.0, rtol=1e-9, mistake="wrong-angles")
