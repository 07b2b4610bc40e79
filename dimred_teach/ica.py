"""Independent component analysis by FastICA (Hyvarinen, 1999): whitening, then the
rotation that makes the components as non-Gaussian as possible.

The model: each row x of X mixes k independent, non-Gaussian sources s linearly,
x = A s + mean (A, shape (d, k), the mixing matrix). After whitening (PCA scaled to unit
variances, :func:`dimred_teach.kernel.whiten`), the sources are an orthogonal rotation of
the whitened data, and by the central limit theorem a mixture is "more Gaussian" than its
parts: FastICA finds the rotation whose components maximise an approximation of
negentropy, E G(y) compared with E G(nu) for a standard normal nu.

Conventions: rows are points. Sources are determined only up to order, sign and scale;
here each has sample variance 1 (divisor n - 1), they come in decreasing order of their
non-Gaussianity (the logcosh negentropy approximation), and each column of the mixing
matrix has its largest-magnitude entry positive.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._read_only import read_only
from ._validation import POSITIVE, as_data_matrix, check_choice, check_int, check_k, check_real, check_seed
from .kernel import whiten
from .linalg import fix_signs, order_with_ties

__all__ = ["ICAResult", "fastica", "negentropy", "NONLINEARITIES"]


def _logcosh(Y: np.ndarray):
    """g(y) = tanh(y) (the derivative of G(y) = log cosh y) and the column means of g'(y)."""
    g = np.tanh(Y)
    return g, np.mean(1.0 - g**2, axis=0)


def _cube(Y: np.ndarray):
    """g(y) = y^3 (G(y) = y^4 / 4: kurtosis) and the column means of g'(y) = 3 y^2."""
    return Y**3, np.mean(3.0 * Y**2, axis=0)


NONLINEARITIES = {"logcosh": _logcosh, "cube": _cube}
"""The contrast derivatives g of FastICA by name: "logcosh" (robust, the default) and "cube"."""

_NODES, _WEIGHTS = np.polynomial.hermite_e.hermegauss(60)
_LOGCOSH_GAUSSIAN = float(np.sum(_WEIGHTS * np.log(np.cosh(_NODES))) / np.sqrt(2.0 * np.pi))
"""E log cosh(nu) for nu ~ N(0, 1), by Gauss-Hermite quadrature (about 0.3746)."""


def negentropy(Y) -> np.ndarray:
    """The negentropy approximation (E log cosh y - E log cosh nu)^2 of each column of Y.

    Parameters
    ----------
    Y : array_like, shape (n, k)
        Columns standardised to mean 0 and variance 1 (as ICA's sources are).

    Returns
    -------
    ndarray, shape (k,)
        0 for a Gaussian column (up to sampling noise), larger the less Gaussian it is.
    """
    Y = as_data_matrix(Y, name="Y")
    return (np.mean(np.log(np.cosh(Y)), axis=0) - _LOGCOSH_GAUSSIAN) ** 2


@dataclass(frozen=True)
class ICAResult:
    """Independent components found by :func:`fastica`.

    Attributes
    ----------
    sources : ndarray, shape (n, k)
        The estimated sources, columns of mean 0 and variance 1 (divisor n - 1), in
        decreasing order of :func:`negentropy`.
    mixing : ndarray, shape (d, k)
        A with X - mean ~ sources @ A' (exactly so when k = d).
    unmixing : ndarray, shape (k, d)
        sources = (X - mean) @ unmixing'.
    mean : ndarray, shape (d,)
    n_iter : int
        Fixed-point iterations performed.
    converged : bool
        Whether the rotation stopped changing (to ``tol``) within ``max_iter``.
    """

    sources: np.ndarray
    mixing: np.ndarray
    unmixing: np.ndarray
    mean: np.ndarray
    n_iter: int
    converged: bool

    def transform(self, Y) -> np.ndarray:
        """The sources of new points Y (shape (m, d)), shape (m, k)."""
        Y = as_data_matrix(Y, name="Y", min_rows=1)
        if Y.shape[1] != self.mean.shape[0]:
            raise ValueError(f"Y must have {self.mean.shape[0]} columns like the fitted data, got {Y.shape[1]}")
        return (Y - self.mean) @ self.unmixing.T


def _symmetric_decorrelation(W: np.ndarray) -> np.ndarray:
    """(W W')^(-1/2) W: the orthogonal matrix closest to W (shape (k, k))."""
    U, _, Vt = np.linalg.svd(W)
    return U @ Vt


def fastica(X, k: int | None = None, fun: str = "logcosh", seed: int = 0, max_iter: int = 1000,
            tol: float = 1e-10) -> ICAResult:
    """FastICA with the symmetric (parallel) fixed point.

    Whiten X to Z (shape (n, k): its first k principal components scaled to variance 1),
    start from a seeded random orthogonal k x k matrix W and repeat, with Y = Z W'::

        W <- g(Y)' Z / n - diag(mean g'(Y)) W,      then   W <- (W W')^(-1/2) W

    until max_j |1 - |<w_j, w_j^old>|| < tol. The sources are Z W'.

    Parameters
    ----------
    X : array_like, shape (n, d)
        n > d, and the centred columns linearly independent (whitening divides by every
        principal standard deviation).
    k : int, optional
        Number of sources, 1 <= k <= d (default d); the first k principal components
        are unmixed.
    fun : {"logcosh", "cube"}
        The non-linearity g: tanh(y) (G = log cosh) or y^3 (G = y^4/4, kurtosis).
    seed : int
        Seed of the random starting rotation.
    max_iter : int
    tol : float

    Returns
    -------
    ICAResult
    """
    X = as_data_matrix(X)
    n, d = X.shape
    k = d if k is None else check_k(k, d, why=f"there are at most d={d} sources")
    fun = check_choice(fun, tuple(NONLINEARITIES), "fun")
    seed = check_seed(seed)
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    tol = check_real(tol, "tol", POSITIVE)
    white = whiten(X)
    Z = white.whitened[:, :k]
    nonlinearity = NONLINEARITIES[fun]
    W = _symmetric_decorrelation(np.random.default_rng(seed).standard_normal((k, k)))
    converged = False
    for n_iter in range(1, max_iter + 1):  # noqa: B007  (n_iter is reported after the loop)
        g, mean_derivative = nonlinearity(Z @ W.T)
        W_new = _symmetric_decorrelation(g.T @ Z / n - mean_derivative[:, None] * W)
        change = float(np.max(np.abs(np.abs(np.sum(W_new * W, axis=1)) - 1.0)))
        W = W_new
        if change < tol:
            converged = True
            break
    unmixing = W @ white.matrix[:, :k].T  # (k, d)
    sources = (X - white.mean) @ unmixing.T
    mixing = (X - white.mean).T @ sources / (n - 1)  # least squares: sources'sources = (n - 1) I
    mixing, sources, unmixing_t = fix_signs(mixing, sources, unmixing.T)
    order = order_with_ties(negentropy(sources))
    mixing, sources, unmixing = mixing[:, order], sources[:, order], unmixing_t[:, order].T
    read_only(mixing, sources, unmixing)
    return ICAResult(sources=sources, mixing=mixing, unmixing=unmixing, mean=white.mean, n_iter=n_iter,
                     converged=converged)
