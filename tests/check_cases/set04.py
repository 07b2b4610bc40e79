"""Variants and mutants of exercise set 04, multidimensional scaling."""

import numpy as np
import pandas as pd
import scipy.linalg

from dimred_teach.checks.set04 import eurodist_without, recover_b_points

from . import (
    Mutant,
    Variant,
    as_list,
    first_calls_then,
    float32,
    fortran,
    given,
    in_float32,
    returning,
    solution,
    strided,
)


def squared(X):
    return np.sum((X[:, None, :] - X[None, :, :]) ** 2, axis=-1)


def centring(n):
    return np.eye(n) - np.ones((n, n)) / n


def gram_of(D2):
    H = centring(len(D2))
    return -0.5 * H @ D2 @ H


def mds(D, k, square=True, ascending=False, scale=True, method="eigh"):
    B = gram_of(D**2 if square else D)
    if method == "svd":  # B is PSD for Euclidean D: its SVD is its eigendecomposition
        U, values, _ = np.linalg.svd(B)
        return U[:, :k] * np.sqrt(values[:k])
    values, vectors = np.linalg.eigh(B)
    order = np.argsort(values) if ascending else np.argsort(values)[::-1]
    top = order[:k]
    return vectors[:, top] * (np.sqrt(np.clip(values[top], 0, None)) if scale else 1.0)


def align(A, B, centre=True, allow_reflection=True, scaling=False):
    mean_a, mean_b = (A.mean(axis=0), B.mean(axis=0)) if centre else (0.0, 0.0)
    U, s, Vt = np.linalg.svd((B - mean_b).T @ (A - mean_a))
    if not allow_reflection and np.linalg.det(U @ Vt) < 0:
        U[:, -1] = -U[:, -1]
    factor = s.sum() / np.sum((B - mean_b) ** 2) if scaling else 1.0
    return factor * (B - mean_b) @ (U @ Vt) + mean_a


def align_scipy(A, B):
    Q = scipy.linalg.orthogonal_procrustes(B - B.mean(axis=0), A - A.mean(axis=0))[0]
    return (B - B.mean(axis=0)) @ Q + A.mean(axis=0)


def europe(power=2, city="Athens"):
    return gram_of(eurodist_without(city) ** power)


def relative(values):
    values = np.asarray(values)
    return values / values[0]


def relative_float32():
    """The relative spectrum computed from float32 distances, in float32 throughout."""
    D2 = eurodist_without().astype(np.float32) ** 2
    H = np.eye(len(D2), dtype=np.float32) - np.float32(1 / len(D2))
    return relative(np.linalg.eigvalsh(np.float32(-0.5) * H @ D2 @ H)[::-1])


def recover_b_float32():
    """B computed from float32 points, in float32 throughout."""
    D2 = squared(recover_b_points().astype(np.float32))
    H = np.eye(len(D2), dtype=np.float32) - np.float32(1 / len(D2))
    return np.float32(-0.5) * H @ D2 @ H


def typed_back(value):
    """The numbers printed to 4 decimals, typed back as float32."""
    return np.round(np.asarray(value), 4).astype(np.float32)


def is_euclidean(D, relative=1e-9, square=True):
    values = np.linalg.eigvalsh(gram_of(D**2 if square else D))
    return bool(values[0] >= -relative * values[-1])


STAR = np.array([[0.0, 1, 1, 1, 1], [1, 0, 2, 2, 2], [1, 2, 0, 2, 2], [1, 2, 2, 0, 2], [1, 2, 2, 2, 0]])
K23 = np.array([[0.0, 2, 1, 1, 1], [2, 0, 1, 1, 1], [1, 1, 0, 2, 2], [1, 1, 2, 0, 2], [1, 1, 2, 2, 0]])
LECTURE_STAR = STAR[:4, :4]


def roomy(D, c=0.1):
    """D with c added to every distance: each triangle inequality then has c to spare."""
    return D + c * (1 - np.eye(len(D)))

