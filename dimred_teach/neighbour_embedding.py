"""Neighbour embeddings: exact t-SNE and the core of UMAP, written for small n and for reading.

**t-SNE** (van der Maaten and Hinton, 2008). Each point i gets a Gaussian over the other points,
p_{j|i} = exp(-beta_i ||x_i - x_j||^2) / sum_{k != i} exp(-beta_i ||x_i - x_k||^2), whose
precision beta_i = 1 / (2 sigma_i^2) is found by bisection so that the distribution's
perplexity 2^H (H its entropy in bits) equals a target: a dense region gets a narrow Gaussian,
a sparse one a wide one (:func:`conditional_probabilities`, the same search as scikit-learn's).
The joint P = (P_cond + P_cond') / (2n) is symmetric. The map y_1, ..., y_n minimises
KL(P || Q) with the heavy-tailed Student-t kernel (one degree of freedom)
q_ij = (1 + ||y_i - y_j||^2)^-1 / sum_{k != l} (1 + ||y_k - y_l||^2)^-1,
whose gradient is dC/dy_i = 4 sum_j (p_ij - q_ij)(1 + ||y_i - y_j||^2)^-1 (y_i - y_j)
(:func:`tsne_kl_gradient`). :func:`tsne` runs the paper's optimiser with scikit-learn's
defaults: P multiplied by ``early_exaggeration`` and momentum 0.5 for the first
``exaggeration_iter`` iterations, momentum 0.8 after, per-coordinate gains (+0.2 while the
gradient keeps its sign from one iteration to the next, x0.8 when it changes sign, at least
0.01). Like scikit-learn's ``TSNE`` (and unlike the paper's own code) the momentum and the
gains start afresh when the exaggeration ends.
Everything is dense, n x n: O(n^2) memory and time per iteration ("exact" t-SNE).

**UMAP** (McInnes, Healy and Melville, 2018), its core for teaching. Each point i has k nearest
neighbours; rho_i is the distance to the nearest one and sigma_i solves, by bisection,
sum_{j in kNN(i)} exp(-(d_ij - rho_i) / sigma_i) = log2(k), as the paper states it (umap-learn
calibrates to log2(k + 1): :func:`fuzzy_simplicial_set`). The directed memberships
w_{i->j} = exp(-(d_ij - rho_i) / sigma_i) are merged by the fuzzy union
w_ij = w_{i->j} + w_{j->i} - w_{i->j} w_{j->i} (:func:`fuzzy_simplicial_set`). The map has
similarities v_ij = 1 / (1 + a ||y_i - y_j||^(2b)), with a and b fitted by least squares to
the curve that is 1 up to ``min_dist`` and decays as exp(-(d - min_dist)) after it
(:func:`fit_ab`; the fitted curve itself falls off as a power of d, about d^(-2b), far more
slowly than that exponential), and minimises the fuzzy cross-entropy over **all** pairs,
sum_{i<j} w_ij log(w_ij / v_ij) + (1 - w_ij) log((1 - w_ij) / (1 - v_ij))
(:func:`umap_loss_gradient`). This module minimises it by full-batch gradient descent from a
PCA start, deterministic for a given seed. umap-learn instead samples edges and a few
"negative" pairs per edge (stochastic gradient descent, compiled with numba), which weights the
repulsion far less than the full sum does, so its pictures need not match this module's in detail;
it is the tool for real data. umap-learn is not a dependency of this course
(it brings numba and a compile on first call).

Rows are points; every result is read-only. ``n`` is limited to :data:`MAX_POINTS`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.optimize

from ._read_only import read_only
from ._validation import POSITIVE, Interval, as_data_matrix, as_square_symmetric, check_int, check_real, check_seed
from .linalg import fix_signs
from .mds import _pairwise_squared, squared_distances

__all__ = ["MAX_POINTS", "conditional_probabilities", "perplexity", "joint_probabilities", "tsne_kl_gradient",
           "TSNEResult", "tsne", "UMAPGraph", "fuzzy_simplicial_set", "fit_ab", "umap_loss_gradient",
           "UMAPResult", "umap"]

MAX_POINTS = 3000
"""Largest n accepted: every array here is n x n (3000 points: 72 MB per array)."""
MACHINE_EPSILON = np.finfo(np.float64).eps
"""Floor of every probability in P and Q, as scikit-learn's, so that no log sees a zero."""
PERPLEXITY_TOLERANCE = 1e-5
"""The bisection stops when the entropy (in nats) is this close to log(perplexity) (scikit-learn's)."""


