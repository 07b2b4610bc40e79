"""The course's figure style and the plots several notebooks share."""

from __future__ import annotations

import matplotlib
import matplotlib.pyplot as plt
import numpy as np

from ._validation import as_data_matrix, as_vector

__all__ = ["use_style", "scree_plot", "score_scatter"]

PALETTE = ["#1b6ca8", "#d1495b", "#edae49", "#00798c", "#66a182", "#8d6a9f", "#2e4057", "#f28f3b"]


def use_style() -> None:
    """Set the course's matplotlib defaults: readable sizes, a colour-blind friendly cycle,
    fixed figure DPI (so saved figures are identical across machines)."""
    plt.rcParams.update({
        "figure.figsize": (6.4, 4.0),
        "figure.dpi": 100,
        "savefig.dpi": 100,
        "axes.grid": True,
        "grid.alpha": 0.3,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.prop_cycle": matplotlib.cycler(color=PALETTE),
        "font.size": 10,
        "legend.frameon": False,
        "svg.hashsalt": "dimred-teach",
    })


def scree_plot(eigenvalues, ax=None, cumulative: bool = True, title: str = "Scree plot"):
    """Bar chart of the eigenvalues (shape (m,)) with the cumulative proportion of variance
    on a second axis. Returns the main ``Axes``."""
    values = as_vector(eigenvalues, name="eigenvalues")
    if ax is None:
        _, ax = plt.subplots()
    index = np.arange(1, values.size + 1)
    ax.bar(index, values, color=PALETTE[0], alpha=0.8, label="eigenvalue")
    ax.set_xlabel("component")
    ax.set_ylabel("eigenvalue (variance)")
    ax.set_xticks(index)
    ax.set_title(title)
    if cumulative:
        twin = ax.twinx()
        twin.plot(index, np.cumsum(values) / values.sum(), "o-", color=PALETTE[1])
        twin.set_ylim(0, 1.05)
        twin.set_ylabel("cumulative proportion", color=PALETTE[1])
        twin.grid(False)
    return ax


def score_scatter(scores, groups=None, ax=None, components=(0, 1), labels=None, title=None):
    """Scatter plot of two columns of ``scores`` (shape (n, k)), coloured by ``groups``
    (shape (n,), any labels). Returns the ``Axes``."""
    scores = as_data_matrix(scores, name="scores", min_rows=1, min_cols=max(components) + 1)
    if ax is None:
        _, ax = plt.subplots()
    i, j = components
    if groups is None:
        ax.scatter(scores[:, i], scores[:, j], s=14)
    else:
        groups = np.asarray(groups)
        if groups.shape[0] != scores.shape[0]:
            raise ValueError(f"groups must have one label per row of scores ({scores.shape[0]}), got {groups.shape[0]}")
        for colour, group in zip(PALETTE * 4, sorted(set(groups.tolist()), key=str)):
            mask = groups == group
            ax.scatter(scores[mask, i], scores[mask, j], s=14, color=colour, label=str(group))
        ax.legend(title=None, loc="best")
    names = labels or (f"PC{i + 1}", f"PC{j + 1}")
    ax.set_xlabel(names[0])
    ax.set_ylabel(names[1])
    if title:
        ax.set_title(title)
    return ax
