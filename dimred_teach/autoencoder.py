"""Autoencoders trained by full-batch gradient descent in NumPy: a linear one, whose
decoder learns the PCA subspace, and a small nonlinear one for contrast.

An autoencoder maps a point x (p numbers) to a code z (k numbers) with an encoder and
back to a reconstruction x_hat with a decoder, and is trained to make x_hat close to x.
The WashU notes (file 002, section 6.1) observe that with linear maps and the squared
error it recovers PCA: the best decoder spans the subspace of the first k principal
components (the weights themselves need not be orthonormal, nor the principal
directions).

Conventions: rows are points (X has shape (n, p)); the loss is the mean over points of
the squared reconstruction error, L = (1/n) sum_i ||x_i - x_hat_i||^2 (note 1/n, not the
1/(n - 1) of the course's covariance); every random initialisation takes an explicit seed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from ._results import read_only
from ._validation import POSITIVE, as_data_matrix, as_finite_array, check_int, check_k, check_real, check_seed

__all__ = [
    "finite_difference_gradient",
    "linear_ae_gradients",
    "LinearAutoencoder",
    "train_linear_autoencoder",
    "tanh_ae_gradients",
    "TanhAutoencoder",
    "train_tanh_autoencoder",
]


def finite_difference_gradient(loss: Callable[[np.ndarray], float], W, h: float = 1e-6) -> np.ndarray:
    """Central finite-difference gradient of a scalar ``loss`` at ``W`` (any shape).

    Entry by entry, (loss(W + h E_ij) - loss(W - h E_ij)) / (2 h): error O(h^2), cost two
    loss evaluations per entry. The reference the analytic gradients are tested against.

    ``loss`` must return one finite real number; ``h`` is a positive step.
    """
    if not callable(loss):
        raise TypeError(f"loss must be a function of W returning a number, got {type(loss).__name__}")
    W = as_finite_array(W, "W")
    h = check_real(h, "h", POSITIVE, why="the finite-difference step")
    grad = np.zeros_like(W)
    for index in np.ndindex(W.shape):
        step = np.zeros_like(W)
        step[index] = h
        grad[index] = (_scalar_loss(loss, W + step) - _scalar_loss(loss, W - step)) / (2 * h)
    return grad


def _scalar_loss(loss: Callable, W: np.ndarray) -> float:
    """loss(W) as a float, refusing a vector, a non-number or a non-finite value."""
    value = np.asarray(loss(W))
    if value.ndim != 0:
        raise ValueError(f"loss must return one number, got an array of shape {value.shape}")
    if value.dtype.kind not in "iuf":
        raise TypeError(f"loss must return a real number, got {value!r} of dtype {value.dtype}")
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"loss returned {value} near W; it must be finite there (lower h or check the loss)")
    return value


def _gradient_descent(loss_and_gradients: Callable, params: list[np.ndarray], learning_rate: float,
                      epochs: int) -> tuple[list[np.ndarray], np.ndarray]:
    """Plain gradient descent: params <- params - learning_rate * gradient, ``epochs`` times.

    Returns the final parameters and the loss before every step and after the last one,
    shape (epochs + 1,). Raises when the loss blows up (the learning rate is too large).
    """
    losses = np.empty(epochs + 1)
    for epoch in range(epochs + 1):
        with np.errstate(over="ignore", invalid="ignore"):  # a blow-up is reported below instead
            loss, gradients = loss_and_gradients(params)
        if not np.isfinite(loss) or loss > 1e6 * max(losses[0] if epoch else loss, 1e-12):
            raise ValueError(f"training diverged at epoch {epoch} (loss {loss:.3g}): lower learning_rate "
                             f"(it is {learning_rate}) or rescale X")
        losses[epoch] = loss
        if epoch < epochs:
            params = [w - learning_rate * g for w, g in zip(params, gradients)]
    return params, losses


def linear_ae_gradients(X, encoder, decoder) -> tuple[float, np.ndarray, np.ndarray]:
    """Loss and gradients of the linear autoencoder x_hat = x W_e W_d on data X.

    With Z = X W_e (codes) and R = X - Z W_d (residuals),

        L = ||R||_F^2 / n,   dL/dW_d = -(2/n) Z' R,   dL/dW_e = -(2/n) X' R W_d'.

    Parameters
    ----------
    X : array_like, shape (n, p)
        The data, already centred (the biases of a linear autoencoder only learn the mean).
    encoder : array_like, shape (p, k)
        W_e.
    decoder : array_like, shape (k, p)
        W_d.

    Returns
    -------
    loss : float
    grad_encoder : ndarray, shape (p, k)
    grad_decoder : ndarray, shape (k, p)
    """
    X = as_data_matrix(X, min_rows=1)
    encoder = as_data_matrix(encoder, name="encoder", min_rows=1)
    decoder = as_data_matrix(decoder, name="decoder", min_rows=1)
    n, p = X.shape
    if encoder.shape[0] != p or decoder.shape != (encoder.shape[1], p):
        raise ValueError(f"encoder must have shape (p, k) and decoder (k, p) with p = {p} (the columns of X); "
                         f"got {encoder.shape} and {decoder.shape}")
    return _linear_loss_and_gradients(X, encoder, decoder)


def _linear_loss_and_gradients(X, encoder, decoder):
    n = X.shape[0]
    Z = X @ encoder
    R = X - Z @ decoder
    return float(np.sum(R**2) / n), -(2 / n) * X.T @ (R @ decoder.T), -(2 / n) * Z.T @ R


@dataclass(frozen=True)
class LinearAutoencoder:
    """A trained linear autoencoder: code z = (x - mean) W_e, reconstruction z W_d + mean.

    Attributes
    ----------
    encoder : ndarray, shape (p, k)
        W_e.
    decoder : ndarray, shape (k, p)
        W_d. Its rows span the learned subspace (the PCA subspace once trained).
    mean : ndarray, shape (p,)
        Column means of the training data (the optimal biases reduce to centring).
    losses : ndarray, shape (epochs + 1,)
        Mean squared reconstruction error before each step and after the last.
    learning_rate : float
    seed : int
        Seed of the initial weights.
    """

    encoder: np.ndarray
    decoder: np.ndarray
    mean: np.ndarray
    losses: np.ndarray
    learning_rate: float
    seed: int

    @property
    def k(self) -> int:
        """Size of the code."""
        return self.encoder.shape[1]

    def encode(self, X) -> np.ndarray:
        """Codes of the rows of X (shape (m, p)), shape (m, k)."""
        X = as_data_matrix(X, min_rows=1)
        if X.shape[1] != self.mean.shape[0]:
            raise ValueError(f"X must have {self.mean.shape[0]} columns like the training data, got {X.shape[1]}")
        return (X - self.mean) @ self.encoder

    def decode(self, Z) -> np.ndarray:
        """Reconstructions of codes Z (shape (m, k)), shape (m, p)."""
        Z = as_data_matrix(Z, name="Z", min_rows=1)
        if Z.shape[1] != self.k:
            raise ValueError(f"Z must have {self.k} columns (one per code unit), got {Z.shape[1]}")
        return Z @ self.decoder + self.mean

    def reconstruct(self, X) -> np.ndarray:
        """decode(encode(X)), shape (m, p)."""
        return self.decode(self.encode(X))


def train_linear_autoencoder(X, k: int, learning_rate: float = 0.05, epochs: int = 500, seed: int = 0,
                             init_scale: float = 0.1) -> LinearAutoencoder:
    """Train a linear autoencoder with a k-dimensional code by full-batch gradient descent.

    The data are centred first; the weights start from independent normal entries with
    standard deviation ``init_scale`` (seeded) and take ``epochs`` steps
    W <- W - learning_rate * dL/dW (:func:`linear_ae_gradients`).

    Parameters
    ----------
    X : array_like, shape (n, p)
    k : int
        Code size, 1 <= k <= p (k < p for a reduction).
    learning_rate : float
        Step size. A stable step is below roughly 1 / (largest eigenvalue of the
        covariance); rescale X when its variances are large. Divergence raises.
    epochs : int
        Number of gradient steps (>= 1).
    seed : int
    init_scale : float

    Returns
    -------
    LinearAutoencoder
    """
    X = as_data_matrix(X)
    n, p = X.shape
    k = check_k(k, p, why=f"X has {p} columns")
    learning_rate = check_real(learning_rate, "learning_rate", POSITIVE)
    init_scale = check_real(init_scale, "init_scale", POSITIVE)
    epochs = check_int(epochs, "epochs", minimum=1)
    seed = check_seed(seed)
    mean = X.mean(axis=0)
    Xc = X - mean
    rng = np.random.default_rng(seed)
    params = [init_scale * rng.standard_normal((p, k)), init_scale * rng.standard_normal((k, p))]

    def loss_and_gradients(weights):
        loss, grad_encoder, grad_decoder = _linear_loss_and_gradients(Xc, *weights)
        return loss, [grad_encoder, grad_decoder]

    (encoder, decoder), losses = _gradient_descent(loss_and_gradients, params, learning_rate, epochs)
    read_only(encoder, decoder, mean, losses)
    return LinearAutoencoder(encoder, decoder, mean, losses, learning_rate, seed)


# ---------------------------------------------------------------- nonlinear variant

_TANH_NAMES = ("W1", "b1", "W2", "b2", "W3", "b3", "W4", "b4")


def _tanh_forward(X, params):
    W1, b1, W2, b2, W3, b3, W4, b4 = params
    H1 = np.tanh(X @ W1 + b1)
    Z = H1 @ W2 + b2
    H2 = np.tanh(Z @ W3 + b3)
    return H1, Z, H2, H2 @ W4 + b4


def _tanh_loss_and_gradients(X, params):
    W1, b1, W2, b2, W3, b3, W4, b4 = params
    n = X.shape[0]
    H1, Z, H2, X_hat = _tanh_forward(X, params)
    R = X_hat - X
    loss = float(np.sum(R**2) / n)
    d_out = (2 / n) * R                       # dL/dX_hat
    d_pre2 = (d_out @ W4.T) * (1 - H2**2)     # back through tanh of the decoder
    d_code = d_pre2 @ W3.T
    d_pre1 = (d_code @ W2.T) * (1 - H1**2)    # back through tanh of the encoder
    gradients = [X.T @ d_pre1, d_pre1.sum(axis=0), H1.T @ d_code, d_code.sum(axis=0),
                 Z.T @ d_pre2, d_pre2.sum(axis=0), H2.T @ d_out, d_out.sum(axis=0)]
    return loss, gradients


def tanh_ae_gradients(X, params: dict) -> tuple[float, dict]:
    """Loss and gradients of the tanh autoencoder (see :class:`TanhAutoencoder`).

    Parameters
    ----------
    X : array_like, shape (n, p)
        The (centred) data.
    params : dict
        ``W1`` (p, h), ``b1`` (h,), ``W2`` (h, k), ``b2`` (k,), ``W3`` (k, h), ``b3`` (h,),
        ``W4`` (h, p), ``b4`` (p,).

    Returns
    -------
    loss : float
        (1/n) sum_i ||x_i - x_hat_i||^2.
    gradients : dict
        The same keys and shapes as ``params`` (back-propagation by hand).
    """
    X = as_data_matrix(X, min_rows=1)
    if not isinstance(params, Mapping):
        raise TypeError(f"params must be a dict of the weights {', '.join(_TANH_NAMES)}, got {type(params).__name__}")
    missing = [name for name in _TANH_NAMES if name not in params]
    if missing:
        raise ValueError(f"params is missing {missing}")
    values = [as_finite_array(params[name], f"params[{name!r}]") for name in _TANH_NAMES]
    p = X.shape[1]
    h = values[0].shape[1] if values[0].ndim == 2 else 0
    k = values[2].shape[1] if values[2].ndim == 2 else 0
    expected = [(p, h), (h,), (h, k), (k,), (k, h), (h,), (h, p), (p,)]
    for name, value, shape in zip(_TANH_NAMES, values, expected):
        if value.shape != shape:
            raise ValueError(f"params[{name!r}] must have shape {shape} (p = {p} columns of X, h = {h} hidden "
                             f"units, k = {k} code units), got {value.shape}")
    loss, gradients = _tanh_loss_and_gradients(X, values)
    return loss, dict(zip(_TANH_NAMES, gradients))


@dataclass(frozen=True)
class TanhAutoencoder:
    """A trained nonlinear autoencoder with one tanh hidden layer on each side:

        code          z = tanh((x - mean) W1 + b1) W2 + b2            (k numbers)
        reconstruction  x_hat = tanh(z W3 + b3) W4 + b4 + mean        (p numbers)

    Attributes
    ----------
    params : mapping of ndarray (read-only)
        ``W1`` (p, h), ``b1`` (h,), ``W2`` (h, k), ``b2`` (k,), ``W3`` (k, h), ``b3`` (h,),
        ``W4`` (h, p), ``b4`` (p,).
    mean : ndarray, shape (p,)
    losses : ndarray, shape (epochs + 1,)
    learning_rate : float
    seed : int
    """

    params: MappingProxyType
    mean: np.ndarray
    losses: np.ndarray
    learning_rate: float
    seed: int

    def _weights(self):
        return [self.params[name] for name in _TANH_NAMES]

    def encode(self, X) -> np.ndarray:
        """Codes of the rows of X (shape (m, p)), shape (m, k)."""
        X = as_data_matrix(X, min_rows=1)
        if X.shape[1] != self.mean.shape[0]:
            raise ValueError(f"X must have {self.mean.shape[0]} columns like the training data, got {X.shape[1]}")
        return _tanh_forward(X - self.mean, self._weights())[1]

    def decode(self, Z) -> np.ndarray:
        """Reconstructions of codes Z (shape (m, k)), shape (m, p)."""
        Z = as_data_matrix(Z, name="Z", min_rows=1)
        k = self.params["W3"].shape[0]
        if Z.shape[1] != k:
            raise ValueError(f"Z must have {k} columns (one per code unit), got {Z.shape[1]}")
        return np.tanh(Z @ self.params["W3"] + self.params["b3"]) @ self.params["W4"] + self.params["b4"] + self.mean

    def reconstruct(self, X) -> np.ndarray:
        """decode(encode(X)), shape (m, p)."""
        return self.decode(self.encode(X))


def train_tanh_autoencoder(X, k: int, hidden: int = 16, learning_rate: float = 0.05, epochs: int = 2000,
                           seed: int = 0) -> TanhAutoencoder:
    """Train the tanh autoencoder of :class:`TanhAutoencoder` by full-batch gradient descent.

    The data are centred first; each weight matrix starts from normal entries with
    variance 1 / (its number of rows) (seeded), biases at zero. Unlike the linear case
    the loss is not convex in any useful sense: another seed can end in another local
    minimum.

    Parameters
    ----------
    X : array_like, shape (n, p)
    k : int
        Code size, 1 <= k <= p.
    hidden : int
        Width h of each tanh layer (>= 1).
    learning_rate, epochs, seed : as in :func:`train_linear_autoencoder`.

    Returns
    -------
    TanhAutoencoder
    """
    X = as_data_matrix(X)
    n, p = X.shape
    k = check_k(k, p, why=f"X has {p} columns")
    hidden = check_int(hidden, "hidden", minimum=1)
    learning_rate = check_real(learning_rate, "learning_rate", POSITIVE)
    epochs = check_int(epochs, "epochs", minimum=1)
    seed = check_seed(seed)
    mean = X.mean(axis=0)
    Xc = X - mean
    rng = np.random.default_rng(seed)
    W1, W2, W3, W4 = (rng.standard_normal(shape) / np.sqrt(shape[0])
                      for shape in [(p, hidden), (hidden, k), (k, hidden), (hidden, p)])
    params = [W1, np.zeros(hidden), W2, np.zeros(k), W3, np.zeros(hidden), W4, np.zeros(p)]
    params, losses = _gradient_descent(lambda weights: _tanh_loss_and_gradients(Xc, weights),
                                       params, learning_rate, epochs)
    read_only(mean, losses, *params)
    return TanhAutoencoder(MappingProxyType(dict(zip(_TANH_NAMES, params))), mean, losses, learning_rate, seed)
