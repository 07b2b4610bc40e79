"""Variants and mutants of exercise set 03, biplots on the crabs data."""

import numpy as np
import pandas as pd

from dimred_teach.checks.set03 import _crabs, _female_crabs

from . import Mutant, Variant, as_list, first_calls_then, float32, fortran, in_float32, returning, solution, strided


def boot_angle(X, j, n_boot, seed, fold=True, draw="rows", centre=True):
    X = np.asarray(X, dtype=float)
    rng = np.random.default_rng(seed)
    flips = np.random.default_rng(seed + 1)  # an SVD's signs are arbitrary (another stream: the draws stay)
    n, p = X.shape

    def component(rows):
        return np.linalg.svd(rows - rows.mean(axis=0) if centre else rows, full_matrices=False)[2][j - 1]

    full = component(X)
    cosines = []
    for _ in range(n_boot):
        if draw == "rows":
            v = component(X[rng.integers(0, n, n)])
        elif draw == "choice":  # the same stream as rng.integers(0, n, n)
            v = component(X[rng.choice(n, n)])
        elif draw == "permutation":
            v = component(X[rng.permutation(n)])
        elif draw == "half without replacement":
            v = component(X[rng.choice(n, n // 2, replace=False)])
        elif draw == "n/2":
            v = component(X[rng.integers(0, n, n // 2)])
        elif draw == "2n":
            v = component(X[rng.integers(0, n, 2 * n)])
        else:  # resampled columns: the "replicate" mixes up the variables
            v = component(X[:, rng.integers(0, p, p)])
        v = v * flips.choice([-1.0, 1.0])
        cosines.append(abs(v @ full) if fold else v @ full)
    return np.degrees(np.arccos(np.clip(cosines, -1.0, 1.0)))


def centred(X):
    return X - X.mean(axis=0)


def factors(X, alpha, k, centre=True):
    U, d, Vt = np.linalg.svd(centred(X) if centre else X, full_matrices=False)
    return U[:, :k] * d[:k] ** (1 - alpha), Vt[:k].T * d[:k] ** alpha


def factors_eigh(X, alpha, k):
    values, V = np.linalg.eigh(centred(X).T @ centred(X))
    V = V[:, ::-1][:, :k]
    d = np.sqrt(values[::-1][:k])
    return centred(X) @ V / d * d ** (1 - alpha), V * d**alpha


def flipped_factors(X, alpha, k):
    G, H = factors(X, alpha, k)
    signs = np.where(np.arange(k) % 2, -1.0, 1.0)
    return G * signs, H * signs


def inconsistent_factors(X, alpha, k):
    G, H = factors(X, alpha, k)
    return G, H * np.where(np.arange(k) == 1, -1.0, 1.0)


def crab_U(X=None):
    X = _female_crabs() if X is None else X
    return np.linalg.svd(centred(X), full_matrices=False)[0]


def crab_U_float32():
    """U computed from float32 data, in float32 throughout."""
    return crab_U(_female_crabs().astype(np.float32))


def cosines(X, k, alpha=1.0, normalise=True):
    d, Vt = np.linalg.svd(centred(X), full_matrices=False)[1:]
    H = Vt[:k].T * d[:k] ** alpha
    if normalise:
        H = H / np.linalg.norm(H, axis=1, keepdims=True)
    return H @ H.T


def separation(scores, species):
    species = np.asarray(species)
    a, b = scores[species == species[0]], scores[species != species[0]]
    pooled = ((len(a) - 1) * a.var(axis=0, ddof=1) + (len(b) - 1) * b.var(axis=0, ddof=1)) / (len(scores) - 2)
    return np.abs(a.mean(axis=0) - b.mean(axis=0)) / np.sqrt(pooled)


def separation_signed(scores, species):
    return separation(scores, species) * np.sign(scores[species == species[0]].mean(0) - scores.mean(0))


def separation_biased(scores, species):
    a, b = scores[species == species[0]], scores[species != species[0]]
    return np.abs(a.mean(0) - b.mean(0)) / np.sqrt((a.var(0) * len(a) + b.var(0) * len(b)) / len(scores))


def separation_fixed_labels(scores, species):  # assumes the labels are "B" and "O"
    a, b = scores[species == "B"], scores[species == "O"]
    pooled = ((len(a) - 1) * a.var(axis=0, ddof=1) + (len(b) - 1) * b.var(axis=0, ddof=1)) / (len(scores) - 2)
    return np.abs(a.mean(axis=0) - b.mean(axis=0)) / np.sqrt(pooled)


CASES = {
    "03.biplot_factors": (
        [
            Variant("list pair", lambda: returning(solution("03.biplot_factors")(), list)),
            Variant("consistent sign flips", lambda: flipped_factors),
            Variant("eigh of Xc'Xc", lambda: factors_eigh),
            Variant("float32", lambda: in_float32(solution("03.biplot_factors")())),
            Variant("Fortran output", lambda: returning(factors, lambda pair: tuple(map(fortran, pair)))),
        ],
        [
            Mutant("inconsistent signs", lambda: inconsistent_factors, r"signs", "inconsistent-signs"),
            Mutant("no centring", lambda: lambda X, a, k: factors(X, a, k, centre=False), r"CENTRED", "no-centring"),
            Mutant("alpha on the wrong factor", lambda: lambda X, a, k: factors(X, 1 - a, k), r"alpha",
                    "alpha-on-wrong-factor"),
            Mutant("right for three calls, then alpha = 0",
                   first_calls_then(factors, 3, lambda X, a, k: factors(X, 0.0, k)), r"lengths",
                           "alpha-on-wrong-factor"),
        ],
    ),
    "03.scaled_scores": (
        [
            Variant("sign flips", lambda: crab_U() * np.array([1, -1, 1, -1, -1])),
            Variant("float32", lambda: float32(solution("03.scaled_scores")())),
            Variant("computed in float32", crab_U_float32),
            Variant("Fortran order", lambda: fortran(crab_U())),
            Variant("non-contiguous view", lambda: strided(crab_U())),
            Variant("Xc V D^-1", lambda: (lambda X: centred(X) @ np.linalg.svd(centred(X))[2].T
                                          / np.linalg.svd(centred(X), compute_uv=False))(_female_crabs())),
            Variant("pandas DataFrame", lambda: pd.DataFrame(crab_U())),
        ],
        [
            Mutant("standardised scores", lambda: crab_U() * np.sqrt(99), r"standardised", "standardised-scores"),
            Mutant("alpha = 0 scores", lambda: factors(_female_crabs(), 0.0, 5)[0], r"I / \(n - 1\)",
                   "alpha-zero-scores"),
            Mutant("not centred", lambda: np.linalg.svd(_female_crabs(), full_matrices=False)[0], r"mean 0",
                   "not-centred"),
            Mutant("ascending order", lambda: crab_U()[:, ::-1], r"largest first", "ascending"),
            Mutant("rotated", lambda: crab_U() @ np.linalg.qr(np.random.default_rng(0).standard_normal((5, 5)))[0],
                   r"left singular vector", "rotated"),
            Mutant("all 200 crabs, as in the lecture", lambda: crab_U(_crabs()[0]), r"lecture", "lecture-data"),
            Mutant("printed digits typed back in float32",
                   lambda: np.round(solution("03.scaled_scores")(), 4).astype(np.float32), r"typed in",
                   "typed-digits"),
        ],
    ),
    "03.arrow_cosines": (
        [
            Variant("float32", lambda: in_float32(solution("03.arrow_cosines")())),
            Variant("nested lists", lambda: returning(cosines, as_list)),
            Variant("cosine of the normalised Gram", lambda: lambda X, k: (lambda G: G / np.sqrt(np.outer(
                np.diag(G), np.diag(G))))(cosines(X, k, normalise=False))),
        ],
        [
            Mutant("np.corrcoef", lambda: lambda X, k: np.corrcoef(X, rowvar=False), r"correlation matrix",
                    "correlations"),
            Mutant("not normalised", lambda: lambda X, k: cosines(X, k, normalise=False), r"normalise",
                    "not-normalised"),
            Mutant("alpha = 0 loadings", lambda: lambda X, k: cosines(X, k, alpha=0.0, normalise=False),
                   r"diagonal|V_k D_k", ("not-normalised", "alpha-zero-loadings")),
            Mutant("right for three calls, then the correlations",
                   first_calls_then(cosines, 3, lambda X, k: np.corrcoef(X, rowvar=False)), r"correlation",
                           "correlations"),
        ],
    ),
    "03.species_separation": (
        [
            Variant("float32", lambda: in_float32(solution("03.species_separation")())),
            Variant("list labels", lambda: lambda s, g: solution("03.species_separation")()(s, list(g))),
            Variant("pandas", lambda: lambda s, g: separation(pd.DataFrame(s).to_numpy(), pd.Series(g).to_numpy())),
            Variant("list output", lambda: returning(separation, list)),
        ],
        [
            Mutant("signed", lambda: separation_signed, r"negative", "signed"),
            Mutant("population variances", lambda: separation_biased, r"n - 1", "population-variances"),
            Mutant("labels B and O assumed", lambda: separation_fixed_labels, r"labels|NaN", "wrong-form"),
            Mutant("right for three calls, then ones",
                   first_calls_then(separation, 3, lambda s, g: np.ones(s.shape[1])), r"separation",
                           "wrong-separation"),
        ],
    ),
    "03.species_component": (
        [
            Variant("numpy integer", lambda: np.int64(solution("03.species_component")())),
        ],
        [
            Mutant("zero-based", lambda: solution("03.species_component")() - 1, r"count", "wrong-component"),
            Mutant("largest variance", lambda: 1, r"another component", "wrong-component"),
            Mutant("all 200 crabs, as in the lecture", lambda: 3, r"another component", "wrong-component"),
            Mutant("float", lambda: 3.0, r"whole number", "wrong-form"),
            Mutant("string", lambda: "PC3", r"whole number", "wrong-form"),
        ],
    ),
    "03.bootstrap_angle": (
        [
            Variant("float32", lambda: in_float32(solution("03.bootstrap_angle")())),
            Variant("list output", lambda: returning(boot_angle, list)),
            Variant("list input", lambda: lambda X, j, b, s: boot_angle(X.tolist(), j, b, s)),
            Variant("rng.choice(n, n), the same stream", lambda: lambda X, j, b, s: boot_angle(X, j, b, s,
                                                                                                draw="choice")),
        ],
        [
            Mutant("sign not folded", lambda: lambda X, j, b, s: boot_angle(X, j, b, s, fold=False), r"90|sign",
                    "sign-not-folded"),
            Mutant("columns resampled", lambda: lambda X, j, b, s: boot_angle(X, j, b, s, draw="columns"),
                   r"draw for draw", "wrong-angles"),
            Mutant("no replacement", lambda: lambda X, j, b, s: boot_angle(X, j, b, s, draw="permutation"),
                   r"with replacement", "no-replacement"),
            Mutant("half-size subsamples without replacement",
                   lambda: lambda X, j, b, s: boot_angle(X, j, b, s, draw="half without replacement"),
                   r"without replacement", "no-replacement"),
            Mutant("n/2 draws", lambda: lambda X, j, b, s: boot_angle(X, j, b, s, draw="n/2"), r"n/2 rows",
                   "wrong-size"),
            Mutant("2n draws", lambda: lambda X, j, b, s: boot_angle(X, j, b, s, draw="2n"), r"2n rows",
                   "wrong-size"),
            Mutant("no centring", lambda: lambda X, j, b, s: boot_angle(X, j, b, s, centre=False), r"centre",
                   "no-centring"),
            Mutant("unseeded",
                   lambda: lambda X, j, b, s: boot_angle(X, j, b, int(np.random.default_rng().integers(2**62))),
                   r"default_rng\(seed\)", "unseeded"),
            Mutant("zero-based j", lambda: lambda X, j, b, s: boot_angle(X, j + 1 if j < 3 else 1, b, s),
                   r"count the components from 1|draw for draw", ("zero-based", "wrong-angles")),
        ],
    ),
}
