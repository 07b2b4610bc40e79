"""Probabilistic PCA (Tipping and Bishop, 1999): a Gaussian latent-variable model whose
maximum-likelihood fit spans the principal subspace.

The model, for a point x in R^d with a latent z in R^q (q < d)::

    z ~ N(0, I_q),    x | z ~ N(W z + mean, sigma2 I_d),    so    x ~ N(mean, W W' + sigma2 I_d).

Notation: the WashU notes (section 7) write U for the loadings ``W``, r for
``q``, v for the latent ``z``, and W for the matrix of eigenvectors.

Conventions: rows are points (X has shape (n, d)). The maximum-likelihood estimates use
the **1/n** sample covariance S = Xc'Xc / n (the likelihood is a sum over the n points),
whereas :func:`dimred_teach.pca.pca` reports the eigenvalues of the 1/(n-1) covariance;
the two differ by the factor (n-1)/n, which :func:`ppca_mle` applies explicitly.
W is identifiable only up to a rotation W R (R orthogonal q x q), because the
likelihood depends on W only through W W'. Every W returned here is put in the canonical
form: orthogonal columns of decreasing length, each with its largest-magnitude entry
positive (:func:`dimred_teach.linalg.fix_signs`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._read_only import read_only
from ._validation import (
    POSITIVE,
    as_data_matrix,
    as_vector,
    check_bool,
    check_choice,
    check_int,
    check_k,
    check_real,
    check_seed,
    check_size,
    require_finite_result,
)
from .linalg import fix_signs
from .pca import pca

__all__ = [
    "PPCAModel",
    "PPCAResult",
    "PPCAEMResult",
    "ppca_mle",
    "ppca_em",
    "log_likelihood",
    "sample",
    "posterior_mean",
]

LOG_2PI = float(np.log(2.0 * np.pi))


@dataclass(frozen=True)
class PPCAModel:
    """The parameters of a PPCA model, validated on construction.

    Attributes
    ----------
    W : ndarray, shape (d, q)
        Loadings, q < d: the latent z in R^q is mapped to W z + mean.
    mean : ndarray, shape (d,)
        The centre of the distribution.
    sigma2 : float
        Variance of the isotropic noise, > 0.
    """

    W: np.ndarray
    mean: np.ndarray
    sigma2: float

    def __post_init__(self):
        W = as_data_matrix(self.W, name="W", min_rows=2)
        d, q = W.shape
        if q >= d:
            raise ValueError(f"W must have fewer columns (q) than rows (d); got shape {W.shape}")
        mean = as_vector(self.mean, name="mean", length=d)
        read_only(W, mean)
        object.__setattr__(self, "W", W)
        object.__setattr__(self, "mean", mean)
        object.__setattr__(self, "sigma2", check_real(self.sigma2, "sigma2", POSITIVE))

    @property
    def d(self) -> int:
        """Dimension of the data space."""
        return self.W.shape[0]

    @property
    def q(self) -> int:
        """Dimension of the latent space."""
        return self.W.shape[1]

    def covariance(self) -> np.ndarray:
        """The marginal covariance C = W W' + sigma2 I, shape (d, d).

        Forms the full d x d matrix: meant for small d and for checking the theory.
        """
        return self.W @ self.W.T + self.sigma2 * np.eye(self.d)


@dataclass(frozen=True)
class PPCAResult(PPCAModel):
    """A PPCA model fitted to n points by maximum likelihood.

    Attributes
    ----------
    W, mean, sigma2
        As in :class:`PPCAModel`; W in canonical form (orthogonal columns, decreasing
        length, signs fixed).
    log_likelihood : float
        Total log-likelihood of the training data, sum over its n rows, natural log,
        including the -n d/2 log(2 pi) constant.
    n_samples : int
        n, the number of rows fitted.
    """

    log_likelihood: float
    n_samples: int


@dataclass(frozen=True)
class PPCAEMResult(PPCAResult):
    """A PPCA model fitted by the EM algorithm (:func:`ppca_em`).

    Attributes
    ----------
    W, mean, sigma2, log_likelihood, n_samples
        As in :class:`PPCAResult`, for the last iterate.
    n_iter : int
        Number of EM updates performed.
    converged : bool
        Whether the relative increase of the log-likelihood fell below ``tol``.
    history : ndarray, shape (n_iter + 1,)
        history[t] is the log-likelihood after t updates (history[0]: the start).
        EM never decreases it.
    """

    n_iter: int
    converged: bool
    history: np.ndarray


def _log_likelihood_from_moments(n: int, d: int, trace_S: float, WSW: np.ndarray, WtW: np.ndarray,
                                 sigma2: float) -> float:
    """-n/2 [d log 2pi + log|C| + tr(C^-1 S)] for C = W W' + sigma2 I from q x q pieces.

    ``trace_S`` = tr(S) and ``WSW`` = W' S W (q x q) for the scatter S = R'R / n of the
    residuals R = X - mean; ``WtW`` = W'W. With M = W'W + sigma2 I (q x q):
    log|C| = (d - q) log sigma2 + log|M|  (matrix determinant lemma) and
    C^-1 = (I - W M^-1 W') / sigma2      (Woodbury), so
    tr(C^-1 S) = (tr S - tr(M^-1 W'SW)) / sigma2. Nothing d x d is formed.
    """
    q = WtW.shape[0]
    M = WtW + sigma2 * np.eye(q)
    logdet_M = np.linalg.slogdet(M)[1]  # M is positive definite because sigma2 > 0
    logdet_C = (d - q) * np.log(sigma2) + logdet_M
    trace_Cinv_S = (trace_S - np.trace(np.linalg.solve(M, WSW))) / sigma2
    return float(-0.5 * n * (d * LOG_2PI + logdet_C + trace_Cinv_S))


def _log_likelihood_centred(R: np.ndarray, W: np.ndarray, sigma2: float) -> float:
    """Log-likelihood of the rows of the residuals R = X - mean (shape (n, d)); O(n d q)."""
    n, d = R.shape
    RW = R @ W
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):  # reported below, naming sigma2
        value = _log_likelihood_from_moments(n, d, float(np.sum(R**2)) / n, RW.T @ RW / n, W.T @ W, sigma2)
    require_finite_result(value, f"the log-likelihood with sigma2={sigma2:g}",
                          "sigma2 is too small for the residuals of X (choose a larger sigma2)")
    return value


def log_likelihood(X, W, mean, sigma2) -> float:
    """Total log-likelihood of the rows of X under x ~ N(mean, W W' + sigma2 I).

    Parameters
    ----------
    X : array_like, shape (n, d)
    W : array_like, shape (d, q), q < d
    mean : array_like, shape (d,)
    sigma2 : float, > 0

    Returns
    -------
    float
        sum_i log N(x_i | mean, C), natural log, with the -n d/2 log(2 pi) constant, so it
        equals ``scipy.stats.multivariate_normal(mean, C).logpdf(X).sum()``.

    Notes
    -----
    Computed in O(n d q) without forming or inverting the d x d matrix C: Woodbury's
    identity gives C^-1 and the matrix determinant lemma gives log|C| from the q x q
    matrix M = W'W + sigma2 I (see the notebook 07 for the derivation).
    """
    X = as_data_matrix(X, min_rows=1)
    W = as_data_matrix(W, name="W", min_rows=2)
    if W.shape[0] != X.shape[1]:
        raise ValueError(f"X has {X.shape[1]} columns but W has {W.shape[0]} rows; they must match "
                         "(W maps the latent space to the columns of X)")
    model = PPCAModel(W, mean, sigma2)
    return _log_likelihood_centred(X - model.mean, model.W, model.sigma2)


_FLAT = 1e-12
"""A variance at most this fraction of the total counts as none (rounding leaves about 1e-16 of it)."""


def _flat_data(X: np.ndarray, q: int, sigma2_given: bool, method: str) -> ValueError:
    """The error for an X that leaves no variance outside q dimensions (its centred rank r is
    at most q): the maximum-likelihood sigma2 is 0, or method="gram" cannot find q directions.
    It names r and what to pass instead. Computed only when raising (one SVD of X)."""
    singular = np.linalg.svd(X - X.mean(axis=0), compute_uv=False) ** 2
    rank = int(np.sum(singular > _FLAT * singular.sum()))
    if sigma2_given:  # method="gram" refused: it finds only the directions in which X varies
        smaller = f"q at most {rank} or " if rank else ""
        return ValueError(f"X varies (numerically) in only {rank} direction(s), fewer than q = {q}, and "
                          f"method='gram' finds only those; pass {smaller}method='svd'")
    where = "has no variance (all its rows are equal)" if rank == 0 else (
        f"lies (numerically) in a {rank}-dimensional affine subspace")
    smaller = f"q at most {rank - 1}, or " if rank >= 2 else ""
    with_method = " and method='svd'" if method == "gram" and rank < q else ""
    return ValueError(f"X {where}, so with q = {q} the maximum-likelihood sigma2 is 0 and the likelihood is "
                      f"unbounded; pass {smaller}a fixed noise variance sigma2 > 0{with_method}")


def _check_q(q, n: int, d: int) -> int:
    return check_k(q, min(d - 1, n - 1), name="q",
                   why=f"the latent dimension must be below d={d} and below n={n}")


def ppca_mle(X, q: int, sigma2: float | None = None, method: str = "svd") -> PPCAResult:
    """Closed-form maximum-likelihood PPCA (WashU notes eq. 24-26; Tipping and Bishop).

    With lambda_1 >= ... >= lambda_d the eigenvalues of the 1/n covariance
    S = Xc'Xc / n and V_q its top-q eigenvectors::

        mean   = column means of X                              (eq. 24)
        sigma2 = (lambda_{q+1} + ... + lambda_d) / (d - q)      (eq. 25)
        W      = V_q (Lambda_q - sigma2 I)^(1/2)                 (eq. 26, up to a rotation)

    Parameters
    ----------
    X : array_like, shape (n, d)
    q : int
        Latent dimension, 1 <= q < d and q < n.
    sigma2 : float, optional
        Hold the noise variance fixed at this value (> 0) instead of estimating it; W is
        then the maximiser for that sigma2, V_q (Lambda_q - sigma2 I)^(1/2) with
        negative entries clipped to 0. Letting sigma2 -> 0 gives PCA.
    method : {"svd", "eig", "gram"}
        Passed to :func:`dimred_teach.pca.pca`, which supplies the eigenvectors:
        "eig" is the fastest when n >> d, "gram" when d >> n.

    Returns
    -------
    PPCAResult

    Notes
    -----
    pca() divides by n - 1; its eigenvalues are multiplied by (n - 1)/n here. The sum
    of the discarded eigenvalues is tr(S) minus the kept ones, so only q eigenpairs
    are computed.
    """
    X = as_data_matrix(X)
    n, d = X.shape
    q = _check_q(q, n, d)
    method = check_choice(method, ("svd", "eig", "gram"), "method")
    try:
        fit = pca(X, k=q, method=method)
    except ValueError:  # X, q and method are valid: only "gram" refuses, when X varies in fewer than q directions
        raise _flat_data(X, q, sigma2 is not None, method) from None
    to_mle = (n - 1) / n
    kept = fit.eigenvalues * to_mle
    trace_S = fit.total_variance * to_mle
    if sigma2 is None:
        sigma2 = max(trace_S - float(kept.sum()), 0.0) / (d - q)
        if sigma2 <= _FLAT * max(trace_S, np.finfo(float).tiny):
            raise _flat_data(X, q, False, method)
    else:
        sigma2 = check_real(sigma2, "sigma2", POSITIVE)
    W = fix_signs(fit.components * np.sqrt(np.clip(kept - sigma2, 0.0, None)))
    loglik = _log_likelihood_centred(X - fit.mean, W, sigma2)
    return PPCAResult(W=W, mean=fit.mean, sigma2=sigma2, log_likelihood=loglik, n_samples=n)


def _canonical(W: np.ndarray) -> np.ndarray:
    """The rotation W R with orthogonal columns of decreasing length, signs fixed."""
    U, s, _ = np.linalg.svd(W, full_matrices=False)
    return fix_signs(U * s)


def _start(start, d: int, q: int) -> np.ndarray:
    """The validated starting W of :func:`ppca_em`: shape (d, q), finite, full column rank."""
    W = as_data_matrix(start, name="start", min_rows=1)
    if W.shape != (d, q):
        raise ValueError(f"start must have shape (d, q) = ({d}, {q}) like W, got {W.shape}")
    if np.linalg.matrix_rank(W) < q:
        raise ValueError(f"start must have full column rank {q}: EM cannot leave a rank-deficient W")
    return W


def ppca_em(X, q: int, seed: int = 0, max_iter: int = 5000, tol: float = 1e-10, start=None) -> PPCAEMResult:
    """Maximum-likelihood PPCA by the EM algorithm of Tipping and Bishop (1999, eq. 29-30).

    The mean is fixed at its MLE, the column means. From a seeded random start (or the
    given ``start``) and sigma2 = tr(S) / d, each update, with S = Xc'Xc / n and
    M = W'W + sigma2 I, is::

        W_new      = S W (sigma2 I + M^-1 W'S W)^-1
        sigma2_new = tr(S - S W M^-1 W_new') / d

    S W = Xc'(Xc W) / n is computed from the data, so an update costs O(n d q) and no
    d x d matrix is ever formed.

    Parameters
    ----------
    X : array_like, shape (n, d)
    q : int
        Latent dimension, 1 <= q < d and q < n.
    seed : int
        Seed of the random starting W (not used when ``start`` is given).
    max_iter : int
        Largest number of updates.
    tol : float
        Stop when an update raises the log-likelihood by less than tol * |log-likelihood|.
        EM converges linearly, with a rate close to 1 when sigma2 is small compared with
        the kept eigenvalues; the gap left to the maximum is then many times tol
        (about tol / (1 - rate)).
    start : array_like, shape (d, q), optional
        The starting W instead of a random one, of full column rank (a W of rank below q
        stays rank-deficient under every update). For studying the iteration from a
        chosen, e.g. deliberately poor, start.

    Returns
    -------
    PPCAEMResult
        The last iterate (W rotated to canonical form) and the log-likelihood history.
    """
    X = as_data_matrix(X)
    n, d = X.shape
    q = _check_q(q, n, d)
    seed = check_seed(seed)
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    tol = check_real(tol, "tol", POSITIVE)
    mean = X.mean(axis=0)
    Xc = X - mean
    trace_S = float(np.sum(Xc**2)) / n
    if trace_S <= 0.0:
        raise ValueError("X has no variance (all rows are equal); PPCA needs sigma2 > 0")
    sigma2 = trace_S / d
    if start is None:
        W = np.random.default_rng(seed).standard_normal((d, q)) * np.sqrt(sigma2)
    else:
        W = _start(start, d, q)
    identity = np.eye(q)
    history: list[float] = []
    converged = False
    for step in range(max_iter + 1):
        XW = Xc @ W
        SW = Xc.T @ XW / n
        WSW = XW.T @ XW / n
        WtW = W.T @ W
        history.append(_log_likelihood_from_moments(n, d, trace_S, WSW, WtW, sigma2))
        if step > 0 and history[-1] - history[-2] <= tol * abs(history[-1]):
            converged = True
            break
        if step == max_iter:
            break
        M = WtW + sigma2 * identity
        # W_new = SW A^-1 with A = sigma2 I + M^-1 W'SW; solve A' W_new' = SW' instead of inverting.
        W_new = np.linalg.solve((sigma2 * identity + np.linalg.solve(M, WSW)).T, SW.T).T
        # tr(S W M^-1 W_new') = sum of the entries of SW * (W_new M^-1); M is symmetric.
        sigma2 = (trace_S - float(np.sum(SW * np.linalg.solve(M, W_new.T).T))) / d
        W = W_new
    history_array = np.array(history)
    read_only(history_array)
    return PPCAEMResult(W=_canonical(W), mean=mean, sigma2=sigma2, log_likelihood=history[-1], n_samples=n,
                        n_iter=len(history) - 1, converged=converged, history=history_array)


def _as_model(model) -> PPCAModel:
    if not isinstance(model, PPCAModel):
        raise TypeError(f"model must be a PPCAModel or a result of ppca_mle/ppca_em, got {type(model).__name__}")
    return model


def sample(model: PPCAModel, n: int, seed: int, return_latent: bool = False):
    """Draw n points from the generative model: z ~ N(0, I), x = W z + mean + noise.

    Parameters
    ----------
    model : PPCAModel (or a fitted PPCAResult)
    n : int
        Number of points, >= 1.
    seed : int
    return_latent : bool
        Also return the latent draws.

    Returns
    -------
    X : ndarray, shape (n, d)
    Z : ndarray, shape (n, q)
        Only with ``return_latent=True``: the latent z of each row.
    """
    model = _as_model(model)
    n = check_int(n, "n", minimum=1)
    return_latent = check_bool(return_latent, "return_latent")
    check_size(n * (model.d + model.q), f"n = {n} draws of {model.d} + {model.q} numbers", "lower n")
    rng = np.random.default_rng(check_seed(seed))
    Z = rng.standard_normal((n, model.q))
    noise = rng.standard_normal((n, model.d)) * np.sqrt(model.sigma2)
    X = Z @ model.W.T + model.mean + noise
    return (X, Z) if return_latent else X


def posterior_mean(model: PPCAModel, X) -> np.ndarray:
    """E[z | x] = M^-1 W'(x - mean) for each row of X, with M = W'W + sigma2 I.

    Parameters
    ----------
    model : PPCAModel (or a fitted PPCAResult)
    X : array_like, shape (m, d)

    Returns
    -------
    ndarray, shape (m, q)
        For the maximum-likelihood W = V_q (Lambda_q - sigma2 I)^(1/2), M = Lambda_q, so
        this is the PCA score V_q'(x - mean) with component j multiplied by
        sqrt(lambda_j - sigma2) / lambda_j: a shrunk PCA projection. (The posterior
        covariance, sigma2 M^-1, is the same for every x.)
    """
    model = _as_model(model)
    X = as_data_matrix(X, min_rows=1)
    if X.shape[1] != model.d:
        raise ValueError(f"X must have {model.d} columns like the model, got {X.shape[1]}")
    M = model.W.T @ model.W + model.sigma2 * np.eye(model.q)
    return np.linalg.solve(M, model.W.T @ (X - model.mean).T).T
