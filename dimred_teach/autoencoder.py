"""Autoencoders trained by full-batch gradient descent in NumPy: a linear one, whose
decoder learns the PCA subspace, and a small nonlinear one for contrast.

An autoencoder maps a point x (p numbers) to a code z (k numbers) with an encoder and
back to a reconstruction x_hat with a decoder, and is trained to make x_hat close to x.
The WashU notes (section 6.1) observe that with linear maps and the squared
error it recovers PCA: the best decoder spans the subspace of the first k principal
components (the weights themselves need not be orthonormal, nor the principal
directions).

With a code as large as the input (k >= p, *overcomplete*) an unregularised autoencoder
can simply copy its input. Section 6.3 of the notes lists three regularisers that stop
it, all options of :func:`train_tied_autoencoder` (one tanh layer, tied weights): a
sparsity penalty on the code, denoising (reconstruct clean points from corrupted ones),
and a contractive penalty on the encoder's Jacobian.

Conventions: rows are points (X has shape (n, p)); the loss is the mean over points of
the squared reconstruction error, L = (1/n) sum_i ||x_i - x_hat_i||^2 (note 1/n, not the
1/(n - 1) of the course's covariance); every random initialisation takes an explicit seed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from ._read_only import read_only
from ._validation import (
    NONNEGATIVE,
    POSITIVE,
    as_data_matrix,
    as_finite_array,
    check_int,
    check_real,
    check_seed,
    check_size,
)

__all__ = [
    "finite_difference_gradient",
    "linear_ae_gradients",
    "LinearAutoencoder",
    "train_linear_autoencoder",
    "tanh_ae_gradients",
    "TanhAutoencoder",
    "train_tanh_autoencoder",
    "tied_ae_gradients",
    "TiedAutoencoder",
    "train_tied_autoencoder",
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
                      epochs: int, init_scale: float | None = None) -> tuple[list[np.ndarray], np.ndarray]:
    """Plain gradient descent: params <- params - learning_rate * gradient, ``epochs`` times.

    Returns the final parameters and the loss before every step and after the last one,
    shape (epochs + 1,). Raises when the loss at the starting ``params`` overflows (before any
    step: the starting weights are too large) or the loss blows up later (the step is too large
    for weights of their size). ``init_scale``, the scale of the starting weights where the
    caller takes one, is named in both messages.
    """
    scale = [] if init_scale is None else [f"init_scale (it is {init_scale:g})"]
    losses = np.empty(epochs + 1)
    for epoch in range(epochs + 1):
        with np.errstate(over="ignore", invalid="ignore"):  # a blow-up is reported below instead
            loss, gradients = loss_and_gradients(params)
        if epoch == 0 and not np.isfinite(loss):
            raise ValueError(f"the loss at the starting weights overflows ({loss:.3g}) before any step: lower "
                             f"{' or '.join([*scale, 'rescale X'])}")
        if not np.isfinite(loss) or loss > 1e6 * max(losses[0] if epoch else loss, 1e-12):
            raise ValueError(f"training diverged at epoch {epoch} (loss {loss:.3g}): lower "
                             f"{' or '.join([f'learning_rate (it is {learning_rate})', *scale, 'rescale X'])}")
        losses[epoch] = loss
        if epoch < epochs:
            params = [w - learning_rate * g for w, g in zip(params, gradients)]
    return params, losses


def _descent_settings(learning_rate, epochs, seed) -> tuple[float, int, int]:
    """The checked step size (> 0), number of epochs (>= 1) and seed every trainer takes."""
    epochs = check_int(epochs, "epochs", minimum=1)
    check_size(epochs + 1, f"epochs = {epochs} (one loss is kept per epoch)", "lower epochs")
    return check_real(learning_rate, "learning_rate", POSITIVE), epochs, check_seed(seed)


def _penalty_weights(sparsity, contraction) -> tuple[float, float]:
    """The checked weights (>= 0) of the sparse and contractive penalties."""
    return (check_real(sparsity, "sparsity", NONNEGATIVE, why="the weight of the (smoothed) L1 penalty on the code"),
            check_real(contraction, "contraction", NONNEGATIVE, why="the weight of the contractive penalty"))


def _points(X, p: int, name: str = "X") -> np.ndarray:
    """The rows of X (shape (m, p)) as a float array, refusing another number of columns."""
    X = as_data_matrix(X, name=name, min_rows=1)
    if X.shape[1] != p:
        what = "one per code unit" if name == "Z" else "like the training data"
        raise ValueError(f"{name} must have {p} columns ({what}), got {X.shape[1]}")
    return X


def _named_params(params, names: tuple[str, ...], expected_shapes) -> list[np.ndarray]:
    """The arrays ``params[name]`` for ``names``, checked to be finite numbers of the shapes
    ``expected_shapes(values)`` returns (with a reason, e.g. the sizes p, h, k)."""
    if not isinstance(params, Mapping):
        raise TypeError(f"params must be a dict of the weights {', '.join(names)}, got {type(params).__name__}")
    missing = [name for name in names if name not in params]
    if missing:
        raise ValueError(f"params is missing {missing}")
    values = [as_finite_array(params[name], f"params[{name!r}]") for name in names]
    shapes, sizes = expected_shapes(values)
    for name, value, shape in zip(names, values, shapes):
        if value.shape != shape:
            raise ValueError(f"params[{name!r}] must have shape {shape} ({sizes}), got {value.shape}")
    return values


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
        return (_points(X, self.mean.shape[0]) - self.mean) @ self.encoder

    def decode(self, Z) -> np.ndarray:
        """Reconstructions of codes Z (shape (m, k)), shape (m, p)."""
        return _points(Z, self.k, "Z") @ self.decoder + self.mean

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
        Code size, k >= 1: k < p is undercomplete (a reduction); k >= p is overcomplete,
        and then the autoencoder learns to copy X (W_e W_d tends to the identity).
    learning_rate : float
        Step size. A stable step is below roughly 1 / (largest eigenvalue of the
        covariance); rescale X when its variances are large. Divergence raises.
    epochs : int
        Number of gradient steps (>= 1).
    seed : int
    init_scale : float
        Standard deviation of the starting weights, > 0. One so large that the loss at
        the start overflows raises, naming it.

    Returns
    -------
    LinearAutoencoder
    """
    X = as_data_matrix(X)
    n, p = X.shape
    k = check_int(k, "k", minimum=1)
    check_size(2 * p * k, f"the weights of k = {k} hidden units times p = {p} inputs", "lower k")
    init_scale = check_real(init_scale, "init_scale", POSITIVE)
    learning_rate, epochs, seed = _descent_settings(learning_rate, epochs, seed)
    mean = X.mean(axis=0)
    Xc = X - mean
    rng = np.random.default_rng(seed)
    params = [init_scale * rng.standard_normal((p, k)), init_scale * rng.standard_normal((k, p))]

    def loss_and_gradients(weights):
        loss, grad_encoder, grad_decoder = _linear_loss_and_gradients(Xc, *weights)
        return loss, [grad_encoder, grad_decoder]

    (encoder, decoder), losses = _gradient_descent(loss_and_gradients, params, learning_rate, epochs, init_scale)
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
    p = X.shape[1]

    def expected_shapes(values):
        h = values[0].shape[1] if values[0].ndim == 2 else 0
        k = values[2].shape[1] if values[2].ndim == 2 else 0
        return ([(p, h), (h,), (h, k), (k,), (k, h), (h,), (h, p), (p,)],
                f"p = {p} columns of X, h = {h} hidden units, k = {k} code units")

    values = _named_params(params, _TANH_NAMES, expected_shapes)
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
        return _tanh_forward(_points(X, self.mean.shape[0]) - self.mean, self._weights())[1]

    def decode(self, Z) -> np.ndarray:
        """Reconstructions of codes Z (shape (m, k)), shape (m, p)."""
        Z = _points(Z, self.params["W3"].shape[0], "Z")
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
        Code size, k >= 1 (k >= p is overcomplete: see :func:`train_tied_autoencoder`).
    hidden : int
        Width h of each tanh layer (>= 1).
    learning_rate, epochs, seed : as in :func:`train_linear_autoencoder`.

    Returns
    -------
    TanhAutoencoder
    """
    X = as_data_matrix(X)
    n, p = X.shape
    k = check_int(k, "k", minimum=1)
    hidden = check_int(hidden, "hidden", minimum=1)
    check_size(2 * hidden * (p + k) + n * hidden, f"the weights and activations of hidden = {hidden} units "
               f"between p = {p} inputs and k = {k} codes, for n = {n} rows", "lower hidden or k")
    learning_rate, epochs, seed = _descent_settings(learning_rate, epochs, seed)
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


# ---------------------------------------------------------------- regularised (tied) variant

_TIED_NAMES = ("W", "b", "c")

SPARSITY_SMOOTHING = 0.05
"""The sparse penalty is the smoothed L1 norm sum_ij (sqrt(Z_ij^2 + eps^2) - eps) with this eps:
|z| away from 0, z^2 / (2 eps) near it. Plain |z| makes gradient descent with a fixed step
oscillate around codes of 0, and those oscillations amplify rounding differences, so the
trained model would depend on the machine's BLAS and SIMD; the smoothed penalty converges."""