def _points(X, name: str = "X", min_rows: int = 3) -> np.ndarray:
    X = as_data_matrix(X, name, min_rows=min_rows)
    if len(X) > MAX_POINTS:
        raise ValueError(f"{name} has {len(X)} rows; this exact, dense implementation takes at most "
                         f"{MAX_POINTS} (use scikit-learn's Barnes-Hut TSNE or umap-learn for more)")
    return X


def conditional_probabilities(sq_distances, perplexity: float = 30.0, max_steps: int = 100):
    """SNE's conditional probabilities p_{j|i}, each row calibrated to a target perplexity.

    Parameters
    ----------
    sq_distances : array_like, shape (n, n)
        Squared distances ||x_i - x_j||^2: symmetric, non-negative (the diagonal is ignored).
    perplexity : float
        The target 2^H of every row, 1 < perplexity < n - 1: roughly the number of neighbours
        each point "sees".
    max_steps : int
        Bisection steps per row at most. The search starts at beta = 1, doubles or halves it
        until the target is bracketed, then halves the bracket, and stops when the entropy is
        within :data:`PERPLEXITY_TOLERANCE` nats of log(perplexity): the steps of scikit-learn's
        ``_binary_search_perplexity``.

    Returns
    -------
    P : ndarray, shape (n, n)
        P[i, j] = p_{j|i}; each row sums to 1, the diagonal is 0.
    beta : ndarray, shape (n,)
        The precisions found, beta_i = 1 / (2 sigma_i^2).
    """
    D = as_square_symmetric(sq_distances, "sq_distances", min_size=3)
    if (D < 0).any():
        raise ValueError("sq_distances has negative entries; squared distances are never negative")
    n = len(D)
    target = math.log(check_real(perplexity, "perplexity", Interval(1.0, n - 1.0, "neither"),
                                 "between 1 and n - 1 neighbours"))
    max_steps = check_int(max_steps, "max_steps", minimum=1)
    off_diagonal = ~np.eye(n, dtype=bool)
    beta, low, high = np.ones(n), np.full(n, -np.inf), np.full(n, np.inf)
    P = np.zeros((n, n))
    active = np.ones(n, dtype=bool)
    for _ in range(max_steps):
        rows = np.flatnonzero(active)
        E = np.where(off_diagonal[rows], np.exp(-D[rows] * beta[rows, None]), 0.0)
        total = E.sum(axis=1)
        total[total == 0.0] = 1e-8
        E /= total[:, None]
        P[rows] = E
        entropy = np.log(total) + beta[rows] * (D[rows] * E).sum(axis=1)
        excess = entropy - target
        done = np.abs(excess) <= PERPLEXITY_TOLERANCE
        wide = ~done & (excess > 0)  # too many neighbours: sharpen (raise beta)
        narrow = ~done & (excess <= 0)
        r = rows[wide]
        low[r] = beta[r]
        beta[r] = np.where(np.isinf(high[r]), beta[r] * 2.0, (beta[r] + high[r]) / 2.0)
        r = rows[narrow]
        high[r] = beta[r]
        beta[r] = np.where(np.isinf(low[r]), beta[r] / 2.0, (beta[r] + low[r]) / 2.0)
        active[rows[done]] = False
        if not active.any():
            break
    return P, beta