CASES = {
    "04.recover_b": (
        [
            Variant("float32", lambda: float32(solution("04.recover_b")())),
            Variant("H D2 H", lambda: gram_of(squared(recover_b_points()))),
            Variant("centred inner products", lambda: (lambda Xc: Xc @ Xc.T)(recover_b_points()
                                                                              - recover_b_points().mean(0))),
            Variant("nested lists", lambda: as_list(solution("04.recover_b")())),
            Variant("Fortran order", lambda: fortran(solution("04.recover_b")())),
            Variant("computed in float32", recover_b_float32),
        ],
        [
            Mutant("no -1/2", lambda: -2 * gram_of(squared(recover_b_points())), r"-1/2", "missing-half"),
            Mutant("rows only", lambda: -0.5 * centring(10) @ squared(recover_b_points()), r"symmetric", "rows-only"),
            Mutant("uncentred points", lambda: recover_b_points() @ recover_b_points().T, r"B 1", "uncentred-points"),
            Mutant("unsquared distances", lambda: gram_of(np.sqrt(squared(recover_b_points()))), r"squared distances",
                    "unsquared-distances"),
            Mutant("printed digits typed back in float32", lambda: typed_back(solution("04.recover_b")()),
                   r"typed in", "typed-digits"),
        ],
    ),
    "04.classical_mds": (
        [
            Variant("float32", lambda: in_float32(solution("04.classical_mds")())),
            Variant("SVD of B", lambda: lambda D, k: mds(D, k, method="svd")),
            Variant("sign flips", lambda: lambda D, k: -mds(D, k)),
            Variant("nested lists", lambda: returning(mds, as_list)),
            Variant("non-contiguous input", lambda: given(mds, strided)),
        ],
        [
            Mutant("ascending eigenpairs", lambda: lambda D, k: mds(D, k, ascending=True), r"smallest|LARGEST",
                    "smallest-eigenpairs"),
            Mutant("unsquared distances", lambda: lambda D, k: mds(D, k, square=False), r"SQUARED",
                    "unsquared-distances"),
            Mutant("eigenvectors not scaled", lambda: lambda D, k: mds(D, k, scale=False), r"square root",
                    "eigenvectors-not-scaled"),
            Mutant("right for three calls, then zeros",
                   first_calls_then(mds, 3, lambda D, k: np.zeros((len(D), k))), r"same place", "smallest-eigenpairs"),
        ],
    ),
    "04.align": (
        [
            Variant("float32", lambda: in_float32(solution("04.align")())),
            Variant("scipy orthogonal_procrustes", lambda: align_scipy),
            Variant("list output", lambda: returning(align, as_list)),
            Variant("Fortran input", lambda: given(align, fortran)),
        ],
        [
            Mutant("no centring", lambda: lambda A, B: align(A, B, centre=False), r"as close", "not-best-fit"),
            Mutant("rotations only", lambda: lambda A, B: align(A, B, allow_reflection=False), r"reflection",
                    "not-best-fit"),
            Mutant("with scaling", lambda: lambda A, B: align(A, B, scaling=True), r"without scaling", "with-scaling"),
            Mutant("transposed rotation", lambda: lambda A, B: (lambda U, Vt: (B - B.mean(0)) @ (Vt.T @ U.T)
                                                              + A.mean(0))(*np.linalg.svd(
                                                                  (B - B.mean(0)).T @ (A - A.mean(0)))[::2]),
                   r"as close", "not-best-fit"),
            Mutant("right for three calls, then B itself", first_calls_then(align, 3, lambda A, B: B), r"as close",
                    "not-best-fit"),
        ],
    ),
    "04.eurodist_spectrum": (
        [
            Variant("float32", lambda: float32(solution("04.eurodist_spectrum")())),
            Variant("computed in float32", relative_float32),
            Variant("list", lambda: list(solution("04.eurodist_spectrum")())),
            Variant("pandas Series", lambda: pd.Series(solution("04.eurodist_spectrum")())),
            Variant("eig, sorted", lambda: relative(np.sort(np.linalg.eig(europe())[0].real)[::-1])),
        ],
        [
            Mutant("ascending", lambda: relative(np.linalg.eigvalsh(europe())[::-1])[::-1], r"largest first",
                   "ascending"),
            Mutant("singular values", lambda: relative(np.linalg.svd(europe(), compute_uv=False)), r"absolute values",
                   "absolute-values"),
            Mutant("unsquared distances", lambda: relative(np.linalg.eigvalsh(europe(power=1))[::-1]),
                   r"square the road", "unsquared-distances"),
            Mutant("positive ones only", lambda: relative(np.linalg.eigvalsh(europe())[::-1][:11]), r"all 20",
                   "positive-only"),
            Mutant("eigenvalues of D2", lambda: relative(np.linalg.eigvalsh(eurodist_without() ** 2)[::-1]),
                   r"eigenvalues of B", "wrong-spectrum"),
            Mutant("no -1/2", lambda: relative(np.linalg.eigvalsh(-2 * europe())[::-1]), r"factor -1/2",
                   "missing-half"),
            Mutant("not centred", lambda: relative(np.linalg.eigvalsh(-0.5 * eurodist_without() ** 2)[::-1]),
                   r"not centred", "not-centred"),
            Mutant("not divided by the largest", lambda: np.linalg.eigvalsh(europe())[::-1], r"divide them",
                   "not-relative"),
            Mutant("all 21 cities, as in the lecture", lambda: relative(np.linalg.eigvalsh(europe(city=None))[::-1]),
                   r"leaves out Athens", "all-cities"),
            Mutant("printed digits typed back in float32", lambda: typed_back(solution("04.eurodist_spectrum")()),
                   r"typed in", "typed-digits"),
        ],
    ),
    "04.is_euclidean": (
        [
            Variant("Fortran input", lambda: given(solution("04.is_euclidean")(), fortran)),
            Variant("numpy bool", lambda: lambda D: np.bool_(is_euclidean(D))),
            Variant("tolerance 1e-10", lambda: lambda D: is_euclidean(D, relative=1e-10)),
        ],
        [
            Mutant("10% tolerance", lambda: lambda D: is_euclidean(D, relative=0.1), r"tolerance", "says-euclidean"),
            Mutant("unsquared distances", lambda: lambda D: is_euclidean(D, square=False), r"Euclidean",
                    "says-euclidean"),
            Mutant("no tolerance", lambda: lambda D: bool(np.linalg.eigvalsh(gram_of(D**2))[0] >= 0),
                   r"is Euclidean, but", "no-tolerance"),
            Mutant("True for three calls, then False", first_calls_then(lambda D: True, 3, lambda D: False),
                   r"returned", ("says-euclidean", "no-tolerance")),
            Mutant("always True", lambda: lambda D: True, r"is not Euclidean", "says-euclidean"),
            Mutant("returns a number", lambda: lambda D: float(is_euclidean(D)), r"True or False", "not-a-bool"),
        ],
    ),
    "04.non_euclidean_metric": (
        [
            Variant("float32", lambda: float32(solution("04.non_euclidean_metric")())),
            Variant("nested lists", lambda: as_list(solution("04.non_euclidean_metric")())),
            Variant("a roomy star with four leaves", lambda: roomy(STAR)),
            Variant("a roomy complete bipartite K(2,3)", lambda: roomy(K23)),
            Variant("pandas DataFrame", lambda: pd.DataFrame(roomy(STAR, 0.05))),
        ],
        [
            Mutant("Euclidean points", lambda: np.sqrt(squared(recover_b_points())), r"is Euclidean", "euclidean"),
            Mutant("triangle violated", lambda: np.array([[0.0, 1, 5], [1, 0, 1], [5, 1, 0]]), r"triangle",
                    "triangle-violated"),
            Mutant("asymmetric", lambda: STAR + np.triu(np.full((5, 5), 0.1), 1), r"symmetric", "asymmetric"),
            Mutant("non-zero diagonal", lambda: STAR + np.eye(5), r"zero diagonal", "nonzero-diagonal"),
            Mutant("two points", lambda: np.array([[0.0, 1], [1, 0]]), r"at least 3", "too-few-points"),
            Mutant("the lecture's star", lambda: LECTURE_STAR, r"room to spare", "tight-triangle"),
            Mutant("K(2,3), tight", lambda: K23, r"room to spare", "tight-triangle"),
            Mutant("so much room that it is Euclidean", lambda: roomy(STAR, 1.0), r"is Euclidean", "euclidean"),
        ],
    ),
}