def _tied_loss_and_gradients(X_in, target, params, sparsity, contraction):
    W, b, c = params
    n = X_in.shape[0]
    Z = np.tanh(X_in @ W + b)
    slope = 1 - Z**2                          # tanh'(a) = 1 - tanh(a)^2, shape (n, m)
    R = Z @ W.T + c - target
    column_norms = np.sum(W**2, axis=0)       # ||W_:j||^2, shape (m,)
    jacobian_norms = slope**2 @ column_norms  # ||dz/dx||_F^2 of every point, shape (n,)
    smooth_abs = np.sqrt(Z**2 + SPARSITY_SMOOTHING**2)  # the smoothed |Z|, plus eps
    loss = float((np.sum(R**2) + sparsity * np.sum(smooth_abs - SPARSITY_SMOOTHING)
                  + contraction * np.sum(jacobian_norms)) / n)
    d_out = (2 / n) * R                       # dL/dX_hat
    d_code = d_out @ W + (sparsity / n) * Z / smooth_abs - (4 * contraction / n) * slope * Z * column_norms
    d_pre = d_code * slope                    # back through the tanh
    grad_W = (d_out.T @ Z                     # W as the decoder
              + X_in.T @ d_pre                # W as the encoder
              + (2 * contraction / n) * W * np.sum(slope**2, axis=0))  # W inside ||dz/dx||^2
    return loss, [grad_W, d_pre.sum(axis=0), d_out.sum(axis=0)]