def perplexity(P) -> np.ndarray:
    """The perplexity 2^H(P_i) of each row of a matrix of conditional probabilities, shape (n,).

    H is the Shannon entropy in bits, -sum_j p_{j|i} log2 p_{j|i} (zero entries contribute 0).
    """
    P = as_data_matrix(P, "P")
    if (P < 0).any():
        raise ValueError("P has negative entries; it must hold probabilities")
    logs = np.log2(np.where(P > 0, P, 1.0))
    return 2.0 ** -(P * logs).sum(axis=1)


def joint_probabilities(X, perplexity: float = 30.0) -> np.ndarray:
    """t-SNE's symmetric P of the rows of X, shape (n, n).

    P = (P_cond + P_cond') / sum(P_cond + P_cond') with P_cond from
    :func:`conditional_probabilities` of the squared Euclidean distances; the sum is 2n, so
    every point carries at least 1 / (2n) of the mass, an outlier included. Off-diagonal
    entries are at least :data:`MACHINE_EPSILON` (which adds at most n^2 eps to the sum of 1); the
    diagonal is 0.
    """
    X = _points(X)
    conditional, _ = conditional_probabilities(squared_distances(X), perplexity)
    P = conditional + conditional.T
    P = np.maximum(P / P.sum(), MACHINE_EPSILON)
    np.fill_diagonal(P, 0.0)
    return P


def _joint(P, n_points: int) -> np.ndarray:
    P = as_square_symmetric(P, "P", min_size=3)
    if len(P) != n_points:
        raise ValueError(f"P must be {n_points} x {n_points} (one row per point of Y), got shape {P.shape}")
    if (P < 0).any():
        raise ValueError("P has negative entries; it must hold probabilities")
    return P


def tsne_kl_gradient(Y, P) -> tuple[float, np.ndarray]:
    """KL(P || Q) of a t-SNE map and its gradient.

    Parameters
    ----------
    Y : array_like, shape (n, m)
        The map's points.
    P : array_like, shape (n, n)
        Joint probabilities (:func:`joint_probabilities`), symmetric, diagonal ignored.

    Returns
    -------
    kl : float
        sum_{i != j} p_ij log(p_ij / q_ij), with P and Q floored at :data:`MACHINE_EPSILON`.
    gradient : ndarray, shape (n, m)
        4 sum_j (p_ij - q_ij) (1 + ||y_i - y_j||^2)^-1 (y_i - y_j), the derivative of ``kl``.
    """
    Y = as_data_matrix(Y, "Y", min_rows=3)
    P = _joint(P, len(Y))
    return _kl_and_gradient(Y, P)


def _kl_and_gradient(Y: np.ndarray, P: np.ndarray, with_kl: bool = True) -> tuple[float, np.ndarray]:
    """KL (NaN unless ``with_kl``: its n^2 logarithms are most of an iteration's time) and gradient."""
    kernel = 1.0 / (1.0 + _pairwise_squared(Y))
    np.fill_diagonal(kernel, 0.0)
    Q = np.maximum(kernel / kernel.sum(), MACHINE_EPSILON)
    np.fill_diagonal(Q, 1.0)  # the diagonal's p_ii = 0 contributes 0 to KL (log 1 = 0 below)
    kl = float((P * np.log(np.maximum(P, MACHINE_EPSILON) / Q)).sum()) if with_kl else math.nan
    W = (P - Q) * kernel  # the diagonal is 0 because kernel's is
    gradient = 4.0 * (W.sum(axis=1)[:, None] * Y - W @ Y)
    return kl, gradient


