"""Factor analysis: probabilistic PCA with a diagonal noise covariance, fitted by EM.

The model, for a point x in R^d with a latent z in R^q (q < d)::

    z ~ N(0, I_q),    x | z ~ N(W z + mean, Psi),    so    x ~ N(mean, W W' + Psi),

with Psi = diag(psi_1, ..., psi_d) and every psi_j > 0: each variable gets its own noise
variance (its "uniqueness"). With Psi = sigma2 I this is PPCA (:mod:`dimred_teach.ppca`),
which is why :func:`fa_em` can also fit that isotropic case (``isotropic=True``). Unlike
PPCA, factor analysis has no closed form; the EM algorithm of Rubin and Thayer (1982)
(also Ghahramani and Hinton, 1996; Bishop, PRML, section 12.2.4) is used.

Conventions: rows are points (X has shape (n, d)); the likelihood uses the **1/n** sample
covariance S = Xc'Xc / n. W is identifiable only up to a rotation W R (R orthogonal q x q),
the "rotation problem" of factor analysis; every W returned here is put in the canonical
form in which W' Psi^-1 W is diagonal with decreasing entries, each column's
largest-magnitude entry positive.
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
    check_int,
    check_k,
    check_real,
    check_seed,
    require_finite_result,
)
from .linalg import fix_signs
from .ppca import _log_likelihood_from_moments, ppca_mle

__all__ = ["FAResult", "fa_em", "log_likelihood"]


@dataclass(frozen=True)
class FAResult:
    """A factor-analysis model fitted by EM (:func:`fa_em`).

    Attributes
    ----------
    W : ndarray, shape (d, q)
        Loadings in canonical form (W' Psi^-1 W diagonal, decreasing, signs fixed).
    psi : ndarray, shape (d,)
        The noise variances (diagonal of Psi), all > 0. Equal entries when ``isotropic``.
    mean : ndarray, shape (d,)
        Column means of X (the maximum-likelihood mean).
    log_likelihood : float
        Total log-likelihood of the training data (sum over its n rows, natural log, with
        the -n d/2 log(2 pi) constant) at the last iterate.
    n_samples : int
        n, the number of rows fitted.
    n_iter : int
        Number of EM updates performed.
    converged : bool
        Whether the increase of the log-likelihood fell below ``tol`` times its magnitude.
    history : ndarray, shape (n_iter + 1,)
        history[t] is the log-likelihood after t updates; EM never decreases it.
    """

    W: np.ndarray
    psi: np.ndarray
    mean: np.ndarray
    log_likelihood: float
    n_samples: int
    n_iter: int
    converged: bool
    history: np.ndarray

    def covariance(self) -> np.ndarray:
        """The marginal covariance C = W W' + diag(psi), shape (d, d)."""
        return self.W @ self.W.T + np.diag(self.psi)


def _log_likelihood_centred(R: np.ndarray, W: np.ndarray, psi: np.ndarray) -> float:
    """Log-likelihood of the rows of the residuals R (n, d) under N(0, W W' + diag(psi)).

    Scaling each column by psi_j^(-1/2) turns C into W~ W~' + I with W~ = Psi^(-1/2) W, and
    log|C| = sum_j log psi_j + log|W~ W~' + I|: the PPCA formula with sigma2 = 1 applies to
    the scaled data, in O(n d q).
    """
    n, d = R.shape
    root = np.sqrt(psi)
    scaled_R, scaled_W = R / root, W / root[:, None]
    RW = scaled_R @ scaled_W
    value = _log_likelihood_from_moments(n, d, float(np.sum(scaled_R**2)) / n, RW.T @ RW / n,
                                         scaled_W.T @ scaled_W, 1.0) - 0.5 * n * float(np.sum(np.log(psi)))
    require_finite_result(value, "the log-likelihood", "some psi is too small for the residuals of X")
    return value


def log_likelihood(X, W, mean, psi) -> float:
    """Total log-likelihood of the rows of X under x ~ N(mean, W W' + diag(psi)).

    Parameters
    ----------
    X : array_like, shape (n, d)
    W : array_like, shape (d, q)
    mean : array_like, shape (d,)
    psi : array_like, shape (d,), every entry > 0

    Returns
    -------
    float
        sum_i log N(x_i | mean, C), natural log; equals
        ``scipy.stats.multivariate_normal(mean, C).logpdf(X).sum()``, computed in O(n d q).
    """
    X = as_data_matrix(X, min_rows=1)
    d = X.shape[1]
    W = as_data_matrix(W, name="W", min_rows=1)
    if W.shape[0] != d:
        raise ValueError(f"X has {d} columns but W has {W.shape[0]} rows; they must match "
                         "(W maps the latent space to the columns of X)")
    mean = as_vector(mean, name="mean", length=d)
    psi = as_vector(psi, name="psi", length=d)
    if np.any(psi <= 0):
        raise ValueError(f"psi must be positive (they are noise variances); its smallest entry is {psi.min():g}")
    return _log_likelihood_centred(X - mean, W, psi)


def _canonical(W: np.ndarray, psi: np.ndarray) -> np.ndarray:
    """The rotation W R for which W' Psi^-1 W is diagonal and decreasing, signs fixed."""
    _, _, Vt = np.linalg.svd(W / np.sqrt(psi)[:, None], full_matrices=False)
    return fix_signs(W @ Vt.T)


PSI_FLOOR = 1e-9
"""Smallest noise variance allowed during EM, relative to the variable's variance: a
"Heywood case" (a variable explained entirely by the factors) otherwise drives its psi
to 0 and the likelihood towards infinity."""


def fa_em(X, q: int, seed: int | None = None, max_iter: int = 20000, tol: float = 1e-12,
          isotropic: bool = False) -> FAResult:
    """Maximum-likelihood factor analysis by EM (Rubin and Thayer, 1982).

    The mean is fixed at the column means. With S = Xc'Xc / n and the current W, Psi, the
    E step needs only the q x q matrix G = (I + W' Psi^-1 W)^-1 and B = G W' Psi^-1
    (shape (q, d): E[z | x] = B (x - mean)); the M step is::

        W_new   = S B' (G + B S B')^-1
        Psi_new = diag(S - W_new B S)           (isotropic: its average times I)

    S B' = Xc'(Xc B') / n comes from the data, so an update costs O(n d q).

    Parameters
    ----------
    X : array_like, shape (n, d)
        Every column must vary (a constant column has noise variance 0).
    q : int
        Number of factors, 1 <= q < d and q < n.
    seed : int, optional
        None (the default) starts from the closed-form PPCA fit (:func:`ppca_mle`), psi_j
        its sigma2; an integer starts from a seeded random W with psi the column variances.
    max_iter : int
        Largest number of updates.
    tol : float
        Stop when an update raises the log-likelihood by less than tol * |log-likelihood|.
    isotropic : bool
        Constrain Psi = sigma2 I: the same EM then fits PPCA.

    Returns
    -------
    FAResult
    """
    X = as_data_matrix(X)
    n, d = X.shape
    q = check_k(q, min(d - 1, n - 1), name="q", why=f"the number of factors must be below d={d} and below n={n}")
    if seed is not None:
        seed = check_seed(seed)
    max_iter = check_int(max_iter, "max_iter", minimum=1)
    tol = check_real(tol, "tol", POSITIVE)
    isotropic = check_bool(isotropic, "isotropic")
    mean = X.mean(axis=0)
    Xc = X - mean
    variances = np.sum(Xc**2, axis=0) / n
    if np.any(variances <= 1e-12 * variances.max(initial=0.0)):
        raise ValueError("X has a column with no variance (constant); factor analysis needs every psi > 0, "
                         "so drop the constant columns")
    floor = PSI_FLOOR * (variances.mean() if isotropic else variances)
    if seed is None:
        start = ppca_mle(X, q)
        W, psi = np.array(start.W), np.full(d, start.sigma2)
    else:
        W = np.random.default_rng(seed).standard_normal((d, q)) * np.sqrt(variances.mean())
        psi = np.full(d, variances.mean()) if isotropic else variances.copy()
    identity = np.eye(q)
    history: list[float] = []
    converged = False
    for step in range(max_iter + 1):
        history.append(_log_likelihood_centred(Xc, W, psi))
        if step > 0 and history[-1] - history[-2] <= tol * abs(history[-1]):
            converged = True
            break
        if step == max_iter:
            break
        scaled_W = W / psi[:, None]  # Psi^-1 W
        G = np.linalg.inv(identity + W.T @ scaled_W)
        B = G @ scaled_W.T  # (q, d)
        SBt = Xc.T @ (Xc @ B.T) / n  # (d, q)
        W = np.linalg.solve((G + B @ SBt).T, SBt.T).T
        psi = variances - np.sum(W * SBt, axis=1)  # diag(S) - diag(W_new B S)
        psi = np.maximum(np.full(d, psi.mean()) if isotropic else psi, floor)
    history_array = np.array(history)
    W = _canonical(W, psi)
    read_only(W, psi, mean, history_array)
    return FAResult(W=W, psi=psi, mean=mean, log_likelihood=history[-1], n_samples=n, n_iter=len(history) - 1,
                    converged=converged, history=history_array)
