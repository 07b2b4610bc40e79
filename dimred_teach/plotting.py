"""The course's figure style and the plots several notebooks share."""

from __future__ import annotations

import matplotlib
import numpy as np

from ._validation import as_data_matrix, as_vector

__all__ = ["use_style", "scree_plot", "score_scatter", "shepard_diagram", "procrustes_overlay", "image_grid",
           "label_points"]

PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"]
"""The Okabe-Ito colour-blind safe palette; index 6 (black) is for annotations such as biplot arrows."""


def use_style() -> None:
    """Set the course's matplotlib defaults: readable sizes, a colour-blind friendly cycle,
    fixed figure DPI (so saved figures are identical across machines)."""
    matplotlib.rcParams.update({
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


def _subplots(*args, **kwargs):
    """``matplotlib.pyplot.subplots``. This module imports pyplot at its first figure, not when it
    is imported, so that :func:`use_style` (the set-up cell of every notebook, and so of every
    grading kernel) costs no pyplot import, about 0.2 s of CPU, in a notebook that draws nothing."""
    import matplotlib.pyplot as plt

    return plt.subplots(*args, **kwargs)


def scree_plot(eigenvalues, ax=None, cumulative: bool = True, title: str = "Scree plot"):
    """Bar chart of the eigenvalues (shape (m,)) with the cumulative proportion of variance
    on a second axis. Returns the main ``Axes``."""
    values = as_vector(eigenvalues, name="eigenvalues")
    if ax is None:
        _, ax = _subplots()
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
        _, ax = _subplots()
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


def shepard_diagram(D, Z, ax=None, fit: str = "identity", title: str = "Shepard diagram"):
    """Embedded distances ||z_i - z_j|| against dissimilarities D_ij, one dot per pair i < j.

    Parameters
    ----------
    D : array_like, shape (n, n)
        Dissimilarities.
    Z : array_like, shape (n, k)
        Configuration (rows are points).
    fit : {"identity", "isotonic", None}
        Reference drawn over the dots: the line d = D (what metric MDS aims at) or the
        increasing step function of non-metric MDS (:func:`dimred_teach.mds.disparities`).

    Returns the ``Axes``.
    """
    from . import mds  # plotting is imported by every notebook; mds only when needed
    from ._validation import as_distance_matrix, check_choice

    fit = check_choice(fit, ("identity", "isotonic", None), "fit")
    D = as_distance_matrix(D, name="D")
    distances = np.sqrt(mds.squared_distances(Z))
    if distances.shape != D.shape:
        raise ValueError(f"Z must have one row per point of D ({D.shape[0]}), got {distances.shape[0]}")
    fitted = mds.disparities(D, Z) if fit == "isotonic" else None
    rows, cols = np.triu_indices(D.shape[0], k=1)
    if ax is None:
        _, ax = _subplots()
    ax.scatter(D[rows, cols], distances[rows, cols], s=10, alpha=0.6, color=PALETTE[0], label="pairs")
    if fit == "identity":
        top = max(D.max(), distances.max())
        ax.plot([0, top], [0, top], color=PALETTE[1], label="d = D")
    elif fit == "isotonic":
        order = np.argsort(D[rows, cols], kind="stable")
        ax.step(D[rows, cols][order], fitted[rows, cols][order], where="post", color=PALETTE[1],
                label="increasing fit g(D)")
    ax.set_xlabel("dissimilarity $D_{ij}$")
    ax.set_ylabel(r"embedded distance $\|z_i - z_j\|$")
    ax.set_title(title)
    ax.legend(loc="upper left")
    return ax


def procrustes_overlay(A, aligned, labels=None, ax=None, title: str = "Procrustes overlay",
                       names: tuple[str, str] = ("target A", "aligned B")):
    """Two configurations in the plane, shape (n, 2) each: A (dots), ``aligned`` (crosses,
    e.g. ``procrustes(A, B).aligned``) and a segment from each point to its partner.
    ``labels`` (n strings) annotate the points of A; ``names`` are the legend entries.
    Returns the ``Axes``."""
    A = as_data_matrix(A, name="A", min_cols=2)
    aligned = as_data_matrix(aligned, name="aligned", min_cols=2)
    if A.shape != aligned.shape or A.shape[1] != 2:
        raise ValueError(f"A and aligned must both have shape (n, 2), got {A.shape} and {aligned.shape}")
    if ax is None:
        _, ax = _subplots()
    for start, end in zip(A, aligned):
        ax.plot([start[0], end[0]], [start[1], end[1]], color="0.6", linewidth=0.8)
    ax.scatter(A[:, 0], A[:, 1], s=18, color=PALETTE[0], label=names[0])
    ax.scatter(aligned[:, 0], aligned[:, 1], s=30, marker="x", color=PALETTE[1], label=names[1])
    ax.set_aspect("equal", adjustable="datalim")
    if labels is not None:
        label_points(ax, A, labels, directions=A - aligned, fontsize=7)
    ax.set_title(title)
    ax.legend(loc="best")
    return ax


def image_grid(images, image_shape, titles=None, ncols: int = 8, cmap: str = "gray_r", symmetric: bool = False,
               size: float = 1.2, limits=None):
    """Show flattened images (shape (m, h * w), one per row, row-major) in a grid.

    ``symmetric=True`` centres the colour scale of each image at 0 (for eigen-images,
    whose entries have both signs; use a diverging ``cmap`` such as "RdBu_r").
    ``limits=(low, high)`` gives every image the same colour scale (for comparing
    reconstructions with originals); by default each image is scaled on its own.
    Returns the ``Figure``.
    """
    images = as_data_matrix(images, name="images", min_rows=1)
    h, w = image_shape
    if images.shape[1] != h * w:
        raise ValueError(f"images must have {h * w} columns for image_shape {image_shape}, got {images.shape[1]}")
    if titles is not None and len(titles) != images.shape[0]:
        raise ValueError(f"titles must have one entry per image ({images.shape[0]}), got {len(titles)}")
    ncols = min(ncols, images.shape[0])
    nrows = -(-images.shape[0] // ncols)
    fig, axes = _subplots(nrows, ncols, figsize=(size * ncols, size * nrows * 1.15), squeeze=False)
    for index, ax in enumerate(axes.ravel()):
        ax.axis("off")
        if index >= images.shape[0]:
            continue
        image = images[index].reshape(h, w)
        if symmetric:
            low, high = -np.abs(image).max(), np.abs(image).max()
        else:
            low, high = limits if limits is not None else (None, None)
        ax.imshow(image, cmap=cmap, vmin=low, vmax=high)
        if titles is not None:
            ax.set_title(str(titles[index]), fontsize=8)
    fig.tight_layout()
    return fig



def label_points(ax, points, texts, directions=None, fontsize: float = 8, color=None, gap: float = 3.0):
    """Write ``texts`` next to ``points`` (shape (n, 2), data coordinates) so that no two labels overlap.

    Each label goes just beyond its point, in the direction ``directions[i]`` (shape (n, 2);
    default: away from the centroid of the points). Where that spot overlaps a label already
    placed, covers a point, leaves the axes or lies nearer to another point than to its own,
    the next candidate is tried: the direction turned by 20, 40, ... degrees either way, then
    the same at a larger distance (dropping the "nearest" rule if nothing else fits). The
    placement is computed in points on the screen, with text sizes measured from the font
    outline, so the same figure always gets the same labels. A label that had to move away
    from its point gets a thin leader line. Returns the list of ``Text`` objects.
    """
    from matplotlib import transforms
    from matplotlib.patches import ConnectionPatch
    from matplotlib.textpath import TextPath

    points = np.asarray(points, dtype=float).reshape(-1, 2)
    texts = [str(text) for text in texts]
    if len(texts) != points.shape[0]:
        raise ValueError(f"texts must have one entry per point ({points.shape[0]}), got {len(texts)}")
    if directions is None:
        directions = points - points.mean(axis=0)
    directions = np.asarray(directions, dtype=float).reshape(-1, 2)
    ax.autoscale_view()
    ax.apply_aspect()  # the final data-to-screen map, including an equal aspect ratio
    to_points = 72.0 / ax.figure.dpi
    anchors = ax.transData.transform(points) * to_points
    frame = ax.get_window_extent()
    low, high = np.array([frame.x0, frame.y0]) * to_points, np.array([frame.x1, frame.y1]) * to_points
    sizes = np.array([[TextPath((0, 0), text, size=fontsize).get_extents().width + 2.0, 1.25 * fontsize]
                      for text in texts])
    dot = np.full(2, 5.0)  # the points are dots about this wide
    placed_centres, placed_sizes = [anchor for anchor in anchors], [dot for _ in anchors]

    def free(centre, size):
        inside = np.all(centre - size / 2 >= low) and np.all(centre + size / 2 <= high)
        clash = np.all(np.abs(np.array(placed_centres) - centre) < (np.array(placed_sizes) + size) / 2, axis=1)
        return inside and not clash.any()

    def gap_to_box(anchor, centre, size):
        return np.linalg.norm(np.maximum(np.abs(anchor - centre) - size / 2, 0.0), axis=-1)

    turns = np.radians([0, 20, -20, 40, -40, 60, -60, 90, -90, 120, -120, 150, -150, 180])
    labels = []
    for index, (point, anchor, size, text, direction) in enumerate(zip(points, anchors, sizes, texts, directions)):
        screen = ax.transData.transform(point + 1e-6 * direction) * to_points - anchor
        base = np.arctan2(screen[1], screen[0]) if np.any(screen) else np.pi / 2
        others = np.delete(anchors, index, axis=0)
        candidates = [(ring, turn) for ring in range(12) for turn in turns]
        centre, leader = None, True
        # first choice: a free spot nearer to its own point than to any other point, so it reads unambiguously
        for unambiguous in (True, False):
            for ring, turn in candidates:
                unit = np.array([np.cos(base + turn), np.sin(base + turn)])
                candidate = anchor + unit * (gap + 0.5 * np.abs(unit * size).sum() + 4.0 * ring)
                if not free(candidate, size):
                    continue
                own = gap_to_box(anchor, candidate, size)
                nearest = others.size == 0 or own < gap_to_box(others, candidate, size).min()
                if nearest or not unambiguous:
                    centre, leader = candidate, not (nearest and ring == 0 and abs(turn) <= np.radians(50))
                    break
            if centre is not None:
                break
        if centre is None:  # nowhere free nearby: the first choice, overlapping
            unit = np.array([np.cos(base), np.sin(base)])
            centre = anchor + unit * (gap + 0.5 * np.abs(unit * size).sum())
            leader = False
        placed_centres.append(centre)
        placed_sizes.append(size)
        offset = centre - anchor  # in points, so the label stays beside its point whatever the zoom
        place = transforms.offset_copy(ax.transData, fig=ax.figure, x=offset[0], y=offset[1], units="points")
        labels.append(ax.text(*point, text, transform=place, ha="center", va="center", fontsize=fontsize, color=color))
        if leader:
            ax.add_artist(ConnectionPatch(point, point, coordsA=ax.transData, coordsB=place, color="0.35", lw=0.6,
                                          shrinkB=0.5 * size.min()))
    return labels