@dataclass(frozen=True)
class TSNEResult:
    """An exact t-SNE map (:func:`tsne`).

    Attributes
    ----------
    embedding : ndarray, shape (n, n_components)
    P : ndarray, shape (n, n)
        The joint probabilities fitted (without exaggeration).
    kl_divergence : float
        KL(P || Q) at the final embedding.
    kl_history : ndarray, shape (max_iter // 50,)
        KL(P || Q) before the update of every 50th iteration (exaggerated P in the first phase,
        so those values are not comparable with the later ones).
    learning_rate : float
        The step used (``"auto"``: max(n / early_exaggeration / 4, 50), scikit-learn's rule).
    """

    embedding: np.ndarray
    P: np.ndarray
    kl_divergence: float
    kl_history: np.ndarray
    learning_rate: float

    def __post_init__(self):
        read_only(self.embedding, self.P, self.kl_history)


def _descend(gradient_of, Y: np.ndarray, iterations: range, momentum: float, learning_rate: float,
             history: list, every: int = 50) -> np.ndarray:
    """Gradient descent with momentum and per-coordinate gains (Jacobs 1988), in place on Y.

    ``gradient_of(Y, with_objective)`` returns (objective, gradient); the objective of every
    ``every``-th iteration (counted by the numbers in ``iterations``) is appended to ``history``."""
    update, gains = np.zeros_like(Y), np.ones_like(Y)
    for i in iterations:
        recorded = (i + 1) % every == 0
        value, grad = gradient_of(Y, recorded)
        if recorded:
            history.append(value)
        same_direction = update * grad < 0.0
        gains = np.maximum(np.where(same_direction, gains + 0.2, gains * 0.8), 0.01)
        update = momentum * update - learning_rate * gains * grad
        Y += update
    return Y


def _initial_map(X: np.ndarray, init, n_components: int, seed: int) -> np.ndarray:
    n = len(X)
    if isinstance(init, str) and init == "pca":
        Xc = X - X.mean(axis=0)
        _, _, Vt = np.linalg.svd(Xc, full_matrices=False)
        Y = Xc @ fix_signs(Vt[:n_components].T)
        return Y / Y[:, 0].std() * 1e-4
    if isinstance(init, str) and init == "random":
        return 1e-4 * np.random.default_rng(seed).standard_normal((n, n_components))
    if isinstance(init, str):
        raise ValueError(f"init must be 'pca', 'random' or an array of shape ({n}, {n_components}); got {init!r}")
    Y = as_data_matrix(init, "init", min_rows=n)
    if Y.shape != (n, n_components):
        raise ValueError(f"init must have shape ({n}, {n_components}), got {Y.shape}")
    return Y