def tied_ae_gradients(X, params: dict, target=None, sparsity: float = 0.0,
                      contraction: float = 0.0) -> tuple[float, dict]:
    """Loss and gradients of the tied autoencoder of :class:`TiedAutoencoder`.

    With Z = tanh(X W + b) (codes), X_hat = Z W' + c and S = 1 - Z**2 (the slopes of the
    tanh), the loss adds to the mean squared error two penalties of section 6.3 of the
    notes:

        L = (1/n) [ ||X_hat - T||_F^2 + sparsity * sum_ij (sqrt(Z_ij^2 + eps^2) - eps)
                    + contraction * sum_i ||dz_i/dx_i||_F^2 ],

    where eps = :data:`SPARSITY_SMOOTHING` (a smoothed L1 norm), T is ``target`` (X itself
    by default) and, for one point, dz_j/dx = S_j W_:j,
    so ||dz/dx||_F^2 = sum_j S_j^2 ||W_:j||^2. A denoising autoencoder passes corrupted
    points as X and the clean ones as ``target``.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Inputs (centred; corrupted ones for denoising).
    params : dict
        ``W`` (p, m), ``b`` (m,), ``c`` (p,).
    target : array_like, shape (n, p), optional
        What the reconstructions should match; X when omitted.
    sparsity, contraction : float
        Weights (>= 0) of the smoothed L1 penalty on the codes and of the contractive penalty.

    Returns
    -------
    loss : float
    gradients : dict
        The same keys and shapes as ``params``.
    """
    X = as_data_matrix(X, min_rows=1)
    n, p = X.shape
    target = X if target is None else as_data_matrix(target, name="target", min_rows=1)
    if target.shape != X.shape:
        raise ValueError(f"target must have the shape of X, {X.shape}, got {target.shape}")
    sparsity, contraction = _penalty_weights(sparsity, contraction)

    def expected_shapes(values):
        m = values[0].shape[1] if values[0].ndim == 2 else 0
        return [(p, m), (m,), (p,)], f"p = {p} columns of X, m = {m} code units"

    values = _named_params(params, _TIED_NAMES, expected_shapes)
    loss, gradients = _tied_loss_and_gradients(X, target, values, sparsity, contraction)
    return loss, dict(zip(_TIED_NAMES, gradients))


