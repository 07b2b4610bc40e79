"""Biplots: the points and the variables of a data matrix in one picture.

The SVD of the centred data, Xc = U D V', splits into two factors for every alpha in
[0, 1] (Oxford notes, section 1.3, eq. 1.17-1.18):

    scores   G = U D^(1 - alpha)   (one row per point)
    loadings H = V D^alpha         (one row per variable)

so that Xc = G H' and each entry x_ij is the dot product of score i and loading j.
alpha = 0 (the unscaled biplot) keeps the principal component scores U D, so distances
between the score points are the distances between the observations. alpha = 1 (the
scaled biplot) gives scores U with covariance I / (n - 1) and loadings V D with
H H' = (n - 1) S, so the cosine of the angle between two loading arrows is the
correlation of the two variables. A biplot draws the first two columns of G and H.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import matplotlib.axes
import matplotlib.pyplot as plt
import numpy as np

from ._read_only import read_only
from ._validation import Interval, as_data_matrix, check_bool, check_k, check_real
from .pca import _centred, _signed_svd
from .plotting import PALETTE, label_points, score_scatter

__all__ = ["BiplotCoordinates", "biplot_coordinates", "plot_biplot"]


@dataclass(frozen=True)
class BiplotCoordinates:
    """Scores and loadings of a biplot with scaling ``alpha``, Xc ~ scores @ loadings.T.

    Attributes
    ----------
    scores : ndarray, shape (n, k)
        U_k D_k^(1 - alpha): one row per point.
    loadings : ndarray, shape (p, k)
        V_k D_k^alpha: one row per variable (the arrows of the biplot).
    alpha : float
        The scaling, in [0, 1].
    singular_values : ndarray, shape (k,)
        d_1 >= ... >= d_k > 0, the kept singular values of the centred (scaled) data.
    explained_variance_ratio : ndarray, shape (k,)
        Share of the total variance on each kept component, d_j^2 / sum of all d^2.
    variable_names : tuple of str, length p
        Column names of X (a DataFrame's columns, else "x1", "x2", ...).
    rank : int
        Rank of the centred data: with k = rank, scores @ loadings.T equals it exactly.
    """

    scores: np.ndarray
    loadings: np.ndarray
    alpha: float
    singular_values: np.ndarray
    explained_variance_ratio: np.ndarray
    variable_names: tuple[str, ...]
    rank: int

    @property
    def k(self) -> int:
        """Number of components kept."""
        return self.scores.shape[1]


def biplot_coordinates(X, alpha: float, k: int = 2, scale: bool = False) -> BiplotCoordinates:
    """Biplot scores U D^(1-alpha) and loadings V D^alpha of the centred data.

    Parameters
    ----------
    X : array_like or pandas.DataFrame, shape (n, p)
        Rows are points. A DataFrame's column names label the arrows.
    alpha : float in [0, 1]
        How the singular values are shared between points and variables: 0 puts them
        all on the scores (unscaled biplot), 1 all on the loadings (scaled biplot).
    k : int
        Components kept, 1 <= k <= rank of the centred data (2 for a plot). With
        k = rank, ``scores @ loadings.T`` reproduces the centred data exactly.
    scale : bool
        Standardise the columns first (a biplot of the correlation matrix), as in
        :func:`dimred_teach.pca.pca`.

    Returns
    -------
    BiplotCoordinates

    Notes
    -----
    Convention: the notes' plain SVD factors, with no sqrt(n - 1) factor, so that the
    factorisation Xc = G H' holds with nothing to undo, the alpha = 1 scores have the
    covariance I / (n - 1) the notes derive, and H H' = (n - 1) S. R's ``biplot`` for
    ``prcomp`` works with sdev * sqrt(n) = d * sqrt(n / (n - 1)) in place of d, which
    multiplies the scores by the constant (n / (n - 1))^(-alpha / 2) and the loadings by
    its reciprocal; that only rescales the two sets of axes, and the product, angles,
    cosines and the shape of either cloud are unchanged. The factors come from
    the same signed SVD as :func:`dimred_teach.pca.pca`, so their signs follow the course's sign rule (each
    principal direction's largest-magnitude entry is positive).
    """
    names = tuple(str(c) for c in X.columns) if hasattr(X, "columns") else None
    alpha = check_real(alpha, "alpha", Interval(0.0, 1.0), why="0: unscaled biplot, 1: scaled biplot")
    scale = check_bool(scale, "scale")
    X = as_data_matrix(X)
    n, p = X.shape
    _, _, Xc = _centred(X, scale)
    total = float(np.einsum("ij,ij->", Xc, Xc))
    U, d, V = _signed_svd(Xc, min(n, p))  # the signs of pca()'s components
    tolerance = d[0] * max(n, p) * np.finfo(float).eps
    rank = int(np.sum(d > tolerance))
    if rank == 0:
        raise ValueError("X has no variance (every column is constant), so it has no biplot")
    k = check_k(k, rank, why=f"the centred data has rank {rank}")
    d = d[:k].copy()
    scores = U[:, :k] * d ** (1.0 - alpha)
    loadings = V[:, :k] * d**alpha
    ratio = d**2 / total
    read_only(scores, loadings, d, ratio)
    return BiplotCoordinates(
        scores=scores,
        loadings=loadings,
        alpha=alpha,
        singular_values=d,
        explained_variance_ratio=ratio,
        variable_names=names or tuple(f"x{j + 1}" for j in range(p)),
        rank=rank,
    )


def plot_biplot(coordinates: BiplotCoordinates, groups=None, ax=None, components=(0, 1), title=None):
    """Draw a biplot: the scores as points (coloured by ``groups``) and the loadings as
    labelled arrows from the origin.

    The arrows are multiplied by one common factor so that they span the score cloud
    (angles and relative lengths are unchanged); the top and right axes read the arrows
    in their own units. Both axes use the same scale, so angles on screen are true angles.

    Parameters
    ----------
    coordinates : BiplotCoordinates
        From :func:`biplot_coordinates`.
    groups : array_like, shape (n,), optional
        A label per point (e.g. species), used for the colours and the legend.
    ax : matplotlib Axes, optional
        Where to draw; a new figure if omitted (pass two axes to compare alpha = 0 and 1).
    components : pair of int
        Which two columns to draw (0-based), default the first two.
    title : str, optional
        Default: the scaling, e.g. "alpha = 1 (scaled)".

    Returns
    -------
    matplotlib Axes
    """
    if not isinstance(coordinates, BiplotCoordinates):
        raise TypeError(
            f"coordinates must come from biplot_coordinates(), got {type(coordinates).__name__}"
        )
    k = coordinates.k
    pair = tuple(components) if isinstance(components, (tuple, list)) else ()
    if (len(pair) != 2 or not all(isinstance(c, numbers.Integral) and not isinstance(c, bool) and 0 <= c < k
                                  for c in pair) or pair[0] == pair[1]):
        raise ValueError(f"components must be two different column numbers in 0..{k - 1}, got {components!r}")
    i, j = (int(c) for c in pair)
    n = coordinates.scores.shape[0]
    if groups is not None and np.ndim(groups) != 1 or groups is not None and len(groups) != n:
        raise ValueError(f"groups must have one label per row of the scores ({n}) in a 1-D array, "
                         f"got shape {np.shape(groups)}")
    if ax is not None and not isinstance(ax, matplotlib.axes.Axes):
        raise TypeError(f"ax must be a matplotlib Axes (or None for a new figure), got {type(ax).__name__} {ax!r}")
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title must be a string, got {type(title).__name__}")
    if ax is None:
        _, ax = plt.subplots(figsize=(5.5, 5.5))
    ratio = coordinates.explained_variance_ratio
    labels = (f"component {i + 1} ({100 * ratio[i]:.1f}%)", f"component {j + 1} ({100 * ratio[j]:.1f}%)")
    score_scatter(coordinates.scores, groups=groups, ax=ax, components=(i, j), labels=labels)
    arrows = coordinates.loadings[:, [i, j]]
    reach = np.abs(coordinates.scores[:, [i, j]]).max()
    factor = 0.9 * reach / np.abs(arrows).max()
    for x, y in arrows * factor:
        ax.annotate("", xy=(x, y), xytext=(0, 0),
                    arrowprops={"arrowstyle": "->", "color": PALETTE[6], "lw": 1.2})
    ax.update_datalim(arrows * factor * 1.15)  # room beyond the arrow tips for their labels
    ax.set_aspect("equal", adjustable="datalim")
    label_points(ax, arrows * factor, coordinates.variable_names, directions=arrows, fontsize=9, color=PALETTE[6])
    to_loading = (lambda v: v / factor, lambda v: v * factor)
    ax.secondary_xaxis("top", functions=to_loading).set_xlabel("loadings", color=PALETTE[6])
    ax.secondary_yaxis("right", functions=to_loading)
    kind = {0.0: " (unscaled)", 1.0: " (scaled)"}.get(coordinates.alpha, "")
    ax.set_title(title if title is not None else f"alpha = {coordinates.alpha:g}{kind}")
    return ax