def tsne(X, perplexity: float = 30.0, *, n_components: int = 2, early_exaggeration: float = 12.0,
         learning_rate="auto", max_iter: int = 1000, exaggeration_iter: int = 250, init="pca",
         seed: int = 0) -> TSNEResult:
    """Exact t-SNE of the rows of X (van der Maaten and Hinton 2008, with scikit-learn's defaults).

    Parameters
    ----------
    X : array_like, shape (n, p)
        3 <= n <= :data:`MAX_POINTS`.
    perplexity : float
        Target perplexity of every point's Gaussian, 1 < perplexity < n - 1.
    n_components : int
        Dimension m of the map (1, 2 or 3). The kernel has one degree of freedom whatever m is.
    early_exaggeration : float
        P is multiplied by this in the first ``exaggeration_iter`` iterations (>= 1).
    learning_rate : float or "auto"
        The step; "auto" is max(n / early_exaggeration / 4, 50).
    max_iter : int
        Total iterations, >= ``exaggeration_iter``. All are run (no early stop).
    exaggeration_iter : int
        Length of the first phase (momentum 0.5); the rest uses momentum 0.8.
    init : "pca", "random" or array_like of shape (n, n_components)
        "pca": the first principal-component scores (signs fixed), scaled so the first column
        has standard deviation 1e-4; "random": 1e-4 times standard normals drawn with ``seed``.
    seed : int
        Used by ``init="random"`` only; the run is otherwise deterministic.

    Returns
    -------
    TSNEResult
    """
    X = _points(X)
    n = len(X)
    n_components = check_int(n_components, "n_components", minimum=1, maximum=3)
    early_exaggeration = check_real(early_exaggeration, "early_exaggeration", Interval(1.0, math.inf))
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    exaggeration_iter = check_int(exaggeration_iter, "exaggeration_iter", minimum=0, maximum=max_iter)
    if isinstance(learning_rate, str) and learning_rate == "auto":
        learning_rate = max(n / early_exaggeration / 4.0, 50.0)
    elif isinstance(learning_rate, str):
        raise ValueError(f"learning_rate must be a positive number or 'auto', got {learning_rate!r}")
    else:
        learning_rate = check_real(learning_rate, "learning_rate", POSITIVE)
    seed = check_seed(seed)
    P = joint_probabilities(X, perplexity)
    Y = _initial_map(X, init, n_components, seed).copy()
    history: list[float] = []
    exaggerated = P * early_exaggeration
    _descend(lambda Y, kl: _kl_and_gradient(Y, exaggerated, kl), Y, range(exaggeration_iter), 0.5, learning_rate,
             history)
    _descend(lambda Y, kl: _kl_and_gradient(Y, P, kl), Y, range(exaggeration_iter, max_iter), 0.8, learning_rate,
             history)
    kl, _ = _kl_and_gradient(Y, P)
    return TSNEResult(embedding=Y, P=P, kl_divergence=kl, kl_history=np.array(history),
                      learning_rate=float(learning_rate))


# ----------------------------------------------------------------------------- UMAP


@dataclass(frozen=True)
class UMAPGraph:
    """UMAP's fuzzy simplicial set of n points with k neighbours each (:func:`fuzzy_simplicial_set`).

    Attributes
    ----------
    neighbors : ndarray of int, shape (n, k)
        neighbors[i] are the k nearest other points of i, nearest first (ties: lower index first).
    distances : ndarray, shape (n, k)
        Their Euclidean distances.
    rho : ndarray, shape (n,)
        Distance from each point to its nearest neighbour.
    sigma : ndarray, shape (n,)
        The scales with sum_j exp(-(d_ij - rho_i) / sigma_i) = log2(k) over i's neighbours.
    directed : ndarray, shape (n, n)
        directed[i, j] = w_{i->j} = exp(-(d_ij - rho_i) / sigma_i) for j among i's neighbours, else 0.
        Every row has a 1 (its nearest neighbour).
    graph : ndarray, shape (n, n)
        The fuzzy union W = A + A' - A * A' of A = ``directed``: symmetric, entries in [0, 1].
    """

    neighbors: np.ndarray
    distances: np.ndarray
    rho: np.ndarray
    sigma: np.ndarray
    directed: np.ndarray
    graph: np.ndarray

    def __post_init__(self):
        read_only(self.neighbors, self.distances, self.rho, self.sigma, self.directed, self.graph)


