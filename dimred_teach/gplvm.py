"""The Gaussian process latent variable model (GPLVM; Lawrence, 2005): PPCA's dual.

PPCA integrates out the latent points and optimises the map. The GPLVM does the
opposite: it puts a Gaussian process prior on the map and optimises the latent points.
For data Y (n points, D variables; columns centred) and latent points X (n, q), each
column y_j of Y (one variable over all n points) is modelled as

    y_j ~ N(0, K),    K = k(X, X) + noise I_n    (an n x n kernel matrix),

independently for j = 1..D (WashU notes section 7: N(x | 0, X'X + sigma^2 I)). The log
marginal likelihood is

    L = -D/2 log|K| - 1/2 tr(K^-1 Y Y') - n D/2 log(2 pi).

With the linear kernel k(x, x') = x'x', the maximiser is X = U_q (Lambda_q - noise I)^(1/2) R,
U_q and Lambda_q the top eigenpairs of Y Y' / D and R any rotation: PCA's scores up to
rotation and a per-component scale (Lawrence 2005, section 3). :func:`gplvm_linear` gives
that closed form; :func:`fit_gplvm` maximises L numerically (L-BFGS-B with the analytic
gradient) for the linear kernel or the RBF kernel

    k(x, x') = variance exp(-|x - x'|^2 / 2),

for which a standard normal prior on the latent points is added. L alone is unchanged
when X and a lengthscale are scaled together, so a lengthscale parameter would let the
prior shrink X (and the lengthscale) towards 0 without end; the prior fixes the scale of
X instead, and the lengthscale is 1.

Conventions: rows are points; the maximum-likelihood quantities use Y Y' / D.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.linalg
import scipy.optimize

from ._read_only import read_only
from ._validation import POSITIVE, as_data_matrix, check_choice, check_int, check_k, check_real
from .linalg import fix_signs
from .pca import pca
from .ppca import LOG_2PI, _log_likelihood_from_moments

__all__ = ["GPLVMResult", "gplvm_linear", "fit_gplvm", "log_marginal_likelihood", "KERNELS"]

KERNELS = ("linear", "rbf")


@dataclass(frozen=True)
class GPLVMResult:
    """Latent points and kernel parameters of a GPLVM.

    Attributes
    ----------
    latent : ndarray, shape (n, q)
        The latent point of each row of Y; columns with the largest-magnitude entry positive.
    kernel : str
        "linear" or "rbf".
    params : dict
        The kernel's parameters: ``noise`` (both) and ``variance`` (rbf).
    log_likelihood : float
        The log marginal likelihood L at the returned point (without the prior on X).
    mean : ndarray, shape (D,)
        Column means removed from Y.
    n_iter : int
        Optimiser iterations (0 for the closed form).
    converged : bool
    """

    latent: np.ndarray
    kernel: str
    params: dict
    log_likelihood: float
    mean: np.ndarray
    n_iter: int
    converged: bool


def _check_q(q, n: int) -> int:
    return check_k(q, n - 1, name="q", why=f"the latent dimension must be below the number of points n={n}")


def gplvm_linear(Y, q: int) -> GPLVMResult:
    """The closed-form maximum-likelihood linear GPLVM (Lawrence 2005, eq. 6).

    With lambda_1 >= ... >= lambda_n the eigenvalues of S = Yc Yc' / D (n x n), U_q the
    top-q eigenvectors and noise = (lambda_{q+1} + ... + lambda_n) / (n - q)::

        X = U_q (Lambda_q - noise I)^(1/2)

    which is PCA's score matrix with column j multiplied by sqrt(lambda_j - noise) / sqrt(D lambda_j).

    Parameters
    ----------
    Y : array_like, shape (n, D)
    q : int
        1 <= q < n, and q <= D.

    Returns
    -------
    GPLVMResult
    """
    Y = as_data_matrix(Y, name="Y")
    n, D = Y.shape
    q = check_k(_check_q(q, n), D, name="q", why=f"the data have D={D} variables")
    fit = pca(Y, k=q)
    to_S = (n - 1) / D  # pca's eigenvalues use 1/(n - 1); S = Yc Yc'/D has the same nonzero ones times (n - 1)/D
    kept = fit.eigenvalues * to_S
    noise = (fit.total_variance * to_S - float(kept.sum())) / (n - q)
    if noise <= 1e-12 * fit.total_variance * to_S:
        raise ValueError(f"Y lies (numerically) in a {q}-dimensional subspace, so the noise is 0 and the "
                         "likelihood is unbounded; choose a smaller q")
    unit_scores = fit.scores / np.sqrt(fit.eigenvalues * (n - 1))  # U_q: columns of length 1
    latent = fix_signs(unit_scores * np.sqrt(np.clip(kept - noise, 0.0, None)))
    read_only(latent)
    return GPLVMResult(latent=latent, kernel="linear", params={"noise": noise},
                       log_likelihood=_linear_log_likelihood(Y - fit.mean, latent, noise), mean=fit.mean,
                       n_iter=0, converged=True)


def _linear_log_likelihood(Yc: np.ndarray, X: np.ndarray, noise: float) -> float:
    """L for K = X X' + noise I in O(n D q): PPCA's likelihood of the D columns of Yc."""
    n, D = Yc.shape
    YtX = Yc.T @ X
    return _log_likelihood_from_moments(D, n, float(np.sum(Yc**2)) / D, YtX.T @ YtX / D, X.T @ X, noise)


def _rbf(X: np.ndarray, variance: float) -> np.ndarray:
    """The RBF kernel matrix variance exp(-|x_i - x_j|^2 / 2), shape (n, n)."""
    squared = np.sum(X**2, axis=1)
    return variance * np.exp(-0.5 * np.maximum(squared[:, None] + squared[None, :] - 2.0 * X @ X.T, 0.0))


def _objective(theta: np.ndarray, Yc: np.ndarray, q: int, kernel: str):
    """-(L + log prior) and its gradient for theta = (vec X, log noise[, log variance])."""
    n, D = Yc.shape
    X = theta[: n * q].reshape(n, q)
    logs = theta[n * q:]
    noise = np.exp(logs[0])
    if kernel == "linear":
        free = X @ X.T
    else:
        free = _rbf(X, np.exp(logs[1]))
    K = free + noise * np.eye(n)
    factor = scipy.linalg.cho_factor(K, lower=True, check_finite=False)
    KinvY = scipy.linalg.cho_solve(factor, Yc, check_finite=False)
    Kinv = scipy.linalg.cho_solve(factor, np.eye(n), check_finite=False)
    logdet = 2.0 * float(np.sum(np.log(np.diag(factor[0]))))
    value = -0.5 * D * logdet - 0.5 * float(np.sum(Yc * KinvY)) - 0.5 * n * D * LOG_2PI
    G = 0.5 * (KinvY @ KinvY.T - D * Kinv)  # dL/dK
    gradient_logs = [noise * np.trace(G)]
    if kernel == "linear":
        gradient_X = 2.0 * G @ X
    else:
        P = G * free
        gradient_X = -2.0 * (P.sum(axis=1)[:, None] * X - P @ X)  # dK_ij/dx_i = -K_ij (x_i - x_j)
        gradient_logs.append(float(np.sum(P)))
        value -= 0.5 * float(np.sum(X**2))  # the N(0, I) prior on the latent points
        gradient_X = gradient_X - X
    return -value, -np.concatenate([gradient_X.ravel(), gradient_logs])


def log_marginal_likelihood(Y, latent, kernel: str = "linear", noise: float = 1.0, variance: float = 1.0) -> float:
    """L = log N(Yc | 0, K) summed over the D columns of the centred Y, K = k(X, X) + noise I.

    Parameters
    ----------
    Y : array_like, shape (n, D)
        Centred column by column before use.
    latent : array_like, shape (n, q)
    kernel : {"linear", "rbf"}
    noise, variance : float, > 0
        ``variance`` is used by the RBF kernel only.

    Returns
    -------
    float
        Natural log, with the -n D/2 log(2 pi) constant; no prior on the latent points.
    """
    Y = as_data_matrix(Y, name="Y")
    X = as_data_matrix(latent, name="latent")
    if X.shape[0] != Y.shape[0]:
        raise ValueError(f"latent must have one row per row of Y ({Y.shape[0]}), got {X.shape[0]}")
    kernel = check_choice(kernel, KERNELS, "kernel")
    logs = [np.log(check_real(noise, "noise", POSITIVE))]
    if kernel == "rbf":
        logs.append(np.log(check_real(variance, "variance", POSITIVE)))
        prior = -0.5 * float(np.sum(X**2))
    else:
        prior = 0.0
    try:
        value, _ = _objective(np.concatenate([X.ravel(), logs]), Y - Y.mean(axis=0), X.shape[1], kernel)
    except np.linalg.LinAlgError:
        raise ValueError("the kernel matrix is not positive definite (numerically): increase noise") from None
    return -value - prior


def fit_gplvm(Y, q: int, kernel: str = "rbf", max_iter: int = 2000, init=None) -> GPLVMResult:
    """Maximise the GPLVM's log marginal likelihood (plus, for "rbf", the N(0, I) prior on the
    latent points) over the latent points and the kernel's parameters, by L-BFGS-B with the
    analytic gradient.

    The start is deterministic: the latent points ``init`` (by default the PCA scores scaled
    to unit variance), noise a tenth of the average variance of Y's columns, and for "rbf"
    variance that average. The noise is kept above 1e-6 times the average variance.

    Parameters
    ----------
    Y : array_like, shape (n, D)
    q : int
        Latent dimension, 1 <= q < n and q <= D.
    kernel : {"rbf", "linear"}
    max_iter : int
        Largest number of L-BFGS-B iterations.
    init : array_like, shape (n, q), optional
        The latent points to start from (another start than PCA's shows what the optimum
        does not owe to it).

    Returns
    -------
    GPLVMResult
        ``log_likelihood`` is L alone (the prior is not included).

    Notes
    -----
    The cost of an iteration is O(n^3) (a Cholesky factorisation of K): for n up to a few
    hundred. The optimum is local; the PCA start is what makes the result reproducible.
    """
    Y = as_data_matrix(Y, name="Y")
    n, D = Y.shape
    q = check_k(_check_q(q, n), D, name="q", why=f"the data have D={D} variables")
    kernel = check_choice(kernel, KERNELS, "kernel")
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    fit = pca(Y, k=q)
    Yc = Y - fit.mean
    scale = float(np.sum(Yc**2)) / (n * D)
    if scale <= 0.0:
        raise ValueError("Y has no variance (all rows are equal)")
    if init is None:
        start = fit.scores / np.sqrt(fit.eigenvalues)
    else:
        start = as_data_matrix(init, name="init", min_rows=n)
        if start.shape != (n, q):
            raise ValueError(f"init must have shape ({n}, {q}), one latent point per row of Y; got {start.shape}")
    logs = [np.log(0.1 * scale)] + ([np.log(scale)] if kernel == "rbf" else [])
    bounds = [(None, None)] * (n * q) + [(np.log(1e-6 * scale), None)] + [(None, None)] * (len(logs) - 1)
    result = scipy.optimize.minimize(_objective, np.concatenate([start.ravel(), logs]), args=(Yc, q, kernel),
                                     jac=True, method="L-BFGS-B", bounds=bounds,
                                     options={"maxiter": max_iter, "maxfun": 4 * max_iter, "gtol": 1e-8,
                                              "ftol": 1e-14})
    latent = fix_signs(result.x[: n * q].reshape(n, q))
    fitted = np.exp(result.x[n * q:])
    params = {"noise": float(fitted[0])}
    if kernel == "rbf":
        params["variance"] = float(fitted[1])
    read_only(latent)
    return GPLVMResult(latent=latent, kernel=kernel, params=params,
                       log_likelihood=log_marginal_likelihood(Y, latent, kernel, **params), mean=fit.mean,
                       n_iter=int(result.nit), converged=bool(result.success))
