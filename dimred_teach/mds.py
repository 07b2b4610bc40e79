"""Multidimensional scaling: points from their distances.

Classical (Torgerson) MDS recovers a configuration from its distance matrix D through
the double-centred matrix B = -1/2 H D2 H (Oxford notes, section 1.4, Exercise 1.1);
metric and Sammon MDS minimise the stress by SMACOF (iterated Guttman transforms);
non-metric MDS alternates SMACOF with an isotonic regression of the distances on the
order of D. :func:`procrustes` compares two configurations up to rotation, reflection,
translation and scale.

Conventions: rows are points; D holds distances (``squared=True`` where it already holds
their squares); a non-Euclidean D is legal and shows up as negative eigenvalues of B.
Stress sums run over ordered pairs i != j, as in the notes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.linalg
from scipy.linalg import lapack

from ._read_only import read_only
from ._validation import (
    NONNEGATIVE,
    as_data_matrix,
    as_distance_matrix,
    check_bool,
    check_choice,
    check_int,
    check_k,
    check_real,
    check_seed,
)
from .linalg import center_rows_and_columns, fix_signs

__all__ = [
    "squared_distances",
    "double_center",
    "MDSResult",
    "classical_mds",
    "ProcrustesResult",
    "procrustes",
    "disparities",
    "stress",
    "SMACOFResult",
    "metric_mds",
    "nonmetric_mds",
]

STRESS_KINDS = ("strain", "kruskal", "sammon", "nonmetric")


def _pairwise_squared(Z: np.ndarray) -> np.ndarray:
    """Squared Euclidean distances between the rows of Z (no validation)."""
    Zc = Z - Z.mean(axis=0)  # centring first keeps the subtraction below accurate
    norms = np.einsum("ij,ij->i", Zc, Zc)
    D2 = np.add.outer(norms, norms)  # symmetric to the last bit, as is Zc Zc' below
    gram = Zc @ Zc.T
    gram *= 2.0
    D2 -= gram
    np.maximum(D2, 0.0, out=D2)
    np.fill_diagonal(D2, 0.0)
    return D2


def _pairwise_distances(Z: np.ndarray) -> np.ndarray:
    """Euclidean distances between the rows of Z, shape (n, n) (no validation)."""
    squared = _pairwise_squared(Z)
    return np.sqrt(squared, out=squared)


def _squared_misfit(targets: np.ndarray, distances: np.ndarray, weights: np.ndarray | None = None) -> float:
    """sum (targets - distances)^2 (times ``weights`` when given) over all entries."""
    difference = targets - distances
    if weights is None:
        return float(np.einsum("ij,ij->", difference, difference))
    difference *= difference
    return float(np.einsum("ij,ij->", weights, difference))


def squared_distances(X) -> np.ndarray:
    """Squared Euclidean distances between the rows of X.

    Parameters
    ----------
    X : array_like, shape (n, p)

    Returns
    -------
    ndarray, shape (n, n)
        ``D2[i, j] = ||x_i - x_j||^2``: symmetric, zero diagonal, non-negative.
    """
    return _pairwise_squared(as_data_matrix(X))


def double_center(D2) -> np.ndarray:
    """The inner-product matrix B = -1/2 H D2 H of a matrix of squared distances.

    H = I - 11'/n subtracts row and column means. When D2 holds the squared distances
    of points x_1, ..., x_n, B is their Gram matrix after centring, B[i, j] =
    (x_i - xbar)'(x_j - xbar), so B 1 = 0 and
    ``diag(B) 1' + 1 diag(B)' - 2 B = D2`` (the notes' Exercise 1.1).

    Parameters
    ----------
    D2 : array_like, shape (n, n)
        Squared distances (or squared dissimilarities): symmetric, non-negative, zero
        diagonal.

    Returns
    -------
    ndarray, shape (n, n)
        Symmetric, rows and columns sum to zero.
    """
    return _double_center(as_distance_matrix(D2, name="D2"))


def _double_center(D2: np.ndarray) -> np.ndarray:
    """-1/2 H D2 H for a validated symmetric D2."""
    return -0.5 * center_rows_and_columns(D2)


def _spectrum_and_top_vectors(B: np.ndarray, k: int):
    """All eigenvalues of the symmetric B (descending) and the eigenvectors of the k
    largest, shape (n, k), signs fixed.

    One Householder tridiagonalisation B = Q T Q' (LAPACK ``dsytrd``) serves both: every
    eigenvalue of the tridiagonal T costs O(n^2), the k wanted eigenvectors of T are
    mapped back by applying the stored reflectors (``dormqr``). This takes roughly half the time of a
    full eigendecomposition (``numpy.linalg.eigh``) and still reports the whole spectrum.
    """
    n = B.shape[0]
    lwork = int(lapack.dsytrd_lwork(n, lower=1)[0])
    packed, diagonal, off_diagonal, tau, info = lapack.dsytrd(B, lower=1, lwork=lwork)
    if info != 0:  # pragma: no cover - dsytrd only fails on invalid arguments
        raise RuntimeError(f"LAPACK dsytrd failed with info={info}")
    values = scipy.linalg.eigvalsh_tridiagonal(diagonal, off_diagonal)[::-1]
    _, vectors = scipy.linalg.eigh_tridiagonal(diagonal, off_diagonal, select="i", select_range=(n - k, n - 1))
    vectors = vectors[:, ::-1].copy()
    if n > 1:
        # Q = H_1 ... H_{n-1} acts on rows 2..n through the reflectors stored below the
        # subdiagonal: LAPACK's dormqr applies them all at once (what dormtr does)
        rotated, _, info = lapack.dormqr("L", "N", packed[1:, :n - 1], tau[:n - 1], vectors[1:],
                                         lwork=max(1, 64 * k), overwrite_c=1)
        if info != 0:  # pragma: no cover - dormqr only fails on invalid arguments
            raise RuntimeError(f"LAPACK dormqr failed with info={info}")
        vectors[1:] = rotated
    return values, fix_signs(vectors)


@dataclass(frozen=True)
class MDSResult:
    """Classical MDS of n points.

    Attributes
    ----------
    embedding : ndarray, shape (n, k)
        Coordinates z_i (rows), centred; column j is sqrt(lambda_j) times the j-th
        eigenvector of B (largest-magnitude entry positive). A column whose eigenvalue
        is not positive has no real coordinate and is set to zero.
    eigenvalues : ndarray, shape (n,)
        ALL eigenvalues of B = -1/2 H D2 H, descending, negative ones included. One is
        (numerically) zero because B 1 = 0. D is Euclidean exactly when none is negative.
    """

    embedding: np.ndarray
    eigenvalues: np.ndarray

    @property
    def k(self) -> int:
        """Number of embedding dimensions."""
        return self.embedding.shape[1]

    @property
    def is_euclidean(self) -> bool:
        """Whether B is positive semi-definite up to rounding (smallest eigenvalue at
        least -1e-8 times the largest): then D is the distance matrix of real points."""
        return bool(self.eigenvalues[-1] >= -1e-8 * max(abs(self.eigenvalues[0]), 1e-300))


def classical_mds(D, k: int = 2, squared: bool = False) -> MDSResult:
    """Classical (Torgerson) MDS: the best k-dimensional configuration for the strain.

    Forms B = -1/2 H D2 H and uses its k leading eigenpairs, z_i = (sqrt(lambda_1) u_i1,
    ..., sqrt(lambda_k) u_ik). For Euclidean D of points spanning r dimensions, k = r
    recovers the points up to rotation, reflection and translation; k < r gives the best
    k-dimensional view (the PCA scores).

    Parameters
    ----------
    D : array_like, shape (n, n)
        Distances (symmetric, non-negative, zero diagonal). Need not be Euclidean.
    k : int
        Embedding dimension, 1 <= k <= n - 1 (n centred points span at most n - 1
        dimensions).
    squared : bool
        True if D already holds squared distances.

    Returns
    -------
    MDSResult
        ``eigenvalues`` always holds all n eigenvalues: they come from the same
        tridiagonal reduction as the k eigenvectors, so reporting them is nearly free.
        Only k eigenvectors are computed, and the run takes roughly half the time of a
        full eigendecomposition (``tests/benchmarks/bench_mds.py``).
    """
    D = as_distance_matrix(D, name="D")
    n = D.shape[0]
    k = check_k(k, n - 1, why=f"{n} centred points span at most {n - 1} dimensions")
    B = _double_center(D if check_bool(squared, "squared") else D**2)
    values, vectors = _spectrum_and_top_vectors(B, k)
    embedding = vectors * np.sqrt(np.clip(values[:k], 0.0, None))
    read_only(embedding, values)
    return MDSResult(embedding=embedding, eigenvalues=values)


@dataclass(frozen=True)
class ProcrustesResult:
    """The similarity transform that best maps B onto A (least squares).

    Attributes
    ----------
    rotation : ndarray, shape (p, p)
        Orthogonal Q (reflections allowed, det Q = +1 or -1).
    scale : float
        s > 0 (1.0 when ``scale=False``).
    translation : ndarray, shape (p,)
        t, so that ``aligned = s B Q + t``.
    aligned : ndarray, shape (n, p)
        B after the transform.
    residual : float
        ||A - aligned||_F^2, the least-squares misfit.
    target_spread : float
        ||A - mean(A)||_F^2, the scale :attr:`relative_residual` divides by.
    """

    rotation: np.ndarray
    scale: float
    translation: np.ndarray
    aligned: np.ndarray
    residual: float
    target_spread: float

    @property
    def relative_residual(self) -> float:
        """residual / ||A - mean(A)||_F^2, a ratio of *squared* norms: 0 for a perfect fit, free of
        units. Its square root is the root-mean-square misfit relative to the root-mean-square
        spread of A (0.0025 here means a misfit of 5% of the spread, not 0.25%)."""
        return self.residual / self.target_spread if self.target_spread > 0 else 0.0


def procrustes(A, B, scale: bool = True) -> ProcrustesResult:
    """Orthogonal Procrustes: rotate/reflect, (optionally) scale and shift B onto A.

    Minimises ||A - (s B Q + t)||_F^2 over orthogonal Q, s > 0 and t. With both
    configurations centred, Q = U V' from the SVD B_c' A_c = U S V', s = trace(S) /
    ||B_c||_F^2 and t = mean(A) - s mean(B) Q.

    Parameters
    ----------
    A : array_like, shape (n, p)
        Target configuration (rows are points).
    B : array_like, shape (n, p)
        Configuration to move; pad with zero columns if it has fewer dimensions.
    scale : bool
        Allow a scale factor; False gives a rigid motion (distances preserved).

    Returns
    -------
    ProcrustesResult
    """
    A = as_data_matrix(A, name="A")
    B = as_data_matrix(B, name="B")
    if A.shape != B.shape:
        raise ValueError(
            f"A and B must have the same shape (same points, same dimensions), got {A.shape} and {B.shape}; "
            "pad the lower-dimensional one with zero columns"
        )
    scale = check_bool(scale, "scale")
    mean_a, mean_b = A.mean(axis=0), B.mean(axis=0)
    Ac, Bc = A - mean_a, B - mean_b
    spread_b = float(np.sum(Bc**2))
    if spread_b == 0.0:
        raise ValueError("B has all its points at the same place; there is nothing to rotate")
    U, s, Vt = np.linalg.svd(Bc.T @ Ac)
    Q = U @ Vt
    factor = float(s.sum() / spread_b) if scale else 1.0
    translation = mean_a - factor * mean_b @ Q
    aligned = factor * B @ Q + translation
    residual = float(np.sum((A - aligned) ** 2))
    read_only(Q, translation, aligned)
    return ProcrustesResult(Q, factor, translation, aligned, residual, float(np.sum(Ac**2)))


def _disparities(D: np.ndarray, distances: np.ndarray) -> np.ndarray:
    """Isotonic regression of ``distances`` on the order of ``D`` (pairs i < j), as a
    symmetric (n, n) matrix. Tied dissimilarities get one common disparity (g is a
    function of D)."""
    from scipy.optimize import isotonic_regression  # scipy.optimize is slow to import; only needed here

    rows, cols = np.triu_indices(D.shape[0], k=1)
    dissimilarity, distance = D[rows, cols], distances[rows, cols]
    levels, inverse, counts = np.unique(dissimilarity, return_inverse=True, return_counts=True)
    mean_distance = np.bincount(inverse, weights=distance) / counts
    fitted = isotonic_regression(mean_distance, weights=counts, increasing=True).x[inverse]
    result = np.zeros_like(D)
    result[rows, cols] = fitted
    result[cols, rows] = fitted
    return result


def _as_configuration(Z, n: int) -> np.ndarray:
    Z = as_data_matrix(Z, name="Z")
    if Z.shape[0] != n:
        raise ValueError(f"Z must have one row per point of D ({n}), got {Z.shape[0]} rows")
    return Z


def disparities(D, Z) -> np.ndarray:
    """The disparities of non-metric MDS: the increasing function g of D that best fits
    the distances of Z, evaluated at every pair.

    Parameters
    ----------
    D : array_like, shape (n, n)
        Dissimilarities (only their order matters).
    Z : array_like, shape (n, k)
        A configuration.

    Returns
    -------
    ndarray, shape (n, n)
        Symmetric, zero diagonal; entries are non-decreasing in D_ij and minimise
        sum_{i != j} (g(D_ij) - ||z_i - z_j||)^2 (isotonic regression).
    """
    D = as_distance_matrix(D, name="D")
    Z = _as_configuration(Z, D.shape[0])
    return _disparities(D, _pairwise_distances(Z))


def stress(D, Z, kind: str = "kruskal", normalized: bool = False) -> float:
    """How badly the configuration Z fits the dissimilarities D (0 is a perfect fit).

    With d_ij = ||z_i - z_j|| and sums over ordered pairs i != j (the Oxford notes,
    section 1.4):

    - ``"strain"``: ||B - Z_c Z_c'||_F^2 with B = -1/2 H D2 H and Z_c the centred Z. The
      notes sum over i != j only; the full sum (diagonal included) is what classical MDS
      minimises exactly, so that is what is computed here.
    - ``"kruskal"``: sum (D_ij - d_ij)^2, metric (Shepard-Kruskal) raw stress.
    - ``"sammon"``: sum (D_ij - d_ij)^2 / D_ij; needs D_ij > 0 off the diagonal.
    - ``"nonmetric"``: min over increasing g of sum (g(D_ij) - d_ij)^2 / sum d_ij^2, the
      minimum attained by the isotonic regression (:func:`disparities`). Free of units.

    Parameters
    ----------
    D : array_like, shape (n, n)
    Z : array_like, shape (n, k)
    kind : {"strain", "kruskal", "sammon", "nonmetric"}
    normalized : bool
        Divide by the natural scale so that values compare across data sets:
        ||B||_F^2 for strain, sum D_ij^2 for Kruskal, sum D_ij for Sammon (Sammon's own
        constant). The non-metric stress is already normalised and ignores this flag.

    Returns
    -------
    float
    """
    D = as_distance_matrix(D, name="D")
    Z = _as_configuration(Z, D.shape[0])
    kind = check_choice(kind, STRESS_KINDS, "kind")
    normalized = check_bool(normalized, "normalized")
    if kind == "strain":
        B = _double_center(D**2)
        Zc = Z - Z.mean(axis=0)
        value = float(np.sum((B - Zc @ Zc.T) ** 2))
        return value / float(np.sum(B**2)) if normalized else value
    distances = _pairwise_distances(Z)
    if kind in ("kruskal", "sammon"):
        value = _squared_misfit(D, distances, _sammon_weights(D) if kind == "sammon" else None)
        return value / _stress_scale(D, kind) if normalized else value
    total = float(np.sum(distances**2))
    if total == 0.0:
        raise ValueError("Z has all its points at the same place; the non-metric stress is undefined")
    return float(np.sum((_disparities(D, distances) - distances) ** 2)) / total


def _stress_scale(D: np.ndarray, kind: str) -> float:
    """The natural scale of the metric stresses: sum D_ij^2 (Kruskal), sum D_ij (Sammon)."""
    return float(np.einsum("ij,ij->", D, D)) if kind == "kruskal" else float(D.sum())


def _sammon_weights(D: np.ndarray) -> np.ndarray:
    """1 / D_ij off the diagonal, 0 on it; refuses zero dissimilarities between distinct points."""
    off_diagonal = ~np.eye(D.shape[0], dtype=bool)
    if np.any(D[off_diagonal] == 0):
        raise ValueError("D has zero dissimilarities between distinct points; Sammon's stress divides by D_ij")
    weights = np.zeros_like(D)
    weights[off_diagonal] = 1.0 / D[off_diagonal]
    return weights


@dataclass(frozen=True)
class SMACOFResult:
    """Outcome of :func:`metric_mds` or :func:`nonmetric_mds`.

    Attributes
    ----------
    embedding : ndarray, shape (n, k)
        The fitted configuration (centred; its orientation is arbitrary).
    stress : float
        Final value of :func:`stress` of the method's kind ("kruskal", "sammon" or
        "nonmetric"), not normalised for the metric kinds (the raw stress).
    history : ndarray, shape (n_iter + 1,)
        The objective SMACOF minimises, at the start and after every iteration; never
        increases. For metric kinds it is the stress itself; for non-metric MDS it is
        sum (dhat_ij - d_ij)^2 / sum dhat_ij^2 with disparities dhat rescaled to a fixed
        size.
    n_iter : int
        Iterations performed.
    converged : bool
        Whether an iteration lowered the normalised objective by less than ``tol`` within
        ``max_iter`` iterations.
    disparities : ndarray, shape (n, n)
        The targets the distances were fitted to at the end: D itself for metric MDS,
        g(D) for non-metric MDS.
    kind : str
    normalized_stress : float
        ``stress(D, embedding, kind, normalized=True)``: the raw stress over sum D_ij^2
        (Kruskal) or sum D_ij (Sammon), free of units; equal to ``stress`` for non-metric MDS.
    """

    embedding: np.ndarray
    stress: float
    history: np.ndarray
    n_iter: int
    converged: bool
    disparities: np.ndarray
    kind: str
    normalized_stress: float


def _initial_configuration(D: np.ndarray, k: int, init: str, seed: int) -> np.ndarray:
    if init == "classical":
        return np.array(classical_mds(D, k).embedding)
    rng = np.random.default_rng(seed)
    return rng.standard_normal((D.shape[0], k)) * D.mean()


def _guttman_inverse(weights: np.ndarray) -> np.ndarray:
    """Moore-Penrose inverse of V = diag(W 1) - W, via (V + 11'/n)^-1 - 11'/n."""
    n = weights.shape[0]
    V = np.diag(weights.sum(axis=1)) - weights
    ones = np.full((n, n), 1.0 / n)
    return np.linalg.inv(V + ones) - ones


def _smacof(Z, weights, update_targets, max_iter, tol, scale):
    """Iterate Guttman transforms Z <- V^+ B(Z) Z; ``weights`` None means all pairs weigh 1,
    where V^+ B(Z) Z = B(Z) Z / n. ``update_targets(distances)`` returns (targets,
    objective) for the current distances. Stops when one iteration lowers the objective by
    less than ``tol * scale`` (``scale`` makes the objective free of units, as
    scikit-learn's criterion does). Returns the final state.

    B(Z) = diag(R 1) - R with R = targets / distances (times the weights; 0 for
    coincident points, which exert no pull), so B(Z) Z = (R 1) * Z - R Z: B is never formed.
    """
    n = Z.shape[0]
    v_plus = None if weights is None else _guttman_inverse(weights)
    distances = _pairwise_distances(Z)
    targets, objective = update_targets(distances)
    history = [objective]
    converged = False
    ratio = np.zeros_like(distances)
    for _ in range(max_iter):
        ratio.fill(0.0)
        np.divide(targets, distances, out=ratio, where=distances > 0)
        if weights is not None:
            ratio *= weights
        BZ = ratio.sum(axis=1)[:, None] * Z - ratio @ Z
        Z = BZ / n if v_plus is None else v_plus @ BZ
        distances = _pairwise_distances(Z)
        targets, objective = update_targets(distances)
        history.append(objective)
        if history[-2] - objective < tol * scale:
            converged = True
            break
    return Z - Z.mean(axis=0), targets, np.array(history), converged


def _iteration_settings(max_iter, tol):
    return check_int(max_iter, "max_iter", minimum=1), check_real(tol, "tol", NONNEGATIVE)


def metric_mds(D, k: int = 2, kind: str = "kruskal", init: str = "classical", seed: int = 0,
               max_iter: int = 300, tol: float = 1e-6) -> SMACOFResult:
    """Metric MDS by SMACOF: minimise the Kruskal or Sammon stress of :func:`stress`.

    Each iteration is a Guttman transform, the minimiser of a quadratic majorising
    function of the stress, so the stress never increases (``history``).

    Parameters
    ----------
    D : array_like, shape (n, n)
        Dissimilarities.
    k : int
        Embedding dimension, 1 <= k <= n - 1.
    kind : {"kruskal", "sammon"}
        Which stress; Sammon weights pair (i, j) by 1 / D_ij, so small distances count more.
    init : {"classical", "random"}
        Start from classical MDS (deterministic) or from a seeded Gaussian configuration.
    seed : int
        Seed of the random start (used only with ``init="random"``).
    max_iter : int
    tol : float
        Stop when one iteration lowers the *normalised* stress (see :func:`stress`) by less
        than ``tol``. This is scikit-learn's rule (its ``eps``, default 1e-6, divides the
        decrease by the sum of squared distances), so the two stop at the same stress to
        about 1e-4 relative (``tests/library/test_mds.py``) while the iterations that would only
        polish the last digits are skipped. ``tol=0`` runs all ``max_iter`` iterations.

    Returns
    -------
    SMACOFResult
    """
    D = as_distance_matrix(D, name="D")
    n = D.shape[0]
    k = check_k(k, n - 1, why=f"{n} centred points span at most {n - 1} dimensions")
    kind = check_choice(kind, ("kruskal", "sammon"), "kind")
    init = check_choice(init, ("classical", "random"), "init")
    seed = check_seed(seed)
    max_iter, tol = _iteration_settings(max_iter, tol)
    weights = _sammon_weights(D) if kind == "sammon" else None
    if not np.any(D > 0):
        raise ValueError("D is all zeros; there is nothing to embed")

    def fixed_targets(distances):
        return D, _squared_misfit(D, distances, weights)

    scale = _stress_scale(D, kind)
    Z0 = _initial_configuration(D, k, init, seed)
    Z, _, history, converged = _smacof(Z0, weights, fixed_targets, max_iter, tol, scale)
    read_only(Z, history)
    final = float(history[-1])
    return SMACOFResult(Z, final, history, len(history) - 1, converged, D, kind, final / scale)


def nonmetric_mds(D, k: int = 2, init: str = "classical", seed: int = 0,
                  max_iter: int = 300, tol: float = 1e-6) -> SMACOFResult:
    """Non-metric (Shepard-Kruskal) MDS: only the order of the dissimilarities matters.

    Alternates two steps that each lower sum (dhat_ij - d_ij)^2 with the disparities dhat
    held at a fixed size (sum dhat^2 = sum D^2, so the map keeps the units of D):
    (1) dhat = the isotonic regression of the current distances on the order of D,
    rescaled; (2) a SMACOF (Guttman) step towards dhat.

    Parameters are those of :func:`metric_mds` (without ``kind``). The reported
    ``stress`` is the notes' non-metric stress, ``stress(D, Z, "nonmetric")``.

    Returns
    -------
    SMACOFResult
    """
    D = as_distance_matrix(D, name="D")
    n = D.shape[0]
    k = check_k(k, n - 1, why=f"{n} centred points span at most {n - 1} dimensions")
    init = check_choice(init, ("classical", "random"), "init")
    seed = check_seed(seed)
    max_iter, tol = _iteration_settings(max_iter, tol)
    size = float(np.sum(D**2))
    if size == 0.0:
        raise ValueError("D is all zeros; there is nothing to embed")

    def isotonic_targets(distances):
        fitted = _disparities(D, distances)
        fitted *= np.sqrt(size / np.einsum("ij,ij->", fitted, fitted))
        return fitted, _squared_misfit(fitted, distances) / size

    Z0 = _initial_configuration(D, k, init, seed)
    Z, targets, history, converged = _smacof(Z0, None, isotonic_targets, max_iter, tol, 1.0)
    read_only(Z, history, targets)
    final = stress(D, Z, kind="nonmetric")
    return SMACOFResult(Z, final, history, len(history) - 1, converged, targets, "nonmetric", final)