def fuzzy_simplicial_set(X, n_neighbors: int = 15, max_steps: int = 64) -> UMAPGraph:
    """UMAP's weighted neighbour graph of the rows of X.

    Parameters
    ----------
    X : array_like, shape (n, p)
    n_neighbors : int
        k, the neighbours of each point, not counting the point itself; 2 <= k < n. Each row
        is calibrated to log2(k), the paper's rule. umap-learn's ``n_neighbors`` counts the point
        itself, so its value k + 1 uses the same k neighbours but calibrates each row to
        log2(k + 1): larger sigma_i and memberships than here (on the lecture's 200 digits with
        k = 10, larger by up to 0.045).
    max_steps : int
        Bisection steps for each sigma_i (the bracket halves every step; 64 reach double precision).

    Returns
    -------
    UMAPGraph
    """
    X = _points(X)
    n = len(X)
    k = check_int(n_neighbors, "n_neighbors", minimum=2, maximum=n - 1)
    max_steps = check_int(max_steps, "max_steps", minimum=1)
    D = np.sqrt(squared_distances(X))
    np.fill_diagonal(D, np.inf)
    neighbors = np.argsort(D, axis=1, kind="stable")[:, :k]
    distances = np.take_along_axis(D, neighbors, axis=1)
    rho = distances[:, 0]
    excess = distances - rho[:, None]
    target = math.log2(k)
    # sum_j exp(-excess_ij / sigma) rises from 1 (sigma -> 0) towards k (sigma -> inf): bisect on it.
    low, high = np.zeros(n), np.full(n, np.inf)
    sigma = np.ones(n)
    for _ in range(max_steps):
        total = np.exp(-excess / sigma[:, None]).sum(axis=1)
        too_big = total > target
        high = np.where(too_big, sigma, high)
        low = np.where(too_big, low, sigma)
        sigma = np.where(np.isinf(high), sigma * 2.0, (low + high) / 2.0)
    directed = np.zeros((n, n))
    np.put_along_axis(directed, neighbors, np.exp(-excess / sigma[:, None]), axis=1)
    graph = directed + directed.T - directed * directed.T
    return UMAPGraph(neighbors=neighbors, distances=distances, rho=rho, sigma=sigma, directed=directed, graph=graph)


def fit_ab(min_dist: float = 0.1, spread: float = 1.0) -> tuple[float, float]:
    """UMAP's a and b: the curve 1 / (1 + a d^(2b)) fitted by least squares to the target
    1 for d < min_dist, exp(-(d - min_dist) / spread) after it, at 300 points of [0, 3 spread].

    Parameters
    ----------
    min_dist : float
        0 <= min_dist < spread: how close the map lets neighbours sit.
    spread : float
        The scale of the decay (> 0).

    Returns
    -------
    (a, b) : tuple of float, both > 0
    """
    spread = check_real(spread, "spread", POSITIVE)
    min_dist = check_real(min_dist, "min_dist", Interval(0.0, spread, "left"), "below spread")
    d = np.linspace(0.0, 3.0 * spread, 300)
    target = np.where(d < min_dist, 1.0, np.exp(-(d - min_dist) / spread))
    (a, b), _ = scipy.optimize.curve_fit(lambda d, a, b: 1.0 / (1.0 + a * d ** (2.0 * b)), d, target, p0=(1.0, 1.0))
    return float(a), float(b)


def umap_loss_gradient(Y, W, a: float, b: float) -> tuple[float, np.ndarray]:
    """UMAP's fuzzy cross-entropy of a map over all pairs, and its gradient.

    Parameters
    ----------
    Y : array_like, shape (n, m)
        The map's points, pairwise distinct.
    W : array_like, shape (n, n)
        Symmetric memberships in [0, 1] (:attr:`UMAPGraph.graph`); the diagonal is ignored.
    a, b : float
        The curve v = 1 / (1 + a s^b), s = ||y_i - y_j||^2 (:func:`fit_ab`).

    Returns
    -------
    loss : float
        sum_{i<j} -w_ij log v_ij - (1 - w_ij) log(1 - v_ij) (the cross-entropy without the
        terms that do not depend on Y).
    gradient : ndarray, shape (n, m)
        d loss / d y_i = sum_j 2 [w_ij a b s^(b-1) - (1 - w_ij) b / s] v_ij (y_i - y_j).
    """
    Y = as_data_matrix(Y, "Y", min_rows=3)
    W = as_square_symmetric(W, "W", min_size=3)
    if W.shape[0] != len(Y):
        raise ValueError(f"W must be {len(Y)} x {len(Y)} (one row per point of Y), got shape {W.shape}")
    if (W < 0).any() or (W > 1).any():
        raise ValueError("W must hold memberships between 0 and 1")
    a, b = check_real(a, "a", POSITIVE), check_real(b, "b", POSITIVE)
    S = squared_distances(Y)
    np.fill_diagonal(S, 1.0)
    if (S <= 0).any():
        raise ValueError("Y has coincident points; UMAP's repulsion is infinite there")
    return _cross_entropy(Y, W, a, b, S)