@dataclass(frozen=True)
class TiedAutoencoder:
    """A trained one-layer autoencoder with tied weights (the decoder is the encoder's
    transpose), the classic setting of sparse, denoising and contractive autoencoders:

        code            z = tanh((x - mean) W + b)          (m numbers; m > p is overcomplete)
        reconstruction  x_hat = z W' + c + mean             (p numbers)

    Attributes
    ----------
    params : mapping of ndarray (read-only)
        ``W`` (p, m), ``b`` (m,), ``c`` (p,).
    mean : ndarray, shape (p,)
    losses : ndarray, shape (epochs + 1,)
        The training loss (with its penalties) before each step and after the last.
    learning_rate : float
    seed : int
        Seed of the initial weights and of the corruption.
    sparsity, noise, contraction : float
        The regularisation it was trained with (see :func:`train_tied_autoencoder`).
    """

    params: MappingProxyType
    mean: np.ndarray
    losses: np.ndarray
    learning_rate: float
    seed: int
    sparsity: float
    noise: float
    contraction: float

    def encode(self, X) -> np.ndarray:
        """Codes of the rows of X (shape (n, p)), shape (n, m)."""
        return np.tanh((_points(X, self.mean.shape[0]) - self.mean) @ self.params["W"] + self.params["b"])

    def decode(self, Z) -> np.ndarray:
        """Reconstructions of codes Z (shape (n, m)), shape (n, p)."""
        return _points(Z, self.params["W"].shape[1], "Z") @ self.params["W"].T + self.params["c"] + self.mean

    def reconstruct(self, X) -> np.ndarray:
        """decode(encode(X)), shape (n, p)."""
        return self.decode(self.encode(X))

    def jacobian_norms(self, X) -> np.ndarray:
        """||dz/dx||_F^2 at each row of X (shape (n, p)): sum_j (1 - z_j^2)^2 ||W_:j||^2, shape (n,)."""
        return (1 - self.encode(X) ** 2) ** 2 @ np.sum(self.params["W"] ** 2, axis=0)


def train_tied_autoencoder(X, m: int, sparsity: float = 0.0, noise: float = 0.0, contraction: float = 0.0,
                           copies: int = 5, learning_rate: float = 0.05, epochs: int = 3000,
                           seed: int = 0) -> TiedAutoencoder:
    """Train the tied autoencoder of :class:`TiedAutoencoder`, optionally regularised.

    The data are centred first; W starts from normal entries with variance 1 / p
    (seeded), b and c at zero; full-batch gradient descent on the loss of
    :func:`tied_ae_gradients`. With ``noise`` > 0 it is a denoising autoencoder: each
    training point is repeated ``copies`` times, each copy corrupted once, before
    training, by independent normal noise of standard deviation ``noise`` (drawn from
    the same seeded generator), and the loss asks for the clean point back.

    Parameters
    ----------
    X : array_like, shape (n, p)
    m : int
        Code size (>= 1); m > p is overcomplete.
    sparsity : float
        Weight (>= 0) of the smoothed L1 penalty on the codes (sparse autoencoder; see
        :data:`SPARSITY_SMOOTHING`).
    noise : float
        Standard deviation (>= 0, in the units of X) of the corruption (denoising autoencoder).
    contraction : float
        Weight (>= 0) of the penalty (1/n) sum ||dz/dx||_F^2 (contractive autoencoder).
    copies : int
        Corrupted copies of each point (>= 1); used only when ``noise`` > 0.
    learning_rate, epochs, seed : as in :func:`train_linear_autoencoder`.

    Returns
    -------
    TiedAutoencoder
    """
    X = as_data_matrix(X)
    n, p = X.shape
    m = check_int(m, "m", minimum=1)
    sparsity, contraction = _penalty_weights(sparsity, contraction)
    noise = check_real(noise, "noise", NONNEGATIVE, why="the standard deviation of the corruption")
    copies = check_int(copies, "copies", minimum=1)
    learning_rate, epochs, seed = _descent_settings(learning_rate, epochs, seed)
    rows = n * copies if noise > 0 else n
    check_size(rows * (p + m), f"{rows} training rows (n = {n} times copies) times p + m = {p + m}",
               advice="lower copies or m")
    mean = X.mean(axis=0)
    target = X - mean
    rng = np.random.default_rng(seed)
    params = [rng.standard_normal((p, m)) / np.sqrt(p), np.zeros(m), np.zeros(p)]
    X_in = target
    if noise > 0:
        target = np.tile(target, (copies, 1))
        X_in = target + noise * rng.standard_normal(target.shape)
    params, losses = _gradient_descent(
        lambda weights: _tied_loss_and_gradients(X_in, target, weights, sparsity, contraction),
        params, learning_rate, epochs)
    read_only(mean, losses, *params)
    return TiedAutoencoder(MappingProxyType(dict(zip(_TIED_NAMES, params))), mean, losses, learning_rate, seed,
                           sparsity, noise, contraction)