def _cross_entropy(Y: np.ndarray, W: np.ndarray, a: float, b: float, S: np.ndarray) -> tuple[float, np.ndarray]:
    """The loss and gradient of :func:`umap_loss_gradient`; S = squared distances with a unit diagonal."""
    power = S ** b
    V = 1.0 / (1.0 + a * power)
    off = ~np.eye(len(Y), dtype=bool)
    loss = float(-(W * np.log(V) + (1.0 - W) * np.log1p(-V))[off].sum() / 2.0)
    coefficient = 2.0 * (W * a * b * power / S - (1.0 - W) * b / S) * V
    np.fill_diagonal(coefficient, 0.0)
    gradient = coefficient.sum(axis=1)[:, None] * Y - coefficient @ Y
    return loss, gradient


@dataclass(frozen=True)
class UMAPResult:
    """A UMAP map fitted by :func:`umap`.

    Attributes
    ----------
    embedding : ndarray, shape (n, n_components)
    graph : UMAPGraph
    a, b : float
        The low-dimensional curve's parameters (:func:`fit_ab`).
    loss : float
        The cross-entropy (:func:`umap_loss_gradient`) at the final embedding.
    """

    embedding: np.ndarray
    graph: UMAPGraph
    a: float
    b: float
    loss: float

    def __post_init__(self):
        read_only(self.embedding)


def umap(X, n_neighbors: int = 15, min_dist: float = 0.1, *, n_components: int = 2, n_epochs: int = 200,
         learning_rate: float = 1.0) -> UMAPResult:
    """UMAP's core, full batch and deterministic: graph, a and b, a PCA start, gradient descent.

    Parameters
    ----------
    X : array_like, shape (n, p)
        3 <= n <= :data:`MAX_POINTS`. The map starts from the principal-component scores
        (signs fixed) scaled into [-10, 10] (umap-learn's ``init="pca"``; its default is a
        spectral start).
    n_neighbors : int
        k of :func:`fuzzy_simplicial_set` (neighbours other than the point itself).
    min_dist : float
        0 <= min_dist < 1 (:func:`fit_ab` with spread 1).
    n_components : int
        Dimension of the map, 1 <= n_components < n - 1.
    n_epochs : int
        Full-gradient steps.
    learning_rate : float
        The first step; it decays linearly to 0 over the epochs, and every gradient coordinate is
        clipped to [-4, 4] before it is used (umap-learn's clip).

    Returns
    -------
    UMAPResult
    """
    X = _points(X)
    n_components = check_int(n_components, "n_components", minimum=1, maximum=len(X) - 2)
    n_epochs = check_int(n_epochs, "n_epochs", minimum=1)
    learning_rate = check_real(learning_rate, "learning_rate", POSITIVE)
    a, b = fit_ab(min_dist)
    graph = fuzzy_simplicial_set(X, n_neighbors)
    W = graph.graph
    Y = _initial_map(X, "pca", n_components, 0)
    Y *= 10.0 / np.abs(Y).max()
    for epoch in range(n_epochs):
        S = squared_distances(Y) + 1e-3  # umap-learn's guard against coincident points
        np.fill_diagonal(S, 1.0)
        _, gradient = _cross_entropy(Y, W, a, b, S)
        Y -= learning_rate * (1.0 - epoch / n_epochs) * np.clip(gradient, -4.0, 4.0)
    S = squared_distances(Y)
    np.fill_diagonal(S, 1.0)
    loss, _ = _cross_entropy(Y, W, a, b, np.maximum(S, 1e-300))
    return UMAPResult(embedding=Y, graph=graph, a=a, b=b, loss=loss)

